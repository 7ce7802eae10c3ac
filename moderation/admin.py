"""Admin for moderators: the report queue, the audit trail and suspensions. Rows change only
through the moderation actions, each of which asks for a reason and calls ``moderation.services``."""
from django.contrib import admin

from games.admin import ReadOnlyAdmin

from . import services as moderation
from .admin_actions import ModerationAdminMixin, reason_action
from .models import AuditEntry, Report, Suspension


@admin.register(Report)
class ReportAdmin(ModerationAdminMixin, admin.ModelAdmin):
    """The report queue: newest first, filtered by status; closed only through the two actions."""

    list_display = ("id", "created_at", "status", "reporter", "reported_user", "game", "short_reason", "handled_by")
    list_filter = ("status", "created_at")
    search_fields = ("reason", "reporter__username", "reported_user__username", "=game__id")
    list_select_related = ("reporter", "reported_user", "game", "handled_by")
    readonly_fields = ("reporter", "game", "reported_user", "reason", "status", "created_at", "handled_by",
                       "handled_at", "note")
    actions = ["resolve", "dismiss"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The report's page shows it; it changes only through the resolve and dismiss actions."""
        hidden = {"show_save": False, "show_save_and_continue": False, "show_save_and_add_another": False}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **hidden})

    @admin.display(description="Reason")
    def short_reason(self, report):
        return report.reason if len(report.reason) <= 80 else report.reason[:79] + "\u2026"

    resolve = reason_action(description="Resolve selected reports", permission="change",
                            done="Resolved {count} report(s).",
                            service=lambda user, report, reason: moderation.resolve_report(user, report.pk, reason))
    dismiss = reason_action(description="Dismiss selected reports", permission="change",
                            done="Dismissed {count} report(s).",
                            service=lambda user, report, reason: moderation.dismiss_report(user, report.pk, reason))


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """Every moderator action and hidden-state inspection: who, what, when, why. Never editable."""

    list_display = ("created_at", "actor", "action", "game", "target_user", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("reason", "actor__username", "target_user__username", "=game__id")
    list_select_related = ("actor", "game", "target_user")
    date_hierarchy = "created_at"
    actions = None


@admin.register(Suspension)
class SuspensionAdmin(ReadOnlyAdmin):
    list_display = ("user", "created_at", "suspended_by", "reason", "lifted_at", "lifted_by")
    list_filter = ("created_at", "lifted_at")
    search_fields = ("user__username", "reason", "suspended_by__username")
    list_select_related = ("user", "suspended_by", "lifted_by")
    date_hierarchy = "created_at"
