"""Forms of the accounts pages."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from games.engine.variants import VARIANTS
from records.history import HistoryFilters


class HistoryFilterForm(forms.Form):
    """The match history's filters (GET): game type, result, opponent's user name, date range."""

    variant = forms.ChoiceField(label="Game", required=False,
                                choices=[("", "All games")] + [(name, v.title) for name, v in VARIANTS.items()])
    result = forms.ChoiceField(label="Result", required=False,
                               choices=[("", "Any result"), ("won", "Won"), ("lost", "Lost")])
    opponent = forms.CharField(label="Opponent", required=False, max_length=150)
    since = forms.DateField(label="From", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label="To", required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean_opponent(self) -> int | None:
        """The opponent's user id, or None when blank. Raises ValidationError for an unknown name."""
        name = self.cleaned_data["opponent"].strip()
        if not name:
            return None
        user_id = get_user_model().objects.filter(username=name).values_list("pk", flat=True).first()
        if user_id is None:
            raise forms.ValidationError(f"There is no player called {name}.")
        return user_id

    def filters(self) -> HistoryFilters:
        """The valid filters (call after ``is_valid``)."""
        data = self.cleaned_data
        return HistoryFilters(data["variant"], data["result"], data["opponent"], data["since"], data["until"])
