"""SQL statements per request, pinned exactly and the same however long the game has run.

Every move request (htmx POST through the view, session and user included) costs the statements
below; BEGIN, COMMIT, savepoints and SET TRANSACTION are transaction control and not counted. The
after-commit work (events) runs inside the measurement and reads nothing. Each variant is measured
on a stretch of moves right after the deal and again after 100+ more moves spanning several hands:
the figures must be the formula's, the same both times. ``pytest -s`` prints them.
"""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Meld
from tests.bench.moves import TRANSACTION_CONTROL, lean_choice
from tests.factories import (
    current_deal,
    data_version,
    load_state,
    login,
    make_started_game,
    play_moves,
    post_move,
    seat_to_move,
)

pytestmark = pytest.mark.django_db

MOVE = 10
"""Any move: session, user; the game row locked with its seats (one query), the deals, the current
deal's cards with their melds; the changed cards, the deal, the Move, the game; the latest moves
for the mover's board, drawn from the state in memory."""
NEW_MELD = 1
"""A move that lays new melds: one INSERT of them."""
NEW_TURN = 2
"""A move after which a person is to move: their deadline (one UPDATE of the seats whose deadline
changes) and the turn's expiry, warning and e-mail jobs (one INSERT). Absences are read only for a
person who declared one; the badge counts come with the seats."""
DEAL_END = 3
"""A move that ends a hand: the seats' totals, the next deal and its cards."""
LONGEST_MOVE = 12
"""No move that leaves the hand going costs more."""
BOARD = 6
"""GET /games/<id>/board (htmx), the other players' re-fetch after an event: session, user, the game
with its seats, the deals, the cards with their melds, the latest moves (one snapshot)."""
PAGE = BOARD + 1
"""GET /games/<id>/: the board's, and the "My games" badge count."""

STRETCH = 10
"""Moves measured in each stretch: several turns, with melds and lay-offs where the hands allow."""
LATE_MOVES = 100
LATE_DEAL = 3


def statements(captured) -> int:
    """The statements of ``captured``, transaction control left out."""
    return sum(1 for query in captured.captured_queries if not query["sql"].startswith(TRANSACTION_CONTROL))


def comparable(html: str) -> str:
    """``html`` with its CSRF tokens (masked anew by each response) and the turn clock's time left
    (a minute may tick between two requests) blanked."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', 'name="csrfmiddlewaretoken"', html)
    return re.sub(r'data-testid="time-left">[^<]*<', 'data-testid="time-left"><', html)


def expected(melds: int, new_turn: bool, deal_ended: bool) -> int:
    return MOVE + NEW_MELD * bool(melds) + NEW_TURN * new_turn + DEAL_END * deal_ended


def measure(game, django_capture_on_commit_callbacks) -> dict:
    """Play ``STRETCH`` moves as the seats to move (htmx POSTs), each followed by the other
    player's board re-fetch and, once, the whole page; return {kind of request: [statements]}.
    The mover's board, drawn from the state in memory, must be the one a GET reads back."""
    clients = {}
    seen: dict[str, list[int]] = {}
    for _ in range(STRETCH):
        game.refresh_from_db()
        mover = seat_to_move(game)
        other = next(seat for seat in game.seats.select_related("user") if seat.pk != mover.pk)
        mover_client = clients.setdefault(mover.pk, login(mover.user))
        other_client = clients.setdefault(other.pk, login(other.user))
        action = lean_choice(load_state(game).player_view(mover.position))
        version, turn, deal = game.version, game.turn_number, current_deal(game).number
        melds = Meld.objects.filter(deal__game=game).count()

        with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
            response = post_move(mover_client, game, action.to_json(), version, htmx=True)
        assert response.status_code == 200 and data_version(response.content.decode()) == version + 1

        game.refresh_from_db()
        added = Meld.objects.filter(deal__game=game).count() - melds
        ended = current_deal(game).number != deal
        count = statements(captured)
        assert count == expected(added, game.turn_number != turn, ended), (action, count, captured.captured_queries)
        assert ended or count <= LONGEST_MOVE
        seen.setdefault(action.type + (" ending the hand" if ended else ""), []).append(count)
        fetched = mover_client.get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"})
        assert comparable(response.content.decode()) == comparable(fetched.content.decode()), \
            "the mover's board drawn from memory differs from the board read back"

        with CaptureQueriesContext(connection) as captured:
            response = other_client.get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"})
        assert response.status_code == 200 and data_version(response.content.decode()) == version + 1
        seen.setdefault("board", []).append(statements(captured))
        if game.status != "active":
            break
    with CaptureQueriesContext(connection) as captured:
        assert other_client.get(game.get_absolute_url()).status_code == 200
    seen["page"] = [statements(captured)]
    return {kind: sorted(set(counts)) for kind, counts in seen.items()}


@pytest.mark.parametrize("variant, options", [("standard", {"target": 1000}), ("wild", None), ("frustration", None),
                                              ("frayzy", {"target": 1000})])
def test_statements_per_request_are_pinned_and_do_not_grow_with_the_game(variant, options,
                                                                          django_capture_on_commit_callbacks):
    game = make_started_game(players=2, seed=f"statements-{variant}", variant=variant, options=options)
    early = measure(game, django_capture_on_commit_callbacks)

    start = game.version
    play_moves(game, until=lambda g: g.version - start >= LATE_MOVES and current_deal(g).number >= LATE_DEAL,
               seed=f"statements-{variant}")
    assert game.status == "active" and current_deal(game).number >= LATE_DEAL
    late = measure(game, django_capture_on_commit_callbacks)

    print(f"\n{variant}: statements per request early {early}; late (ply {game.version}, "
          f"hand {current_deal(game).number}) {late}")
    for figures in (early, late):
        assert figures["board"] == [BOARD] and figures["page"] == [PAGE]
        assert figures["draw_stock"] == [MOVE]
        assert figures["discard"] == [MOVE + NEW_TURN] == [LONGEST_MOVE]
    assert {kind: counts for kind, counts in late.items() if kind in early} == \
           {kind: counts for kind, counts in early.items() if kind in late}
