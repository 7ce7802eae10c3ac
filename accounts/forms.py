"""Forms of the preferences page: which e-mails, quiet hours and time zone; declaring an absence."""
from __future__ import annotations

import zoneinfo

from django import forms

from .models import PlayPreferences


class PlayPreferencesForm(forms.ModelForm):
    """Each e-mail kind on or off, the digest hour, quiet hours and the user's time zone."""

    time_zone = forms.ChoiceField(choices=[(name, name) for name in sorted(zoneinfo.available_timezones())])

    class Meta:
        model = PlayPreferences
        fields = ["email_your_turn", "email_warning", "email_digest", "digest_hour", "quiet_start", "quiet_end",
                  "time_zone"]
        widgets = {"quiet_start": forms.TimeInput(attrs={"type": "time"}),
                   "quiet_end": forms.TimeInput(attrs={"type": "time"}),
                   "digest_hour": forms.NumberInput(attrs={"min": 0, "max": 23})}

    def clean(self):
        """Quiet hours need both ends, or neither."""
        data = super().clean()
        if (data.get("quiet_start") is None) != (data.get("quiet_end") is None):
            raise forms.ValidationError("Give both ends of your quiet hours, or neither.")
        return data


class AbsenceForm(forms.Form):
    """An absence from one moment to another, in the user's own time zone (PlayPreferences): the
    view makes the two times aware in that zone."""

    starts_at = forms.DateTimeField(label="Away from", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    ends_at = forms.DateTimeField(label="Back on", widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
