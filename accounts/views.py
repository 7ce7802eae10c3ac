"""The preferences page: e-mail notices, quiet hours, time zone, and declared absences."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from games import notices, turn_clock

from .forms import AbsenceForm, PlayPreferencesForm
from .models import Absence
from .preferences import AbsenceRefused, declare_absence, local_zone, preferences_for


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def play_preferences(request: HttpRequest) -> HttpResponse:
    """Show and save the user's notice preferences (POST ``form=preferences``) or declare an
    absence (POST ``form=absence``; times in the user's time zone)."""
    prefs = preferences_for(request.user)
    form, absence_form = PlayPreferencesForm(instance=prefs), AbsenceForm()
    status = 200
    if request.method == "POST" and request.POST.get("form") == "preferences":
        form = PlayPreferencesForm(request.POST, instance=prefs)
        if form.is_valid():
            notices.schedule_digest(form.save(), timezone.now())
            messages.success(request, "Your preferences are saved.")
            return redirect("play_preferences")
        status = 400
    elif request.method == "POST" and request.POST.get("form") == "absence":
        absence_form = AbsenceForm(request.POST)
        if absence_form.is_valid():
            zone = local_zone(prefs)
            starts, ends = (absence_form.cleaned_data[name].replace(tzinfo=zone) for name in ("starts_at", "ends_at"))
            try:
                declare_absence(request.user, starts, ends, timezone.now())
            except AbsenceRefused as refusal:
                absence_form.add_error(None, str(refusal))
            else:
                turn_clock.absences_changed(request.user, timezone.now())
                messages.success(request, "Your absence is recorded.")
                return redirect("play_preferences")
        status = 400
    absences = Absence.objects.filter(user=request.user, ends_at__gt=timezone.now())
    return render(request, "accounts/play_preferences.html",
                  {"form": form, "absence_form": absence_form, "absences": absences, "zone": local_zone(prefs)},
                  status=status)
