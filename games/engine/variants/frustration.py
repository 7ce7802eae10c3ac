"""Frustration Rummy (rules R1-R17 of RULES.md): its parameters and what its turn adds to the shared
steps of ``variants.base``.

What differs: two decks and 4 jokers (R1), 13 cards each (R3), jokers and 2s wild with wilds <=
naturals in every meld (R5-R8, through the shared validator's MeldRules), a contract per player
(R4) laid down whole in one action (R10) before any other meld or lay-off (R11), no wild swaps
(R12), going out only by a discard (R14), advancing one contract per round laid (R15), and a
stalemate on the third empty stock (R16). Contracts are the score (R17): ``GameState.totals``
holds each seat's current contract.

A game could in principle go on for ever (every round a stalemate with nobody laying down); the
table option ``max_rounds`` is a documented safety limit: after that many rounds the game ends and
the highest contract ranks first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import Action, Discard, LayContract, LayMeld, LayOff
from ..candidates import candidate_melds
from ..cards import Card, standard_deck
from ..contracts import CONTRACTS, LAST_CONTRACT, contract_text, find_contract, group_label, tray_label
from ..errors import IllegalAction
from ..melds import MeldRules, declaration, extension_readings, read_meld, show_cards
from ..state import DealState, HandResult, Phase, TableMeld
from .base import Variant

if TYPE_CHECKING:
    from ..state import GameState, PlayerView

HAND_SIZE = 13
DECKS = 2
JOKERS = 4
DEFAULT_MAX_ROUNDS = 100
MELD_RULES = MeldRules(rule="R6-R8", set_rule="R6", run_rule="R7", set_min=3, set_max=None, set_distinct_suits=False,
                       run_min=4, run_max=13, ace_high=True, wild_ranks=frozenset({2}), jokers_wild=True,
                       min_naturals=1, wilds_at_most_naturals=True, wild_rank_sets=True, joker_sets=True,
                       wild_rule="R8", wild_limit_rule="R8")
"""R5 (jokers and 2s wild, a 2 wild even in its own place), R6 (sets of 3+, any suits, duplicates,
no maximum), R7 (runs of 4-13, one suit, ace high or low, no wrap), R8 (wilds <= naturals; sets of
2s only or jokers only, extended only with the same kind)."""


@dataclass(frozen=True)
class FrustrationRummy(Variant):
    """Frustration Rummy with its table option.

    Attributes:
        max_rounds: safety limit on the rounds of one game (default 100); reaching it ends the game
            with the seats ranked by contract (a [decision] beyond R16, which bounds each round).

    Raises IllegalAction("bad_options") for a limit that is not a whole number from 14 up.
    """

    max_rounds: int = DEFAULT_MAX_ROUNDS

    name = "frustration"
    title = "Frustration Rummy"
    deal_word = "Round"
    help_slug = "frustration-rummy"
    help_template = "games/help_frustration.html"
    lobby_note = "Frustration Rummy climbs 14 contracts"
    score_label = "Contract"
    how_won = "The player who goes out on contract 14 wins (rule R15)."
    has_contracts = True
    min_players = 2
    max_players = 4
    players_rule = "R2"
    game_end_rule = "R15"
    draw_rule = "R9"
    swap_rule = "R12"
    going_out_rule = "R14"
    max_rebuilds = 2
    """Two rebuilds per round; the third time the stock empties the round is a stalemate (R16)."""

    def __post_init__(self):
        if isinstance(self.max_rounds, bool) or not isinstance(self.max_rounds, int) or self.max_rounds < LAST_CONTRACT:
            raise IllegalAction("bad_options", f"The round limit must be a whole number of at least {LAST_CONTRACT}.",
                                "R16")

    def options(self) -> dict:
        """The table options as JSON: ``{"max_rounds": int}``."""
        return {"max_rounds": self.max_rounds}

    def describe_options(self) -> list[str]:
        """The 14 contracts and the round limit."""
        return [f"Win by going out on contract {LAST_CONTRACT}; after {self.max_rounds} rounds the game stops and "
                "the highest contract wins."]

    def deal_state_json(self, deal: DealState) -> dict:
        """``{"laid_down": [bool, ...]}``: per seat, whether it laid its contract this round (R10)."""
        return {"laid_down": list(deal.laid_down)}

    def deal_state_fields(self, data: dict) -> dict:
        """``laid_down`` from ``deal_state_json``'s JSON."""
        return {"laid_down": list(data.get("laid_down", ()))}

    def wild_label(self, view: PlayerView) -> str:
        """R5: the same wilds in every round."""
        return "Jokers and 2s are wild"

    def initial_totals(self, players: int) -> list[int]:
        """Every player starts on contract 1 (R3)."""
        return [1] * players

    def deck(self) -> list[Card]:
        """Two 52-card decks and 4 jokers, 108 cards (R1)."""
        return standard_deck(decks=DECKS, jokers=JOKERS)

    def deal(self, players: int, game_seed: str, number: int, first: int) -> DealState:
        """Round ``number`` with ``first`` as dealer (R3): 13 cards each, the next card turned up,
        the dealer's left plays first."""
        deal = self.dealt(players, game_seed, number, [HAND_SIZE] * players, (first + 1) % players,
                          dealer=first, turn_up=True, phase=Phase.DRAW)
        deal.laid_down = [False] * players
        return deal

    def meld_rules_for(self, deal: DealState) -> MeldRules:
        """R5-R8 in every round."""
        return MELD_RULES

    # ----- legal actions -------------------------------------------------------------------

    def contract_hint(self, state: GameState, seat: int) -> LayContract | None:
        """One way to lay down ``seat``'s contract now (found by ``contracts.find_contract``), or None."""
        deal = state.deal
        shapes = find_contract(deal.hands[seat], state.totals[seat], MELD_RULES, deal.taken_discard)
        if shapes is None:
            return None
        return LayContract(tuple(tuple(c.key for c in shape.cards) for shape in shapes),
                           tuple(sorted(pair for shape in shapes for pair in declaration(shape, shape.cards))))

    def play_actions(self, state: GameState, seat: int) -> list[Action]:
        """Before the contract is down: one LayContract the hand can make, if any (R10). After:
        every new meld and single-card lay-off with each reading of its wilds (R11), each leaving a
        card to discard (0.5). Then each allowed discard (R13, 0.4a)."""
        deal = state.deal
        hand = deal.hands[seat]
        actions: list[Action] = []
        if not deal.laid_down[seat]:
            hint = self.contract_hint(state, seat)
            actions += [hint] if hint else []
        else:
            actions += [LayMeld(tuple(c.key for c in shape.cards), declaration(shape, shape.cards))
                        for shape in candidate_melds(hand, MELD_RULES, deal.taken_discard)
                        if self.keeps_a_way_out(deal, hand, shape.cards)]
            for card in hand:
                if not self.keeps_a_way_out(deal, hand, (card,)):
                    continue
                for meld in deal.melds:
                    actions += [LayOff(meld.id, (card.key,), declaration(grown, (card,)))
                                for grown in extension_readings(meld.shape, (card,), MELD_RULES)[0]]
        actions += [Discard(c.key) for c in hand if c != deal.taken_discard]
        return actions

    # ----- steps ---------------------------------------------------------------------------

    def play(self, state: GameState, seat: int, action: Action, events: list[dict]) -> None:
        """R10 for LayContract; R11 (contract first) before melds and lay-offs; otherwise the shared steps."""
        if isinstance(action, LayContract):
            self.lay_contract(state, seat, action, events)
            self.after_play(state, seat, [], events)
            return
        if isinstance(action, (LayMeld, LayOff)) and not state.deal.laid_down[seat]:
            self.require_phase(state, Phase.PLAY, "Draw a card first.")
            number = state.totals[seat]
            raise IllegalAction("contract_first", f"Lay down your contract first (contract {number}: "
                                f"{contract_text(number)}); only then may you meld or lay off.", "R11")
        super().play(state, seat, action, events)

    def lay_contract(self, state: GameState, seat: int, action: LayContract, events: list[dict]) -> None:
        """R10: lay down the seat's current contract, all of it, in one action.

        Raises IllegalAction: ``wrong_phase``; ``contract_down`` (already laid this round);
        ``malformed`` (a card in two groups);
        ``wrong_contract`` (not the current contract's number of melds, or a meld too short);
        ``bad_contract`` (a group is not a legal meld of its kind, naming it: "the second set ...");
        ``bad_wild`` / ``choose_wild`` (0.3); ``not_in_hand``.
        """
        self.require_phase(state, Phase.PLAY, "Draw a card before you lay down your contract.")
        deal = state.deal
        number = state.totals[seat]
        if deal.laid_down[seat]:
            raise IllegalAction("contract_down", "Your contract is already down this round: lay off or start "
                                "new melds instead.", "R10")
        requirements = CONTRACTS[number]
        keys = [key for group in action.groups for key in group]
        if len(set(keys)) != len(keys):
            raise IllegalAction("malformed", "A card can be in only one group.", "R10")
        if len(action.groups) != len(requirements):
            raise IllegalAction("wrong_contract", f"Contract {number} is {contract_text(number)}: lay down all "
                                f"{len(requirements)} melds at once (you gave {len(action.groups)}).", "R10")
        empty = next((index for index, keys in enumerate(action.groups) if not keys), None)
        if empty is not None:
            raise IllegalAction("wrong_contract", "Put cards in every group of your contract: "
                                f"{tray_label(number, empty)} is empty.", "R10")
        declared = dict(action.wilds)
        shapes = []
        for index, ((kind, size), keys) in enumerate(zip(requirements, action.groups)):
            group = self.cards_in_hand(state, seat, keys)
            label = group_label(number, index)
            if len(group) < size:
                raise IllegalAction("wrong_contract", f"Contract {number} is {contract_text(number)}: {label} "
                                    f"needs at least {size} cards, not {len(group)}.", "R10")
            try:
                shapes.append(read_meld(group, MELD_RULES, {k: v for k, v in declared.items() if k in keys}, kind))
            except IllegalAction as refusal:
                code = "bad_contract" if refusal.code == "bad_meld" else refusal.code
                raise IllegalAction(code, f"{label[0].upper()}{label[1:]} ({show_cards(group)}): {refusal.message}",
                                    refusal.rule) from None
        laid = []
        for shape in shapes:
            deal.melds.append(TableMeld(deal.next_meld_id, seat, shape, contract=True))
            laid.append({"meld": deal.next_meld_id, "cards": [c.key for c in shape.cards],
                         "wilds": dict(declaration(shape, shape.cards))})
            deal.next_meld_id += 1
        used = {c for shape in shapes for c in shape.cards}
        deal.hands[seat] = [c for c in deal.hands[seat] if c not in used]
        deal.laid_down[seat] = True
        deal.played_this_turn = True
        events.append({"type": "lay_contract", "seat": seat, "contract": number, "melds": laid})

    # ----- round and game end --------------------------------------------------------------

    def score_deal(self, state: GameState, winner: int | None) -> HandResult:
        """R15, R16: every seat that laid its contract this round moves up one contract (14 stays 14)."""
        deal = state.deal
        laid = tuple(deal.laid_down)
        advances = tuple(1 if laid[s] and state.totals[s] < LAST_CONTRACT else 0 for s in range(state.players))
        return HandResult(deal.number, winner, advances, laid_down=laid)

    def game_over(self, state: GameState) -> dict | None:
        """R15: the winner going out on contract 14 wins the game; past ``max_rounds`` the game
        stops (``{"stalled": true}``). The next round is dealt by the seat left of this round's dealer (R3)."""
        if self._went_out_on_last(state) is not None:
            return {}
        return {"stalled": True} if state.deal.number >= self.max_rounds else None

    @staticmethod
    def _went_out_on_last(state: GameState) -> int | None:
        """The seat that went out on contract 14 in the last scored round (R15), or None."""
        result = state.last_result
        went_out = result.winner if result else None
        if went_out is not None and result.penalties[went_out] == 0 and state.totals[went_out] == LAST_CONTRACT:
            return went_out
        return None

    def standings(self, state: GameState) -> tuple[int, ...]:
        """R15: the seat that went out on contract 14 is first; the others rank by contract,
        tied contracts sharing a place (also after the ``max_rounds`` limit, with nobody first by going out)."""
        winner = self._went_out_on_last(state)
        keys = [(0 if s == winner else 1, -state.totals[s]) for s in range(state.players)]
        return tuple(1 + sum(1 for other in keys if other < keys[s]) for s in range(state.players))
