"""The board's look and feel as HTML (issue 18): cards named in words, the live regions, the move
log by ply with wilds, the turn clock's deadline, the end-of-deal summary and the small wording
fixes of the lobby, waiting room, game over and score sheet."""
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games import services
from games.engine.cards import parse_card, standard_deck
from games.engine.variants import VARIANTS, make_variant
from games.models import Game, Move, Seat
from games.presenters import SeatPanel, card_name, code_name
from records.presenters import deal_summary
from tests.engine.builders import FrustrationRummy, build, frayzy, wild
from tests.factories import (
    SESSION_STATEMENTS,
    login,
    make_started_game,
    make_table,
    make_user,
    play_moves,
    put_position,
    seats_of,
)

pytestmark = pytest.mark.django_db


def board(game, position=0):
    seat = seats_of(game)[position]
    response = login(seat.user).get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def game_at(state, variant="standard", **clock):
    """A game between people ``ana`` and ``ben`` (and ``cat``...) put at ``state``'s deal."""
    names = ["ana", "ben", "cat", "dan"][:state.players]
    game = make_started_game(players=state.players, humans=names, seed="feel", variant=variant, **clock)
    put_position(game, state.deal)
    return game


def submit(game, position, action):
    game.refresh_from_db()
    services.submit_move(seats_of(game)[position].user, game.pk, game.version, action)


@pytest.mark.parametrize(("code", "name"), [
    ("QH", "queen of hearts"), ("AS", "ace of spades"), ("10C", "10 of clubs"), ("7D", "7 of diamonds"),
    ("JK", "joker"), ("R7", "red 7"), ("Y12", "yellow 12"), ("W", "Wild"), ("SKIP", "Skip"), ("DRAW5", "Draw 5"),
    ("DISCARD1", "Discard 1"), ("9", "any 9"), ("K", "any king"),
])
def test_a_card_code_in_words(code, name):
    assert code_name(code) == name


def test_a_wild_is_named_with_what_it_stands_for():
    assert card_name(parse_card("7D"), wild=True) == "7 of diamonds, wild"
    assert card_name(parse_card("7D"), stands_for="9C") == "7 of diamonds, wild, standing for 9 of clubs"
    assert card_name(parse_card("JK")) == "joker, wild"
    assert card_name(parse_card("W"), stands_for="R10") == "Wild, standing for red 10"


def test_badges_counts_and_lay_off_buttons_say_what_they_mean_to_a_screen_reader():
    """The dealer badge is read "dealer" (not "D"), the piles' counts as cards, and each "Lay off
    here" button names the meld it lays off on (two melds' buttons were read alike)."""
    game = game_at(build(["7S 8H 3C", "KS KD"], melds=[(1, "7H 7C 7D"), (1, "9H 10H JH")], discard="9S",
                         phase="play", dealer=0))
    body = board(game)
    assert ('<span class="seat-badge" title="Dealer"><span aria-hidden="true">D</span>'
            '<span class="visually-hidden">dealer</span>') in body
    assert re.search(r'data-testid="stock-count">\d+</span><span class="visually-hidden"> cards</span>', body)
    assert '1<span class="visually-hidden"> card</span>' in body  # the discard pile: one card
    buttons = re.findall(r'Lay off here<span class="visually-hidden"> on ([^<]*)</span>', body)
    assert buttons == ["ben&#x27;s meld: 7 of hearts, 7 of clubs, 7 of diamonds",
                       "ben&#x27;s meld: 9 of hearts, 10 of hearts, jack of hearts"]


def test_an_empty_stock_is_drawn_as_an_empty_place_not_a_card():
    """With no card left in the stock (here before the discard pile is turned over, S10) the
    stock shows an empty place, as an empty discard pile does (the fourth trial saw a card back)."""
    hands = ["QH 2C 3C", "KS KD"]
    pile = " ".join(c.key for c in standard_deck() if c.key not in " ".join(hands).split())
    game = game_at(build(hands, stock="", discard=pile, phase="play"))
    stock = re.search(r'<div class="pile pile-stock">(.*?)</div>', board(game), re.S).group(1)
    assert 'card-back' not in stock and '<span class="card card-empty" role="img" aria-label="empty"></span>' in stock
    assert re.search(r'data-testid="stock-count">0<', stock)


def test_cards_are_images_named_in_words_and_only_the_banner_and_latest_move_are_live():
    """Cards on the table are images named in words; a card in the hand is heard once, as its
    checkbox (named in words), its face hidden from assistive technology."""
    game = game_at(build(["QH 2C 3C", "KS KD"], melds=[(1, "7H 7C 7D")], discard="9S", phase="draw"))
    body = board(game)
    assert 'value="QH" aria-label="queen of hearts"' in body
    assert 'data-card="QH" aria-hidden="true" title="queen of hearts"' in body
    assert 'data-card="QH" role="img"' not in body
    assert 'data-card="9S" role="img" aria-label="9 of spades"' in body
    assert 'data-card="7H" role="img" aria-label="7 of hearts"' in body
    assert 'role="group" aria-label="Meld of ben"' in body
    assert '<span class="meld-owner" title="ben">ben</span>' in body  # its whole name where it is cut
    opening = re.search(r'<section id="board"[^>]*>', body).group(0)
    assert "aria-live" not in opening
    assert 'class="turn-banner turn-banner-you" role="status"' in body
    assert re.search(r'<p class="latest-move" role="status" data-testid="latest-move">[^<]*</p>', body)


def test_the_move_log_numbers_moves_as_the_record_does_and_shows_what_a_wild_stands_for():
    game = game_at(wild(["4C 5C AS 9S 9D", "KH QH JS 2D 3D 4S 8H"], discard="2S", phase="play"), variant="wild")
    submit(game, 0, {"type": "lay_meld", "cards": ["4C", "5C", "AS"], "wilds": {"AS": "6C"}})
    body = board(game)
    step = Move.objects.filter(game=game).count()  # the record's move number, not the ply (a version)
    entry = re.search(rf'<li value="{step}" data-ply="{step}">([^<]*)</li>', body)
    assert entry and entry.group(1) == "ana laid down 4♣ 5♣ A♠=6♣."
    assert 'data-testid="latest-move">ana laid down 4♣ 5♣ A♠=6♣.</p>' in body


def test_the_seat_to_move_carries_its_deadline_for_the_page_clock():
    game = make_started_game(players=2, seed="feel-clock", time_per_move=120)
    seat = Seat.objects.get(game=game, deadline__isnull=False)
    body = board(game, 1 - seat.position)
    assert f'data-deadline="{seat.deadline.isoformat()}" data-warn-seconds="24"' in body
    assert body.count("data-deadline=") == 1


def going_out_game():
    """ana lays 5♠ 5♥ 5♣ and goes out discarding 9♦; ben is left holding K♥ Q♠ 2♣ (22 points, S13)."""
    game = game_at(build(["5S 5H 5C 9D", "KH QS 2C"], phase="play"))
    submit(game, 0, {"type": "lay_meld", "cards": ["5S", "5H", "5C"]})
    submit(game, 0, {"type": "discard", "card": "9D"})
    game.refresh_from_db()
    return game


def test_the_summary_of_a_deal_says_who_went_out_what_was_left_and_the_totals():
    game = going_out_game()
    response = login(seats_of(game)[1].user).get(reverse("game_deal_summary", args=[game.pk, 1]),
                                                 headers={"HX-Request": "true"})
    body = response.content.decode()
    assert response.status_code == 200 and "Hand 1 is over" in body and "ana went out." in body
    ben = re.search(r'<tr data-testid="summary-line"><th scope="row">ben</th>(.*?)</tr>', body, re.S).group(1)
    assert re.findall(r'data-card="(\w+)"', ben) == ["2C", "KH", "QS"]
    assert re.findall(r'<td class="number">(\d+)</td>', ben) == ["22", "22"]
    assert 'data-testid="dismiss-summary">Play on</button>' in body


def summary_wilds(game, number):
    """The cards of each summary line of deal ``number`` of ``game``, and those marked wild."""
    body = login(seats_of(game)[0].user).get(reverse("game_deal_summary", args=[game.pk, number])).content.decode()
    assert f"{number} is over" in body
    return (re.findall(r'<span class="card [^"]*" data-card="([\w~]+)"', body),
            re.findall(r'<span class="card [^"]*card-wild[^"]*" data-card="([\w~]+)"', body))


def test_a_frustration_summary_marks_jokers_and_2s_wild():
    state = build(["5S 5H 5C 6S 6H 6C 7S 7H 7C 9D", "2C JK 2H KC"], variant=FrustrationRummy(), phase="play")
    game = game_at(state, variant="frustration")
    submit(game, 0, {"type": "lay_contract", "groups": [["5S", "5H", "5C"], ["6S", "6H", "6C"], ["7S", "7H", "7C"]]})
    submit(game, 0, {"type": "discard", "card": "9D"})
    left, wilds = summary_wilds(game, 1)
    assert sorted(left) == ["2C", "2H", "JK", "KC"] and sorted(wilds) == ["2C", "2H", "JK"]


def test_a_wild_rummy_summary_marks_the_wild_rank_of_that_deal():
    game = game_at(wild(["5S 5H 5C 9D", "AH 2C KS"], number=1), variant="wild")
    submit(game, 0, {"type": "lay_meld", "cards": ["5S", "5H", "5C"]})
    submit(game, 0, {"type": "discard", "card": "9D"})
    assert game.deals.count() == 2  # deal 2 is in play, with 2s wild (W3)
    left, wilds = summary_wilds(game, 1)
    assert sorted(left) == ["2C", "AH", "KS"] and wilds == ["AH"]


def test_the_last_deals_summary_closes_instead_of_playing_on():
    game = make_started_game(players=2, humans=["ana", "ben"], seed="feel-last", options={"target": 25})
    play_moves(game, seed="feel-last")
    last = game.deals.exclude(result=None).order_by("number").last()
    assert game.status == Game.Status.FINISHED
    body = login(seats_of(game)[0].user).get(reverse("game_deal_summary", args=[game.pk, last.number]),
                                             headers={"HX-Request": "true"}).content.decode()
    assert 'data-testid="dismiss-summary">Close</button>' in body


def test_the_next_deal_offers_the_summary_until_another_deal_ends():
    game = going_out_game()
    body = board(game)
    assert f'data-summary-url="{reverse("game_deal_summary", args=[game.pk, 1])}"' in body
    assert f'id="deal-summary-{game.pk}-1"' in body and 'hx-preserve="true"' in body
    assert "deal-summary-slot" not in board(make_started_game(players=2, seed="feel-fresh"))


def test_a_finished_game_shows_its_standings_not_the_last_deals_summary_over_them():
    game = make_started_game(players=2, humans=["ana", "ben"], seed="feel-last", options={"target": 25})
    play_moves(game, seed="feel-last")
    last = game.deals.exclude(result=None).order_by("number").last()
    body = board(game)
    assert "deal-summary-slot" not in body and "data-summary-url" not in body
    assert 'class="standings' in body
    assert f'href="{reverse("game_deal_summary", args=[game.pk, last.number])}"' in body


def test_a_stopped_game_shows_no_stale_summary():
    stopped = going_out_game()
    for status in (Game.Status.ABORTED, Game.Status.VOIDED):
        Game.objects.filter(pk=stopped.pk).update(status=status)
        body = board(stopped)
        assert "deal-summary" not in body and "game-stopped" in body


def test_a_deal_in_play_or_missing_has_no_summary():
    game = game_at(build(["QH 2C 3C", "KS KD"], phase="draw"))
    client = login(seats_of(game)[0].user)
    assert client.get(reverse("game_deal_summary", args=[game.pk, 1])).status_code == 409
    assert client.get(reverse("game_deal_summary", args=[game.pk, 2])).status_code == 404
    private = make_started_game(players=2, seed="feel-private", is_private=True)
    assert login(make_user()).get(reverse("game_deal_summary", args=[private.pk, 1])).status_code == 403


def test_a_frustration_round_summary_says_who_advanced():
    game = make_started_game(players=2, seed="feel-frustration", variant="frustration")
    play_moves(game, 2000, until=lambda g: g.deals.exclude(result=None).exists(), seed="feel")
    deal = game.deals.get(number=1)
    seats = seats_of(game)
    summary = deal_summary(game, seats, deal, [deal.result])
    for line, seat, advance in zip(summary.lines, seats, deal.result["penalties"]):
        assert (line.contract, line.advanced, line.total) == (1, advance == 1, 1 + advance)
        assert line.went_out == (deal.result["winner"] == seat.position)
    assert summary.points_word == "Contract" and summary.word == "Round"


def test_the_lobby_form_marks_each_games_options_and_tick_boxes_have_no_colon():
    body = login(make_user()).get(reverse("lobby")).content.decode()
    assert re.search(r'<input[^>]*name="target"[^>]*data-variant-option="standard"|'
                     r'<input[^>]*data-variant-option="standard"[^>]*name="target"', body)
    assert 'data-variant-option="frayzy"' in body and "js/lobby.js" in body
    assert "Private table (join by invite link only)</label>" in body
    assert not re.search(r'<label for="id_(is_private|going_rummy|absence_stops_clock)">[^<]*:</label>', body)


def test_only_a_long_word_of_a_name_gets_break_points():
    from games.templatetags.names import breakable

    assert breakable("Computer 3 (strong)") == "Computer 3 (strong)"
    assert breakable("a<b") == "a&lt;b"
    assert breakable("Longnamexxxxx & co") == "Long<wbr>name<wbr>xxxx<wbr>x &amp; co"


def test_only_a_name_with_a_long_word_is_shortened_and_keeps_its_whole_text():
    from games.templatetags.names import name_heading, short_name, short_names_in

    long = "Long<name" + "W" * 20
    shown = 'title="Long&lt;nameWWWWWWWWWWWWWWWWWWWW">'
    assert short_name("Computer 3 (strong)") == "Computer 3 (strong)"
    assert short_name(long) == f'<span class="name-short" {shown}Long&lt;nameWWWWWWWWWWWWWWWWWWWW</span>'
    pieces = "<wbr>".join(["Long", "&lt;nam", "eWWW", "WWWW", "WWWW", "WWWW", "WWWW", "W"])
    assert name_heading(long) == f'<span class="name-clamp" {shown}{pieces}</span>'
    assert short_names_in(f"{long} & ana drew", [long, "ana"]) == f"{short_name(long)} &amp; ana drew"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_help_page_says_how_the_site_plays_and_promises_no_option_the_lobby_lacks(name):
    body = login(make_user()).get(reverse("help", args=[VARIANTS[name].help_slug])).content.decode()
    assert 'id="playing"' in body and "drag" in body and "<kbd>M</kbd>" in body
    assert "tick the cards you want to use" not in body and "may change these counts" not in body
    if not VARIANTS[name].table_options:
        assert "unless the table says otherwise" not in body


def test_an_empty_move_log_is_not_numbered():
    game = make_started_game(players=2, humans=["ana", "ben"], seed="feel-empty")
    body = board(game)
    assert '<p class="empty-note">No moves yet.</p>' in body and "<li>No moves yet." not in body
    assert "<li>No moves yet." not in login(seats_of(game)[0].user).get(
        reverse("game_record", args=[game.pk])).content.decode()


def test_a_spectator_is_told_what_the_replay_shows():
    game = make_started_game(players=2, humans=["ana", "ben"], seed="feel-spectator")
    replay = login(make_user()).get(reverse("game_replay", args=[game.pk])).content.decode()
    assert "a spectator's view" in replay and "only your own cards" not in replay
    mine = login(seats_of(game)[0].user).get(reverse("game_replay", args=[game.pk])).content.decode()
    assert "only your own cards" in mine


def test_an_aborted_waiting_table_is_not_titled_waiting_for_players():
    game = make_table(make_user())
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    body = login(make_user()).get(game.get_absolute_url()).content.decode()
    assert "waiting for players" not in body and "\u2014 aborted" in body


def test_another_games_option_out_of_bounds_does_not_refuse_the_table():
    user = make_user()
    response = login(user).post(reverse("game_new"), {"variant": "wild", "players": 2, "target": 20})
    assert response.status_code == 302
    assert Game.objects.get(seats__user=user).variant == "wild"


def test_open_tables_show_their_time_per_move_and_the_waiting_room_names_a_computer_once():
    host = make_user("host")
    game = make_table(host, players=3, time_per_move=120)
    services.add_computer_player(host, game.pk)
    lobby = login(make_user()).get(reverse("lobby")).content.decode()
    assert "2 minutes (live) per move" in lobby
    room = login(host).get(game.get_absolute_url()).content.decode()
    assert "Computer 2 (normal)" in room and "(normal) <span" not in room and ">computer<" not in room


def test_game_over_reads_won_the_game_and_shows_no_empty_hand():
    game = going_out_game()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    Seat.objects.filter(game=game, position=0).update(place=1)
    Seat.objects.filter(game=game, position=1).update(place=2)
    body = board(game)
    assert re.search(r"ana \(you\)</span> <strong class=\"standing-won\">won the game</strong>\s*"
                     r"<span class=\"standing-total\">\(0 penalty points\)</span>", body)
    assert 'aria-label="Your hand"' not in body and "points wins" not in body


def test_frayzy_sorts_by_colour_and_its_empty_score_sheet_says_round():
    game = game_at(frayzy(["R7 B12", "Y1 Y2"], phase="draw"), variant="frayzy")
    body = board(game)
    assert ">colour</a>" in body and ">suit</a>" not in body
    assert "No round finished yet." in body and "No hand finished" not in body


SUMMARY_QUERIES = SESSION_STATEMENTS + 4
"""GET a deal's summary: the session (``SESSION_STATEMENTS``), the user, the seats with their game,
the game's deals (the one asked for and every result, for the running totals), and its leftover
hands; not the board."""


def test_a_deal_summary_takes_a_fixed_number_of_queries(django_assert_num_queries):
    game = going_out_game()
    client = login(seats_of(game)[0].user)
    with django_assert_num_queries(SUMMARY_QUERIES):
        response = client.get(reverse("game_deal_summary", args=[game.pk, 1]), headers={"HX-Request": "true"})
    assert response.status_code == 200


def wild_marks(body: str) -> list[tuple[str, bool]]:
    """Each card shown in ``body`` (its key) and whether it carries the wild mark, in page order."""
    return [(key, "card-wild" in classes)
            for classes, key in re.findall(r'<span class="(card [^"]*)" data-card="([\w~]+)"', body)]


def test_the_discard_top_and_the_card_taken_are_marked_wild_like_the_hand():
    """A Frustration 2 is wild (R5) wherever it shows: on the discard pile, and in the note on the
    card just taken, not only in the hand."""
    game = game_at(build(["5S 2C 9D KC", "4H 8S JD"], variant=FrustrationRummy(), discard="7D 2H", phase="draw"),
                   variant="frustration")
    marks = dict(wild_marks(board(game)))
    assert marks["2H"] and marks["2C"] and not marks["9D"]
    submit(game, 0, {"type": "take_discard"})
    note = re.search(r"You took (.*?) from the discard pile", board(game)).group(1)
    assert wild_marks(note) == [("2H", True)]


def test_every_step_of_a_frustration_replay_marks_its_2s_and_jokers_wild():
    game = make_started_game(players=2, humans=["ana", "ben"], seed="replay-wilds", variant="frustration")
    play_moves(game, 40, seed="replay-wilds")
    client = login(seats_of(game)[0].user)
    shown = []
    for step in range(0, 41, 4):
        body = client.get(reverse("game_replay", args=[game.pk]), {"step": step},
                          headers={"HX-Request": "true"}).content.decode()
        shown += wild_marks(body)
    assert any(key.startswith("2") for key, _ in shown), "no 2 came to the viewer's side in 40 moves: another seed"
    assert [key for key, marked in shown if marked] == [key for key, _ in shown if key.startswith(("2", "JK"))]


@pytest.mark.parametrize("variant, totals, shown", [
    ("standard", (1, 0), ["(1 penalty point)", "(0 penalty points)"]),
    ("standard", (12, 2), ["(12 penalty points)", "(2 penalty points)"]),
    ("wild", (1, 30), ["(1 point)", "(30 points)"]),
])
def test_the_final_standings_give_one_point_in_the_singular(variant, totals, shown):
    seats = [SeatPanel(position, name, False, False, False, False, 0, total, place)
             for position, (name, total, place) in enumerate(zip(("ana", "ben"), totals, (2, 1)))]
    context = {"seats": seats, "rules": make_variant(variant), "game": Game(pk=1)}
    body = render_to_string("games/_standings.html", context)
    assert re.findall(r'<span class="standing-total">(\([^)]*\))</span>', body) == shown[::-1]


def test_a_deal_summary_page_links_to_the_ended_deals_before_and_after_it():
    game = make_started_game(players=2, humans=["ana", "ben"], seed="feel-steps", options={"target": 60})
    play_moves(game, seed="feel-steps")
    ended = sorted(game.deals.exclude(result=None).values_list("number", flat=True))
    assert len(ended) >= 3
    client = login(seats_of(game)[0].user)

    def steps(number: int) -> list[tuple[str, str]]:
        body = client.get(reverse("game_deal_summary", args=[game.pk, number])).content.decode()
        return re.findall(r'href="[^"]*/deals/(\d+)/summary" rel="(prev|next)"', body)

    assert steps(ended[0]) == [(str(ended[1]), "next")]
    assert steps(ended[1]) == [(str(ended[0]), "prev"), (str(ended[2]), "next")]
    assert steps(ended[-1]) == [(str(ended[-2]), "prev")]


def test_a_table_closed_before_its_first_deal_says_so():
    """A trial opened a closed table's page and found only its name and "Aborted"."""
    host = make_user("host")
    table = make_table(host)
    services.close_table(host, table.pk)
    body = login(host).get(table.get_absolute_url()).content.decode()
    assert 'data-testid="table-closed"' in body and "closed before its first deal" in body
    assert f'href="{reverse("lobby")}"' in body
