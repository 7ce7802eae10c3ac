"""Player-facing moderation pages: leaving a game in play (a computer player takes the seat) and
reporting a player or a game. Thin: each view parses the request and calls ``moderation.services``."""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.core import get_usage

from games.errors import Refusal
from games.forms import ReportForm
from games.models import Game
from games.services import can_watch

from . import services

RATE_LIMITED = 429
REPORT_MAX_LENGTH = ReportForm.base_fields["reason"].max_length


def _refused(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    return render(request, "games/refused.html", {"refusal": refusal}, status=refusal.status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: ask the player to confirm leaving the game in play, saying when they are the last
    person at the table (then the game is aborted). POST: a computer player takes their seat and
    keeps their cards (``services.leave_game``); back to the lobby."""
    game = Game.objects.filter(pk=game_id, seats__user=request.user, status=Game.Status.ACTIVE).first()
    if request.method != "POST":
        if game is None:
            return _refused(request, Refusal(404, "not_seated", "You have no seat in a game in play here."))
        return render(request, "games/leave.html",
                      {"game": game, "last_person": services.no_one_else_at_the_table(game, request.user)})
    try:
        seat = services.leave_game(request.user, game_id)
    except Refusal as refusal:
        return _refused(request, refusal)
    if seat.game.status == Game.Status.ABORTED:
        messages.success(request, f"You left game #{game_id}; with no person left at the table it was aborted.")
    else:
        messages.success(request, f"You left game #{game_id}; a computer player has taken your seat.")
    return redirect("lobby")


@login_required
@require_POST
def game_report(request: HttpRequest, game_id: int) -> HttpResponse:
    """Report the game, or a player at it, with a reason (the form on the game page); rate limited
    per user (``RUMMY_REPORT_RATE``). Back to the game page with a message; a refused report comes
    back as its form, holding the text typed, with the reason and the length allowed. Only a filed
    report counts towards the limit: a refused one (a typo, a blank reason) uses none of it."""
    form = ReportForm(request.POST)
    if _reports_used(request, count=False):
        return _report_refused(request, game_id, form,
                               Refusal(RATE_LIMITED, "rate_limited", "Too many reports; wait a while."))
    if not form.is_valid():
        return _report_refused(request, game_id, form, Refusal(400, "bad_report", _report_problem(form)))
    try:
        services.file_report(request.user, game_id, form.cleaned_data["reason"], form.cleaned_data["about"])
    except Refusal as refusal:
        return _report_refused(request, game_id, form, refusal)
    _reports_used(request, count=True)
    messages.success(request, "Thank you: a moderator will look at your report.")
    return redirect("game_detail", game_id=game_id)


def _reports_used(request: HttpRequest, *, count: bool) -> bool:
    """True when the user has filed all the reports ``RUMMY_REPORT_RATE`` allows for now; with
    ``count``, one more report is counted first."""
    usage = get_usage(request, group="games.report", key="user", rate=settings.RUMMY_REPORT_RATE, increment=count)
    return usage is not None and usage["count"] >= usage["limit"]


def _report_problem(form: ReportForm) -> str:
    reason = form["reason"].field.to_python(form.data.get("reason", "")).strip()
    if len(reason) > REPORT_MAX_LENGTH:
        return (f"A report may be up to {REPORT_MAX_LENGTH} characters; yours has {len(reason)}. "
                "Shorten it and send it again.")
    if not reason:
        return f"Give a reason for your report (up to {REPORT_MAX_LENGTH} characters)."
    return "Choose who the report is about from the list."


def _report_refused(request: HttpRequest, game_id: int, form: ReportForm, refusal: Refusal) -> HttpResponse:
    """The report form again, with the text as typed and why it was not filed."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_watch(request.user, game, list(game.seats.all())):
        return _refused(request, Refusal(404, "no_such_game", "There is no such game."))
    context = {"game": game, "report_seats": game.seats.select_related("user"), "refusal": refusal,
               "reason": form.data.get("reason", "").replace("\r\n", "\n"), "about": form.data.get("about", ""),
               "max_length": REPORT_MAX_LENGTH}
    return render(request, "games/report.html", context, status=refusal.status)
