"""SQL statements per request, pinned exactly and the same however long the game has run.

Every move request (htmx POST through the view, session and user included) costs the statements
below, where ``SESSION`` is the session's own statement: none where Redis caches the sessions (as in
production, ``REDIS_URL`` set; CI), one where the database alone keeps them. BEGIN, COMMIT,
savepoints and SET TRANSACTION are transaction control and not counted. The after-commit work
(events) runs inside the measurement and reads nothing. Each variant is measured on a stretch of
moves right after the deal and again after 100+ more moves spanning several hands: the figures must
be the formula's, the same both times. ``pytest -s`` prints them.
"""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Meld, Seat
from tests.bench.moves import TRANSACTION_CONTROL, lean_choice
from tests.engine.builders import build
from tests.factories import (
    SESSION_STATEMENTS,
    current_deal,
    data_version,
    load_state,
    login,
    make_started_game,
    play_moves,
    post_move,
    put_position,
    seat_to_move,
)

pytestmark = pytest.mark.django_db

SESSION = SESSION_STATEMENTS
MOVE = SESSION + 9
"""Any move: the session (``SESSION``), the user; the game row locked with its seats (one query), the deals, the current
deal's cards with their melds; the changed cards, the deal, the Move, the game; the latest moves
for the mover's board, drawn from the state in memory."""
NEW_MELD = 1
"""A move that lays new melds: one INSERT of them."""
NEW_TURN = 2
"""A move after which a person is to move: their deadline (one UPDATE of the seats whose deadline
changes) and the turn's expiry, warning and e-mail jobs (one INSERT). Absences are read only for a
person who declared one; the badge counts come with the seats."""
DEAL_END = 1
"""A move that ends a hand when no person's turn starts: the seats' totals (when one does, they go
in the deadlines' UPDATE). The ended deal's last card places and row go with the next deal's cards
and row (two INSERT ... ON CONFLICT DO UPDATE), in place of the move's UPDATEs of them."""
LONGEST_MOVE = SESSION + 11
"""No move that lays no meld costs more (one with a meld costs one more: 12 where Redis caches the
sessions, the issue's ceiling)."""
BOARD = SESSION + 5
"""GET /games/<id>/board (htmx), the other players' re-fetch after an event: the session, the user, the game
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
    return MOVE + NEW_MELD * bool(melds) + NEW_TURN * new_turn + DEAL_END * (deal_ended and not new_turn)


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
        assert count <= LONGEST_MOVE + NEW_MELD * bool(added)
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


def test_going_out_with_a_meld_before_a_persons_turn_is_the_longest_move(django_capture_on_commit_callbacks):
    """Standard Rummy's last cards laid as a meld (S11), a person to move in the next deal: the
    costliest move, ``MOVE + NEW_MELD + NEW_TURN``; the ended deal's cards and row and the next
    deal's are all written."""
    game = make_started_game(players=2, seed="statements-going-out", options={"target": 1000})
    put_position(game, build(["5S 5H 5C", "KH QS 2C"], phase="play").deal)
    deal = current_deal(game)
    mover = seat_to_move(game)
    client = login(mover.user)

    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        response = post_move(client, game, {"type": "lay_meld", "cards": ["5S", "5H", "5C"]}, game.version, htmx=True)

    assert response.status_code == 200
    assert statements(captured) == MOVE + NEW_MELD + NEW_TURN == LONGEST_MOVE + NEW_MELD
    deal.refresh_from_db()
    assert deal.result["winner"] == mover.position and deal.ended_at is not None
    assert set(deal.cards.filter(location="meld").values_list("code", flat=True)) == {"5S", "5H", "5C"}
    assert current_deal(game).number == deal.number + 1 and current_deal(game).cards.count() == 52


def test_a_person_back_from_an_expired_turn_moves_at_the_usual_cost(django_capture_on_commit_callbacks):
    """The end of a person's run of expired turns is written with their seat's other changes: their
    discard, which starts the next turn, costs ``MOVE + NEW_TURN`` as ever."""
    game = make_started_game(players=2, seed="statements-expired", options={"target": 1000})
    mover = seat_to_move(game)
    client = login(mover.user)
    assert post_move(client, game, {"type": "draw_stock"}, game.version, htmx=True).status_code == 200
    Seat.objects.filter(pk=mover.pk).update(expired_turns=1)
    game.refresh_from_db()
    action = lean_choice(load_state(game).player_view(mover.position))

    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        assert post_move(client, game, action.to_json(), game.version, htmx=True).status_code == 200

    assert (action.type, statements(captured)) == ("discard", MOVE + NEW_TURN)
    mover.refresh_from_db()
    assert mover.expired_turns == 0
