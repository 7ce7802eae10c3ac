"""Notices with a controlled clock (time-machine, no sleeps): the "your turn" e-mail's grace period
and presence check, quiet hours, the 80% warning, exactly one e-mail per turn however often its job
runs (a database constraint), the badge counts, the daily digest's order, the dashboard's order."""
import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.preferences import preferences_for
from games import jobs
from games.models import DAY, HOUR, Game
from notices import services as notices
from notices.models import Connection, Notification
from tests.factories import login, make_started_game, make_user, play_moves, run_due_jobs, seat_to_move

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
GRACE = dt.timedelta(seconds=120)
SECOND = dt.timedelta(seconds=1)


@pytest.fixture
def clock():
    """The test's clock, stopped at START; ``clock.shift(delta)`` / ``clock.move_to(when)`` move it."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def turn_emails():
    return [message for message in mail.outbox if message.subject.startswith("Your turn")]


def test_the_turn_email_waits_for_the_grace_period(clock):
    game = make_started_game(players=2, seed="notice-grace", time_per_move=DAY)
    player = seat_to_move(game).user
    clock.shift(GRACE - SECOND)
    run_due_jobs()
    assert turn_emails() == []
    clock.shift(2 * SECOND)
    run_due_jobs()
    [message] = turn_emails()
    assert message.to == [player.email]
    assert game.get_absolute_url() in message.body and "/accounts/preferences/" in message.body


def test_no_turn_email_to_a_player_who_has_the_site_open(clock):
    game = make_started_game(players=2, seed="notice-present", time_per_move=DAY)
    player = seat_to_move(game).user
    connection = Connection.objects.create(user=player, channel_name="specific.test!1", last_seen=START)
    clock.shift(GRACE + SECOND)
    connection.last_seen = START + GRACE  # the page pinged a moment ago
    connection.save()
    run_due_jobs()
    assert turn_emails() == []
    assert not Notification.objects.filter(kind=Notification.Kind.TURN_EMAIL).exists()


def test_a_stale_connection_does_not_count_as_present(clock):
    game = make_started_game(players=2, seed="notice-stale", time_per_move=DAY)
    Connection.objects.create(user=seat_to_move(game).user, channel_name="specific.test!2", last_seen=START)
    clock.shift(GRACE + SECOND)  # no ping for two minutes: its server went away
    run_due_jobs()
    assert len(turn_emails()) == 1


def test_the_turn_email_is_sent_once_when_its_job_runs_twice(clock):
    game = make_started_game(players=2, seed="notice-twice", time_per_move=DAY)
    seat = seat_to_move(game)
    jobs.email_turn.using(run_after=START + GRACE).enqueue(game.pk, game.turn_number)
    clock.shift(GRACE + SECOND)
    assert run_due_jobs() >= 2
    assert len(turn_emails()) == 1
    assert notices.send_turn_email(game.pk, game.turn_number, START + GRACE + SECOND) is False
    assert len(turn_emails()) == 1
    assert Notification.objects.filter(game=game, seat=seat, kind=Notification.Kind.TURN_EMAIL).count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        Notification.objects.create(user=seat.user, game=game, seat=seat, turn_number=game.turn_number,
                                    kind=Notification.Kind.TURN_EMAIL)


def test_the_badge_counts_the_games_waiting_on_each_player(clock):
    game = make_started_game(players=2, seed="notice-badge", time_per_move=DAY)
    seat = seat_to_move(game)
    assert notices.waiting_count(seat.user_id) == 1
    other = next(s for s in game.seats.all() if s.pk != seat.pk)
    assert notices.waiting_count(other.user_id) == 0
    assert notices.waiting_counts([seat.user_id, other.user_id]) == {seat.user_id: 1, other.user_id: 0}


def test_a_move_sends_each_player_the_count_a_fresh_query_gives(clock, monkeypatch,
                                                                  django_capture_on_commit_callbacks):
    """The counts a move sends come from the seats it locked (other games) plus this game; they
    equal a count query run after the commit, here for a player with a second game waiting."""
    game = make_started_game(players=2, seed="notice-counts", time_per_move=DAY)
    mover = seat_to_move(game)
    waiting = next(s for s in game.seats.all() if s.pk != mover.pk).user
    elsewhere = make_started_game(players=2, humans=[waiting, make_user()], seed="notice-counts-2")
    if seat_to_move(elsewhere).user_id != waiting.pk:
        play_moves(elsewhere, until=lambda g: seat_to_move(g).user_id == waiting.pk)
    sent = []
    monkeypatch.setattr(notices.notify, "games_waiting", lambda user_id, count, game=None: sent.append(
        (user_id, count, game.pk if game else None)))

    with django_capture_on_commit_callbacks(execute=True):
        play_moves(game, until=lambda g: seat_to_move(g).user_id == waiting.pk)

    fresh = notices.waiting_counts([mover.user_id, waiting.pk])
    assert fresh == {mover.user_id: 0, waiting.pk: 2}
    assert sent[-2:] == [(mover.user_id, 0, None), (waiting.pk, 2, game.pk)]


def test_no_email_in_quiet_hours_until_they_end(clock):
    game = make_started_game(players=2, seed="notice-quiet", time_per_move=DAY)
    player = seat_to_move(game).user
    prefs = preferences_for(player)
    # 12:00 UTC is 13:00 in Paris (CET): inside quiet hours 12:30-20:00 local, which end at 19:00 UTC.
    prefs.quiet_start, prefs.quiet_end, prefs.time_zone = dt.time(12, 30), dt.time(20, 0), "Europe/Paris"
    prefs.save()
    clock.shift(GRACE + SECOND)
    run_due_jobs()
    assert turn_emails() == []
    clock.move_to(START + dt.timedelta(hours=7) - SECOND)
    run_due_jobs()
    assert turn_emails() == []
    clock.move_to(START + dt.timedelta(hours=7) + SECOND)
    run_due_jobs()
    assert [message.to for message in turn_emails()] == [[player.email]]


def test_quiet_hours_may_wrap_past_midnight(clock):
    from accounts.preferences import in_quiet_hours, next_sending_time

    prefs = preferences_for(make_user("owl"))
    prefs.quiet_start, prefs.quiet_end, prefs.time_zone = dt.time(22, 0), dt.time(7, 0), "UTC"
    assert in_quiet_hours(prefs, START.replace(hour=23))
    assert in_quiet_hours(prefs, START.replace(hour=6, minute=59))
    assert not in_quiet_hours(prefs, START.replace(hour=7))
    assert next_sending_time(prefs, START.replace(hour=23)) == START.replace(hour=7) + dt.timedelta(days=1)


def test_a_switched_off_email_is_not_sent(clock):
    game = make_started_game(players=2, seed="notice-off", time_per_move=DAY)
    prefs = preferences_for(seat_to_move(game).user)
    prefs.email_your_turn = False
    prefs.save()
    clock.shift(GRACE + SECOND)
    run_due_jobs()
    assert turn_emails() == []


def test_the_warning_email_comes_when_80_percent_of_the_time_has_gone(clock):
    game = make_started_game(players=2, seed="notice-warning", time_per_move=DAY)
    player = seat_to_move(game).user
    warnings = lambda: [m for m in mail.outbox if m.subject.startswith("Time is running out")]  # noqa: E731
    clock.move_to(START + dt.timedelta(hours=19, minutes=11))
    run_due_jobs()
    assert warnings() == []
    clock.move_to(START + dt.timedelta(hours=19, minutes=13))
    run_due_jobs()
    [message] = warnings()
    assert message.to == [player.email] and "4 hours 47 minutes left" in message.body


def test_the_daily_digest_lists_the_games_waiting_least_time_left_first(clock):
    dora = make_user("dora")
    games = {seconds: make_started_game(players=2, humans=[dora], seed=f"digest-{seconds}", time_per_move=seconds)
             for seconds in (3 * DAY, HOUR, DAY)}
    assert all(seat_to_move(game).user_id == dora.pk for game in games.values())
    prefs = preferences_for(dora)
    prefs.email_digest, prefs.digest_hour = True, 12
    prefs.save()
    client = login(dora)
    response = client.post(reverse("play_preferences"), {
        "form": "preferences", "email_your_turn": "on", "email_warning": "on", "email_digest": "on",
        "digest_hour": "12", "quiet_start": "", "quiet_end": "", "time_zone": "UTC"})
    assert response.status_code == 302
    run_due_jobs()
    [digest] = [m for m in mail.outbox if "waiting on you" in m.subject]
    assert digest.subject == "3 games waiting on you"
    lines = [line for line in digest.body.splitlines() if " left" in line]
    assert lines == [f"{games[HOUR]}: 1 hour left", f"{games[DAY]}: 1 day left", f"{games[3 * DAY]}: 3 days left"]
    assert "/accounts/preferences/" in digest.body

    jobs.send_digest.enqueue(dora.pk, START.date().isoformat())
    run_due_jobs()
    assert len([m for m in mail.outbox if "waiting on you" in m.subject]) == 1, "one digest a day"
    assert preferences_for(dora).next_digest_on == START.date() + dt.timedelta(days=1)


def test_my_games_puts_the_users_turns_first_least_time_left_first(clock):
    dora = make_user("dora")
    mine = [make_started_game(players=2, humans=[dora], seed=f"mine-{s}", time_per_move=s) for s in (DAY, HOUR)]
    waiting_for_other = make_started_game(players=2, humans=[make_user("eve"), dora], seed="mine-other",
                                          time_per_move=HOUR)
    if seat_to_move(waiting_for_other).user_id == dora.pk:
        play_moves(waiting_for_other, until=lambda g: seat_to_move(g).user_id != dora.pk)  # dora plays her turn
    assert seat_to_move(waiting_for_other).user_id != dora.pk
    lines = notices.my_games(dora, START)
    assert [line.game.pk for line in lines] == [mine[1].pk, mine[0].pk, waiting_for_other.pk]
    assert [line.your_turn for line in lines] == [True, True, False]
    page = login(dora).get(reverse("my_games")).content.decode()
    assert page.index(str(mine[1])) < page.index(str(mine[0])) < page.index(str(waiting_for_other))
    assert "<title>(2) My games" in page
    assert Game.objects.filter(pk=waiting_for_other.pk, status=Game.Status.ACTIVE).exists()
