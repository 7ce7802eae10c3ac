"""Forms of the accounts pages: sign-up (allauth's, with the user name's rules shown); adding an
e-mail address (allauth's, refusing another account's address); match history
filters; the preferences page (which e-mails, quiet hours and time zone; declaring an absence)."""
from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.account.forms import AddEmailForm as AllauthAddEmailForm
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.html import format_html

from games.engine.variants import VARIANTS
from records.history import HistoryFilters

from .models import PlayPreferences, user_named
from .preferences import offered_time_zones


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form (``ACCOUNT_FORMS``) with the user model's help text under the user
    name: the characters a name may have."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = get_user_model()._meta.get_field("username").help_text


class AddEmailForm(AllauthAddEmailForm):
    """allauth's form of the e-mail page (``ACCOUNT_FORMS``), refusing an address that belongs to
    another account, verified or not, in any letter case, with sign-up's message ("A user is already
    registered with this email address"). Under enumeration prevention allauth would attach it
    unverified, and it would then log in to, and reset the password of, both accounts."""

    def clean_email(self) -> str:
        """The address as allauth cleans it; raises ValidationError if another account has it.

        On PostgreSQL the address is locked first (a transaction-level advisory lock, held until
        the e-mail page's transaction commits, ``rummy_site.urls``), so two accounts adding it at
        the same moment are checked one after the other."""
        email = get_adapter().clean_email(self.cleaned_data["email"].lower())
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"account-email:{email}"])
        others = get_user_model().objects.exclude(pk=self.user.pk)
        if (others.filter(email__iexact=email).exists()
                or EmailAddress.objects.filter(email__iexact=email).exclude(user=self.user).exists()):
            raise get_adapter().validation_error("email_taken")
        return super().clean_email()


def game_choices() -> list[tuple[str, str]]:
    """"All games", then every registered variant by title."""
    return [("", "All games")] + [(name, v.title) for name, v in VARIANTS.items()]


class HistoryFilterForm(forms.Form):
    """The match history's filters (GET): game type, result, opponent's user name (people only: a
    computer seat is a different player in every game), date range."""

    variant = forms.ChoiceField(label="Game", required=False, choices=game_choices)
    result = forms.ChoiceField(label="Result", required=False,
                               choices=[("", "Any result"), ("won", "Won"), ("lost", "Lost")])
    opponent = forms.CharField(label="Opponent", required=False, max_length=150)
    since = forms.DateField(label="From", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label="To", required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean_opponent(self) -> int | None:
        """The opponent's user id (the name in any letter case), or None when blank. Raises
        ValidationError for an unknown name."""
        name = self.cleaned_data["opponent"].strip()
        if not name:
            return None
        opponent = user_named(name)
        if opponent is None:
            raise forms.ValidationError(f"There is no player called {name}. Computer players cannot be chosen "
                                        "here: give a person's user name.")
        return opponent.pk

    def clean(self):
        """A date range whose From is after its To is refused rather than shown empty."""
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", f"The To date ({until}) is before the From date ({since}): no day is in "
                                    "that range.")
        return data

    def filters(self) -> HistoryFilters:
        """The valid filters (call after ``is_valid``); dates are days in the current time zone."""
        data = self.cleaned_data
        return HistoryFilters(data["variant"], data["result"], data["opponent"], data["since"], data["until"],
                              timezone.get_current_timezone())

def time_zone_choices() -> list:
    """"UTC", then the offered zones grouped by area, each shown by its location ("Buenos Aires")."""
    areas: dict[str, list[tuple[str, str]]] = {}
    for name in offered_time_zones()[1:]:
        area, location = name.split("/", 1)
        areas.setdefault(area, []).append((name, location.replace("_", " ")))
    return [("UTC", "UTC"), *areas.items()]


class PlayPreferencesForm(forms.ModelForm):
    """Each e-mail kind on or off, the digest hour, quiet hours and the user's time zone (one of
    ``offered_time_zones``; a stored zone no longer offered shows as UTC until the user chooses)."""

    time_zone = forms.ChoiceField(
        choices=time_zone_choices,
        error_messages={"invalid_choice": "%(value)s is not a time zone you can choose: pick a place from the "
                                          "list (such as Europe/Berlin), or UTC."})
    digest_hour = forms.IntegerField(label="Digest hour (your time)", min_value=0, max_value=23, initial=8)

    class Meta:
        model = PlayPreferences
        fields = ["email_your_turn", "email_warning", "email_digest", "digest_hour", "quiet_start", "quiet_end",
                  "time_zone"]
        widgets = {"quiet_start": forms.TimeInput(attrs={"type": "time"}),
                   "quiet_end": forms.TimeInput(attrs={"type": "time"}),
                   "digest_hour": forms.NumberInput(attrs={"min": 0, "max": 23})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        stored = self.instance.time_zone
        if stored not in offered_time_zones():
            self.initial["time_zone"] = "UTC"
            self.fields["time_zone"].help_text = format_html("Your saved zone ({}) is no longer offered: choose "
                                                             "yours.", stored)

    def clean(self):
        """Quiet hours need both ends, or neither, and two different times (the same time at both
        ends would be no quiet hours at all, ``preferences.in_quiet_hours``)."""
        data = super().clean()
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError("Give both ends of your quiet hours, or neither.")
        if data.get("quiet_start") is not None and data.get("quiet_start") == data.get("quiet_end"):
            raise forms.ValidationError("Quiet hours that start and end at the same time are empty: give two "
                                        "different times, or leave both blank.")
        return data


class AbsenceForm(forms.Form):
    """An absence from one moment to another, read in the current time zone (the view makes it the
    user's own): a time that zone skips or repeats (a clock change) is refused."""

    starts_at = forms.DateTimeField(label="Away from", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    ends_at = forms.DateTimeField(label="Back on", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.label = f"{field.label} ({timezone.get_current_timezone_name()} time)"
