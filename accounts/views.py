"""Profile and match history pages (queries come from ``records.history``), and the preferences
page: e-mail notices, quiet hours, time zone, and declared absences."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games import turn_clock
from games.models import Game
from notices import services as notices
from records.chart import Chart, line_chart
from records.history import HistoryFilters, history_page, variant_stats
from records.models import Rating, RatingChange

from . import preferences
from .forms import AbsenceForm, HistoryFilterForm, PlayPreferencesForm
from .models import Absence, User, user_named
from .preferences import AbsenceRefused, declare_absence, local_zone, preferences_for
from .session_zone import remember_time_zone

RECENT_GAMES = 10
RATING_HISTORY = 30


def rating_chart(changes: list[RatingChange]) -> Chart | None:
    """One line per game type of the shown rating before the first of ``changes`` (newest first)
    and after each; None without changes."""
    by_variant: dict[str, list[int]] = {}
    for change in reversed(changes):
        by_variant.setdefault(change.get_variant_display(), [change.before]).append(change.after)
    return line_chart(list(by_variant), list(by_variant.values())) if by_variant else None


def _player_named(username: str) -> User:
    """The user a player page's URL names, in any letter case (``user_named``); 404 for none."""
    player = user_named(username)
    if player is None:
        raise Http404("No player has that name.")
    return player


def _canonical(request: HttpRequest, view_name: str, player: User) -> HttpResponse:
    """A redirect (302) to page ``view_name`` of ``player`` under the name as they spell it, the
    query (filters, cursors) kept: one address per page, whatever case a link or a person typed.
    Not permanent: a superuser may rename a user in the admin."""
    url = reverse(view_name, args=[player.username])
    query = request.GET.urlencode()
    return redirect(f"{url}?{query}" if query else url)


@login_required
@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's profile: games played and won and average place per game type, ratings with
    their history, recent games; on one's own page also the games in progress. Another player's
    private games are left out of the lists."""
    player = _player_named(username)
    if player.username != username:
        return _canonical(request, "profile", player)
    own = player.pk == request.user.pk
    recent = history_page(player, HistoryFilters(), include_private=own, size=RECENT_GAMES)
    ratings = {rating.variant: rating for rating in Rating.objects.filter(user=player)}
    changes = RatingChange.objects.filter(user=player)
    if not own:
        changes = changes.filter(game__is_private=False)
    history = list(changes[:RATING_HISTORY])
    in_progress = Game.objects.for_user(player).not_over().prefetch_related("seats__user") if own else []
    return render(request, "accounts/profile.html", {
        "player": player, "own": own, "stats": [(row, ratings.get(row.variant)) for row in variant_stats(player)],
        "rating_history": history, "rating_chart": rating_chart(history), "recent": recent,
        "in_progress": in_progress,
    })


@login_required
@require_safe
def match_history(request: HttpRequest, username: str) -> HttpResponse:
    """A player's finished games, newest first, filtered by game type, result, opponent and date,
    paged by keyset (``?older=<cursor>`` / ``?newer=<cursor>``)."""
    player = _player_named(username)
    if player.username != username:
        return _canonical(request, "match_history", player)
    form = HistoryFilterForm(request.GET)
    page = None
    if form.is_valid():
        newer = "newer" in request.GET
        cursor = request.GET.get("newer" if newer else "older", "")
        page = history_page(player, form.filters(), cursor=cursor, newer=newer,
                            include_private=player.pk == request.user.pk)
    query = request.GET.copy()
    for key in ("older", "newer"):
        query.pop(key, None)
    return render(request, "accounts/history.html", {"player": player, "form": form, "page": page,
                                                     "filter_query": query.urlencode()},
                  status=200 if page is not None else 400)



@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def play_preferences(request: HttpRequest) -> HttpResponse:
    """Show and save the user's notice preferences (POST ``form=preferences``) or declare an
    absence (POST ``form=absence``). Absence times are entered and shown in the user's time zone
    (Django's current time zone for this request); the zone shown or saved is kept in the session
    for every page that follows."""
    prefs = preferences_for(request.user)
    remember_time_zone(request, prefs.time_zone)
    zone = local_zone(prefs)
    with timezone.override(zone):
        form, absence_form = PlayPreferencesForm(instance=prefs), AbsenceForm()
        status = 200
        if request.method == "POST" and request.POST.get("form") == "preferences":
            form = PlayPreferencesForm(request.POST, instance=prefs)
            if form.is_valid():
                saved = form.save()
                notices.schedule_digest(saved, timezone.now())
                remember_time_zone(request, saved.time_zone)
                messages.success(request, "Your preferences are saved.")
                return redirect("play_preferences")
            status = 400
        elif request.method == "POST" and request.POST.get("form") == "absence":
            absence_form = AbsenceForm(request.POST)
            if absence_form.is_valid():
                try:
                    declare_absence(request.user, absence_form.cleaned_data["starts_at"],
                                    absence_form.cleaned_data["ends_at"], timezone.now())
                except AbsenceRefused as refusal:
                    absence_form.add_error(None, str(refusal))
                else:
                    turn_clock.absences_changed(request.user, timezone.now())
                    messages.success(request, "Your absence is recorded.")
                    return redirect("play_preferences")
            status = 400
        absences = Absence.objects.filter(user=request.user, ends_at__gt=timezone.now())
        return render(request, "accounts/play_preferences.html",
                      {"form": form, "absence_form": absence_form, "absences": absences, "zone": zone},
                      status=status)

@login_required
@require_POST
def cancel_absence(request: HttpRequest, absence_id: int) -> HttpResponse:
    """Cancel one of the user's own absences not over yet (a future one goes, an ongoing one ends
    now) and move their running deadlines back; 404 for anyone else's or one already over."""
    now = timezone.now()
    absence = preferences.cancel_absence(request.user, absence_id, now)
    if absence is None:
        raise Http404("You have no such absence.")
    turn_clock.absences_changed(request.user, now)
    messages.success(request, "Your absence is cancelled." if absence.pk is None else "Your absence ends now.")
    return redirect("play_preferences")
