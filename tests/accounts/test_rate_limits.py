"""allauth's rate limits (settings.ACCOUNT_RATE_LIMITS) stop repeated sign-ups, logins and resets."""
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
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


def test_failed_logins_lock_the_account_key(client):
    get_user_model().objects.create_user(username="ada", email="ada@example.com", password=PASSWORD)
    failures_allowed = int(settings.ACCOUNT_RATE_LIMITS["login_failed"].split(",")[1].split("/")[0])
    for _ in range(failures_allowed):
        response = client.post(reverse("account_login"), {"login": "ada", "password": "wrong"})
        assert response.status_code == 200

    response = client.post(reverse("account_login"), {"login": "ada", "password": PASSWORD})

    assert response.status_code == 200
    assert "Too many failed login attempts" in str(response.context["form"].errors)
    assert "_auth_user_id" not in client.session


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
