"""Admin actions that ask for a reason first: the changelist action shows a form (the selected rows
and a reason), and only its "apply" submit calls the moderation service once per selected row.

A refused row (``errors.Refusal``) is reported as an error message and the others still go ahead.
"""
from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.template.response import TemplateResponse

from games.errors import Refusal

from .services import MODERATE_GAME, REASON_MAX_LENGTH, SUSPEND_USER

APPLY = "apply"


class ReasonForm(forms.Form):
    """The reason a moderator gives for an action (required, at most 1000 characters)."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), max_length=REASON_MAX_LENGTH,
                             help_text="Written to the audit log with your name and the time.")


class CheckedSelectionMixin:
    """ModelAdmin whose changelist actions refuse a selection that holds something other than the
    model's keys (an empty or non-numeric id, or a number out of the key column's range, as only a
    forged POST sends): the changelist comes back with an error message and nothing is changed,
    instead of the id failing in the query (SQLite's OverflowError on a number past 64 bits)."""

    def response_action(self, request, queryset):
        key = self.model._meta.pk
        ops = connections[router.db_for_read(self.model)].ops
        low, high = ops.integer_field_ranges.get(key.get_internal_type(), (None, None))
        try:
            for value in request.POST.getlist(helpers.ACTION_CHECKBOX_NAME):
                number = key.to_python(value)
                if low is not None and not low <= number <= high:
                    raise ValidationError("out of range")
        except ValidationError:
            self.message_user(request, "The selection is not a list of rows of this page. No items have been changed.",
                              messages.ERROR)
            return None
        return super().response_action(request, queryset)


class ModerationAdminMixin(CheckedSelectionMixin):
    """ModelAdmin permission hooks for ``allowed_permissions``: ``moderate`` (moderation.moderate_game),
    ``suspend`` (moderation.suspend_user); selections checked (``CheckedSelectionMixin``)."""

    def has_moderate_permission(self, request) -> bool:
        return request.user.has_perm(MODERATE_GAME)

    def has_suspend_permission(self, request) -> bool:
        return request.user.has_perm(SUSPEND_USER)


def reason_action(*, description: str, permission: str, done: str,
                  service: Callable) -> Callable:
    """An admin action ``description`` (needing ModelAdmin permission hook ``permission``) that asks
    for a reason, then calls ``service(request.user, row, reason)`` for each selected row.

    ``done`` is the success message with ``{count}``, e.g. ``"Aborted {count} game(s)."``. A
    service that returns a string (what else happened, e.g. the game was aborted) has it shown
    beside that row.
    """

    def action(modeladmin, request, queryset):
        form = ReasonForm(request.POST if APPLY in request.POST else None)
        if form.is_valid():
            count = 0
            for row in queryset:
                try:
                    outcome = service(request.user, row, form.cleaned_data["reason"])
                    count += 1
                    if isinstance(outcome, str):
                        modeladmin.message_user(request, f"{row}: {outcome}", messages.WARNING)
                except Refusal as refusal:
                    modeladmin.message_user(request, f"{row}: {refusal.message}", messages.ERROR)
            if count:
                modeladmin.message_user(request, done.format(count=count), messages.SUCCESS)
            return None
        context = {
            **modeladmin.admin_site.each_context(request),
            "title": description,
            "opts": modeladmin.model._meta,
            "rows": queryset,
            "form": form,
            "action_name": request.POST.get("action", ""),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "apply": APPLY,
        }
        return TemplateResponse(request, "admin/moderation/reason_form.html", context)

    return admin.action(description=description, permissions=[permission])(action)
