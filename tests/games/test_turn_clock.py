"""Turn clocks with a controlled clock (time-machine, no sleeps): expiry with nobody looking, the
second expiry in a row enabling autopilot, taking the seat back, pausing and abandoning, absences,
and jobs that run twice. The worker's due jobs run through ``run_due_jobs``, the code path of
``manage.py db_worker``."""
import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from accounts.preferences import AbsenceRefused, declare_absence
from games import jobs, turn_clock
from games.models import DAY, HOUR, Game, Move
from tests.engine.builders import frayzy
from tests.factories import (
    load_state,
    login,
    make_started_game,
    make_user,
    put_position,
    run_due_jobs,
    seat_to_move,
    seats_of,
)

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
MINUTE = dt.timedelta(minutes=1)


@pytest.fixture
def clock():
    """The test's clock, stopped at START; ``clock.shift(delta)`` / ``clock.move_to(when)`` move it."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def play_turn(game: Game) -> None:
    """The person to move draws from the stock and discards, in time, through the services."""
    from games import services

    game.refresh_from_db()
    seat = seat_to_move(game)
    services.submit_move(seat.user, game.pk, game.version, {"type": "draw_stock"})
    game.refresh_from_db()
    view = load_state(game).player_view(seat.position)
    discard = next(a for a in view.legal_actions if a.to_json()["type"] == "discard")
    services.submit_move(seat.user, game.pk, game.version, discard.to_json())
    game.refresh_from_db()


def expire_current_turn(clock, game: Game) -> None:
    """Let the running turn's hour pass, and the worker run what is due."""
    clock.shift(dt.timedelta(hours=1) + MINUTE)
    run_due_jobs()
    game.refresh_from_db()


def test_a_turn_expires_and_the_computer_plays_it_with_no_page_views(clock):
    game = make_started_game(players=2, seed="clock-expiry", time_per_move=HOUR)
    late = seat_to_move(game)
    assert late.deadline == START + dt.timedelta(hours=1)

    clock.shift(dt.timedelta(minutes=59))
    run_due_jobs()
    assert seat_to_move(game).pk == late.pk and not Move.objects.filter(game=game).exists()

    clock.shift(2 * MINUTE)
    run_due_jobs()
    moves = list(Move.objects.filter(game=game))
    assert moves and {(m.actor, m.seat_id) for m in moves} == {(Move.Actor.DEADLINE, late.pk)}
    assert [m.action["type"] for m in moves][-1] == "discard"
    late.refresh_from_db()
    assert (late.expired_turns, late.autopilot, late.deadline) == (1, False, None)
    now_to_move = seat_to_move(game)
    assert now_to_move.pk != late.pk
    assert now_to_move.deadline == START + dt.timedelta(minutes=61) + dt.timedelta(hours=1)
    page = login(late.user).get(game.get_absolute_url()).content.decode()
    assert "time ran out: the computer played" in page


def test_a_second_expiry_in_a_row_puts_the_seat_on_autopilot(clock):
    game = make_started_game(players=2, seed="clock-autopilot", time_per_move=HOUR)
    late = seat_to_move(game)
    expire_current_turn(clock, game)
    play_turn(game)
    assert seat_to_move(game).pk == late.pk

    expire_current_turn(clock, game)
    late.refresh_from_db()
    assert late.autopilot and late.expired_turns == 2
    assert game.status == Game.Status.ACTIVE

    play_turn(game)
    run_due_jobs()  # no time passes: the autopilot plays at once
    assert Move.objects.filter(game=game, seat=late, actor=Move.Actor.AUTOPILOT).exists()
    assert seat_to_move(game).pk != late.pk
    page = login(late.user).get(game.get_absolute_url()).content.decode()
    assert "Take my seat back" in page


def test_a_turn_played_in_time_resets_the_count_of_expiries(clock):
    game = make_started_game(players=2, seed="clock-reset", time_per_move=HOUR)
    late = seat_to_move(game)
    expire_current_turn(clock, game)
    play_turn(game)
    play_turn(game)  # late plays their own turn in time
    late.refresh_from_db()
    assert late.expired_turns == 0
    play_turn(game)
    expire_current_turn(clock, game)
    late.refresh_from_db()
    assert late.expired_turns == 1 and not late.autopilot


def game_with_a_seat_on_autopilot(clock, seed: str):
    """A 2-player game (an hour a move) whose seat to move let two turns in a row expire, and that
    seat, now on autopilot."""
    game = make_started_game(players=2, seed=seed, time_per_move=HOUR)
    late = seat_to_move(game)
    expire_current_turn(clock, game)
    play_turn(game)
    expire_current_turn(clock, game)
    late.refresh_from_db()
    return game, late


def test_taking_the_seat_back_ends_the_autopilot(clock):
    game, late = game_with_a_seat_on_autopilot(clock, "clock-reclaim")
    assert late.autopilot

    client = login(late.user)
    response = client.post(reverse("game_reclaim", args=[game.pk]))
    assert response.status_code == 302
    late.refresh_from_db()
    assert (late.autopilot, late.expired_turns) == (False, 0)
    assert client.post(reverse("game_reclaim", args=[game.pk])).status_code == 409

    play_turn(game)
    run_due_jobs()
    to_move = seat_to_move(game)
    assert to_move.pk == late.pk
    assert to_move.deadline == START + 2 * (dt.timedelta(hours=1) + MINUTE) + dt.timedelta(hours=1)
    assert not Move.objects.filter(game=game, actor=Move.Actor.AUTOPILOT).exists()


def test_only_the_seat_owner_takes_a_seat_back(clock):
    game = make_started_game(players=2, seed="clock-reclaim-owner", time_per_move=HOUR)
    stranger = make_user("stranger")
    assert login(stranger).post(reverse("game_reclaim", args=[game.pk])).status_code == 403


def pause(clock, game: Game) -> None:
    """Let both people's turns expire twice in a row: the game pauses."""
    for _ in range(4):
        assert game.status == Game.Status.ACTIVE
        expire_current_turn(clock, game)


def test_a_game_with_nobody_at_the_table_pauses_and_is_abandoned_after_14_days(clock):
    game = make_started_game(players=2, seed="clock-pause", time_per_move=HOUR)
    pause(clock, game)
    assert game.status == Game.Status.PAUSED and all(seat.autopilot for seat in seats_of(game))
    paused_at, version = game.paused_at, game.version
    assert paused_at == START + 4 * (dt.timedelta(hours=1) + MINUTE)
    mail.outbox.clear()

    clock.shift(dt.timedelta(days=13, hours=23))
    run_due_jobs()
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED and game.version == version, "a paused game does not play itself"

    clock.shift(dt.timedelta(hours=2))
    run_due_jobs()
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    told = sorted(message.to[0] for message in mail.outbox)
    assert told == sorted(seat.user.email for seat in seats_of(game))
    assert all("was abandoned" in message.subject and "/accounts/preferences/" in message.body
               for message in mail.outbox)
    assert not turn_clock.abandon_if_unresumed(game.pk, START + dt.timedelta(days=30))
    assert len(mail.outbox) == 2


def test_a_paused_game_resumes_when_a_player_takes_their_seat_back(clock):
    game = make_started_game(players=2, seed="clock-resume", time_per_move=HOUR)
    pause(clock, game)
    back = seats_of(game)[0]
    turn_clock.take_seat_back(back.user, game.pk, START + dt.timedelta(days=2))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.paused_at is None
    assert not turn_clock.abandon_if_unresumed(game.pk, START + dt.timedelta(days=20))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_paused_game_says_it_is_paused_and_what_resumes_it_not_that_the_computer_plays(clock):
    game = make_started_game(players=2, seed="clock-pause-page", time_per_move=HOUR)
    pause(clock, game)
    client = login(seats_of(game)[0].user)

    board = client.get(game.get_absolute_url()).content.decode()
    mine = client.get(reverse("my_games"), headers={"HX-Request": "true"}).content.decode()

    assert "The game is paused: every player's seat is on autopilot, so nobody moves." in board
    assert "Take your seat back to resume it." in board and "Take my seat back" in board
    assert 'data-testid="paused-banner"' in board
    assert "the computer is playing your seat" not in board and "Waiting for" not in board
    assert "The computer plays this seat" not in board
    assert "Paused until a player takes their seat back" in mine and "your seat is on autopilot" not in mine


def test_a_seat_on_autopilot_in_a_game_in_play_says_the_computer_plays_it(clock):
    game, late = game_with_a_seat_on_autopilot(clock, "clock-autopilot-page")
    assert late.autopilot and game.status == Game.Status.ACTIVE

    board = login(late.user).get(game.get_absolute_url()).content.decode()

    assert "Your time ran out twice in a row, so the computer is playing your seat." in board
    assert "paused" not in board.lower()


def test_an_absence_stops_the_clock_at_tables_that_allow_it(clock):
    game = make_started_game(players=2, seed="clock-away", time_per_move=DAY)
    away = seat_to_move(game)
    declare_absence(away.user, START + dt.timedelta(hours=2), START + dt.timedelta(days=3, hours=2), now=START)
    assert turn_clock.absences_changed(away.user, START) == 1
    away.refresh_from_db()
    assert away.deadline == START + dt.timedelta(days=4)

    clock.shift(dt.timedelta(days=1) + MINUTE)
    run_due_jobs()
    assert not Move.objects.filter(game=game).exists(), "the clock stood still while they were away"

    clock.move_to(START + dt.timedelta(days=4) + MINUTE)
    run_due_jobs()
    assert Move.objects.filter(game=game, seat=away, actor=Move.Actor.DEADLINE).exists()


def test_a_turn_that_starts_during_an_absence_gets_its_time_after_it(clock):
    game = make_started_game(players=2, seed="clock-away-start", time_per_move=HOUR)
    first, away = seat_to_move(game), next(s for s in seats_of(game) if s.pk != seat_to_move(game).pk)
    declare_absence(away.user, START, START + dt.timedelta(days=2), now=START)
    play_turn(game)
    away.refresh_from_db()
    assert seat_to_move(game).pk == away.pk and away.deadline == START + dt.timedelta(days=2, hours=1)
    assert first.pk != away.pk


def test_an_absence_leaves_clocks_running_at_tables_that_do_not_allow_it(clock):
    game = make_started_game(players=2, seed="clock-no-away", time_per_move=DAY, absence_stops_clock=False)
    away = seat_to_move(game)
    declare_absence(away.user, START, START + dt.timedelta(days=3), now=START)
    assert turn_clock.absences_changed(away.user, START) == 0
    away.refresh_from_db()
    assert away.deadline == START + dt.timedelta(days=1)


def test_absences_add_up_to_at_most_14_days_in_any_90(clock):
    user = make_user("traveller")
    day = dt.timedelta(days=1)
    declare_absence(user, START + day, START + 11 * day, now=START)
    with pytest.raises(AbsenceRefused, match="14 days in any 90"):
        declare_absence(user, START + 30 * day, START + 35 * day, now=START)
    declare_absence(user, START + 30 * day, START + 34 * day, now=START)
    with pytest.raises(AbsenceRefused, match="14 days in any 90"):
        declare_absence(user, START + 80 * day, START + 81 * day, now=START)
    declare_absence(user, START + 125 * day, START + 135 * day, now=START)
    with pytest.raises(AbsenceRefused, match="end after it starts"):
        declare_absence(user, START + 2 * day, START + day, now=START)


def test_an_expiry_job_that_runs_twice_or_late_does_nothing_more(clock):
    game = make_started_game(players=2, seed="clock-twice", time_per_move=HOUR)
    turn = game.turn_number
    clock.shift(dt.timedelta(hours=1) + MINUTE)
    assert jobs.expire_turn.call(game.pk, turn) is True
    assert jobs.expire_turn.call(game.pk, turn) is False
    version = Game.objects.get(pk=game.pk).version
    assert jobs.computer_turn.call(game.pk, version) is True
    assert jobs.computer_turn.call(game.pk, version) is False, "a move job for a past version moves nothing"


def test_a_stopped_worker_catches_up_when_it_starts(clock):
    game = make_started_game(players=3, humans=1, seed="clock-catch-up", time_per_move=HOUR, play_computers=False)
    # The worker is down: nothing runs while an hour and more passes.
    clock.shift(dt.timedelta(hours=1, minutes=30))
    assert not Move.objects.filter(game=game).exists()
    run_due_jobs()
    game.refresh_from_db()
    assert Move.objects.filter(game=game).exists()
    assert seat_to_move(game).user_id is not None


def test_a_skip_with_two_players_gives_the_same_seat_a_new_full_turn(clock):
    """F14: with two players a Skip gives its player another full turn: the clock starts again."""
    from games import services

    game = make_started_game(players=2, seed="clock-skip", variant="frayzy", time_per_move=DAY)
    mover = seat_to_move(game)
    hands = ["R7 B3 SKIP", "Y1 Y2 Y3"]
    put_position(game, frayzy(hands if mover.position == 0 else hands[::-1], discard="G5", turn=mover.position).deal)
    clock.shift(dt.timedelta(hours=20))
    game.refresh_from_db()
    turn = game.turn_number
    services.submit_move(mover.user, game.pk, game.version, {"type": "play_action", "card": "SKIP"})
    game.refresh_from_db()
    mover.refresh_from_db()
    assert seat_to_move(game).pk == mover.pk and game.turn_number == turn + 1
    assert mover.deadline == START + dt.timedelta(hours=20, seconds=DAY)

    clock.shift(dt.timedelta(hours=5))  # past the first turn's deadline: the new turn runs on
    run_due_jobs()
    game.refresh_from_db()
    assert not game.turn_expired and not Move.objects.filter(game=game, actor=Move.Actor.DEADLINE).exists()
    clock.shift(dt.timedelta(seconds=DAY))
    run_due_jobs()
    assert Move.objects.filter(game=game, seat=mover, actor=Move.Actor.DEADLINE).exists()
