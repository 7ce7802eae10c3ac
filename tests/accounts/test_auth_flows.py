"""Sign up, log in, log out, change and reset a password through allauth's real views."""
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

PASSWORD = "felt-table-4-rummy"
NEW_PASSWORD = "green-baize-9-melds"

pytestmark = pytest.mark.django_db


def make_user(username="ada", password=PASSWORD):
    """Create a user with an e-mail address derived from the username."""
    return get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password=password
    )


def logged_in_user_id(client):
    """Return the id of the user logged in on ``client``'s session, or None."""
    value = client.session.get("_auth_user_id")
    return int(value) if value is not None else None


def test_signup_creates_user_logs_in_and_sends_verification_email(client):
    response = client.post(
        reverse("account_signup"),
        {
            "email": "ada@example.com",
            "username": "ada",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 302
    assert response["Location"] == "/"
    user = get_user_model().objects.get(username="ada")
    assert user.email == "ada@example.com"
    assert logged_in_user_id(client) == user.pk
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ada@example.com"]


def test_signup_requires_email(client):
    response = client.post(
        reverse("account_signup"),
        {"email": "", "username": "ada", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 200
    assert "email" in response.context["form"].errors
    assert not get_user_model().objects.exists()


def test_signup_page_uses_site_layout(client):
    response = client.get(reverse("account_signup"))

    assert response.status_code == 200
    assert "base.html" in [template.name for template in response.templates]
    assert b'class="site-nav"' in response.content


@pytest.mark.parametrize("login", ["ada", "ada@example.com"])
def test_login_by_username_or_email(client, login):
    user = make_user()

    response = client.post(reverse("account_login"), {"login": login, "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert logged_in_user_id(client) == user.pk


def test_login_with_wrong_password_is_refused(client):
    make_user()

    response = client.post(reverse("account_login"), {"login": "ada", "password": "wrong-password"})

    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert logged_in_user_id(client) is None


def test_nav_shows_username_and_logout_form_when_logged_in(client):
    client.force_login(make_user())

    response = client.get(reverse("account_change_password"))

    content = response.content.decode()
    assert 'data-testid="nav-username">ada<' in content
    assert f'action="{reverse("account_logout")}"' in content


def test_logout_is_a_post(client):
    client.force_login(make_user())

    get_response = client.get(reverse("account_logout"))
    assert get_response.status_code == 200
    assert logged_in_user_id(client) is not None

    post_response = client.post(reverse("account_logout"))
    assert post_response.status_code == 302
    assert post_response["Location"] == "/"
    assert logged_in_user_id(client) is None


def test_password_change(client):
    user = make_user()
    client.force_login(user)

    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_change_needs_login(client):
    response = client.get(reverse("account_change_password"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_password_reset_by_email_link(client):
    user = make_user()

    response = client.post(reverse("account_reset_password"), {"email": "ada@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body

    # allauth moves the key from the URL into the session and redirects to a key-less URL.
    key_page = client.get(link.group(1), follow=True)
    assert key_page.status_code == 200
    set_password_url = key_page.redirect_chain[-1][0]
    response = client.post(
        set_password_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_from_key_done")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert client.login(username="ada", password=NEW_PASSWORD)


def test_password_reset_link_with_bad_key_is_refused(client):
    user = make_user()

    response = client.get(f"/accounts/password/reset/key/{user.pk:x}-not-a-key/", follow=True)

    assert response.status_code == 200
    assert response.context["token_fail"] is True


def sign_up(client, username):
    """Post the sign-up form for ``username`` with a fresh e-mail address."""
    return client.post(reverse("account_signup"), {"email": f"new-{len(username)}@example.com", "username": username,
                                                   "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.parametrize(("username", "message"), [
    ("\uff41\uff4c\uff49\uff43\uff45", "A user with that username already exists."),  # full-width "alice"
    ("\u0430lice", "may contain only unaccented lowercase a-z and uppercase A-Z letters"),  # Cyrillic "а"
    ("Alice", "A user with that username already exists."),
])
def test_signup_refuses_names_that_look_like_anothers(client, username, message):
    """The tester signed up as full-width "ａｌｉｃｅ" and as "аlice" with a Cyrillic "а" while "alice"
    existed; both showed as "alice". A name is NFKC-normalised (full-width letters become ASCII) and
    then must be ASCII, and a name taken in any letter case is refused."""
    make_user("alice")

    response = sign_up(client, username)

    assert response.status_code == 200
    assert any(message in error for error in response.context["form"].errors["username"])
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["alice"]


def test_signup_takes_a_plain_ascii_name_and_stores_a_full_width_one_in_ascii(client):
    make_user("alice")

    assert sign_up(client, "bob.smith-2_x").status_code == 302
    client.logout()
    assert sign_up(client, "\uff43\uff41\uff52\uff4f\uff4c").status_code == 302  # full-width "carol"

    assert set(get_user_model().objects.values_list("username", flat=True)) == {"alice", "bob.smith-2_x", "carol"}


def test_signup_form_says_which_characters_a_user_name_may_have(client):
    body = client.get(reverse("account_signup")).content.decode()

    assert "letters a-z and A-Z without accents, digits, and . _ - @ + only" in body


def test_a_user_whose_name_was_chosen_before_the_ascii_rule_still_logs_in(client):
    user = make_user("jos\u00e9")

    response = client.post(reverse("account_login"), {"login": "jos\u00e9", "password": PASSWORD})

    assert response.status_code == 302
    assert logged_in_user_id(client) == user.pk
