"""Turn machinery shared by every variant: dealing, drawing, melds, lay-offs, wild swaps, the
discard and stock rebuilds.

A variant is a frozen dataclass of table options that subclasses ``Variant`` and supplies what
differs between games through the hooks at the top of the class: the deck, the deal, the meld
rules of a deal, which draws are open, which play-phase actions are legal (always within the
no-dead-end rule 0.5), what may not be discarded (0.4), how a deal is scored and when the game
ends. The shared steps below carry out an action on a state the caller has already copied
(``GameState.apply``), so a refusal half-way leaves the caller's state unchanged (0.7).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from types import MappingProxyType, SimpleNamespace
from typing import TYPE_CHECKING

from ..actions import (
    Action,
    ChooseTarget,
    Discard,
    DrawStock,
    LayContract,
    LayMeld,
    LayOff,
    PlayAction,
    SwapWild,
    TakeDiscard,
    distinct_card_keys,
)
from ..cards import Card, shuffled
from ..errors import IllegalAction
from ..melds import MeldRules, extend_meld, read_meld, show, swap_wild
from ..state import DealState, HandResult, Phase, TableMeld, deal_seed

if TYPE_CHECKING:
    from ..state import GameState, PlayerView


@dataclass(frozen=True)
class TableOption:
    """One table option of a variant as the lobby form offers it.

    Attributes:
        name: the variant's dataclass field (the key in ``Variant.options()``).
        field: the form field's name (unique across variants).
        label: what the form says, after the variant's title (``"Frayzy: ..."``).
        default: the value when the form leaves it out.
        low, high: bounds of a whole number, when it is one.
        choices: ``(value, label)`` pairs, when the option is one of a few values; with neither
            bounds nor choices a bool ``default`` makes it on or off.
    """

    name: str
    field: str
    label: str
    default: int | bool
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[int, str], ...] = ()


def deal_hands(deck: list[Card], seed: str, players: int, sizes: list[int],
               first: int) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle ``deck`` with ``seed`` and deal one card at a time, seat ``first`` first, going left,
    until seat ``s`` holds ``sizes[s]`` cards. Returns the sorted hands and the rest as the stock
    (its top the last element)."""
    stock = shuffled(deck, seed)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for round_number in range(max(sizes)):
        for offset in range(players):
            seat = (first + offset) % players
            if round_number < sizes[seat]:
                hands[seat].append(stock.pop())
    for hand in hands:
        hand.sort()
    return hands, stock


class Variant:
    """Base class of the variants: the shared turn steps and the hooks a variant supplies.

    Class attributes a variant sets: ``name``, ``title``, ``min_players``/``max_players`` and
    ``players_rule`` (seat count and its rule), ``max_rebuilds`` (0.6: rebuilds before a
    stalemate), ``deals_in_game`` (a fixed number of deals, or None when points end the game),
    ``game_end_rule`` (cited when a move comes after the end), ``draw_rule`` (the draw's rule),
    ``allows_swaps`` (W11, F13), ``swap_rule`` (cited when swaps are refused: S10, R12),
    ``freed_wild_pending`` (W6: a wild freed by a swap must be played this turn; not in Frayzy, F13),
    ``stock_rule`` (cited when a draw finds the stock empty: 0.6, F16), ``goes_out_by_play`` (S11:
    a meld or lay-off may empty the hand), else ``going_out_rule`` and ``going_out_message`` (the
    refusal of a play that empties the hand: W12, R14, F15), ``taken_discard_rule`` (0.4, S7).

    What the pages, forms, URLs and computer players ask: ``deal_word`` ("Hand", "Deal" or
    "Round"), ``help_slug`` and ``help_template`` (the help page at ``help/<help_slug>``),
    ``lobby_note`` (a phrase about the game for the lobby), ``score_label`` (what a total counts)
    and ``score_unit`` (one of it, lower case: "1 penalty point"),
    ``how_won`` (the sentence under the final standings), ``no_winner`` and ``no_winner_sentence``
    (a deal nobody went out of, on the score sheet and the deal summary), ``suit_word`` ("suit" or
    "colour"), ``table_options`` (the lobby form's fields), the capabilities ``has_contracts``
    (R4), ``has_action_cards`` (F8), ``has_pending`` (W6: taken discards and freed wilds must be
    played this turn) and ``take_only_when_playable`` (W6), and ``strong_play`` (the strong
    computer level's ``ComputerPlayer`` settings) and ``expert_search`` (the expert level's
    ``ExpertPlayer`` search budget, its defaults where empty; both in docs/computer-players.md).
    """

    name = ""
    title = ""
    deal_word = "Deal"
    help_slug = ""
    help_template = ""
    lobby_note = ""
    score_label = "Points"
    score_unit = "point"
    how_won = ""
    no_winner = "stalemate"
    no_winner_sentence = "A stalemate: nobody went out."
    suit_word = "suit"
    table_options: tuple[TableOption, ...] = ()
    has_contracts = False
    has_action_cards = False
    has_pending = False
    take_only_when_playable = False
    strong_play = MappingProxyType({})
    expert_search = MappingProxyType({})
    do_not_call_in_templates = True
    min_players = 2
    max_players = 4
    players_rule = ""
    game_end_rule = ""
    draw_rule = ""
    max_rebuilds = 0
    deals_in_game: int | None = None
    allows_swaps = False
    swap_rule = "S10"
    freed_wild_pending = True
    stock_rule = "0.6"
    goes_out_by_play = False
    going_out_rule = ""
    going_out_message = "Keep a card to discard: you go out by discarding your last card."
    taken_discard_rule = "0.4"

    # ----- hooks ---------------------------------------------------------------------------

    def deck(self) -> list[Card]:
        """The unshuffled deck of one deal."""
        raise NotImplementedError

    def deal(self, players: int, game_seed: str, number: int, first: int) -> DealState:
        """Deal number ``number``; ``first`` is the dealer (S4) or starter (W4) the variant chose."""
        raise NotImplementedError

    def meld_rules_for(self, deal: DealState) -> MeldRules:
        """The meld rules in force in ``deal`` (e.g. Wild Rummy's wild rank changes per deal)."""
        raise NotImplementedError

    def play_actions(self, state: GameState, seat: int) -> list[Action]:
        """The legal melds, lay-offs, swaps and discards of ``seat`` (the play phase)."""
        raise NotImplementedError

    def take_refusal(self, state: GameState, seat: int) -> IllegalAction | None:
        """Why ``seat`` may not take the top discard now (W6, F6), or None. Default: None, the top
        card of a non-empty pile may always be taken (S5, R9)."""
        return None

    def after_play(self, state: GameState, seat: int, played: list[Card], events: list[dict]) -> None:
        """Called after ``played`` left ``seat``'s hand by a meld, lay-off or swap. Default: the
        dead-end refusals (``refuse_dead_end``), then an emptied hand goes out when the variant lets a
        play go out (S11)."""
        self.refuse_dead_end(state, seat)
        if not state.deal.hands[seat]:
            self.end_deal(state, seat, events)

    def check_discard(self, state: GameState, seat: int, card: Card) -> None:
        """Refuse a discard the variant forbids. Default: the taken-discard refusal (0.4, S7)."""
        self.refuse_taken_discard(state, card)

    def score_deal(self, state: GameState, winner: int | None) -> HandResult:
        """The result of the deal that just ended (``winner`` None: a stalemate); its ``penalties``
        are added to the totals. May update other per-seat state (W14's streaks)."""
        raise NotImplementedError

    def game_over(self, state: GameState) -> dict | None:
        """After a deal is scored: None while the game goes on, else the extra fields of the
        ``game_over`` event (``{}`` for none)."""
        raise NotImplementedError

    def next_first(self, state: GameState, winner: int | None) -> int:
        """The seat passed to ``deal`` as ``first`` for the next deal. Default: the seat left of this
        deal's dealer deals (R3, F5)."""
        return (state.deal.dealer + 1) % state.players

    def initial_totals(self, players: int) -> list[int]:
        """Each seat's total when the game starts: 0 points (S13, W14)."""
        return [0] * players

    def standings(self, state: GameState) -> tuple[int, ...]:
        """Finishing place of each seat of a finished game (1 = winner; tied seats share a place).

        Lowest total wins; a tie goes to the lower score in the final deal, then is shared (S15, W15).
        """
        last = state.last_result.penalties if state.last_result else (0,) * state.players
        keys = [(state.totals[s], last[s]) for s in range(state.players)]
        return tuple(1 + sum(1 for other in keys if other < keys[s]) for s in range(state.players))

    def start_card(self, deal: DealState) -> Card | None:
        """The card turned up to start the discard pile when the variant gives it an effect (F4), else None."""
        return None

    def deal_state_json(self, deal: DealState) -> dict:
        """The variant's own part of ``deal`` as JSON, for the store (``Deal.variant_state``).
        Default: nothing."""
        return {}

    def deal_state_fields(self, data: dict) -> dict:
        """Inverse of ``deal_state_json``: the DealState fields ``data`` holds, by name."""
        return {}

    def is_wild(self, card: Card, deal: DealState | PlayerView) -> bool:
        """Whether ``card`` is wild in ``deal`` (a deal or a player's view of it: W3, R5, F11)."""
        return self.meld_rules_for(deal).is_wild(card)

    def meld_rules_for_stored(self, variant_state: dict) -> MeldRules:
        """The meld rules in force in a deal the store holds, from the deal's ``variant_state``
        (``deal_state_json``'s JSON), e.g. to tell the wilds of a finished deal's leftover hands
        (W3: Wild Rummy's wild rank is that deal's; R5, F11). A variant's meld rules read only its
        own part of a deal, the fields ``deal_state_fields`` restores."""
        return self.meld_rules_for(SimpleNamespace(**self.deal_state_fields(variant_state)))

    def wild_label(self, view: PlayerView) -> str:
        """What the board says about the wilds of the deal ``view`` shows; empty by default."""
        return ""

    def options(self) -> dict:
        """The table options as JSON."""
        return {}

    def describe_options(self) -> list[str]:
        """The table's rules that players must know, one short sentence each, for the pages."""
        return []

    # ----- dispatch ------------------------------------------------------------------------

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """Every action ``seat`` (the seat to move) may take now, by phase (0.2)."""
        if state.deal.phase == Phase.DRAW:
            return self.draw_actions(state, seat)
        return self.play_actions(state, seat)

    def draw_actions(self, state: GameState, seat: int) -> list[Action]:
        """The legal draws of ``seat``: DrawStock while the stock holds a card (0.6, F16), and
        TakeDiscard when the pile has a card the variant lets ``seat`` take (``take_refusal``)."""
        deal = state.deal
        actions: list[Action] = [DrawStock()] if deal.stock else []
        if deal.discard and self.take_refusal(state, seat) is None:
            actions.append(TakeDiscard())
        return actions

    def play(self, state: GameState, seat: int, action: Action, events: list[dict]) -> None:
        """Carry out ``action`` by ``seat`` on ``state`` (a copy) and append its events.

        Raises IllegalAction; ``state`` may then be half-changed and must be thrown away.
        """
        if isinstance(action, DrawStock):
            self.draw_stock(state, seat, events)
        elif isinstance(action, TakeDiscard):
            self.take_discard(state, seat, events)
        elif isinstance(action, (LayMeld, LayOff, SwapWild)):
            played = self.play_cards(state, seat, action, events)
            self.after_play(state, seat, played, events)
        elif isinstance(action, Discard):
            self.discard(state, seat, action, events)
        else:
            raise IllegalAction("malformed", f"{self.title} has no such move.")

    def refuse_foreign_move(self, kind: object) -> None:
        """Refuse a move of a kind this game does not have, before anything else about it is read:
        a wild swap where wilds stay put (``no_swaps``: S10, R12), a contract in a game without
        contracts (R4) or an action card in one without action cards (F8, F14): ``malformed``,
        "<title> has no such move.". Any other ``kind`` passes (an unknown one is refused as such
        when the action is read)."""
        if kind == SwapWild.type and not self.allows_swaps:
            raise IllegalAction("no_swaps", f"{self.title} has no wild swaps: a wild on the table stays "
                                "where it is.", self.swap_rule)
        foreign = {LayContract.type: not self.has_contracts, PlayAction.type: not self.has_action_cards,
                   ChooseTarget.type: not self.has_action_cards}
        if isinstance(kind, str) and foreign.get(kind):
            raise IllegalAction("malformed", f"{self.title} has no such move.")

    # ----- shared steps --------------------------------------------------------------------

    @staticmethod
    def require_phase(state: GameState, phase: Phase, message: str) -> None:
        """Raise IllegalAction("wrong_phase", rule 0.2) unless the deal is in ``phase``."""
        if state.deal.phase != phase:
            raise IllegalAction("wrong_phase", message, "0.2")

    @staticmethod
    def cards_in_hand(state: GameState, seat: int, keys: tuple[str, ...]) -> list[Card]:
        """The cards of ``seat``'s hand named by ``keys``, each once.

        Raises IllegalAction: ``malformed`` (no card, or one named twice); ``not_in_hand``."""
        distinct_card_keys(keys)
        by_key = {c.key: c for c in state.deal.hands[seat]}
        if any(k not in by_key for k in keys):
            raise IllegalAction("not_in_hand", "You do not hold that card.")
        return [by_key[k] for k in keys]

    def draw_stock(self, state: GameState, seat: int, events: list[dict]) -> None:
        """Draw the stock's top card (S5, W5) and rebuild an emptied stock at once (0.6).

        Raises IllegalAction: ``wrong_phase``; ``empty_stock`` (a position no game reaches, 0.6, F16)."""
        self.require_phase(state, Phase.DRAW, "You have already drawn this turn.")
        deal = state.deal
        if not deal.stock:
            raise IllegalAction("empty_stock", "The stock is empty: there is no card to draw from it.", self.stock_rule)
        bisect.insort(deal.hands[seat], deal.stock.pop())
        events.append({"type": "draw_stock", "seat": seat})
        deal.phase = Phase.PLAY
        if not deal.stock:
            self.rebuild_stock(state, events)

    def take_discard(self, state: GameState, seat: int, events: list[dict]) -> None:
        """Take the discard pile's top card (S5, W5); the variant may refuse it first (``take_refusal``)."""
        self.require_phase(state, Phase.DRAW, "You have already drawn this turn.")
        deal = state.deal
        if not deal.discard:
            raise IllegalAction("empty_discard", "The discard pile is empty.", self.draw_rule)
        refusal = self.take_refusal(state, seat)
        if refusal is not None:
            raise refusal
        card = deal.discard.pop()
        deal.taken_discard = card
        bisect.insort(deal.hands[seat], card)
        events.append({"type": "take_discard", "seat": seat, "card": card.key})
        deal.phase = Phase.PLAY

    def rebuild_stock(self, state: GameState, events: list[dict]) -> None:
        """Rule 0.6: reshuffle all but the top discard into a new stock at once; past the variant's
        rebuild limit, or with at most one discard, mark the deal to end after this turn (S16, W13)."""
        deal = state.deal
        if deal.rebuilds >= self.max_rebuilds or len(deal.discard) <= 1:
            deal.stalemate = True
            events.append({"type": "stock_exhausted"})
            return
        deal.rebuilds += 1
        deal.stock = shuffled(deal.discard[:-1], f"{deal.seed}:rebuild:{deal.rebuilds}")
        deal.discard = deal.discard[-1:]
        events.append({"type": "stock_rebuilt", "count": len(deal.stock)})

    def play_cards(self, state: GameState, seat: int, action: LayMeld | LayOff | SwapWild,
                   events: list[dict]) -> list[Card]:
        """Carry out a meld (S8, W7-W9), lay-off (S9, W10, W12) or wild swap (W11) without the
        variant's after-play checks; return the cards that left the hand.

        Raises IllegalAction: ``wrong_phase``, ``not_in_hand``, ``no_such_meld``, ``bad_meld``,
        ``bad_lay_off``, ``bad_wild``, ``choose_wild``, ``bad_swap`` (``no_swaps`` is
        ``refuse_foreign_move``'s).
        """
        deal = state.deal
        rules = self.meld_rules_for(deal)
        if isinstance(action, SwapWild):
            self.require_phase(state, Phase.PLAY, "Draw a card before you swap a wild.")
            meld = deal.meld(action.meld)
            (natural,) = self.cards_in_hand(state, seat, (action.card,))
            wild = next((c for c in meld.shape.cards if c.key == action.wild), None) if action.wild else None
            if action.wild and wild is None:
                raise IllegalAction("bad_swap", "That wild is not in that meld.", "W11")
            grown = swap_wild(meld.shape, natural, wild, rules)
            freed = next(c for c in meld.shape.cards if c not in grown.cards)
            deal.hands[seat].remove(natural)
            bisect.insort(deal.hands[seat], freed)
            if self.freed_wild_pending:
                deal.pending.append(freed)
            deal.melds = [replace(m, shape=grown) if m.id == meld.id else m for m in deal.melds]
            events.append({"type": "swap_wild", "seat": seat, "meld": meld.id, "card": natural.key,
                           "wild": freed.key, "stood_for": meld.shape.stands_for(freed)})
            deal.played_this_turn = True
            return [natural]
        verb = "meld" if isinstance(action, LayMeld) else "lay off"
        self.require_phase(state, Phase.PLAY, f"Draw a card before you {verb}.")
        if isinstance(action, LayMeld):
            cards = self.cards_in_hand(state, seat, action.cards)
            shape = read_meld(cards, rules, dict(action.wilds))
            deal.melds.append(TableMeld(deal.next_meld_id, seat, shape))
            event = {"type": "lay_meld", "seat": seat, "meld": deal.next_meld_id, "cards": [c.key for c in shape.cards]}
            deal.next_meld_id += 1
        else:
            meld = deal.meld(action.meld)
            cards = self.cards_in_hand(state, seat, action.cards)
            grown = self.grow_meld(state, seat, meld, cards, dict(action.wilds))
            deal.melds = [replace(m, shape=grown) if m.id == meld.id else m for m in deal.melds]
            shape = grown
            event = {"type": "lay_off", "seat": seat, "meld": meld.id, "cards": [c.key for c in cards]}
        wilds = {c.key: shape.stands_for(c) for c in cards if shape.stands_for(c)}
        events.append({**event, "wilds": wilds} if wilds else event)
        deal.hands[seat] = [c for c in deal.hands[seat] if c not in cards]
        deal.played_this_turn = True
        return cards

    def grow_meld(self, state: GameState, seat: int, meld: TableMeld, cards: list[Card],
                  wilds: dict[str, str]) -> object:
        """The meld ``meld`` grown by ``cards`` (S9, W10); Wild Rummy adds W12's surplus wild."""
        return extend_meld(meld.shape, cards, self.meld_rules_for(state.deal), wilds)

    def discard(self, state: GameState, seat: int, action: Discard, events: list[dict]) -> None:
        """Discard one card to end the turn (S7, W5), then ``end_turn``."""
        self.require_phase(state, Phase.PLAY, "Draw a card before you discard.")
        deal = state.deal
        (card,) = self.cards_in_hand(state, seat, (action.card,))
        self.check_discard(state, seat, card)
        deal.hands[seat].remove(card)
        deal.discard.append(card)
        events.append({"type": "discard", "seat": seat, "card": card.key})
        self.end_turn(state, seat, events)

    def end_turn(self, state: GameState, seat: int, events: list[dict]) -> None:
        """After ``seat``'s turn-ending card: an emptied hand goes out (S11, W12), a stalemate ends
        the deal (S16, W13), otherwise the turn passes left (0.1)."""
        deal = state.deal
        if not deal.hands[seat]:
            self.end_deal(state, seat, events)
        elif deal.stalemate:
            self.end_deal(state, None, events)
        else:
            deal.played_before[seat] = deal.played_before[seat] or deal.played_this_turn
            deal.played_this_turn = False
            deal.taken_discard = None
            deal.turn = (seat + 1) % state.players
            deal.phase = Phase.DRAW

    def end_deal(self, state: GameState, winner: int | None, events: list[dict]) -> None:
        """End the deal: score it (``score_deal``), add its points to the totals, then end the game
        (``game_over``) or deal the next one from the seat ``next_first`` names."""
        deal = state.deal
        state.last_result = self.score_deal(state, winner)
        state.totals = [t + p for t, p in zip(state.totals, state.last_result.penalties)]
        state.ended_deal = deal
        events.append({"type": "hand_over", **state.last_result.to_json(), "totals": list(state.totals)})
        ending = self.game_over(state)
        if ending is not None:
            state.finished = True
            events.append({"type": "game_over", "standings": list(state.standings()), **ending})
            return
        state.deal = self.deal(state.players, state.seed, deal.number + 1, self.next_first(state, winner))
        start = self.start_card(state.deal)
        events.append({"type": "new_deal", "deal": state.deal.number, "dealer": state.deal.dealer,
                       **({"start_card": start.key} if start else {})})

    # ----- shared refusals -----------------------------------------------------------------

    def keeps_a_way_out(self, deal: DealState, hand: list[Card], played=()) -> bool:
        """Rule 0.5(b): after ``played`` leave ``hand``, it holds a card other than the taken
        discard (0.4), or it is empty and the variant goes out by a play (S11)."""
        rest = [c for c in hand if c not in played]
        return (not rest and self.goes_out_by_play) or any(c != deal.taken_discard for c in rest)

    def refuse_dead_end(self, state: GameState, seat: int) -> None:
        """Raise IllegalAction("dead_end") when ``seat``'s hand after a play is empty and the
        variant goes out only by ending a turn (``going_out_rule``: W12, R14, F15), or holds only
        the card taken from the discard pile (0.5)."""
        deal = state.deal
        if not deal.hands[seat] and not self.goes_out_by_play:
            raise IllegalAction("dead_end", self.going_out_message, self.going_out_rule)
        if not self.keeps_a_way_out(deal, deal.hands[seat]):
            raise IllegalAction("dead_end", f"Keep a card you may discard: {show(deal.taken_discard)} was taken from "
                                "the discard pile this turn and cannot be discarded.", "0.5")

    def refuse_taken_discard(self, state: GameState, card: Card) -> None:
        """Raise IllegalAction("taken_discard") when ``card`` was taken from the discard pile this
        turn (0.4; S7 in Standard Rummy, ``taken_discard_rule``)."""
        if card == state.deal.taken_discard:
            raise IllegalAction("taken_discard", f"You took {show(card)} from the discard pile this turn, "
                                "so you may not discard it.", self.taken_discard_rule)

    def dealt(self, players: int, game_seed: str, number: int, sizes: list[int], first: int, *, dealer: int,
              turn_up: bool, phase: Phase, wild_rank: int | None = None) -> DealState:
        """Shuffle and deal deal ``number`` (seed from ``deal_seed``): ``sizes`` cards per seat dealt
        from seat ``first``; with ``turn_up`` the next card starts the discard pile (S3), otherwise
        the pile starts empty (W4). The seat left of ``dealer`` moves first, in ``phase``."""
        seed = deal_seed(game_seed, number)
        hands, stock = deal_hands(self.deck(), seed, players, sizes, first)
        discard = [stock.pop()] if turn_up else []
        return DealState(number=number, dealer=dealer, seed=seed, hands=hands, stock=stock, discard=discard,
                         melds=[], turn=(dealer + 1) % players, phase=phase, played_before=[False] * players,
                         wild_rank=wild_rank)
