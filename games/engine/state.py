"""Game and deal state for Standard Rummy: phases, legal actions, apply, player views.

A GameState is a value: ``apply`` returns a new state and never changes the old one, so an illegal
action changes nothing (rule 0.7). Randomness comes only from seeds held in the state: each deal's
shuffle seed is derived from the game seed, and a stock rebuild reshuffles with a seed derived from
the deal seed (rule 0.6), so a game seed plus its action log replays the whole game.

Seats are 0..n-1 and play runs clockwise, "left of X" being X+1 (rule 0.1). A turn is draw, play,
end (rule 0.2): phase ``draw`` then ``play``; the discard ends the turn.
"""
from __future__ import annotations

import bisect
import hashlib
import random
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .actions import Action, Discard, DrawStock, LayMeld, LayOff, TakeDiscard
from .cards import Card, shuffled
from .errors import IllegalAction
from .melds import MeldShape, candidate_melds, extend_meld, read_meld, show


class Phase(StrEnum):
    """Where the player to move stands in their turn (rule 0.2), or that the game is over."""

    DRAW = "draw"
    PLAY = "play"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: ``id`` (unique in the deal), owner seat and its checked shape."""

    id: int
    owner: int
    shape: MeldShape


@dataclass(frozen=True)
class HandResult:
    """How a hand ended (rules S11-S16).

    Attributes:
        deal: deal number, 1-based.
        winner: the seat that went out, or None after a stalemate (S16).
        penalties: points each seat added to its total this hand (S13, doubled under S14).
        rummy: True when the winner went rummy with the S14 option on.
    """

    deal: int
    winner: int | None
    penalties: tuple[int, ...]
    rummy: bool = False

    def to_json(self) -> dict:
        """``{"deal", "winner", "penalties", "rummy"}``."""
        return {"deal": self.deal, "winner": self.winner, "penalties": list(self.penalties), "rummy": self.rummy}

    @classmethod
    def from_json(cls, data: dict) -> HandResult:
        """Inverse of ``to_json``."""
        return cls(data["deal"], data["winner"], tuple(data["penalties"]), data.get("rummy", False))


@dataclass
class DealState:
    """One hand in progress. Lists are owned by this state; the stock's and discard pile's top is
    the last element.

    Attributes:
        number: deal number, 1-based. dealer: dealer seat. seed: shuffle seed (hex string).
        hands: each seat's cards, kept sorted (by notation, then copy) so that a hand's order
            never depends on the order the cards arrived in. stock, discard: the piles. melds: the table, in laying order.
        turn: seat to move. phase: DRAW or PLAY.
        taken_discard: the card taken from the discard pile this turn (S7), if any.
        rebuilds: stock rebuilds so far this hand (0.6, S16).
        stalemate: the stock could not be rebuilt; the hand ends after this turn (S16).
        played_this_turn / played_before: melds and lay-offs, for "going rummy" (S14).
        next_meld_id: id for the next meld laid.
    """

    number: int
    dealer: int
    seed: str
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    melds: list[TableMeld]
    turn: int
    phase: Phase
    taken_discard: Card | None = None
    rebuilds: int = 0
    stalemate: bool = False
    played_this_turn: bool = False
    played_before: list[bool] = field(default_factory=list)
    next_meld_id: int = 1

    def copy(self) -> DealState:
        """A copy whose lists can change without touching this one."""
        return replace(self, hands=[list(h) for h in self.hands], stock=list(self.stock),
                       discard=list(self.discard), melds=list(self.melds),
                       played_before=list(self.played_before))

    def all_cards(self) -> list[Card]:
        """Every physical card of the deal, wherever it is (for conservation checks)."""
        cards = [c for hand in self.hands for c in hand] + self.stock + self.discard
        return cards + [c for meld in self.melds for c in meld.shape.cards]

    def meld(self, meld_id: int) -> TableMeld:
        """The meld with ``meld_id``. Raises IllegalAction("no_such_meld")."""
        for meld in self.melds:
            if meld.id == meld_id:
                return meld
        raise IllegalAction("no_such_meld", "There is no such meld on the table.")


def deal_seed(game_seed: str, number: int) -> str:
    """The shuffle seed of deal ``number``: SHA-256 hex of ``"<game_seed>:<number>"``."""
    return hashlib.sha256(f"{game_seed}:{number}".encode()).hexdigest()


@dataclass(frozen=True)
class PlayerView:
    """What one seat may know (design: "player_view"); ``seat`` None is a spectator.

    Holds the seat's own hand, every other seat's hand size, the table, the discard pile's top
    card, the stock size, totals, the phase, and that seat's legal actions. Never another hand or
    the order of the stock.
    """

    seat: int | None
    players: int
    deal_number: int
    dealer: int
    turn: int
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[TableMeld, ...]
    discard_top: Card | None
    discard_size: int
    stock_size: int
    rebuilds: int
    totals: tuple[int, ...]
    taken_discard: Card | None
    legal_actions: tuple[Action, ...]
    last_result: HandResult | None
    standings: tuple[int, ...] | None


@dataclass
class GameState:
    """A whole game: the variant with its options, totals, and the deal in progress.

    Attributes:
        variant: the variant object (e.g. StandardRummy) with its table options.
        players: number of seats, 2-4 (rule S2).
        seed: the game seed (hex); deal seeds derive from it.
        totals: each seat's penalty total (S13).
        deal: the current (or, once the game is over, last) DealState.
        last_result: the result of the latest finished hand.
        finished: True once S15 ended the game.
        ended_deal: the final position of a hand that the last ``apply`` ended, so that it can be
            stored before the next deal replaces it; None otherwise.
    """

    variant: object
    players: int
    seed: str
    totals: list[int]
    deal: DealState
    last_result: HandResult | None = None
    finished: bool = False
    ended_deal: DealState | None = None

    @classmethod
    def new(cls, variant, players: int, seed: str) -> GameState:
        """Start a game: a random first dealer (S4) and the first deal.

        Raises IllegalAction("bad_players") when ``players`` is outside the variant's range (S2).
        """
        if not variant.min_players <= players <= variant.max_players:
            raise IllegalAction("bad_players",
                                f"{variant.title} is for {variant.min_players}-{variant.max_players} players.", "S2")
        dealer = random.Random(seed).randrange(players)
        return cls(variant, players, seed, [0] * players, _dealt(variant, players, seed, 1, dealer))

    def copy(self) -> GameState:
        """A copy that can change without touching this one."""
        return replace(self, totals=list(self.totals), deal=self.deal.copy(), ended_deal=None)

    @property
    def phase(self) -> Phase:
        """GAME_OVER once finished, else the deal's phase."""
        return Phase.GAME_OVER if self.finished else self.deal.phase

    def standings(self) -> tuple[int, ...] | None:
        """Finishing place of each seat (1 = winner; tied seats share a place), or None while playing.

        Lowest total wins; a tie goes to the lower penalty in the final hand, then is shared (S15).
        """
        if not self.finished:
            return None
        last = self.last_result.penalties if self.last_result else (0,) * self.players
        keys = [(self.totals[s], last[s]) for s in range(self.players)]
        return tuple(1 + sum(1 for other in keys if other < keys[s]) for s in range(self.players))

    # ----- legal actions -------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now; empty when it is not that seat's turn.

        Draw phase: DrawStock, and TakeDiscard when the pile has a card (S5). Play phase: each
        legal new meld (S8) and single-card lay-off (S9), then each allowed discard (S7), all
        filtered by the no-dead-end rule 0.5.
        """
        deal = self.deal
        if self.finished or seat != deal.turn:
            return []
        if deal.phase == Phase.DRAW:
            return [DrawStock(), TakeDiscard()] if deal.discard else [DrawStock()]
        hand = deal.hands[seat]
        rules = self.variant.meld_rules
        actions: list[Action] = [LayMeld(tuple(c.key for c in shape.cards))
                                 for shape in candidate_melds(hand, rules)
                                 if self._leaves_a_way_out(hand, shape.cards)]
        for card in hand:
            if not self._leaves_a_way_out(hand, (card,)):
                continue
            for meld in deal.melds:
                try:
                    extend_meld(meld.shape, (card,), rules)
                except IllegalAction:
                    continue
                actions.append(LayOff(meld.id, (card.key,)))
        actions += [Discard(c.key) for c in hand if c != deal.taken_discard]
        return actions

    def _leaves_a_way_out(self, hand: list[Card], played: tuple[Card, ...]) -> bool:
        """Rule 0.5(b): after playing ``played`` the hand is empty (S11) or holds a card that may be discarded."""
        rest = [c for c in hand if c not in played]
        return not rest or any(c != self.deal.taken_discard for c in rest)

    # ----- apply ---------------------------------------------------------------------------

    def apply(self, seat: int, action: Action) -> tuple[GameState, list[dict]]:
        """Apply ``action`` by ``seat``; return the next state and the public events that happened.

        Events are small dicts such as ``{"type": "discard", "seat": 1, "card": "7C"}``; a card
        drawn from the stock is never named.

        Raises:
            IllegalAction: with codes ``game_over``, ``not_your_turn``, ``wrong_phase``,
                ``empty_discard``, ``not_in_hand``, ``bad_meld``, ``bad_lay_off``,
                ``no_such_meld``, ``taken_discard`` (S7), ``dead_end`` (0.5). ``self`` is unchanged.
        """
        if self.finished:
            raise IllegalAction("game_over", "The game is over.", "S15")
        if seat != self.deal.turn:
            raise IllegalAction("not_your_turn", "It is not your turn.", "0.1")
        state = self.copy()
        events: list[dict] = []
        if isinstance(action, (DrawStock, TakeDiscard)):
            state._draw(seat, action, events)
        elif isinstance(action, LayMeld):
            state._lay_meld(seat, action, events)
        elif isinstance(action, LayOff):
            state._lay_off(seat, action, events)
        elif isinstance(action, Discard):
            state._discard(seat, action, events)
        else:
            raise IllegalAction("malformed", "Unknown action.")
        return state, events

    def _require_phase(self, phase: Phase, message: str) -> None:
        if self.deal.phase != phase:
            raise IllegalAction("wrong_phase", message, "0.2")

    def _cards_in_hand(self, seat: int, keys: tuple[str, ...]) -> list[Card]:
        by_key = {c.key: c for c in self.deal.hands[seat]}
        missing = [k for k in keys if k not in by_key]
        if missing:
            raise IllegalAction("not_in_hand", "You do not hold that card.")
        return [by_key[k] for k in keys]

    def _draw(self, seat: int, action: Action, events: list[dict]) -> None:
        deal = self.deal
        self._require_phase(Phase.DRAW, "You have already drawn this turn.")
        if isinstance(action, TakeDiscard):
            if not deal.discard:
                raise IllegalAction("empty_discard", "The discard pile is empty.", "S5")
            card = deal.discard.pop()
            deal.taken_discard = card
            events.append({"type": "take_discard", "seat": seat, "card": card.key})
        else:
            card = deal.stock.pop()
            events.append({"type": "draw_stock", "seat": seat})
        bisect.insort(deal.hands[seat], card)
        deal.phase = Phase.PLAY
        if not deal.stock:
            self._rebuild_stock(events)

    def _rebuild_stock(self, events: list[dict]) -> None:
        """Rule 0.6 / S16: reshuffle all but the top discard into a new stock at once, or, past the
        rebuild limit or with at most one discard, mark the hand to end after this turn."""
        deal = self.deal
        if deal.rebuilds >= self.variant.max_rebuilds or len(deal.discard) <= 1:
            deal.stalemate = True
            events.append({"type": "stock_exhausted"})
            return
        deal.rebuilds += 1
        deal.stock = shuffled(deal.discard[:-1], f"{deal.seed}:rebuild:{deal.rebuilds}")
        deal.discard = deal.discard[-1:]
        events.append({"type": "stock_rebuilt", "count": len(deal.stock)})

    def _play_cards(self, seat: int, cards: list[Card]) -> None:
        deal = self.deal
        if not self._leaves_a_way_out(deal.hands[seat], tuple(cards)):
            raise IllegalAction("dead_end", f"Keep a card you may discard: {show(deal.taken_discard)} was "
                                "taken from the discard pile this turn and cannot be discarded.", "0.5")
        deal.hands[seat] = [c for c in deal.hands[seat] if c not in cards]
        deal.played_this_turn = True

    def _lay_meld(self, seat: int, action: LayMeld, events: list[dict]) -> None:
        self._require_phase(Phase.PLAY, "Draw a card before you meld.")
        cards = self._cards_in_hand(seat, action.cards)
        shape = read_meld(cards, self.variant.meld_rules)
        self._play_cards(seat, cards)
        deal = self.deal
        deal.melds.append(TableMeld(deal.next_meld_id, seat, shape))
        events.append({"type": "lay_meld", "seat": seat, "meld": deal.next_meld_id,
                       "cards": [c.key for c in shape.cards]})
        deal.next_meld_id += 1
        self._after_play(seat, events)

    def _lay_off(self, seat: int, action: LayOff, events: list[dict]) -> None:
        self._require_phase(Phase.PLAY, "Draw a card before you lay off.")
        deal = self.deal
        meld = deal.meld(action.meld)
        cards = self._cards_in_hand(seat, action.cards)
        grown = extend_meld(meld.shape, cards, self.variant.meld_rules)
        self._play_cards(seat, cards)
        deal.melds = [replace(m, shape=grown) if m.id == meld.id else m for m in deal.melds]
        events.append({"type": "lay_off", "seat": seat, "meld": meld.id, "cards": [c.key for c in cards]})
        self._after_play(seat, events)

    def _after_play(self, seat: int, events: list[dict]) -> None:
        """S11: melding or laying off the last card goes out with no discard."""
        if not self.deal.hands[seat]:
            self._end_hand(seat, events)

    def _discard(self, seat: int, action: Discard, events: list[dict]) -> None:
        self._require_phase(Phase.PLAY, "Draw a card before you discard.")
        deal = self.deal
        (card,) = self._cards_in_hand(seat, (action.card,))
        if card == deal.taken_discard:
            raise IllegalAction("taken_discard", f"You took {show(card)} from the discard pile this turn, "
                                "so you may not discard it.", "S7")
        deal.hands[seat].remove(card)
        deal.discard.append(card)
        events.append({"type": "discard", "seat": seat, "card": card.key})
        if not deal.hands[seat]:
            self._end_hand(seat, events)
        elif deal.stalemate:
            self._end_hand(None, events)
        else:
            deal.played_before[seat] = deal.played_before[seat] or deal.played_this_turn
            deal.played_this_turn = False
            deal.taken_discard = None
            deal.turn = (seat + 1) % self.players
            deal.phase = Phase.DRAW

    # ----- hand and game end ---------------------------------------------------------------

    def _end_hand(self, winner: int | None, events: list[dict]) -> None:
        """Score the hand (S13, S14, S16), end the game if a total reached the target (S15), else deal again."""
        deal, variant = self.deal, self.variant
        rummy = bool(winner is not None and variant.going_rummy and not deal.played_before[winner])
        factor = 2 if rummy else 1
        penalties = tuple(factor * sum(variant.card_points(c) for c in hand) for hand in deal.hands)
        self.totals = [t + p for t, p in zip(self.totals, penalties)]
        self.last_result = HandResult(deal.number, winner, penalties, rummy)
        self.ended_deal = deal
        events.append({"type": "hand_over", **self.last_result.to_json(), "totals": list(self.totals)})
        if max(self.totals) >= variant.target:
            self.finished = True
            events.append({"type": "game_over", "standings": list(self.standings())})
            return
        dealer = variant.next_dealer(deal.dealer, winner, self.players)
        self.deal = _dealt(variant, self.players, self.seed, deal.number + 1, dealer)
        events.append({"type": "new_deal", "deal": self.deal.number, "dealer": dealer})

    # ----- views ---------------------------------------------------------------------------

    def player_view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (None: a spectator, who sees no hand). See PlayerView."""
        deal = self.deal
        own = seat is not None
        return PlayerView(
            seat=seat, players=self.players, deal_number=deal.number, dealer=deal.dealer, turn=deal.turn,
            phase=self.phase, hand=tuple(deal.hands[seat]) if own else (),
            hand_sizes=tuple(len(h) for h in deal.hands), melds=tuple(deal.melds),
            discard_top=deal.discard[-1] if deal.discard else None, discard_size=len(deal.discard),
            stock_size=len(deal.stock), rebuilds=deal.rebuilds, totals=tuple(self.totals),
            taken_discard=deal.taken_discard if own and seat == deal.turn else None,
            legal_actions=tuple(self.legal_actions(seat)) if own else (),
            last_result=self.last_result, standings=self.standings(),
        )


def _dealt(variant, players: int, game_seed: str, number: int, dealer: int) -> DealState:
    """Shuffle and deal hand ``number`` (S3): hands dealt one card at a time from the left of the
    dealer, the next card turned up to start the discard pile; the player left of the dealer starts (S4)."""
    seed = deal_seed(game_seed, number)
    stock = shuffled(variant.deck(), seed)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _ in range(variant.hand_size(players)):
        for offset in range(1, players + 1):
            hands[(dealer + offset) % players].append(stock.pop())
    discard = [stock.pop()]
    for hand in hands:
        hand.sort()
    return DealState(number=number, dealer=dealer, seed=seed, hands=hands, stock=stock, discard=discard,
                     melds=[], turn=(dealer + 1) % players, phase=Phase.DRAW, played_before=[False] * players)
