"""Player-facing moderation pages: leaving a game in play (a computer player takes the seat) and
reporting a player or a game. Thin: each view parses the request and calls ``moderation.services``."""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.core import is_ratelimited

from games.errors import Refusal
from games.forms import ReportForm
from games.models import Game

from . import services

RATE_LIMITED = 429


def _refused(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    return render(request, "games/refused.html", {"refusal": refusal}, status=refusal.status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: ask the player to confirm leaving the game in play. POST: a computer player takes their
    seat and keeps their cards (``services.leave_game``); back to the lobby."""
    game = Game.objects.filter(pk=game_id, seats__user=request.user, status=Game.Status.ACTIVE).first()
    if request.method != "POST":
        if game is None:
            return _refused(request, Refusal(404, "not_seated", "You have no seat in a game in play here."))
        return render(request, "games/leave.html", {"game": game})
    try:
        services.leave_game(request.user, game_id)
    except Refusal as refusal:
        return _refused(request, refusal)
    messages.success(request, f"You left game #{game_id}; a computer player has taken your seat.")
    return redirect("lobby")


@login_required
@require_POST
def game_report(request: HttpRequest, game_id: int) -> HttpResponse:
    """Report the game, or a player at it, with a reason (the form on the game page); rate limited
    per user (``RUMMY_REPORT_RATE``). Back to the game page with a message."""
    if is_ratelimited(request, group="games.report", key="user", rate=settings.RUMMY_REPORT_RATE, increment=True):
        return _refused(request, Refusal(RATE_LIMITED, "rate_limited", "Too many reports; wait a while."))
    form = ReportForm(request.POST)
    if not form.is_valid():
        return _refused(request, Refusal(400, "bad_report", "Give a reason for your report (up to 1000 characters)."))
    try:
        services.file_report(request.user, game_id, form.cleaned_data["reason"], form.cleaned_data["about"])
    except Refusal as refusal:
        return _refused(request, refusal)
    messages.success(request, "Thank you: a moderator will look at your report.")
    return redirect("game_detail", game_id=game_id)
