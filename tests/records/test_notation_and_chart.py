"""The move list's card notation (RULES.md "Card notation") and the score chart's numbers."""
import pytest

from records.chart import running_totals, score_chart
from records.notation import move_text


@pytest.mark.parametrize("action, events, text", [
    ({"type": "draw_stock"}, [{"type": "draw_stock", "seat": 0}], "draw"),
    ({"type": "take_discard"}, [{"type": "take_discard", "seat": 0, "card": "7C~1"}], "take 7C"),
    ({"type": "lay_meld", "cards": ["JK", "9S", "9H"]},
     [{"type": "lay_meld", "seat": 0, "meld": 1, "cards": ["9S", "9H", "JK"], "wilds": {"JK": "9D"}}],
     "meld 9S 9H JK=9D"),
    ({"type": "lay_off", "meld": 3, "cards": ["7D"]}, [{"type": "lay_off", "seat": 1, "meld": 3, "cards": ["7D"]}],
     "lay off 7D on 3"),
    ({"type": "swap_wild", "meld": 2, "card": "9C"},
     [{"type": "swap_wild", "seat": 0, "meld": 2, "card": "9C", "wild": "7D", "stood_for": "9C"}],
     "swap 9C for 7D=9C on 2"),
    ({"type": "discard", "card": "10H~1"}, [{"type": "discard", "seat": 0, "card": "10H~1"}], "discard 10H"),
    ({"type": "lay_contract", "groups": [["5S", "5H", "JK"], ["4D", "5D", "6D", "7D"]]},
     [{"type": "lay_contract", "seat": 0, "contract": 5,
       "melds": [{"meld": 1, "cards": ["5S", "5H", "JK"], "wilds": {"JK": "5"}},
                 {"meld": 2, "cards": ["4D", "5D", "6D", "7D"], "wilds": {}}]}],
     "contract 5: 5S 5H JK=5 | 4D 5D 6D 7D"),
    ({"type": "play_action", "card": "SKIP"}, [], "play action SKIP"),
])
def test_moves_are_written_in_the_rule_books_notation(action, events, text):
    assert move_text(action, events) == text


def test_running_totals_start_at_zero_and_add_each_deal():
    results = [{"penalties": [0, 37]}, {"penalties": [12, 0]}, {"penalties": [-2, 5]}]
    assert running_totals(results, 2) == [[0, 0, 12, 10], [0, 37, 37, 42]]


def test_chart_points_span_the_plot_and_higher_totals_sit_higher():
    chart = score_chart(["ana", "bo"], [{"penalties": [0, 40]}, {"penalties": [10, 0]}])
    ana, bo = ([tuple(map(float, p.split(","))) for p in line.points.split()] for line in chart.lines)
    assert ana[0][0] == bo[0][0] == chart.left and ana[-1][0] == chart.right
    assert bo[1][1] < ana[1][1]  # 40 is drawn above 0 (SVG y grows downwards)
    assert chart.y_ticks[0].value <= 0 and chart.y_ticks[-1].value >= 40


def test_rating_chart_has_one_line_per_game_type_from_the_first_rating_before():
    from accounts.views import rating_chart
    from records.models import RatingChange

    def change(variant, before, after):
        return RatingChange(variant=variant, mu_before=before, sigma_before=0, mu_after=after, sigma_after=0)

    newest_first = [change("wild", 26, 27), change("standard", 24, 25), change("standard", 25, 24)]
    chart = rating_chart(newest_first)
    assert [(line.name, line.values) for line in chart.lines] == [("Standard Rummy", [2500, 2400, 2500]),
                                                                  ("Wild Rummy", [2600, 2700])]
    assert rating_chart([]) is None
