"""Helpers for the moderation tests: moderators made as the site makes them (staff in the
"Moderators" group created by migration 0007, never superusers)."""
from importlib import import_module

from django.apps import apps
from django.contrib.auth.models import Group

from tests.factories import make_user

MODERATORS = "Moderators"
GROUP_MIGRATION = "games.migrations.0007_moderation"


def moderators_group() -> Group:
    """The Moderators group. A transactional test empties every table after it runs, rows made by
    data migrations included; the group is then made again by the migration's own function."""
    group = Group.objects.filter(name=MODERATORS).first()
    if group is None:
        import_module(GROUP_MIGRATION).create_moderators_group(apps, None)
        group = Group.objects.get(name=MODERATORS)
    return group


def make_moderator(name: str | None = None):
    """A staff user in the Moderators group (not a superuser)."""
    user = make_user(name)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(moderators_group())
    return type(user).objects.get(pk=user.pk)
