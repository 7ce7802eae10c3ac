"""Admin for users and suspensions. Moderators may look users up and suspend them or lift a
suspension (each asks for a reason and goes through ``games.moderation``); they never edit users."""
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import Suspension, User
from games import moderation
from games.admin import ReadOnlyAdmin, ReadOnlyInline
from games.admin_actions import ModerationAdminMixin, reason_action


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


@admin.register(Suspension)
class SuspensionAdmin(ReadOnlyAdmin):
    list_display = ("user", "created_at", "suspended_by", "reason", "lifted_at", "lifted_by")
    list_filter = ("created_at", "lifted_at")
    search_fields = ("user__username", "reason", "suspended_by__username")
    list_select_related = ("user", "suspended_by", "lifted_by")
    date_hierarchy = "created_at"
