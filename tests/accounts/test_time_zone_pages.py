"""Every page shows times in the signed-in user's time zone, kept in the session at log-in and when
preferences are saved (``accounts.session_zone``), without a statement per request."""
import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.preferences import preferences_for
from accounts.session_zone import SESSION_KEY
from games.models import Game
from records.benchmark import seed_finished_games
from records.models import PlayerResult
from tests.factories import PASSWORD, login, make_user
from tests.records.helpers import computer_game

pytestmark = pytest.mark.django_db

FINISHED = dt.datetime(2024, 7, 1, 22, 30, tzinfo=dt.UTC)
"""A game's finishing time: 2024-07-02 00:30 in Berlin (CEST), 2024-07-01 18:30 in New York (EDT)."""


def with_zone(name: str, username: str = "pat"):
    """A user whose preferences name the time zone ``name``."""
    user = make_user(username)
    prefs = preferences_for(user)
    prefs.time_zone = name
    prefs.save()
    return user


def finished_game_of(user) -> Game:
    """One finished game of ``user``'s, finishing at FINISHED, in their history and their record."""
    seed_finished_games(user, [make_user(), make_user()], 1)
    result = PlayerResult.objects.get(user=user)
    Game.objects.filter(pk=result.game_id).update(finished_at=FINISHED)
    PlayerResult.objects.filter(game_id=result.game_id).update(finished_at=FINISHED)
    return result.game


def pages(client: Client, user) -> dict[str, str]:
    """The profile and match history of ``user`` as ``client`` sees them."""
    return {view: client.get(reverse(view, args=[user.username])).content.decode()
            for view in ("profile", "match_history")}


def record_finished_at(client: Client) -> str:
    """The record page's finishing time of a computer game that finished at FINISHED."""
    game = computer_game("standard", seed="zone-record")
    Game.objects.filter(pk=game.pk).update(finished_at=FINISHED)
    return client.get(reverse("game_record", args=[game.pk])).content.decode()


def assert_finished_at(client, user, zone: str, moment: str) -> None:
    """The match history and the profile (``pages``) and the record give the game's finishing time
    as ``moment`` (ISO 8601, to the minute) in ``zone``."""
    day, clock = moment[:10], moment[11:16]
    for page in pages(client, user).values():
        assert f'<th scope="col">Finished ({zone})</th>' in page
        assert f'<time datetime="{moment}">{day}</time> {clock}' in page
    assert f"finished {day} {clock} {zone}" in record_finished_at(client)


def test_history_profile_and_record_show_the_users_zone_from_log_in():
    user = with_zone("Europe/Berlin")
    finished_game_of(user)
    client = Client()
    assert client.post(reverse("account_login"), {"login": "pat", "password": PASSWORD}).status_code == 302
    assert_finished_at(client, user, "Europe/Berlin", "2024-07-02T00:30:00+02:00")


def test_saving_preferences_changes_the_zone_of_the_next_page_at_once():
    user = with_zone("Europe/Berlin")
    finished_game_of(user)
    client = login(user)
    assert "00:30" in pages(client, user)["match_history"]
    saved = client.post(reverse("play_preferences"), {"form": "preferences", "digest_hour": "8",
                                                      "time_zone": "America/New_York"})
    assert saved.status_code == 302
    history = pages(client, user)["match_history"]
    assert '<time datetime="2024-07-01T18:30:00-04:00">2024-07-01</time> 18:30' in history
    assert "Finished (America/New_York)" in history


@pytest.mark.parametrize("name", ["UTC", "localtime", "Mars/Olympus"])
def test_utc_for_a_user_without_a_zone_or_with_localtime_or_an_unknown_one(name):
    user = with_zone(name)
    finished_game_of(user)
    assert_finished_at(login(user), user, "UTC", "2024-07-01T22:30:00+00:00")


def test_a_user_without_preferences_sees_utc():
    user = make_user("pat")
    finished_game_of(user)
    client = login(user)
    assert "Finished (UTC)" in pages(client, user)["profile"]
    assert "finished 2024-07-01 22:30 UTC" in record_finished_at(client)


def test_a_session_from_before_gets_the_zone_from_the_preferences_page_and_loses_it_at_log_out():
    user = with_zone("Asia/Tokyo")
    client = login(user)
    session = client.session
    del session[SESSION_KEY]
    session.save()
    assert "Finished (UTC)" in pages(client, user)["profile"]
    client.get(reverse("play_preferences"))
    assert "Finished (Asia/Tokyo)" in pages(client, user)["profile"]
    client.post(reverse("account_logout"))
    assert SESSION_KEY not in client.session


def test_the_zone_costs_a_page_no_statement():
    """The same statements with a zone as without one: the zone comes with the session."""
    counts = []
    for name in ("UTC", "Europe/Berlin"):
        user = with_zone(name, f"pat-{name.replace('/', '-')}")
        finished_game_of(user)
        client = login(user)
        client.get(reverse("profile", args=[user.username]))
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("match_history", args=[user.username])).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


@pytest.mark.parametrize(("name", "day", "other"), [("Europe/Berlin", "2024-07-02", "2024-07-01"),
                                                    ("UTC", "2024-07-01", "2024-07-02")])
def test_the_history_dates_are_days_in_the_users_zone(name, day, other):
    """FINISHED is on 2 July in Berlin, on 1 July in UTC: the From and To filters take the user's day."""
    user = with_zone(name)
    game = finished_game_of(user)
    client = login(user)

    def shown(query: str) -> bool:
        response = client.get(f"{reverse('match_history', args=[user.username])}?{query}")
        assert response.status_code == 200
        return f'data-game="{game.pk}"' in response.content.decode()

    assert shown(f"since={day}&until={day}")
    assert not shown(f"since={other}&until={other}")


@pytest.mark.parametrize("name", ["Asia/Tokyo", "America/New_York"])
def test_the_calendars_first_and_last_days_still_filter_in_any_zone(name):
    user = with_zone(name)
    game = finished_game_of(user)
    response = login(user).get(f"{reverse('match_history', args=[user.username])}?since=0001-01-01&until=9999-12-31")
    assert response.status_code == 200 and f'data-game="{game.pk}"' in response.content.decode()
