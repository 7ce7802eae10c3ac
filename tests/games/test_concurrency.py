"""Requests racing each other (PostgreSQL row locks): two moves for the same version, of which exactly
one is applied (and fifty identical POSTs through the view at once, of which one is), and two
players joining for the last seat, of whom exactly one gets it.

Each thread has its own database connection; all are released together by a Barrier. SQLite
serializes writers on the whole file, so these tests only mean something on PostgreSQL.
"""
import threading
import time

import pytest
from django.db import connection, connections
from django.test import Client

from games import services, store
from games.errors import Refusal
from games.models import Move
from tests.factories import (
    login,
    make_started_game,
    make_table,
    make_user,
    move_fields,
    move_url,
    seat_to_move,
    seats_of,
    snapshot,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locking (select_for_update) is only real on PostgreSQL; set DATABASE_URL"),
    pytest.mark.django_db(transaction=True),
]

HOLD_SECONDS = 0.3
"""How long the first thread to get the lock keeps it, so that the other surely waits on it."""


def race(submissions, hold=0.0, monkeypatch=None):
    """Submit each ``(user, game_id, version, action)`` of ``submissions`` through
    ``services.submit_move``, each in its own thread, all released at once; return each outcome in
    order: "applied", a Refusal, or another exception.

    With ``hold``, ``store.load_state`` (called with the game row locked) sleeps that long first.
    """
    return race_calls([lambda s=s: services.submit_move(*s) for s in submissions], hold, monkeypatch)


def race_calls(calls, hold=0.0, monkeypatch=None):
    """Run each zero-argument function of ``calls`` in its own thread (its own database connection),
    all released at once by a Barrier; return each outcome: "applied", or the exception raised.

    With ``hold``, ``store.load_state`` (called with the game row locked) sleeps that long first.
    """
    if hold:
        real_load_state = store.load_state

        def slow_load_state(rows):
            time.sleep(hold)
            return real_load_state(rows)

        monkeypatch.setattr(store, "load_state", slow_load_state)
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def submit(index, call):
        try:
            barrier.wait(timeout=10)
            call()
            outcomes[index] = "applied"
        except Exception as error:  # noqa: BLE001 - the test inspects whatever happened
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    return outcomes


def label(outcome):
    """ "applied", "<status> <code>" for a Refusal, or the repr of any other exception."""
    if isinstance(outcome, Refusal):
        return f"{outcome.status} {outcome.code}"
    return outcome if outcome == "applied" else repr(outcome)


@pytest.mark.parametrize("hold", [0.0, HOLD_SECONDS], ids=["free", "lock-held"])
def test_the_same_move_twice_at_once_is_applied_once(hold, monkeypatch):
    game = make_started_game(players=2, seed="race")
    seat = seat_to_move(game)
    version = game.version
    before_moves = Move.objects.filter(game=game).count()

    outcomes = race([(seat.user, game.pk, version, {"type": "draw_stock"})] * 2, hold, monkeypatch)

    applied = [o for o in outcomes if o == "applied"]
    refused = [o for o in outcomes if o != "applied"]
    assert len(applied) == 1, outcomes
    assert isinstance(refused[0], Refusal), refused
    assert (refused[0].status, refused[0].code) == (409, "stale_version")
    game.refresh_from_db()
    assert game.version == version + 1
    assert Move.objects.filter(game=game).count() == before_moves + 1
    assert Move.objects.get(game=game, ply=version).action == {"type": "draw_stock"}


IDENTICAL_POSTS = 50
"""More requests than a process's connection pool holds (DATABASE_POOL_MAX_SIZE): the rest wait for
a connection, then for the row lock."""


def test_fifty_identical_posts_at_once_apply_one_move():
    """Fifty copies of one draw POSTed through the view at once (a double-clicking, retrying
    client): one is applied and answers the board, every other one answers 409 with the board."""
    game = make_started_game(players=2, seed="race-fifty")
    seat = seat_to_move(game)
    version = game.version
    before_moves = Move.objects.filter(game=game).count()
    session = login(seat.user).cookies["sessionid"].value
    statuses = []

    def post():
        client = Client()
        client.cookies["sessionid"] = session
        response = client.post(move_url(game), move_fields({"type": "draw_stock"}, version),
                               headers={"HX-Request": "true"})
        statuses.append(response.status_code)

    outcomes = race_calls([post] * IDENTICAL_POSTS)

    assert outcomes == ["applied"] * IDENTICAL_POSTS
    assert sorted(statuses) == [200] + [409] * (IDENTICAL_POSTS - 1)
    game.refresh_from_db()
    assert game.version == version + 1
    assert Move.objects.filter(game=game).count() == before_moves + 1
    assert Move.objects.get(game=game, ply=version).action == {"type": "draw_stock"}


def test_two_different_moves_for_one_version_apply_one(monkeypatch):
    game = make_started_game(players=2, seed="race-two")
    seat = seat_to_move(game)
    version = game.version

    outcomes = race([(seat.user, game.pk, version, {"type": "draw_stock"}),
                     (seat.user, game.pk, version, {"type": "take_discard"})], HOLD_SECONDS, monkeypatch)

    assert sorted(map(label, outcomes)) == ["409 stale_version", "applied"], outcomes
    applied = {"type": "draw_stock"} if outcomes[0] == "applied" else {"type": "take_discard"}
    assert [m.action for m in Move.objects.filter(game=game, ply__gte=version)] == [applied]


def test_a_refused_racer_changes_nothing(monkeypatch):
    """The loser of a race leaves the rows exactly as the winner wrote them."""
    game = make_started_game(players=2, seed="race-rows")
    seat = seat_to_move(game)
    version = game.version
    outcomes = race([(seat.user, game.pk, version, {"type": "draw_stock"})], 0.0, monkeypatch)
    assert outcomes == ["applied"]
    after_winner = snapshot(game)

    outcomes = race([(seat.user, game.pk, version, {"type": "draw_stock"})] * 3, HOLD_SECONDS, monkeypatch)

    assert all(isinstance(o, Refusal) and o.code == "stale_version" for o in outcomes), outcomes
    assert snapshot(game) == after_winner


def test_two_players_racing_for_the_last_seat():
    bob = make_user("bob")
    game = make_table(bob, players=3)
    services.add_computer_player(bob, game.pk)
    ann, cat = make_user("ann"), make_user("cat")

    outcomes = race_calls([lambda: services.join_table(ann, game.pk), lambda: services.join_table(cat, game.pk)])

    assert sorted(map(label, outcomes)) == ["409 table_full", "applied"], outcomes
    seats = seats_of(game)
    assert [s.position for s in seats] == [0, 1, 2]
    assert seats[2].user in (ann, cat)
    game.refresh_from_db()
    assert game.version == 2


def test_two_workers_never_apply_the_same_computer_move_twice():
    """Two db_worker loops at once, each claiming one job (SELECT ... SKIP LOCKED), on two copies of
    the same computer-move job: both run, one move is applied."""
    from django_tasks_db.management.commands.db_worker import Worker
    from django_tasks_db.models import DBTaskResult

    from games import jobs

    game = make_started_game(players=2, humans=0, seed="race-workers", play_computers=False)
    assert seat_to_move(game).is_bot
    version = game.version
    jobs.computer_turn.enqueue(game.pk, version)  # the start queued one already: now two
    assert DBTaskResult.objects.ready().filter(task_path="games.services.moves.computer_turn").count() == 2

    def worker(name):
        return lambda: Worker(queue_names=["*"], interval=0, batch=True, backend_name="default",
                              startup_delay=False, max_tasks=1, worker_id=name, excluded_queue_names=[]).run()

    outcomes = race_calls([worker("first"), worker("second")])

    assert outcomes == ["applied", "applied"]
    ran = DBTaskResult.objects.filter(task_path="games.services.moves.computer_turn",
                                      args_kwargs__args=[game.pk, version])
    assert sorted(ran.values_list("status", flat=True)) == ["SUCCESSFUL", "SUCCESSFUL"]
    assert sorted(ran.values_list("return_value", flat=True)) == [False, True]
    assert sorted(ran.values_list("worker_ids", flat=True)) == [["first"], ["second"]]
    assert Move.objects.filter(game=game, ply=version).count() == 1
    game.refresh_from_db()
    assert game.version == version + 1
