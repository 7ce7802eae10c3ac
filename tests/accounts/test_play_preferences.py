"""The preferences page through HTTP: the time zones offered and refused, absences that overlap,
cancelling an absence, and absence times in the player's own zone."""
import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse

from accounts.models import Absence
from accounts.preferences import declare_absence, local_zone, preferences_for
from games.models import DAY, Move
from tests.factories import login, make_started_game, make_user, run_due_jobs, seat_to_move

pytestmark = pytest.mark.django_db

PREFERENCES = {"form": "preferences", "digest_hour": "8"}


def zone_options(page: str) -> list[str]:
    select = re.search(r'<select name="time_zone".*?</select>', page, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', select)


def test_only_canonical_time_zones_are_offered_grouped_by_area():
    page = login(make_user("pat")).get(reverse("play_preferences")).content.decode()
    offered = zone_options(page)
    assert offered[0] == "UTC" and "Europe/Berlin" in offered and "America/Argentina/Buenos_Aires" in offered
    assert offered[1:] == sorted(offered[1:])
    for alias in ("localtime", "ROK", "W-SU", "Zulu", "UCT", "US/Eastern", "Etc/GMT+1", "GMT"):
        assert alias not in offered
    assert '<optgroup label="Europe">' in page and '<option value="Europe/Berlin">Berlin</option>' in page


@pytest.mark.parametrize("name", ["localtime", "US/Eastern", "Zulu", "Etc/GMT+1", "Mars/Olympus"])
def test_a_time_zone_not_offered_is_refused_with_a_form_error(name):
    user = make_user("pat")
    response = login(user).post(reverse("play_preferences"), {**PREFERENCES, "time_zone": name})
    assert response.status_code == 400
    assert f"{name} is not a time zone you can choose" in response.content.decode()
    assert preferences_for(user).time_zone == "UTC"


def test_a_stored_zone_no_longer_offered_shows_as_utc_and_still_works():
    user = make_user("pat")
    prefs = preferences_for(user)
    prefs.time_zone = "localtime"
    prefs.save()
    page = login(user).get(reverse("play_preferences")).content.decode()
    assert '<option value="UTC" selected>UTC</option>' in page
    assert "quiet hours (UTC)" in page and "saved zone (localtime) is no longer offered" in page
    assert local_zone(prefs) == dt.UTC
    prefs.time_zone = "US/Eastern"
    assert local_zone(prefs).utcoffset(dt.datetime(2027, 1, 1)) == dt.timedelta(hours=-5)


NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)


def absence_post(starts_at: str, ends_at: str) -> dict:
    return {"form": "absence", "starts_at": starts_at, "ends_at": ends_at}


def test_an_absence_that_overlaps_or_touches_another_is_refused():
    user = make_user("pat")
    client = login(user)
    with time_machine.travel(NOW, tick=False):
        assert client.post(reverse("play_preferences"), absence_post("2027-01-01T00:00", "2027-01-05T00:00")
                           ).status_code == 302
        for starts_at, ends_at in [("2027-01-03T00:00", "2027-01-08T00:00"), ("2027-01-05T00:00", "2027-01-07T00:00"),
                                   ("2026-12-28T00:00", "2027-01-01T00:00"), ("2027-01-02T00:00", "2027-01-03T00:00")]:
            refused = client.post(reverse("play_preferences"), absence_post(starts_at, ends_at))
            assert refused.status_code == 400 and "overlaps or touches" in refused.content.decode()
        assert client.post(reverse("play_preferences"), absence_post("2027-01-05T00:01", "2027-01-06T00:00")
                           ).status_code == 302
    assert list(Absence.objects.filter(user=user).values_list("starts_at", "ends_at")) == [
        (dt.datetime(2027, 1, 1, tzinfo=dt.UTC), dt.datetime(2027, 1, 5, tzinfo=dt.UTC)),
        (dt.datetime(2027, 1, 5, 0, 1, tzinfo=dt.UTC), dt.datetime(2027, 1, 6, tzinfo=dt.UTC))]


def test_only_its_owner_can_cancel_an_absence_still_to_come():
    owner, other = make_user("pat"), make_user("sam")
    with time_machine.travel(NOW, tick=False):
        absence = declare_absence(owner, NOW + dt.timedelta(days=3), NOW + dt.timedelta(days=5), NOW)
        url = reverse("cancel_absence", args=[absence.pk])
        page = login(owner).get(reverse("play_preferences")).content.decode()
        assert f'action="{url}"' in page and ">Cancel</button>" in page
        assert login(owner).get(url).status_code == 405
        assert login(other).post(url).status_code == 404
        assert Absence.objects.filter(pk=absence.pk).exists()
        response = login(owner).post(url, follow=True)
    assert response.status_code == 200 and "Your absence is cancelled." in response.content.decode()
    assert not Absence.objects.filter(pk=absence.pk).exists()


def test_an_absence_that_is_over_cannot_be_cancelled():
    owner = make_user("pat")
    absence = declare_absence(owner, NOW, NOW + dt.timedelta(days=1), NOW)
    with time_machine.travel(NOW + dt.timedelta(days=2), tick=False):
        assert login(owner).post(reverse("cancel_absence", args=[absence.pk])).status_code == 404
    assert Absence.objects.get(pk=absence.pk).ends_at == NOW + dt.timedelta(days=1)


def test_cancelling_an_ongoing_absence_ends_it_now_and_restarts_the_clock():
    with time_machine.travel(NOW, tick=False) as clock:
        game = make_started_game(players=2, seed="cancel-away", time_per_move=DAY)
        away = seat_to_move(game)
        client = login(away.user)
        assert client.post(reverse("play_preferences"), absence_post("2026-12-01T14:00", "2026-12-04T14:00")
                           ).status_code == 302
        away.refresh_from_db()
        assert away.deadline == NOW + dt.timedelta(days=4)

        clock.shift(dt.timedelta(days=1, minutes=1))
        run_due_jobs()
        assert not Move.objects.filter(game=game).exists(), "the first expiry job waits for the later deadline"

        clock.move_to(NOW + dt.timedelta(days=1, hours=5))
        absence = Absence.objects.get(user=away.user)
        response = client.post(reverse("cancel_absence", args=[absence.pk]), follow=True)
        assert "Your absence ends now." in response.content.decode()
        absence.refresh_from_db()
        away.refresh_from_db()
        assert absence.ends_at == NOW + dt.timedelta(days=1, hours=5)
        assert away.deadline == NOW + dt.timedelta(days=2, hours=3), "paused for the 27 hours away only"

        clock.move_to(away.deadline + dt.timedelta(minutes=1))
        run_due_jobs()
    assert Move.objects.filter(game=game, seat=away, actor=Move.Actor.DEADLINE).exists()


def test_absence_times_are_entered_and_shown_in_the_players_zone():
    user = make_user("pat")
    prefs = preferences_for(user)
    prefs.time_zone = "Europe/Berlin"
    prefs.save()
    client = login(user)
    with time_machine.travel(NOW, tick=False):
        page = client.get(reverse("play_preferences")).content.decode()
        assert "Away from (Europe/Berlin time)" in page and "Back on (Europe/Berlin time)" in page
        assert client.post(reverse("play_preferences"), absence_post("2027-01-01T09:00", "2027-01-02T18:30")
                           ).status_code == 302
        page = client.get(reverse("play_preferences")).content.decode()
        skipped = client.post(reverse("play_preferences"), absence_post("2027-03-28T02:30", "2027-03-29T09:00"))
    assert "2027-01-01 09:00 to 2027-01-02 18:30 (Europe/Berlin)" in page
    assert list(Absence.objects.filter(user=user).values_list("starts_at", "ends_at")) == [
        (dt.datetime(2027, 1, 1, 8, tzinfo=dt.UTC), dt.datetime(2027, 1, 2, 17, 30, tzinfo=dt.UTC))]
    assert skipped.status_code == 400
    assert "couldn’t be interpreted in time zone Europe/Berlin" in skipped.content.decode()
