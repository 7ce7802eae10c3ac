"""Admin for game rows: tables, seats, deals and the move log (read only for deals and moves).

Shuffle seeds are never shown: from a seed the stock order of every deal follows.
"""
from django.contrib import admin

from .models import Deal, Game, Move, Notification, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "bot_level", "total", "place", "deadline", "expired_turns", "autopilot")
    readonly_fields = fields
    can_delete = False


class ReadOnlyAdmin(admin.ModelAdmin):
    """An admin page that lists and shows rows but never changes them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "variant", "status", "players", "is_private", "created_by", "created_at", "version")
    list_filter = ("variant", "status", "is_private")
    search_fields = ("id", "seats__user__username", "created_by__username")
    exclude = ("seed",)
    readonly_fields = ("variant", "options", "players", "version", "invite_code", "created_by",
                       "created_at", "started_at", "finished_at")
    inlines = [SeatInline]


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    exclude = ("seed",)
    list_display = ("game", "number", "dealer", "turn", "phase", "rebuilds", "ended_at")
    list_filter = ("phase",)
    search_fields = ("game__id",)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "ply", "deal_number", "seat", "actor", "action", "created_at")
    list_filter = ("actor",)
    search_fields = ("game__id",)
    list_select_related = ("game", "seat__user")


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "user", "game", "turn_number", "day")
    list_filter = ("kind",)
    search_fields = ("user__username", "game__id")
