"""Frayzy (rules F1-F18 of RULES.md): its parameters and what its turn adds to the shared steps of
``variants.base``.

What differs: a deck of coloured numbers 1-12, Wilds and three kinds of action card (F1); 10 cards
each and a start card whose action is carried out as though the dealer had played it (F3, F4); the
discard pile is closed while an action card is on top (F6); melds through the shared validator with
colours for suits, numbers 1-12 without wrap and at most one wild per meld (F9-F12); wild swaps
that put the wild straight into the hand (F13); a turn ends with a discard or with one action card
(F8, F14): Skip passes over the next player (with two players: another turn), Draw 5 makes any
seat draw 5, Discard 1 asks for one more discard (phase ``extra_discard``); the round ends when a
hand empties or, at the end of a turn, when the stock is empty, which is never rebuilt (F15, F16);
5 points per number card and 10 per Wild or action card (F17); the game ends at the target (F18).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..actions import Action, ChooseTarget, Discard, LayMeld, LayOff, PlayAction, SwapWild
from ..candidates import candidate_melds
from ..cards import COLOUR_WILD, COLOURS, DISCARD1, DRAW5, NUMBERS, SKIP, Card, coloured_deck, parse_card
from ..errors import IllegalAction
from ..melds import MeldRules, declaration, extension_readings, show, swappable_wilds
from ..state import DealState, HandResult, Phase
from .base import TableOption, Variant

if TYPE_CHECKING:
    from ..state import GameState

HAND_SIZE = 10
DRAW_FIVE_CARDS = 5
NUMBER_CARD_POINTS = 5
OTHER_CARD_POINTS = 10
DEFAULT_TARGET = 100
EXTENDED_TARGET = 200
MELD_RULES = MeldRules(rule="F9-F11", set_rule="F9", run_rule="F10", set_min=3, set_max=None, set_distinct_suits=False,
                       run_min=3, run_max=12, run_top=12, min_naturals=2, max_wilds=1, wild_rule="F11",
                       wild_limit_rule="F11", wild_codes=frozenset({COLOUR_WILD}), rank_names=NUMBERS,
                       rank_word="number", suit_word="colour")
"""F9 (sets of 3+, any colours, duplicates, no maximum), F10 (runs of 3-12 of one colour within
1-12, no wrap), F11 (the Wild stands for any number; at most one per meld, so 2 naturals at least;
action cards never melded)."""
DECK_LIMITS = {"copies": (1, 4), "wilds": (0, 16), "skips": (0, 16), "draw_fives": (0, 16), "discard_ones": (0, 16)}


@dataclass(frozen=True)
class Frayzy(Variant):
    """Frayzy with its table options.

    Attributes:
        target: points that end the game (F18): 100, or 200 for Extended Play.
        copies: copies of each coloured number (F1: 2). wilds: Wild cards (8). skips, draw_fives,
            discard_ones: action cards of each kind (4 each). The defaults give the 116-card deck.

    Raises IllegalAction("bad_options") for a target that is not a positive whole number, or a
    card count outside its range (copies 1-4, the others 0-16).
    """

    target: int = DEFAULT_TARGET
    copies: int = 2
    wilds: int = 8
    skips: int = 4
    draw_fives: int = 4
    discard_ones: int = 4

    name = "frayzy"
    title = "Frayzy"
    deal_word = "Round"
    help_slug = "frayzy"
    help_template = "games/help_frayzy.html"
    lobby_note = f"Frayzy plays to {DEFAULT_TARGET} points, or {EXTENDED_TARGET} in Extended Play"
    how_won = "The lowest total wins; a tie goes to the lower score in the last round (rule F18)."
    no_winner = "stock ran out"
    no_winner_sentence = "The stock ran out: nobody went out."
    suit_word = MELD_RULES.suit_word
    has_action_cards = True
    table_options = (
        TableOption("target", "frayzy_target", "game ends when a player reaches (rule F18)", DEFAULT_TARGET,
                    choices=((DEFAULT_TARGET, f"{DEFAULT_TARGET} points"),
                             (EXTENDED_TARGET, f"Extended Play: {EXTENDED_TARGET} points"))),
    )
    strong_play = MappingProxyType({"holds_melds": True, "safe_hand": 4})
    expert_search = MappingProxyType({"samples": 24, "horizon": 6, "discards": 3, "confidence": 1.0,
                                      "time_ms": 250.0})
    min_players = 2
    max_players = 4
    players_rule = "F2"
    game_end_rule = "F18"
    draw_rule = "F6"
    swap_rule = "F13"
    stock_rule = "F16"
    allows_swaps = True
    freed_wild_pending = False
    going_out_rule = "F15"
    going_out_message = "Keep a card to end your turn with: you go out only by a discard or an action card."
    max_rebuilds = 0
    """The stock is never rebuilt (F16)."""

    def __post_init__(self):
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise IllegalAction("bad_options", "The target must be a positive whole number of points.", "F18")
        for option, (low, high) in DECK_LIMITS.items():
            value = getattr(self, option)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise IllegalAction("bad_options", f"The number of {option.replace('_', ' ')} must be a whole "
                                    f"number from {low} to {high}.", "F1")

    def options(self) -> dict:
        """The table options as JSON: ``{"target", "copies", "wilds", "skips", "draw_fives", "discard_ones"}``."""
        return {"target": self.target, "copies": self.copies, "wilds": self.wilds, "skips": self.skips,
                "draw_fives": self.draw_fives, "discard_ones": self.discard_ones}

    def describe_options(self) -> list[str]:
        """The target (F18) and the deck (F1), its cards counted from the options rather than by
        building the deck: every board and lobby line shows them."""
        extended = " (Extended Play)" if self.target == EXTENDED_TARGET else ""
        size = self.copies * len(COLOURS) * len(NUMBERS) + self.wilds + self.skips + self.draw_fives + self.discard_ones
        return [f"The game ends when a player reaches {self.target} points{extended}; the lowest total wins.",
                f"{size} cards: numbers 1-12 in four colours ({self.copies} of each), {self.wilds} Wilds, "
                f"{self.skips} Skip, {self.draw_fives} Draw 5 and {self.discard_ones} Discard 1."]

    def deck(self) -> list[Card]:
        """The deck of the table options; 116 cards by default (F1)."""
        return coloured_deck(self.copies, self.wilds, self.skips, self.draw_fives, self.discard_ones)

    def meld_rules_for(self, deal: DealState) -> MeldRules:
        """F9-F11 in every round."""
        return MELD_RULES

    def card_points(self, card: Card) -> int:
        """Points of a card left in hand: 5 for a number card, 10 for a Wild or an action card (F17)."""
        return NUMBER_CARD_POINTS if card.is_coloured else OTHER_CARD_POINTS

    def start_card(self, deal: DealState) -> Card | None:
        """The card turned up at the deal to start the discard pile (F4), while it still lies at the
        bottom of the pile; None once a player has taken it (F6)."""
        return deal.start_card

    def deal_state_json(self, deal: DealState) -> dict:
        """``{"start_card": key}``: the start card still at the bottom of the pile (F4), ``""`` for none."""
        return {"start_card": deal.start_card.key if deal.start_card else ""}

    def deal_state_fields(self, data: dict) -> dict:
        """``start_card`` (a card or None) from ``deal_state_json``'s JSON."""
        key = data.get("start_card")
        return {"start_card": parse_card(key) if key else None}

    def deal(self, players: int, game_seed: str, number: int, first: int) -> DealState:
        """Round ``number`` with ``first`` as dealer (F3-F5): 10 cards each from the dealer's left,
        the next card turned up. An action card turned up takes effect as though the dealer had
        played it (F4): Skip passes over the dealer's left, Draw 5 waits for the dealer to pick
        who draws (phase ``choose_target``), Discard 1 waits for the dealer's discard (phase
        ``extra_discard``)."""
        deal = self.dealt(players, game_seed, number, [HAND_SIZE] * players, (first + 1) % players,
                          dealer=first, turn_up=True, phase=Phase.DRAW)
        deal.start_card = deal.discard[-1]
        start = deal.start_card.code
        if start == SKIP:
            deal.turn = (first + 2) % players
        elif start == DRAW5:
            deal.turn, deal.phase = first, Phase.CHOOSE_TARGET
        elif start == DISCARD1:
            deal.turn, deal.phase = first, Phase.EXTRA_DISCARD
        return deal

    # ----- legal actions -------------------------------------------------------------------

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """By phase: the draws (F6); the dealer's pick for a Draw 5 start card (F4); any card for
        the extra discard (F14); or the play phase (F7, F8)."""
        deal = state.deal
        if deal.phase == Phase.CHOOSE_TARGET:
            return [ChooseTarget(target) for target in range(state.players)]
        if deal.phase == Phase.EXTRA_DISCARD:
            return [Discard(c.key) for c in deal.hands[seat]]
        return super().legal_actions(state, seat)

    def play_actions(self, state: GameState, seat: int) -> list[Action]:
        """Every new meld with each reading of its wild (F9-F11), every single-card lay-off (F12) and
        wild swap (F13), each leaving a card that can end the turn (0.5, F15); then each allowed
        discard (0.4a) and each action card, Draw 5 once per target seat (F8, F14)."""
        deal = state.deal
        hand = deal.hands[seat]
        actions: list[Action] = [LayMeld(tuple(c.key for c in shape.cards), declaration(shape, shape.cards))
                                 for shape in candidate_melds(hand, MELD_RULES, deal.taken_discard)
                                 if self.keeps_a_way_out(deal, hand, shape.cards)]
        for card in hand:
            lays_off = self.keeps_a_way_out(deal, hand, (card,))
            for meld in deal.melds:
                if lays_off:
                    actions += [LayOff(meld.id, (card.key,), declaration(grown, (card,)))
                                for grown in extension_readings(meld.shape, (card,), MELD_RULES)[0]]
                # A swap brings the Wild into the hand, which then ends the turn unless it is the taken discard.
                actions += [SwapWild(meld.id, card.key, wild.key)
                            for wild in swappable_wilds(meld.shape, card, MELD_RULES)
                            if self.keeps_a_way_out(deal, [*hand, wild], (card,))]
        actions += [Discard(c.key) for c in hand if c != deal.taken_discard and not c.is_action]
        played: set[str] = set()
        for card in hand:
            if card.is_action and card.code not in played:
                played.add(card.code)
                targets = range(state.players) if card.code == DRAW5 else (None,)
                actions += [PlayAction(card.key, target) for target in targets]
        return actions

    # ----- steps ---------------------------------------------------------------------------

    def play(self, state: GameState, seat: int, action: Action, events: list[dict]) -> None:
        """Dispatch by phase: the dealer's Draw 5 pick (F4), the extra discard (F14), or a turn's
        draw (F6), plays (F7, F13) and turn-ending card (F8).

        Raises IllegalAction: ``wrong_phase``; ``one_action_per_turn`` (a second action card in a
        turn, F14); ``no_such_seat`` (a Draw 5 target outside 0..n-1); ``discard_closed`` (F6);
        ``not_an_action_card``; ``taken_discard`` (0.4a); ``dead_end`` (0.5); the meld refusals.
        """
        phase = state.deal.phase
        if phase == Phase.CHOOSE_TARGET:
            if not isinstance(action, ChooseTarget):
                raise IllegalAction("wrong_phase", "The start card is a Draw 5: first choose who draws 5 cards.", "F4")
            self._draw_five(state, seat, action.target, events, start=True)
            state.deal.turn, state.deal.phase = (seat + 1) % state.players, Phase.DRAW
            return
        if isinstance(action, ChooseTarget):
            raise IllegalAction("wrong_phase", "There is no Draw 5 start card to aim now.", "F4")
        if phase == Phase.EXTRA_DISCARD:
            if isinstance(action, PlayAction):
                raise IllegalAction("one_action_per_turn", "Only one action card may be played in a turn; discard "
                                    "one more card for the Discard 1 (it has no effect, even if it is an action "
                                    "card).", "F14")
            if not isinstance(action, Discard):
                raise IllegalAction("wrong_phase", "Discard one more card for the Discard 1 first.", "F14")
            self._extra_discard(state, seat, action, events)
            return
        if isinstance(action, PlayAction):
            self.play_action(state, seat, action, events)
            return
        super().play(state, seat, action, events)

    def take_refusal(self, state: GameState, seat: int) -> IllegalAction | None:
        """F6: the discard pile is closed while an action card is on top."""
        top = state.deal.discard[-1]
        if not top.is_action:
            return None
        return IllegalAction("discard_closed", f"The discard pile is closed while {show(top)} is on top.", "F6")

    def take_discard(self, state: GameState, seat: int, events: list[dict]) -> None:
        """F6: take the top of the discard pile; taking the start card, the pile's only card, takes
        it off the table (F4), so no start card is shown any more."""
        super().take_discard(state, seat, events)
        if not state.deal.discard:
            state.deal.start_card = None

    def check_discard(self, state: GameState, seat: int, card: Card) -> None:
        """0.4a: the card taken from the discard pile this turn may not end the turn; F8: an action
        card ends the turn by being played (with its effect), never by a plain discard."""
        self.refuse_taken_discard(state, card)
        if card.is_action:
            raise IllegalAction("play_action_card", f"{show(card)} ends your turn by being played, with its effect; "
                                "it cannot be thrown away.", "F8")

    def play_action(self, state: GameState, seat: int, action: PlayAction, events: list[dict]) -> None:
        """F8, F14: put the action card on the discard pile and carry out its effect. Skip: the next
        seat's turn is passed over (two players: the same player goes again). Draw 5: ``target``
        draws 5 from the stock (fewer if it holds fewer). Discard 1: one more card to discard
        (phase ``extra_discard``), unless the hand is empty.

        Raises IllegalAction: ``wrong_phase``, ``not_in_hand``, ``not_an_action_card``,
        ``no_such_seat`` (Draw 5 without a seat 0..n-1), ``malformed`` (a target for Skip or Discard 1).
        """
        self.require_phase(state, Phase.PLAY, "Draw a card before you play an action card.")
        deal = state.deal
        (card,) = self.cards_in_hand(state, seat, (action.card,))
        if not card.is_action:
            raise IllegalAction("not_an_action_card", f"{show(card)} is not an action card: discard it instead.", "F8")
        if card.code == DRAW5:
            if action.target is None or not 0 <= action.target < state.players:
                raise IllegalAction("no_such_seat", f"Choose who draws 5: a seat from 0 to {state.players - 1}.", "F14")
        elif action.target is not None:
            raise IllegalAction("malformed", f"{show(card)} has no target.", "F14")
        deal.hands[seat].remove(card)
        deal.discard.append(card)
        event = {"type": "play_action", "seat": seat, "card": card.key, "action": card.code}
        if card.code == SKIP:
            skipped = (seat + 1) % state.players
            events.append({**event, "skipped": skipped})
            self.end_turn(state, seat, events, step=2)
            return
        if card.code == DRAW5:
            events.append({**event, "target": action.target})
            self._draw_five(state, seat, action.target, events, start=False)
            self.end_turn(state, seat, events)
            return
        events.append(event)
        if deal.hands[seat]:
            deal.phase = Phase.EXTRA_DISCARD
        else:
            self.end_turn(state, seat, events)

    def _draw_five(self, state: GameState, seat: int, target: int, events: list[dict], start: bool) -> None:
        """F14: ``target`` draws 5 cards from the stock, or what is left of it (F16 then ends the round)."""
        if not 0 <= target < state.players:
            raise IllegalAction("no_such_seat", f"Choose who draws 5: a seat from 0 to {state.players - 1}.", "F14")
        deal = state.deal
        count = min(DRAW_FIVE_CARDS, len(deal.stock))
        for _ in range(count):
            bisect.insort(deal.hands[target], deal.stock.pop())
        events.append({"type": "draw_five", "seat": seat, "target": target, "count": count, "start_card": start})
        if not deal.stock:
            events.append({"type": "stock_exhausted"})

    def _extra_discard(self, state: GameState, seat: int, action: Discard, events: list[dict]) -> None:
        """F14 (and F4's Discard 1 start card): discard any one card, even the card taken from the
        discard pile or an action card (which then has no effect); then the turn ends."""
        deal = state.deal
        (card,) = self.cards_in_hand(state, seat, (action.card,))
        deal.hands[seat].remove(card)
        deal.discard.append(card)
        events.append({"type": "extra_discard", "seat": seat, "card": card.key})
        self.end_turn(state, seat, events)

    def end_turn(self, state: GameState, seat: int, events: list[dict], step: int = 1) -> None:
        """The end of ``seat``'s turn: an empty hand goes out (F15); otherwise an empty stock ends
        the round with no winner (F16); otherwise the turn passes ``step`` seats left (2 after a
        Skip, F14)."""
        deal = state.deal
        if not deal.hands[seat]:
            self.end_deal(state, seat, events)
        elif not deal.stock:
            self.end_deal(state, None, events)
        else:
            deal.taken_discard = None
            deal.played_before[seat] = deal.played_before[seat] or deal.played_this_turn
            deal.played_this_turn = False
            deal.turn = (seat + step) % state.players
            deal.phase = Phase.DRAW

    # ----- round and game end --------------------------------------------------------------

    def score_deal(self, state: GameState, winner: int | None) -> HandResult:
        """F17: every hand scores 5 per number card and 10 per Wild or action card (the player who
        went out holds none: 0)."""
        deal = state.deal
        return HandResult(deal.number, winner, tuple(sum(self.card_points(c) for c in hand) for hand in deal.hands))

    def game_over(self, state: GameState) -> dict | None:
        """F18: a total at or past the target ends the game; otherwise the deal passes left (F5)."""
        return {} if max(state.totals) >= self.target else None
