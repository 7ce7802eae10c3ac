"""Errors raised by the rules engine.

Rule 0.7: an illegal action is rejected, changes nothing and carries a machine-readable code.
"""


class IllegalAction(Exception):
    """An action the rules do not allow at this point (rule 0.7).

    Attributes:
        code: stable machine-readable code, e.g. ``"not_your_turn"`` or ``"bad_meld"``.
        message: a sentence for the player, e.g. "A run needs cards of one suit".
        rule: the rule book number that forbids it, e.g. ``"S8"``; empty when none applies.
    """

    def __init__(self, code: str, message: str, rule: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} (rule {self.rule})" if self.rule else self.message

    def to_json(self) -> dict:
        """Return ``{"code", "message", "rule"}`` for an API answer or a log line."""
        return {"code": self.code, "message": self.message, "rule": self.rule}
