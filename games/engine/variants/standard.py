"""Standard Rummy (rules S1-S16 of RULES.md): its parameters and what its turn adds to the shared
steps of ``variants.base``: any draw (S5), the taken discard kept (S7), going out by a meld or
lay-off (S11), penalty scoring with the "going rummy" option (S13, S14) and the points target (S15).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..actions import Action, Discard, LayMeld, LayOff
from ..candidates import candidate_melds
from ..cards import Card, standard_deck
from ..errors import IllegalAction
from ..melds import MeldRules, extend_meld
from ..state import DealState, HandResult, Phase
from .base import TableOption, Variant

if TYPE_CHECKING:
    from ..state import GameState

FACE_CARD_POINTS = 10
DEFAULT_TARGET = 100
LOWEST_TARGET = 50
HIGHEST_TARGET = 500
"""The targets the lobby form offers (S15)."""


@dataclass(frozen=True)
class StandardRummy(Variant):
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
    deal_word = "Hand"
    help_slug = "standard-rummy"
    help_template = "games/help_standard.html"
    lobby_note = "Target and going rummy apply to Standard Rummy only"
    score_label = "Penalty points"
    score_unit = "penalty point"
    how_won = "The lowest total wins (rule S15)."
    table_options = (
        TableOption("target", "target", "game ends when a player reaches (penalty points)", DEFAULT_TARGET,
                    low=LOWEST_TARGET, high=HIGHEST_TARGET),
        TableOption("going_rummy", "going_rummy", "going rummy doubles penalties (rule S14)", False),
    )
    strong_play = MappingProxyType({"holds_melds": True})
    min_players = 2
    max_players = 4
    players_rule = "S2"
    game_end_rule = "S15"
    draw_rule = "S5"
    meld_rules = MeldRules(rule="S8", set_rule="S8", run_rule="S8", set_min=3, set_max=4, set_distinct_suits=True,
                           run_min=3)
    max_rebuilds = 2
    """Stock rebuilds allowed per hand; the next time it empties the hand is a stalemate (S16)."""
    goes_out_by_play = True
    taken_discard_rule = "S7"

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

    def describe_options(self) -> list[str]:
        """The target (S15) and whether going rummy doubles penalties (S14)."""
        return [f"The game ends when a player reaches {self.target} penalty points.",
                "Going rummy doubles the other players' penalties." if self.going_rummy else "No going-rummy bonus."]

    # ----- turn rules ----------------------------------------------------------------------

    def deal(self, players: int, game_seed: str, number: int, first: int) -> DealState:
        """Deal hand ``number`` with ``first`` as dealer (S3, S4): hands dealt one card at a time from
        the dealer's left, the next card turned up to start the discard pile; the dealer's left starts."""
        return self.dealt(players, game_seed, number, [self.hand_size(players)] * players, (first + 1) % players,
                          dealer=first, turn_up=True, phase=Phase.DRAW)

    def meld_rules_for(self, deal: DealState) -> MeldRules:
        """S8 in every hand."""
        return self.meld_rules

    def play_actions(self, state: GameState, seat: int) -> list[Action]:
        """Each legal new meld (S8) and single-card lay-off (S9), then each allowed discard (S7),
        melds and lay-offs filtered by the no-dead-end rule 0.5."""
        deal = state.deal
        hand = deal.hands[seat]
        actions: list[Action] = [LayMeld(tuple(c.key for c in shape.cards))
                                 for shape in candidate_melds(hand, self.meld_rules)
                                 if self.keeps_a_way_out(deal, hand, shape.cards)]
        for card in hand:
            if not self.keeps_a_way_out(deal, hand, (card,)):
                continue
            for meld in deal.melds:
                try:
                    extend_meld(meld.shape, (card,), self.meld_rules)
                except IllegalAction:
                    continue
                actions.append(LayOff(meld.id, (card.key,)))
        actions += [Discard(c.key) for c in hand if c != deal.taken_discard]
        return actions

    def score_deal(self, state: GameState, winner: int | None) -> HandResult:
        """Penalty points of the cards left in each hand (S13), doubled when the winner went rummy
        with the S14 option on; a stalemate scores every hand (S16)."""
        deal = state.deal
        rummy = bool(winner is not None and self.going_rummy and not deal.played_before[winner])
        factor = 2 if rummy else 1
        penalties = tuple(factor * sum(self.card_points(c) for c in hand) for hand in deal.hands)
        return HandResult(deal.number, winner, penalties, rummy)

    def game_over(self, state: GameState) -> dict | None:
        """S15: the game ends when a total reaches the target."""
        return {} if max(state.totals) >= self.target else None

    def next_first(self, state: GameState, winner: int | None) -> int:
        """The next dealer (S4, ``next_dealer``)."""
        return self.next_dealer(state.deal.dealer, winner, state.players)
