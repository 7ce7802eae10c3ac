"""Admin for users. Moderators may look users up and suspend them or lift a suspension (each asks
for a reason and goes through ``moderation.services``); they never edit users."""
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User
from games.admin import ReadOnlyInline
from moderation import services as moderation
from moderation.admin_actions import ModerationAdminMixin, reason_action
from moderation.models import Suspension


class SuspensionInline(ReadOnlyInline):
    model = Suspension
    fk_name = "user"
    fields = ("created_at", "suspended_by", "reason", "lifted_at", "lifted_by", "lift_reason")


@admin.register(User)
class SiteUserAdmin(ModerationAdminMixin, UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "groups")
    inlines = [SuspensionInline]
    actions = ["suspend", "unsuspend"]

    suspend = reason_action(
        description="Suspend selected users", permission="suspend", done="Suspended {count} user(s).",
        service=lambda acting, user, reason: moderation.suspend_user(acting, user.pk, reason))
    unsuspend = reason_action(
        description="Lift the suspension of selected users", permission="suspend",
        done="Lifted the suspension of {count} user(s).",
        service=lambda acting, user, reason: moderation.unsuspend_user(acting, user.pk, reason))
