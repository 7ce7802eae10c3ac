"""Admin for the notices sent: read only."""
from django.contrib import admin

from games.admin import ReadOnlyAdmin

from .models import Notification


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "user", "game", "turn_number", "day")
    list_filter = ("kind",)
    search_fields = ("user__username", "game__id")
