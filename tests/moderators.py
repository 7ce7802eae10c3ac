"""Helpers for the moderation tests: moderators made as the site makes them (staff in the
"Moderators" group created by migration 0007, never superusers)."""
from django.contrib.auth.models import Group

from tests.factories import make_user

MODERATORS = "Moderators"


def make_moderator(name: str | None = None):
    """A staff user in the Moderators group (not a superuser)."""
    user = make_user(name)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name=MODERATORS))
    return type(user).objects.get(pk=user.pk)
