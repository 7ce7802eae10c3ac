"""The game record page (standings, score sheet and chart, contract board, shuffle commitments,
move list in card notation) and the replay viewer, through HTTP."""
import re

import pytest
from django.urls import reverse

from games.engine.commitment import deal_commitment
from games.models import Deal, Game, Move
from games.presenters import describe_move
from moderation import services as moderation
from records.replay import logged_moves, replay, replay_log
from tests.factories import login, make_started_game, make_table, make_user
from tests.records.helpers import computer_game, people_game

pytestmark = pytest.mark.django_db


def record(client, game, **params):
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return client.get(f"/games/{game.pk}/record?{query}")


def test_record_of_a_finished_game_shows_standings_score_sheet_chart_and_moves():
    game = computer_game("standard", players=3, seed="record-standard")
    seats = list(game.seats.order_by("position"))
    assert seats[0].place != 1
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    body = record(login(make_user()), game).content.decode()
    shown = re.findall(r'<tr data-testid="record-seat"><td>(\d)</td><th scope="row">(?:<a [^>]*>)?([^<]+)<', body)
    assert shown == sorted((str(s.place), s.name) for s in seats), "the standings are listed by place"
    # Score sheet: one row per deal; chart: one polyline per seat ending at the seat's total.
    assert body.count('<polyline class="chart-line') == 3
    lines = re.findall(r'data-seat="(\d)" data-totals="([-\d,]+)"', body)
    for seat in seats:
        totals = [int(v) for v in dict(lines)[str(seat.position)].split(",")]
        assert len(totals) == len(deals) + 1 and totals[0] == 0 and totals[-1] == seat.total
        assert totals[1] == deals[0].result["penalties"][seat.position]
    assert body.count('data-testid="move-line"') == Move.objects.filter(game=game).count()
    assert "<code>discard " in body and "<code>draw</code>" not in body
    # The game is over: every stock draw names its card, as the replay finds it.
    moves = logged_moves(game)
    draws = [m for m in moves if m.action["type"] == "draw_stock"]
    for move in draws[:5] + draws[-5:]:
        before, _ = replay(game, moves, move.step - 1)
        assert (f'<li value="{move.step}" data-testid="move-line">'
                f'<span class="move-seat">{seats[move.seat].name}</span>: '
                f'<code>draw {before.deal.stock[-1].code}</code>') in body
    assert 'data-testid="export-link"' in body


def test_every_ended_deal_reveals_its_seed_and_the_page_checks_it_against_the_commitment():
    game = computer_game("wild", seed="record-wild")
    body = record(login(make_user()), game).content.decode()
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert len(deals) == 13
    dealt = replay_log(game, logged_moves(game)).dealt
    for deal in deals:
        assert deal.commitment == deal_commitment(dealt[deal.number])
        assert deal.commitment in body and deal.seed in body
    assert body.count('data-testid="seed-matches"') == 13


def test_a_wrong_commitment_is_shown_as_not_matching():
    game = computer_game("standard", seed="record-bad-commitment")
    Deal.objects.filter(game=game, number=1).update(commitment="0" * 64)
    body = record(login(make_user()), game).content.decode()
    assert "does not match" in body
    assert body.count('data-testid="seed-matches"') == Deal.objects.filter(game=game).count() - 1


def test_frustration_record_shows_the_contract_board_instead_of_a_chart():
    game = computer_game("frustration", players=3, seed="record-frustration")
    body = record(login(make_user()), game).content.decode()
    assert 'aria-label="Contract board"' in body and "Advances" in body
    assert "chart-line" not in body
    assert "<code>contract " in body


def test_record_in_play_shows_the_commitment_but_not_the_seed_of_the_deal_in_progress():
    game = people_game("standard", humans=1, seed="record-in-play", moves=3)
    deal = Deal.objects.get(game=game, number=1)
    player = game.seats.get(position=0).user
    body = record(login(player), game).content.decode()
    assert deal.commitment in body and deal.seed not in body and game.seed not in body
    assert "secret until the hand ends" in body
    assert "<code>draw</code>" in body and not re.search(r"<code>draw \w", body)
    board = login(player).get(f"/games/{game.pk}/").content.decode()
    assert "<code title=" in board and deal.commitment in board and deal.seed not in board


def test_private_game_record_and_replay_are_refused_to_outsiders():
    game = people_game("standard", humans=2, seed="record-private", moves=2)
    Game.objects.filter(pk=game.pk).update(is_private=True)
    outsider = login(make_user())
    assert record(outsider, game).status_code == 403
    assert outsider.get(f"/games/{game.pk}/replay?step=1").status_code == 403
    assert outsider.get(f"/games/{game.pk}/export.json").status_code == 403


def test_replay_of_a_finished_game_steps_forward_and_back_face_up():
    game = computer_game("standard", seed="replay-steps")
    moves = logged_moves(game)
    client = login(make_user())
    fragment = client.get(f"/games/{game.pk}/replay?step=1", headers={"HX-Request": "true"}).content.decode()
    assert fragment.startswith('\n<section id="replay"') or fragment.lstrip().startswith('<section id="replay"')
    assert 'data-step="1"' in fragment and 'data-face-up="1"' in fragment and "<html" not in fragment
    assert 'data-testid="replay-stock"' in fragment
    # Face up: every hand is shown, no card backs.
    assert "card-back" not in fragment
    assert "?step=2" in fragment and "?step=0" in fragment
    last = client.get(f"/games/{game.pk}/replay?step=99999").content.decode()
    assert f'data-step="{len(moves)}"' in last and "Forward &#x25B6;</span>" in last


CAPTION = re.compile(r'data-testid="replay-caption">\s*(.*?)\s*·', re.S)
NOTATION = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")


def caption(client, game, step):
    html = client.get(f"/games/{game.pk}/replay?step={step}", headers={"HX-Request": "true"}).content.decode()
    return re.sub(r"<[^>]+>", "", CAPTION.search(html).group(1))


def test_the_replays_move_reads_as_the_tables_move_log_does():
    """The tester saw ``discard KS`` in the replay where the table's move log says "ana discarded
    K♠": every step of the replay writes its move with the move log's own words
    (``describe_move``), never in card notation, and a stock draw in play names no card."""
    game = people_game("standard", humans=2, seed="replay-words", moves=24)
    moves = logged_moves(game)
    names = [seat.name for seat in game.seats.order_by("position")]
    client = login(game.seats.get(position=0).user)
    for move in moves:
        shown = caption(client, game, move.step)
        assert shown == " ".join(describe_move(move, names, game.rules.deal_word)), move.step
        assert not NOTATION.search(shown), shown
    assert caption(client, game, moves[0].step) == f"{names[moves[0].seat]} drew from the stock."


def test_a_replay_step_out_of_range_is_clamped_to_the_last_move_or_the_start():
    """The tester's ``?step=99999999`` showed move 0: a step past the end (however long the number)
    shows the last move, a negative one the start, on the replay and on the record page."""
    game = computer_game("standard", seed="replay-clamp")
    last = len(logged_moves(game))
    client = login(make_user())
    for step, shown in (("99999999", last), (str(last + 1), last), ("9" * 40, last),
                        ("-1", 0), ("-99999999", 0), ("abc", 0)):
        body = client.get(f"/games/{game.pk}/replay?step={step}").content.decode()
        assert f'data-step="{shown}"' in body, step
    assert f'data-step="{last}"' in record(client, game, step="99999999").content.decode()
    assert 'data-step="0"' in record(client, game, step="-3").content.decode()

def test_record_of_a_table_not_yet_dealt_and_replay_refused_until_dealt():
    table = make_table()
    client = login(table.created_by)
    body = record(client, table).content.decode()
    assert "No moves yet." in body
    assert client.get(f"/games/{table.pk}/replay").status_code == 409


def test_in_play_ended_deals_reveal_their_seeds_but_draws_stay_unnamed_until_the_game_ends():
    game = computer_game("wild", seed="record-mid-game", moves=150)
    assert game.status == Game.Status.ACTIVE
    ended = list(Deal.objects.filter(game=game, ended_at__isnull=False))
    current = Deal.objects.get(game=game, ended_at__isnull=True)
    assert ended
    body = record(login(make_user()), game).content.decode()
    assert all(deal.seed in body for deal in ended)
    assert current.seed not in body and current.commitment in body
    assert body.count('data-testid="seed-matches"') == len(ended)
    assert "<code>draw</code>" in body and not re.search(r"<code>draw \w", body)


def test_the_record_of_a_game_aborted_when_its_people_left_names_them():
    game = make_started_game(players=2, humans=["alice", "bob"], seed="record-aborted")
    alice, bob = (seat.user for seat in game.seats.select_related("user").order_by("position"))
    moderation.leave_game(alice, game.pk)
    moderation.leave_game(bob, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED

    body = record(login(make_user()), game).content.decode()

    shown = re.findall(r'<tr data-testid="record-seat"><td>[^<]*</td><th scope="row">(.*?)</th>', body)
    assert shown == [
        f'<a href="{reverse("profile", args=[name])}">{name}</a> <span class="seat-handover" '
        f'data-testid="seat-handover">(left; Computer {number} (normal) played on)</span>'
        for number, name in ((1, "alice"), (2, "bob"))]


@pytest.mark.parametrize(("variant", "word"), [("standard", "hand"), ("wild", "deal"), ("frayzy", "round")])
def test_the_record_and_the_replay_name_a_deal_in_each_games_own_word(variant, word):
    """Standard Rummy plays hands and Frayzy rounds: the record's chart, shuffle list and replay say
    so (the trial found "Running totals after each deal" and "Start of deal" in every game)."""
    game = people_game(variant, seed=f"words-{variant}", moves=None if variant != "wild" else 60)
    client = login(game.seats.get(position=0).user)
    page = client.get(reverse("game_record", args=[game.pk])).content.decode()
    replay_page = client.get(reverse("game_replay", args=[game.pk]), {"step": 1}).content.decode()
    if variant != "wild":
        assert f"Running totals after each {word}" in page
    assert re.search(rf'class="fold-count">\d+ {word}s?<', page)
    assert f"· {word} 1 ·" in replay_page
    others = {"hand", "deal", "round"} - {word}
    assert not [other for other in others if f"Start of {other}" in page + replay_page or f"· {other} " in replay_page]


def test_a_game_aborted_mid_deal_reveals_that_deals_seed_and_it_checks_out():
    """The last person leaves a game against computers mid-hand: the game is aborted and its hand
    never ends, but nobody plays on, so the record reveals the hand's seed and checks it against
    the commitment (the fourth trial found it "secret until the hand ends" for good)."""
    game = people_game("standard", humans=1, players=3, seed="record-aborted", moves=4)
    player = game.seats.get(position=0).user
    deal = Deal.objects.get(game=game, number=1)
    before = record(login(player), game).content.decode()
    assert "secret until the hand ends" in before and deal.seed not in before
    moderation.leave_game(player, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and Deal.objects.get(pk=deal.pk).ended_at is None
    after = record(login(player), game).content.decode()
    assert deal.seed in after and 'data-testid="seed-matches"' in after
    assert "secret until the hand ends" not in after
