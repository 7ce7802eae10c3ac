"""Pages of asynchronous play through HTTP: choosing the time per move, clocks on the game page and
in the lists, the version check, "My games", and the preferences page (e-mails, quiet hours,
absences)."""
import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from accounts.models import Absence
from accounts.preferences import preferences_for
from games.models import DAY, HOUR, Game
from tests.factories import login, make_started_game, make_user, seat_to_move, seats_of

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("seconds", [120, HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY, 14 * DAY])
def test_a_table_gets_the_chosen_time_per_move(seconds):
    client = login(make_user("ann"))
    response = client.post(reverse("game_new"), {"variant": "standard", "players": "2", "target": "100",
                                                "time_per_move": str(seconds), "absence_stops_clock": "on"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.time_per_move, game.absence_stops_clock) == (seconds, True)


def test_a_time_per_move_not_offered_is_refused():
    client = login(make_user("ann"))
    response = client.post(reverse("game_new"), {"variant": "standard", "players": "2", "target": "100",
                                                "time_per_move": "5"})
    assert response.status_code == 400 and not Game.objects.exists()


def test_the_game_page_and_the_lobby_show_the_time_left():
    with time_machine.travel(START, tick=False) as clock:
        game = make_started_game(players=2, seed="pages-clock", time_per_move=3 * DAY)
        clock.shift(dt.timedelta(hours=5))
        player = seat_to_move(game).user
        client = login(player)
        page = client.get(game.get_absolute_url()).content.decode()
        assert "2 days 19 hours left" in page and "Time per move: 3 days" in page
        lobby = client.get(reverse("lobby")).content.decode()
        assert "(2 days 19 hours left)" in lobby
        assert 'data-count="1"' in lobby, "the badge counts the game waiting on the player"


def test_the_version_check_answers_only_people_who_may_watch():
    game = make_started_game(players=2, seed="pages-version", is_private=True)
    player = seats_of(game)[0].user
    response = login(player).get(reverse("game_version", args=[game.pk]))
    assert response.json() == {"version": game.version}
    assert login(make_user("outsider")).get(reverse("game_version", args=[game.pk])).status_code == 403
    assert login(player).get(reverse("game_version", args=[game.pk + 100])).status_code == 404


def test_my_games_htmx_request_gets_the_list_alone():
    game = make_started_game(players=2, seed="pages-mine")
    client = login(seat_to_move(game).user)
    fragment = client.get(reverse("my_games"), headers={"HX-Request": "true"}).content.decode()
    assert fragment.lstrip().startswith('<ul class="game-list my-games"') and "Your turn" in fragment
    assert "<html" not in fragment


def test_the_preferences_page_saves_emails_and_quiet_hours():
    user = make_user("pat")
    client = login(user)
    assert client.get(reverse("play_preferences")).status_code == 200
    response = client.post(reverse("play_preferences"), {
        "form": "preferences", "email_warning": "on", "digest_hour": "7", "quiet_start": "22:00",
        "quiet_end": "07:00", "time_zone": "Europe/Berlin"})
    assert response.status_code == 302
    prefs = preferences_for(user)
    assert (prefs.email_your_turn, prefs.email_warning, prefs.email_digest) == (False, True, False)
    assert (prefs.quiet_start, prefs.quiet_end, prefs.time_zone) == (dt.time(22), dt.time(7), "Europe/Berlin")

    half = client.post(reverse("play_preferences"), {"form": "preferences", "digest_hour": "7",
                                                     "quiet_start": "22:00", "time_zone": "UTC"})
    assert half.status_code == 400 and "both ends" in half.content.decode()
    empty = client.post(reverse("play_preferences"), {"form": "preferences", "digest_hour": "7",
                                                      "quiet_start": "22:00", "quiet_end": "22:00", "time_zone": "UTC"})
    assert empty.status_code == 400 and "start and end at the same time" in empty.content.decode()
    assert (preferences_for(user).quiet_start, preferences_for(user).quiet_end) == (dt.time(22), dt.time(7))


def test_the_preferences_page_declares_absences_within_the_limit():
    user = make_user("pat")
    client = login(user)
    with time_machine.travel(START, tick=False):
        ok = client.post(reverse("play_preferences"), {"form": "absence", "starts_at": "2026-03-03T09:00",
                                                       "ends_at": "2026-03-13T09:00"})
        assert ok.status_code == 302
        too_long = client.post(reverse("play_preferences"), {"form": "absence", "starts_at": "2026-04-01T09:00",
                                                             "ends_at": "2026-04-06T09:00"})
        assert too_long.status_code == 400 and "14 days in any 90" in too_long.content.decode()
    [absence] = Absence.objects.filter(user=user)
    assert absence.starts_at == START.replace(day=3, hour=9)


def test_the_preferences_page_refuses_out_of_range_hours_and_far_off_absences():
    user = make_user("pat")
    client = login(user)
    hour = client.post(reverse("play_preferences"), {"form": "preferences", "digest_hour": "99", "time_zone": "UTC"})
    assert hour.status_code == 400 and "less than or equal to 23" in hour.content.decode()
    with time_machine.travel(START, tick=False):
        far = client.post(reverse("play_preferences"), {"form": "absence", "starts_at": "9999-12-31T20:00",
                                                        "ends_at": "9999-12-31T23:59"})
        assert far.status_code == 400 and "at most a year ahead" in far.content.decode()
    assert not Absence.objects.filter(user=user).exists()
    assert preferences_for(user).digest_hour == 8
