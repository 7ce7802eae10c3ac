"""Standard Rummy's parameters (rules S1-S16 of RULES.md).

The turn flow itself lives in ``games.engine.state``; this module says what is particular to the
game: deck, hand size, meld limits, card points, dealer rotation and the table options.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card, standard_deck
from ..errors import IllegalAction
from ..melds import MeldRules

FACE_CARD_POINTS = 10
DEFAULT_TARGET = 100


@dataclass(frozen=True)
class StandardRummy:
    """Standard Rummy with its table options.

    Attributes:
        target: penalty total that ends the game (rule S15), default 100.
        going_rummy: S14 option; going out in one turn doubles every opponent's penalty.

    Raises IllegalAction("bad_options") for an option of the wrong type or out of range.
    """

    target: int = DEFAULT_TARGET
    going_rummy: bool = False

    name = "standard"
    title = "Standard Rummy"
    min_players = 2
    max_players = 4
    meld_rules = MeldRules(rule="S8", set_min=3, set_max=4, set_distinct_suits=True, run_min=3)
    max_rebuilds = 2
    """Stock rebuilds allowed per hand; the next time it empties the hand is a stalemate (S16)."""

    def __post_init__(self):
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise IllegalAction("bad_options", "The target must be a positive whole number of points.", "S15")
        if not isinstance(self.going_rummy, bool):
            raise IllegalAction("bad_options", "Going rummy is either on or off.", "S14")

    def deck(self) -> list[Card]:
        """One 52-card deck, no jokers (rule S1)."""
        return standard_deck()

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player: 10 with two players, 7 with three or four (rule S3)."""
        return 10 if players == 2 else 7

    def card_points(self, card: Card) -> int:
        """Penalty points of a card left in hand: A=1, 2-10 face value, J/Q/K=10 (rule S13)."""
        return min(card.rank, FACE_CARD_POINTS)

    def next_dealer(self, dealer: int, winner: int | None, players: int) -> int:
        """Dealer of the next hand (rule S4).

        With two players the winner deals; with 3-4, or after a stalemate, the deal passes left.
        """
        if players == 2 and winner is not None:
            return winner
        return (dealer + 1) % players

    def options(self) -> dict:
        """The table options as JSON: ``{"target": int, "going_rummy": bool}``."""
        return {"target": self.target, "going_rummy": self.going_rummy}
