"""Wild Rummy (rules W1-W15 of RULES.md): its parameters and what its turn adds to the shared
steps of ``variants.base``.

What differs from Standard Rummy: a rotating wild rank (W3), a starter dealt 8 cards who skips the
first draw, with an empty discard pile (W4); the discard may be taken only when it can be played at
once, and taken discards and wilds freed by swaps are *pending* until played (W6); wilds on the
table can be swapped out (W11); a player goes out only by discarding (W12), with the surplus-wild
exception; one stock rebuild before a stalemate (W13); streak scoring (W14); 13 deals (W15).

The no-dead-end rule (0.5) is kept by looking ahead: a play, a taken discard or a swap is legal only
if afterwards the player can still play every pending card and keep one card to discard.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..actions import Action, Discard, LayMeld, LayOff, SwapWild
from ..candidates import candidate_melds
from ..cards import RANKS, Card, parse_card, standard_deck
from ..errors import IllegalAction
from ..melds import (
    RUN,
    MeldRules,
    MeldShape,
    add_surplus_wild,
    declaration,
    extend_meld,
    extension_readings,
    show,
    show_cards,
    swappable_wilds,
)
from ..state import DealState, HandResult, Phase, TableMeld
from .base import Variant

if TYPE_CHECKING:
    from ..state import GameState, PlayerView

DEALS = 13
STARTER_CARDS = 8
OTHER_CARDS = 7
WILD_POINTS = 25
FACE_CARD_POINTS = 10
GOING_OUT_SCORE = -2
STREAK_SCORE = -12
STREAK_LENGTH = 3
BASE_MELD_RULES = MeldRules(rule="W7-W9", set_rule="W7", run_rule="W8", set_min=3, set_max=4, set_distinct_suits=True,
                            run_min=3, ace_high=False, min_naturals=1, wild_rank_sets=True, wild_rule="W11",
                            wild_limit_rule="W9")
"""W7 (sets of 3-4, no suit twice), W8 (runs of 3+, aces low), W9 (no cap on wilds, one natural,
all-wild-rank sets); the deal's wild rank is added per deal (W3)."""


@dataclass(frozen=True)
class WildRummy(Variant):
    """Wild Rummy. It has no table options beyond the number of seats (W2)."""

    name = "wild"
    title = "Wild Rummy"
    help_slug = "wild-rummy"
    help_template = "games/help_wild.html"
    lobby_note = "Wild Rummy always runs 13 deals"
    how_won = "The lowest total wins (rule W15, after 13 deals)."
    has_pending = True
    take_only_when_playable = True
    strong_play = MappingProxyType({"holds_melds": True, "outs_compared": 8, "counts_last_discard": True})
    min_players = 2
    max_players = 4
    players_rule = "W2"
    game_end_rule = "W15"
    draw_rule = "W5"
    max_rebuilds = 1
    """One rebuild per deal; the second time the stock empties the deal is a stalemate (W13)."""
    deals_in_game = DEALS
    allows_swaps = True
    going_out_rule = "W12"

    def describe_options(self) -> list[str]:
        """The 13 deals and their rotating wild rank (W3, W15)."""
        return [f"{self.deals_in_game} deals: aces are wild in deal 1, then 2s, and so on up to kings in deal 13."]

    def wild_label(self, view: PlayerView) -> str:
        """``"4s are wild"``, ``"Aces are wild"`` (W3)."""
        return wild_rank_label(view.wild_rank)

    def deal_state_json(self, deal: DealState) -> dict:
        """``{"wild_rank": "A".."K", "pending": [key, ...]}``: the deal's wild rank (W3) and the
        cards the player to move must play before discarding (W6)."""
        return {"wild_rank": wild_rank_name(deal.wild_rank), "pending": [card.key for card in deal.pending]}

    def deal_state_fields(self, data: dict) -> dict:
        """``wild_rank`` (1-13) and ``pending`` (cards) from ``deal_state_json``'s JSON."""
        rank = data.get("wild_rank")
        return {"wild_rank": RANKS.index(rank) + 1 if rank else None,
                "pending": [parse_card(key) for key in data.get("pending", ())]}

    def deck(self) -> list[Card]:
        """One 52-card deck, no jokers (rule W1)."""
        return standard_deck()

    def card_points(self, card: Card, wild_rank: int | None) -> int:
        """Points of a card left in hand: any wild 25, A=1, 2-10 face value, J/Q/K=10 (rule W14)."""
        if card.rank == wild_rank:
            return WILD_POINTS
        return min(card.rank, FACE_CARD_POINTS)

    def meld_rules_for(self, deal: DealState) -> MeldRules:
        """W7-W9 with the deal's wild rank (W3)."""
        return _rules_for_rank(deal.wild_rank)

    def deal(self, players: int, game_seed: str, number: int, first: int) -> DealState:
        """Deal ``number`` with ``first`` as the starter (W4): 8 cards to the starter, 7 to the others,
        the discard pile empty, the starter in the play phase (no draw). The wild rank is the
        deal number's rank, A for deal 1 up to K for deal 13 (W3). The Deal's dealer is recorded
        as the seat right of the starter."""
        sizes = [STARTER_CARDS if seat == first else OTHER_CARDS for seat in range(players)]
        return self.dealt(players, game_seed, number, sizes, first, dealer=(first - 1) % players,
                          turn_up=False, phase=Phase.PLAY, wild_rank=number)

    # ----- legal actions -------------------------------------------------------------------

    def play_actions(self, state: GameState, seat: int) -> list[Action]:
        """Every meld with each legal reading of its wilds (W7-W9, 0.3), every single-card lay-off
        with each reading (W10, W12), every swap (W11), each kept only if the turn can still end
        (0.5, W6); then, once nothing is pending, a discard of any card (W5)."""
        legal = [action for action in self._plays(state, seat, only_pending=False)
                 if self._still_finishes(state, seat, action)]
        if not state.deal.pending:
            legal += [Discard(c.key) for c in state.deal.hands[seat]]
        return legal

    def _plays(self, state: GameState, seat: int, only_pending: bool) -> list[Action]:
        """Candidate melds, lay-offs and swaps (before the 0.5 look-ahead); with ``only_pending``
        only those that play a pending card, alone or laid off with other cards from the hand (W6)."""
        deal = state.deal
        rules = self.meld_rules_for(deal)
        hand = deal.hands[seat]
        pending = set(deal.pending)

        def wanted(cards) -> bool:
            return not only_pending or any(c in pending for c in cards)

        actions: list[Action] = [LayMeld(tuple(c.key for c in shape.cards), declaration(shape, shape.cards))
                                 for shape in candidate_melds(hand, rules) if wanted(shape.cards)]
        surplus = len(hand) == 2 and any(rules.is_wild(c) for c in hand)
        for card in hand:
            if not wanted((card,)):
                continue
            for meld in deal.melds:
                for grown in extension_readings(meld.shape, (card,), rules)[0]:
                    actions.append(LayOff(meld.id, (card.key,), declaration(grown, (card,))))
                if surplus and rules.is_wild(card) and _is_full_set(meld.shape, rules):
                    actions.append(LayOff(meld.id, (card.key,), declaration(add_surplus_wild(meld.shape, card, rules),
                                                                              (card,))))
                for wild in swappable_wilds(meld.shape, card, rules):
                    actions.append(SwapWild(meld.id, card.key, wild.key))
        if only_pending:
            actions += self._lay_offs_with_hand_cards(deal, rules, hand, pending)
        return actions

    @staticmethod
    def _lay_offs_with_hand_cards(deal: DealState, rules: MeldRules, hand: list[Card],
                                  pending: set[Card]) -> list[LayOff]:
        """W6: a pending card laid off together with other cards from the hand, with each reading of
        the wilds (5H with 6H on 7H 8H 9H). Only runs take more than one card: a set of 3 has room
        for one (W7)."""
        actions: list[LayOff] = []
        for meld in deal.melds:
            if meld.shape.kind != RUN:
                continue
            suit = next(c.suit for c in meld.shape.cards if not rules.is_wild(c))
            fitting = [c for c in hand if rules.is_wild(c) or c.suit == suit]
            for card in (c for c in fitting if c in pending):
                others = [c for c in fitting if c != card]
                for size in range(1, len(others) + 1):
                    for group in combinations(others, size):
                        played = (card, *group)
                        actions += [LayOff(meld.id, tuple(c.key for c in played), declaration(grown, played))
                                    for grown in extension_readings(meld.shape, played, rules)[0]]
        return actions

    def _still_finishes(self, state: GameState, seat: int, action: Action) -> bool:
        after = state.copy()
        try:
            self._play_unchecked(after, seat, action)
        except IllegalAction:
            return False
        return self._can_finish(after, seat, len(after.deal.pending) + 1)

    def _play_unchecked(self, state: GameState, seat: int, action: Action) -> None:
        played = self.play_cards(state, seat, action, [])
        state.deal.pending = [c for c in state.deal.pending if c not in played]

    def _can_finish(self, state: GameState, seat: int, depth: int) -> bool:
        """0.5 and W6: some order of plays empties the pending list and leaves a card to discard."""
        deal = state.deal
        if not deal.hands[seat]:
            return False
        if not deal.pending:
            return True
        if depth <= 0:
            return False
        for action in self._plays(state, seat, only_pending=True):
            after = state.copy()
            try:
                self._play_unchecked(after, seat, action)
            except IllegalAction:
                continue
            if self._can_finish(after, seat, depth - 1):
                return True
        return False

    def _take_is_playable(self, state: GameState, seat: int) -> bool:
        after = state.copy()
        card = after.deal.discard.pop()
        bisect.insort(after.deal.hands[seat], card)
        after.deal.pending.append(card)
        after.deal.phase = Phase.PLAY
        return self._can_finish(after, seat, 2)

    # ----- steps ---------------------------------------------------------------------------

    def take_refusal(self, state: GameState, seat: int) -> IllegalAction | None:
        """W6: the discard may be taken only if it can be played at once (and the turn still end, 0.5)."""
        if self._take_is_playable(state, seat):
            return None
        return IllegalAction("discard_not_playable", f"You may take {show(state.deal.discard[-1])} only if you "
                             "can play it straight away, alone or with cards from your hand, in a new meld, a "
                             "lay-off or a wild swap.", "W6")

    def take_discard(self, state: GameState, seat: int, events: list[dict]) -> None:
        """Take the top discard (W5); it becomes pending (W6)."""
        super().take_discard(state, seat, events)
        state.deal.pending.append(state.deal.taken_discard)

    def grow_meld(self, state: GameState, seat: int, meld: TableMeld, cards: list[Card],
                  wilds: dict[str, str]) -> MeldShape:
        """W10, plus W12's exception: with exactly two cards in hand, one a wild, that wild may go on
        a full set as a 5th card."""
        rules = self.meld_rules_for(state.deal)
        hand = state.deal.hands[seat]
        if (len(cards) == 1 and rules.is_wild(cards[0]) and _is_full_set(meld.shape, rules)
                and len(hand) == 2):
            grown = add_surplus_wild(meld.shape, cards[0], rules)
            if any(code != grown.stands_for(cards[0]) for code in wilds.values()):
                raise IllegalAction("bad_wild", f"A wild added as a 5th card stands for the set's rank alone "
                                    f"({grown.stands_for(cards[0])}).", "W12")
            return grown
        if _is_full_set(meld.shape, rules) and any(rules.is_wild(c) for c in cards):
            raise IllegalAction("bad_lay_off", "A wild goes on a full set only as the going-out exception: with "
                                "exactly two cards in hand, one of them that wild.", "W12")
        return extend_meld(meld.shape, cards, rules, wilds)

    def after_play(self, state: GameState, seat: int, played: list[Card], events: list[dict]) -> None:
        """W6: played cards stop being pending. 0.5/W12: refuse a play that empties the hand or
        leaves pending cards that cannot all be played with a card kept to discard."""
        deal = state.deal
        deal.pending = [c for c in deal.pending if c not in played]
        if not deal.hands[seat]:
            raise IllegalAction("dead_end", self.going_out_message, self.going_out_rule)
        if not self._can_finish(state, seat, len(deal.pending) + 1):
            raise IllegalAction("dead_end", f"After that you could not play {show_cards(deal.pending)} and still keep "
                                "a card to discard.", "0.5")

    def check_discard(self, state: GameState, seat: int, card: Card) -> None:
        """W6: a pending card may never be the discard, and no discard while any card is pending."""
        pending = state.deal.pending
        if card in pending:
            raise IllegalAction("pending", f"{show(card)} is pending: play it in a meld, a lay-off or a swap "
                                "this turn; it can never be the discard.", "W6")
        if pending:
            raise IllegalAction("pending", f"Play {show_cards(pending)} first: a pending card must be played "
                                "before you discard.", "W6")

    # ----- deal and game end ---------------------------------------------------------------

    def score_deal(self, state: GameState, winner: int | None) -> HandResult:
        """W14: hands count, wilds 25; the winner scores -2, or -12 on every 3rd deal in a row going
        out; no bonus and all streaks reset after a stalemate (W13)."""
        deal = state.deal
        points = [sum(self.card_points(c, deal.wild_rank) for c in hand) for hand in deal.hands]
        bonus = False
        if winner is None:
            state.streaks = [0] * state.players
        else:
            state.streaks = [state.streaks[s] + 1 if s == winner else 0 for s in range(state.players)]
            bonus = state.streaks[winner] % STREAK_LENGTH == 0
            points[winner] = STREAK_SCORE if bonus else GOING_OUT_SCORE
        return HandResult(deal.number, winner, tuple(points), streak_bonus=bonus)

    def game_over(self, state: GameState) -> dict | None:
        """W15: the game ends after deal 13."""
        return {} if state.deal.number >= DEALS else None

    def next_first(self, state: GameState, winner: int | None) -> int:
        """W4: the player left of the winner (or, after a stalemate, of this deal's starter) starts."""
        return ((winner if winner is not None else (state.deal.dealer + 1)) + 1) % state.players


def wild_rank_label(rank: int | None) -> str:
    """``"4s are wild"``, ``"Aces are wild"``; empty without a wild rank."""
    if not rank:
        return ""
    names = {1: "Aces", 11: "Jacks", 12: "Queens", 13: "Kings"}
    return f"{names.get(rank, RANKS[rank - 1] + 's')} are wild"


def wild_rank_name(rank: int | None) -> str:
    """The wild rank as notation writes it (``"A"``, ``"10"``), or ``""`` when there is none."""
    return RANKS[rank - 1] if rank else ""


@cache
def _rules_for_rank(rank: int | None) -> MeldRules:
    return replace(BASE_MELD_RULES, wild_ranks=frozenset({rank}) if rank else frozenset())


def _is_full_set(shape: MeldShape, rules: MeldRules) -> bool:
    return shape.kind == "set" and len(shape.cards) == rules.set_max



