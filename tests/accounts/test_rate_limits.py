"""allauth's rate limits (settings.ACCOUNT_RATE_LIMITS) stop repeated sign-ups, logins and resets;
wrong passwords are counted per address and per account and address together, so they slow an
attacker without keeping the account's owner out."""
import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "felt-table-4-rummy"


def rate_amount(action):
    """The first (tightest) amount configured for ``action``, e.g. 5 for "5/m/ip"."""
    return int(settings.ACCOUNT_RATE_LIMITS[action].split(",")[0].split("/")[0])


def signup_data(number):
    """Valid sign-up form data for a distinct user."""
    return {
        "email": f"player{number}@example.com",
        "username": f"player{number}",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }


def test_signup_is_limited_per_ip(client):
    allowed = rate_amount("signup")
    for number in range(allowed):
        response = client.post(reverse("account_signup"), signup_data(number))
        assert response.status_code == 302, response.content
        client.logout()

    response = client.post(reverse("account_signup"), signup_data(allowed))

    assert response.status_code == 429
    assert get_user_model().objects.count() == allowed



def test_the_signup_limit_answers_with_the_sites_page_saying_when_to_retry(client):
    """The tester's sixth sign-up in a minute got a bare "429 Too Many Requests": now it is the
    site's page, with its header, saying to wait a minute, and a Retry-After header."""
    for number in range(rate_amount("signup")):
        client.post(reverse("account_signup"), signup_data(number))
        client.logout()

    response = client.post(reverse("account_signup"), signup_data("over"))

    assert response.status_code == 429
    assert "base.html" in [template.name for template in response.templates]
    body = response.content.decode()
    assert 'class="site-nav"' in body and "Wait a minute, then try again." in body
    assert response["Retry-After"] == "60"

OWNER_ADDRESS, STRANGER_ADDRESS = "198.51.100.7", "203.0.113.9"


def failed_login_rates():
    """(per address over all accounts, per account and address) amounts and seconds of
    ``login_failed``, e.g. ((10, 60), (5, 300)) for "10/m/ip,5/5m/key"."""
    units = {"s": 1, "m": 60, "h": 3600}
    rates = {}
    for rate in settings.ACCOUNT_RATE_LIMITS["login_failed"].split(","):
        amount, duration, per = rate.split("/")
        rates[per] = (int(amount), int(duration[:-1] or 1) * units[duration[-1]])
    return rates["ip"], rates["key"]


def log_in(client, login, password, address):
    return client.post(reverse("account_login"), {"login": login, "password": password}, REMOTE_ADDR=address)


def refused_as_too_many(response):
    return response.status_code == 200 and "Too many failed login attempts" in str(response.context["form"].errors)


def test_a_strangers_wrong_passwords_do_not_keep_the_owner_out(client):
    get_user_model().objects.create_user(username="ada", email="ada@example.com", password=PASSWORD)
    (per_address, _), (per_account, _) = failed_login_rates()
    stranger = Client()
    for attempt in range(per_address + per_account):
        login = "ada" if attempt % 2 else "ada@example.com"
        log_in(stranger, login, f"guess-{attempt}", STRANGER_ADDRESS)
    assert refused_as_too_many(log_in(stranger, "ada", PASSWORD, STRANGER_ADDRESS))

    response = log_in(client, "ada", PASSWORD, OWNER_ADDRESS)

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(get_user_model().objects.get(username="ada").pk)


def test_wrong_passwords_from_one_address_for_one_account_are_slowed(client):
    get_user_model().objects.create_user(username="ada", email="ada@example.com", password=PASSWORD)
    _, (per_account, seconds) = failed_login_rates()
    with time_machine.travel(dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC), tick=False) as clock:
        for attempt in range(per_account):
            assert not refused_as_too_many(log_in(client, "ada", f"guess-{attempt}", STRANGER_ADDRESS))
            clock.shift(dt.timedelta(seconds=20))

        assert refused_as_too_many(log_in(client, "ada", PASSWORD, STRANGER_ADDRESS))
        assert "_auth_user_id" not in client.session
        clock.shift(dt.timedelta(seconds=seconds - 20 * (per_account - 1)))
        response = log_in(client, "ada", PASSWORD, STRANGER_ADDRESS)

    assert response.status_code == 302


def test_wrong_passwords_from_one_address_over_many_accounts_are_slowed(client):
    (per_address, _), (per_account, _) = failed_login_rates()
    for number in range(per_address):
        get_user_model().objects.create_user(username=f"player{number}", password=PASSWORD)
    for number in range(per_address):
        assert not refused_as_too_many(log_in(client, f"player{number}", "wrong", STRANGER_ADDRESS))

    assert refused_as_too_many(log_in(client, "player0", PASSWORD, STRANGER_ADDRESS))
    assert log_in(Client(), "player0", PASSWORD, OWNER_ADDRESS).status_code == 302


def test_login_posts_are_limited_per_ip(client):
    for _ in range(rate_amount("login")):
        response = client.post(reverse("account_login"), {"login": "nobody", "password": "x"})
        assert response.status_code == 200

    response = client.post(reverse("account_login"), {"login": "nobody", "password": "x"})

    assert response.status_code == 429


def test_password_reset_requests_are_limited_per_email(client, mailoutbox):
    get_user_model().objects.create_user(username="ada", email="ada@example.com", password=PASSWORD)
    per_email = int(settings.ACCOUNT_RATE_LIMITS["reset_password"].split(",")[1].split("/")[0])
    for _ in range(per_email):
        response = client.post(reverse("account_reset_password"), {"email": "ada@example.com"})
        assert response.status_code == 302

    response = client.post(reverse("account_reset_password"), {"email": "ada@example.com"})

    assert response.status_code == 429
    assert len(mailoutbox) == per_email
