"""The service layer's one error: a refused request, with the HTTP status it answers with."""
from __future__ import annotations

from .engine.errors import IllegalAction

CONFLICT_CODES = frozenset({"not_your_turn", "game_over", "wrong_phase"})
"""Engine refusals that mean the game moved on (409) rather than a move against the rules (422)."""


class Refusal(Exception):
    """A request the service refuses; nothing was written.

    Attributes:
        status: HTTP status for the answer: 400 malformed, 403 not allowed, 404 no such game,
            409 conflict (stale version, not your turn, finished game), 422 against the rules.
        code: stable machine-readable code, e.g. ``"stale_version"``, ``"bad_meld"``.
        message: a sentence for the player. rule: rule book number, when one applies.
    """

    def __init__(self, status: int, code: str, message: str, rule: str = ""):
        super().__init__(message)
        self.status, self.code, self.message, self.rule = status, code, message, rule

    @property
    def first_rule(self) -> str:
        """The rule to look up for ``rule``: the rule itself, or the first of a range or list
        (``"R6-R8"`` -> ``"R6"``); "" when none applies. Help pages anchor it as ``#rule-<id>``."""
        return self.rule.split("-")[0].split(",")[0].strip()

    @classmethod
    def from_illegal(cls, error: IllegalAction) -> Refusal:
        """Map an engine IllegalAction to a Refusal (400 malformed, 409 conflicts, else 422)."""
        if error.code == "malformed":
            status = 400
        elif error.code in CONFLICT_CODES:
            status = 409
        else:
            status = 422
        return cls(status, error.code, error.message, error.rule)
