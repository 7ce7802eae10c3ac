"""Migration 0006: an unverified address the e-mail page attached to a second account before it
refused another account's address is dropped, so it logs in to and resets only its own account."""
import importlib
import re

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.core import mail
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

CAROL_PASSWORD = "carols-own-secret-77"
migration = importlib.import_module("accounts.migrations.0006_drop_second_claims_on_email_addresses")


def run_migration():
    """Run the migration's data step on the current rows."""
    migration.drop_second_claims(apps, None)


def claims(email):
    """The user names holding ``email`` as an allauth address, in any letter case, sorted."""
    return sorted(EmailAddress.objects.filter(email__iexact=email).values_list("user__username", flat=True))


@pytest.mark.parametrize("alices", [None, {"verified": False, "primary": True}, {"verified": True, "primary": True},
                                    {"verified": False, "primary": False}])
def test_carols_claim_on_alices_address_is_dropped(alices):
    alice = make_user("alice")
    if alices is not None:
        EmailAddress.objects.create(user=alice, email="alice@example.com", **alices)
    carol = make_user("carol", password=CAROL_PASSWORD)
    EmailAddress.objects.create(user=carol, email="alice@example.com", verified=False, primary=False)

    run_migration()

    assert claims("alice@example.com") == ([] if alices is None else ["alice"])


def test_a_claim_in_another_letter_case_is_dropped():
    make_user("alice")
    EmailAddress.objects.create(user=make_user("carol"), email="Alice@Example.com", verified=False, primary=False)

    run_migration()

    assert claims("alice@example.com") == []


def test_of_two_unverified_claims_on_nobodys_user_row_the_earlier_stays():
    first, second = make_user("carol"), make_user("dora")
    EmailAddress.objects.create(user=first, email="shared@example.com", verified=False, primary=False)
    EmailAddress.objects.create(user=second, email="shared@example.com", verified=False, primary=False)

    run_migration()

    assert claims("shared@example.com") == ["carol"]


def test_own_and_verified_addresses_stay():
    carol = make_user("carol")
    EmailAddress.objects.create(user=carol, email="carol@example.com", verified=False, primary=True)
    EmailAddress.objects.create(user=carol, email="carol.work@example.com", verified=False, primary=False)
    EmailAddress.objects.create(user=carol, email="carol.home@example.com", verified=True, primary=False)

    run_migration()

    assert EmailAddress.objects.filter(user=carol).count() == 3


def test_after_it_alices_address_logs_in_and_resets_only_alice(client):
    alice = make_user("alice")
    carol = make_user("carol", password=CAROL_PASSWORD)
    EmailAddress.objects.create(user=carol, email="alice@example.com", verified=False, primary=False)

    run_migration()

    client.post(reverse("account_login"), {"login": "alice@example.com", "password": CAROL_PASSWORD})
    assert "_auth_user_id" not in client.session
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    links = re.findall(r"/accounts/password/reset/key/([0-9a-z]+)-\S+/", mail.outbox[0].body)
    assert len(mail.outbox) == 1 and [int(user_id, 36) for user_id in links] == [alice.pk]
    client.post(reverse("account_login"), {"login": "alice@example.com", "password": PASSWORD})
    assert int(client.session["_auth_user_id"]) == alice.pk
