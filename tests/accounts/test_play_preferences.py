"""The preferences page through HTTP: the time zones offered and refused, absences that overlap,
cancelling an absence, and absence times in the player's own zone."""
import datetime as dt
import re

import pytest
from django.urls import reverse

from accounts.preferences import local_zone, preferences_for
from tests.factories import login, make_user

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
