"""Drop the unverified e-mail addresses that the e-mail page attached to a second account before it
refused another account's address (README, "E-mail addresses"): each logged in to that account and
got it a password reset link."""
from django.db import migrations
from django.db.models import Q


def drop_second_claims(apps, schema_editor):
    """Delete each unverified, non-primary address (with its pending confirmations) that another
    account has, in any letter case, as its user row's address, as a verified or primary address,
    or as an older address; the earliest of several unverified claims stays."""
    EmailAddress = apps.get_model("account", "EmailAddress")
    User = apps.get_model("accounts", "User")
    for address in EmailAddress.objects.filter(verified=False, primary=False).order_by("pk").iterator():
        others = EmailAddress.objects.filter(email__iexact=address.email).exclude(user_id=address.user_id)
        if (User.objects.filter(email__iexact=address.email).exclude(pk=address.user_id).exists()
                or others.filter(Q(verified=True) | Q(primary=True) | Q(pk__lt=address.pk)).exists()):
            address.delete()


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_ascii_usernames"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(drop_second_claims, migrations.RunPython.noop)]
