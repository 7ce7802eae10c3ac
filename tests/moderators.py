"""Helpers for the moderation tests: moderators made as the site makes them (staff in the
"Moderators" group created by games migration 0007, its permissions moved to the moderation app by
moderation migration 0001; never superusers)."""
from django.apps import apps
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission

from tests.factories import make_user

MODERATORS = "Moderators"
MODERATOR_PERMISSIONS = [
    ("games", "view_game"), ("games", "view_seat"), ("games", "view_deal"), ("games", "view_move"),
    ("moderation", "view_report"), ("moderation", "change_report"), ("moderation", "view_auditentry"),
    ("moderation", "moderate_game"), ("moderation", "inspect_hidden_state"),
    ("accounts", "view_user"), ("moderation", "view_suspension"), ("moderation", "suspend_user"),
]
"""(app label, codename) of each permission the migrated Moderators group holds (the test database's
group, made by the migrations, is checked against the same set in ``test_moderation_services``)."""


def moderators_group() -> Group:
    """The Moderators group. A transactional test empties every table after it runs, rows made by
    data migrations included; the group is then made again with the permissions it has after
    migrating."""
    group = Group.objects.filter(name=MODERATORS).first()
    if group is None:
        for app_config in apps.get_app_configs():
            create_permissions(app_config, verbosity=0)
        group = Group.objects.create(name=MODERATORS)
        group.permissions.set(Permission.objects.get(content_type__app_label=app, codename=codename)
                              for app, codename in MODERATOR_PERMISSIONS)
    return group


def make_moderator(name: str | None = None):
    """A staff user in the Moderators group (not a superuser)."""
    user = make_user(name)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(moderators_group())
    return type(user).objects.get(pk=user.pk)
