"""An e-mail address belongs to one account: the e-mail page (``/accounts/email/``) refuses an
address another account has, verified or not, as sign-up does, so that the address never logs in to,
nor resets the password of, a second account."""
import re
import threading

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.db import connection, connections
from django.urls import reverse

from tests.factories import PASSWORD, login, make_user

pytestmark = pytest.mark.django_db

CAROL_PASSWORD = "carols-own-secret-77"
TAKEN = "A user is already registered with this email address."


def add_address(client, email):
    """Post ``email`` to the e-mail page's "Add E-mail" form; return the response."""
    return client.post(reverse("account_email"), {"action_add": "", "email": email})


def alice_with_address(how: str):
    """alice, whose alice@example.com is only her user row's address (``"user field"``, as
    ``createsuperuser`` leaves it) or also an allauth address, ``"unverified"`` or ``"verified"``."""
    alice = make_user("alice")
    if how != "user field":
        EmailAddress.objects.create(user=alice, email="alice@example.com", primary=True,
                                    verified=how == "verified")
    return alice


@pytest.mark.parametrize("how", ["user field", "unverified", "verified"])
@pytest.mark.parametrize("typed", ["alice@example.com", "Alice@Example.COM"])
def test_adding_another_accounts_address_is_refused_and_mails_nobody(how, typed):
    alice_with_address(how)
    carol = make_user("carol")

    response = add_address(login(carol), typed)

    assert response.status_code == 200
    assert response.context["form"].errors["email"] == [TAKEN]
    assert TAKEN in response.content.decode()
    assert not EmailAddress.objects.filter(user=carol, email__iexact="alice@example.com").exists()
    assert mail.outbox == []


def test_an_address_differing_in_case_on_another_users_row_is_refused():
    dora = make_user("dora")
    dora.email = "Dora.Smith@example.com"
    dora.save()

    response = add_address(login(make_user("erin")), "dora.smith@example.com")

    assert response.context["form"].errors["email"] == [TAKEN]


def test_a_refused_address_logs_in_only_to_its_own_account(client):
    alice = alice_with_address("unverified")
    carol = make_user("carol", password=CAROL_PASSWORD)
    add_address(login(carol), "alice@example.com")

    client.post(reverse("account_login"), {"login": "alice@example.com", "password": CAROL_PASSWORD})
    assert "_auth_user_id" not in client.session
    client.post(reverse("account_login"), {"login": "alice@example.com", "password": PASSWORD})
    assert int(client.session["_auth_user_id"]) == alice.pk


def test_a_reset_for_a_refused_address_mails_one_link_for_its_own_account(client):
    alice = alice_with_address("unverified")
    add_address(login(make_user("carol")), "alice@example.com")

    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})

    assert [message.to for message in mail.outbox] == [["alice@example.com"]]
    links = re.findall(r"/accounts/password/reset/key/([0-9a-z]+)-\S+/", mail.outbox[0].body)
    assert [int(user_id, 36) for user_id in links] == [alice.pk]


def test_a_free_address_is_still_added_unverified_and_mailed():
    carol = make_user("carol")

    response = add_address(login(carol), "carol.work@example.com")

    assert response.status_code == 302
    assert EmailAddress.objects.filter(user=carol, email="carol.work@example.com", verified=False).exists()
    assert [message.to for message in mail.outbox] == [["carol.work@example.com"]]


def test_signup_with_a_registered_address_is_refused_with_the_same_message(client):
    make_user("alice")

    response = client.post(reverse("account_signup"), {"email": "alice@example.com", "username": "carol",
                                                       "password1": PASSWORD, "password2": PASSWORD})

    assert response.status_code == 200
    assert response.context["form"].errors["email"] == [TAKEN]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the address lock is PostgreSQL's; set DATABASE_URL")
def test_four_accounts_adding_one_address_at_the_same_moment_attach_it_once():
    clients = [login(make_user(name)) for name in ("bob", "dan", "eve", "fay")]
    barrier = threading.Barrier(len(clients))
    statuses = []

    def add(client):
        try:
            barrier.wait(timeout=10)
            statuses.append(add_address(client, "race@example.com").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=add, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert sorted(statuses) == [200, 200, 200, 302]  # three refused with the form, one added
    assert EmailAddress.objects.filter(email__iexact="race@example.com").count() == 1
