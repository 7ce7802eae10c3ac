"""Admin for moderators: games, seats, deals and the move log (reports and the audit trail are in
``moderation.admin``).

Game rows are read only here: they change only through the moderation actions, each of which asks
for a reason and calls ``moderation.services``. Shuffle seeds are never shown (from a seed the stock
order of every deal follows); a moderator with ``moderation.inspect_hidden_state`` can see the hands
and the stock through the audited hidden-state page.
"""
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Max
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from moderation import services as moderation
from moderation.admin_actions import ModerationAdminMixin, ReasonForm, reason_action
from rummy_site import converters  # noqa: F401 (registers <id:...>)

from .errors import Refusal
from .models import Deal, Game, Move, Seat


class ReadOnlyAdmin(admin.ModelAdmin):
    """An admin page that lists and shows rows but never changes them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(admin.TabularInline):
    """Rows shown inside another admin page, every field read only, never added or deleted."""

    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "user", "bot_level", "former_user", "total", "place", "deadline", "expired_turns",
              "autopilot")


@admin.register(Game)
class GameAdmin(ModerationAdminMixin, ReadOnlyAdmin):
    list_display = ("id", "variant", "status", "player_names", "is_private", "created_at", "last_move_at", "version")
    list_filter = ("status", "variant", "is_private", "created_at")
    search_fields = ("=id", "seats__user__username", "seats__former_user__username", "created_by__username")
    exclude = ("seed",)
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    actions = ["abort", "void", "resend_turn"]

    def get_queryset(self, request):
        return (super().get_queryset(request).select_related("created_by").prefetch_related("seats__user")
                .annotate(last_move_at=Max("moves__created_at")))

    def get_readonly_fields(self, request, obj=None):
        return ("hidden_state_link",) if request.user.has_perm(moderation.INSPECT_HIDDEN_STATE) else ()

    @admin.display(description="Last move", ordering="last_move_at")
    def last_move_at(self, game):
        """When the latest move was made: a game in play with an old last move looks stuck."""
        return game.last_move_at

    @admin.display(description="Seats")
    def player_names(self, game):
        return ", ".join(seat.name for seat in game.seats.all())

    @admin.display(description="Hidden state")
    def hidden_state_link(self, game):
        return format_html('<a href="{}">Inspect hands and stock (audited)</a>',
                           reverse("admin:games_game_hidden_state", args=[game.pk]))

    abort = reason_action(description="Abort selected games", permission="moderate", done="Aborted {count} game(s).",
                          service=lambda user, game, reason: moderation.abort_game(user, game.pk, reason))
    void = reason_action(description="Void selected finished games", permission="moderate",
                         done="Voided {count} game(s).",
                         service=lambda user, game, reason: moderation.void_game(user, game.pk, reason))
    resend_turn = reason_action(description="Re-send the turn notification", permission="moderate",
                                done="Re-sent the notification of {count} game(s).",
                                service=lambda user, game, reason: moderation.resend_turn_notification(
                                    user, game.pk, reason))

    def get_urls(self):
        view = self.admin_site.admin_view(self.hidden_state_view)
        return [path("<id:game_id>/hidden-state/", view, name="games_game_hidden_state"), *super().get_urls()]

    def hidden_state_view(self, request, game_id: int):
        """Ask for a reason, then (POST) show every hand and the stock order; each showing is audited."""
        if not request.user.has_perm(moderation.INSPECT_HIDDEN_STATE):
            raise PermissionDenied
        game = Game.objects.filter(pk=game_id).first()
        form = ReasonForm(request.POST if request.method == "POST" else None)
        context = {**self.admin_site.each_context(request), "opts": Game._meta, "game": game, "form": form,
                   "title": f"Hidden state of {game or 'a missing game'}"}
        status = 200
        if form.is_valid():
            try:
                context["hidden"] = moderation.inspect_hidden_state(request.user, game_id, form.cleaned_data["reason"])
            except Refusal as refusal:
                context["refusal"], status = refusal, refusal.status
        return TemplateResponse(request, "admin/moderation/hidden_state.html", context, status=status)


@admin.register(Seat)
class SeatAdmin(ModerationAdminMixin, ReadOnlyAdmin):
    list_display = ("game", "position", "user", "bot_level", "former_user", "total", "place", "game_status")
    list_filter = ("game__status", "bot_level", "game__variant")
    search_fields = ("=game__id", "user__username", "former_user__username")
    list_select_related = ("game", "user", "former_user")
    actions = ["replace_with_computer", "remove_player"]

    @admin.display(description="Game status", ordering="game__status")
    def game_status(self, seat):
        return seat.game.get_status_display()

    replace_with_computer = reason_action(
        description="Replace with a computer player", permission="moderate",
        done="A computer player took {count} seat(s).",
        service=lambda user, seat, reason: _aborted_note(
            moderation.hand_seat_to_computer(user, seat.game_id, seat.position, reason).game))
    remove_player = reason_action(
        description="Remove the player from the game", permission="moderate", done="Removed {count} player(s).",
        service=lambda user, seat, reason: _aborted_note(
            moderation.remove_player(user, seat.game_id, seat.position, reason)))


def _aborted_note(game: Game) -> str | None:
    """What a seat action did besides, for its message: the game it aborted, and why."""
    if game.status != Game.Status.ABORTED:
        return None
    if game.started_at is None:
        return "the table was aborted: it was its creator's seat, and only the creator can start the table."
    return "the game was aborted: no person is left at the table."


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    exclude = ("seed",)
    list_display = ("game", "number", "dealer", "turn", "phase", "rebuilds", "started_at", "ended_at")
    list_filter = ("phase", "game__variant")
    search_fields = ("=game__id",)
    list_select_related = ("game",)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "ply", "deal_number", "seat", "actor", "action", "created_at")
    list_filter = ("actor", "game__variant")
    search_fields = ("=game__id", "seat__user__username")
    list_select_related = ("game", "seat__user")
