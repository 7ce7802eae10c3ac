"""The admin index heads each app's section with a name of its own."""
import re
from collections import Counter

import pytest
from django.contrib.auth import get_user_model

from tests.factories import login

pytestmark = pytest.mark.django_db


def test_no_two_admin_sections_share_a_heading():
    """Our accounts app is "Players"; allauth's e-mail addresses keep "Accounts"."""
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-not-used-1")
    body = login(admin).get("/admin/").content.decode()
    headings = Counter(re.findall(r'class="section" title="Models in the ([^"]+) application"', body))
    assert "Players" in headings and "Accounts" in headings, headings
    assert [name for name, count in headings.items() if count > 1] == [], headings
