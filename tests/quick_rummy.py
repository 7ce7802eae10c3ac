"""Quick Rummy: a fifth variant that lives in the test suite alone, to show that a game is one
module. It is Standard Rummy (S1-S16) with 7 cards to every player and a 50-point target, and
one table option, the target (10-100 penalty points). ``tests/games/test_fifth_variant.py``
registers it and plays it through the site; nothing outside this module names it."""
from __future__ import annotations

from dataclasses import dataclass

from games.engine.variants.base import TableOption
from games.engine.variants.standard import StandardRummy

HAND_SIZE = 7
TARGET = 50


@dataclass(frozen=True)
class QuickRummy(StandardRummy):
    """Standard Rummy with 7 cards each and a 50-point target by default."""

    target: int = TARGET

    name = "quick"
    title = "Quick Rummy"
    help_slug = "quick-rummy"
    help_template = "games/help_standard.html"
    lobby_note = f"Quick Rummy deals {HAND_SIZE} cards and plays to {TARGET}"
    table_options = (TableOption("target", "quick_target", "game ends when a player reaches (penalty points)", TARGET,
                                 low=10, high=100),)

    def hand_size(self, players: int) -> int:
        """7 cards each, whatever the number of players."""
        return HAND_SIZE

    def options(self) -> dict:
        """The table options as JSON: ``{"target": int}``."""
        return {"target": self.target}
