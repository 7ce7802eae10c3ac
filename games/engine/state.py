"""Game and deal state shared by every variant: phases, table melds, deal results, player views.

The rules of a turn belong to the variant (``games.engine.variants``): GameState asks its variant
for the first deal, the legal actions and the effect of an action. A GameState is a value: ``apply``
returns a new state and never changes the old one, so an illegal
action changes nothing (rule 0.7). Randomness comes only from seeds held in the state: each deal's
shuffle seed is derived from the game seed, and a stock rebuild reshuffles with a seed derived from
the deal seed (rule 0.6), so a game seed plus its action log replays the whole game.

Seats are 0..n-1 and play runs clockwise, "left of X" being X+1 (rule 0.1). A turn is draw, play,
end (rule 0.2): phase ``draw`` then ``play``; the discard ends the turn.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .actions import Action, TakeDiscard
from .cards import Card
from .errors import IllegalAction
from .melds import MeldShape


class Phase(StrEnum):
    """Where the player to move stands in their turn (rule 0.2), or that the game is over."""

    DRAW = "draw"
    PLAY = "play"
    EXTRA_DISCARD = "extra_discard"
    """Frayzy: after a Discard 1 card (F14), or a Discard 1 start card (F4), one more card must be discarded."""
    CHOOSE_TARGET = "choose_target"
    """Frayzy: a Draw 5 start card; the dealer picks who draws 5 (F4)."""
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: ``id`` (unique in the deal), owner seat, its checked shape, and whether
    it was laid as part of a contract (R10)."""

    id: int
    owner: int
    shape: MeldShape
    contract: bool = False


@dataclass(frozen=True)
class HandResult:
    """How a deal ended (rules S11-S16, W12-W14).

    Attributes:
        deal: deal number, 1-based.
        winner: the seat that went out, or None after a stalemate (S16, W13).
        penalties: points each seat added to its total this deal (S13, doubled under S14; W14,
            where the winner's entry is the -2 or -12 bonus).
        rummy: True when the winner went rummy with the S14 option on.
        streak_bonus: True when the winner scored W14's -12 for a 3rd, 6th, ... deal in a row.
        laid_down: Frustration Rummy: which seats laid their contract this round (R15); there
            ``penalties`` holds each seat's advance, 1 or 0. Empty in other variants.
    """

    deal: int
    winner: int | None
    penalties: tuple[int, ...]
    rummy: bool = False
    streak_bonus: bool = False
    laid_down: tuple[bool, ...] = ()

    def to_json(self) -> dict:
        """``{"deal", "winner", "penalties", "rummy"}``, plus ``"streak_bonus": true`` and
        ``"laid_down": [bool, ...]`` when they apply."""
        data = {"deal": self.deal, "winner": self.winner, "penalties": list(self.penalties), "rummy": self.rummy}
        if self.streak_bonus:
            data["streak_bonus"] = True
        if self.laid_down:
            data["laid_down"] = list(self.laid_down)
        return data

    @classmethod
    def from_json(cls, data: dict) -> HandResult:
        """Inverse of ``to_json``."""
        return cls(data["deal"], data["winner"], tuple(data["penalties"]), data.get("rummy", False),
                   data.get("streak_bonus", False), tuple(data.get("laid_down", ())))


@dataclass
class DealState:
    """One hand in progress. Lists are owned by this state; the stock's and discard pile's top is
    the last element.

    Attributes:
        number: deal number, 1-based. dealer: dealer seat. seed: shuffle seed (hex string).
        hands: each seat's cards, kept sorted (by notation, then copy) so that a hand's order
            never depends on the order the cards arrived in. stock, discard: the piles.
        melds: the table, in laying order.
        turn: seat to move. phase: DRAW or PLAY.
        taken_discard: the card taken from the discard pile this turn (S7), if any.
        rebuilds: stock rebuilds so far this hand (0.6, S16, W13).
        stalemate: the stock could not be rebuilt; the hand ends after this turn (S16, W13).
        wild_rank: the rank (1-13) whose cards are wild this deal (W3), None without wilds.
        pending: cards that must be played before this turn's discard (W6), in the order they
            became pending.
        played_this_turn / played_before: melds and lay-offs, for "going rummy" (S14).
        next_meld_id: id for the next meld laid.
        laid_down: per seat, whether it laid its contract this round (Frustration, R10/R11).
        start_card: Frayzy: the card turned up to start the discard pile (F4), None once it has
            been taken from the pile (F6).
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
    wild_rank: int | None = None
    pending: list[Card] = field(default_factory=list)
    laid_down: list[bool] = field(default_factory=list)
    start_card: Card | None = None

    def copy(self) -> DealState:
        """A copy whose lists can change without touching this one."""
        return replace(self, hands=[list(h) for h in self.hands], stock=list(self.stock),
                       discard=list(self.discard), melds=list(self.melds),
                       played_before=list(self.played_before), pending=list(self.pending),
                       laid_down=list(self.laid_down))

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
    card, the stock size, totals, the phase, and that seat's legal actions; in Wild Rummy also the
    wild rank (W3), the seat's own pending cards (W6), streaks (W14) and the number of deals (W15,
    None when the game ends on points); in Frustration Rummy ``totals`` are the contracts (R4) and
    ``laid_down`` says who laid their contract this round (R10); in Frayzy ``start_card`` is the card
    turned up to start the discard pile (F4), None once taken. ``take_refusal`` says why the seat to
    move, drawing, may not take the discard pile's top card (its variant's ``take_refusal``: W6, F6),
    "" when it may. Never another hand or the order of the stock.
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
    wild_rank: int | None = None
    pending: tuple[Card, ...] = ()
    streaks: tuple[int, ...] = ()
    deals_in_game: int | None = None
    laid_down: tuple[bool, ...] = ()
    start_card: Card | None = None
    take_refusal: str = ""


@dataclass
class GameState:
    """A whole game: the variant with its options, totals, and the deal in progress.

    Attributes:
        variant: the variant object (e.g. StandardRummy, WildRummy) with its table options and turn rules.
        players: number of seats, 2-4 (rules S2, W2).
        seed: the game seed (hex); deal seeds derive from it.
        totals: each seat's running score (S13 penalties; W14 points; Frustration: the current
            contract, 1-14, R4).
        streaks: each seat's run of deals in a row going out (W14); zeros where unused.
        deal: the current (or, once the game is over, last) DealState.
        last_result: the result of the latest finished hand.
        finished: True once the game ended (S15, W15).
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
    streaks: list[int] = field(default_factory=list)

    @classmethod
    def new(cls, variant, players: int, seed: str) -> GameState:
        """Start a game: the seat chosen at random from ``seed`` deals (S4) or starts (W4) the first deal.

        Raises IllegalAction("bad_players") when ``players`` is outside the variant's range (S2, W2).
        """
        if not variant.min_players <= players <= variant.max_players:
            raise IllegalAction("bad_players", f"{variant.title} is for {variant.min_players}-"
                                f"{variant.max_players} players.", variant.players_rule)
        first = random.Random(seed).randrange(players)
        return cls(variant, players, seed, variant.initial_totals(players), variant.deal(players, seed, 1, first))

    def __post_init__(self):
        if not self.streaks:
            self.streaks = [0] * self.players

    def copy(self) -> GameState:
        """A copy that can change without touching this one."""
        return replace(self, totals=list(self.totals), streaks=list(self.streaks), deal=self.deal.copy(),
                       ended_deal=None)

    @property
    def phase(self) -> Phase:
        """GAME_OVER once finished, else the deal's phase."""
        return Phase.GAME_OVER if self.finished else self.deal.phase

    def standings(self) -> tuple[int, ...] | None:
        """Finishing place of each seat (1 = winner; tied seats share a place), or None while playing.

        The variant ranks the seats (``Variant.standings``: S15, W15, R15)."""
        if not self.finished:
            return None
        return self.variant.standings(self)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now; empty when it is not that seat's turn or the game is
        over. The variant decides (e.g. S5-S9 for Standard, W5-W12 for Wild), always filtered by the
        no-dead-end rule 0.5.

        The contract with ``apply`` (tests/engine/test_properties.py checks it for every variant):
        ``apply`` accepts every action listed here, and every action it accepts is listed, up to
        which copy of a card it names, for the kinds listed: draws, discards, new melds with each
        reading of their wilds (0.3), single-card lay-offs, wild swaps, action cards and the Draw 5
        start pick. A lay-off of several cards at once is accepted but not listed, and a Frustration
        contract is listed as one way to lay it down (R10). The seat to move always has an action
        listed (0.5)."""
        if self.finished or seat != self.deal.turn:
            return []
        return self.variant.legal_actions(self, seat)

    def apply(self, seat: int, action: Action) -> tuple[GameState, list[dict]]:
        """Apply ``action`` by ``seat``; return the next state and the public events that happened.

        Events are small dicts such as ``{"type": "discard", "seat": 1, "card": "7C"}``; a card
        drawn from the stock is never named.

        Raises:
            IllegalAction: ``game_over``, ``not_your_turn``, or the variant's refusal (codes such as
                ``wrong_phase``, ``bad_meld``, ``dead_end``, ``pending``), always with a message for
                the player. ``self`` is unchanged (0.7). Nothing else is raised, whatever the
                action holds (cards named twice or not held, missing melds, nonsense declarations).
        """
        if self.finished:
            raise IllegalAction("game_over", "The game is over.", self.variant.game_end_rule)
        if seat != self.deal.turn:
            raise IllegalAction("not_your_turn", "It is not your turn.", "0.1")
        self.variant.refuse_foreign_move(getattr(action, "type", None))
        state = self.copy()
        events: list[dict] = []
        self.variant.play(state, seat, action, events)
        return state, events

    # ----- views ---------------------------------------------------------------------------

    def player_view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may see (None: a spectator, who sees no hand). See PlayerView."""
        deal = self.deal
        own = seat is not None
        legal = tuple(self.legal_actions(seat)) if own else ()
        return PlayerView(
            seat=seat, players=self.players, deal_number=deal.number, dealer=deal.dealer, turn=deal.turn,
            phase=self.phase, hand=tuple(deal.hands[seat]) if own else (),
            hand_sizes=tuple(len(h) for h in deal.hands), melds=tuple(deal.melds),
            discard_top=deal.discard[-1] if deal.discard else None, discard_size=len(deal.discard),
            stock_size=len(deal.stock), rebuilds=deal.rebuilds, totals=tuple(self.totals),
            taken_discard=deal.taken_discard if own and seat == deal.turn else None,
            legal_actions=legal,
            last_result=self.last_result, standings=self.standings(), wild_rank=deal.wild_rank,
            pending=tuple(deal.pending) if own and seat == deal.turn else (), streaks=tuple(self.streaks),
            deals_in_game=self.variant.deals_in_game, laid_down=tuple(deal.laid_down),
            start_card=self.variant.start_card(deal), take_refusal=self._take_refusal(seat, legal),
        )

    def _take_refusal(self, seat: int | None, legal: tuple[Action, ...]) -> str:
        deal = self.deal
        if seat != deal.turn or self.phase != Phase.DRAW or not deal.discard or TakeDiscard() in legal:
            return ""
        refusal = self.variant.take_refusal(self, seat)
        if refusal is None:
            return ""
        return f"{refusal.message} (rule {refusal.rule})" if refusal.rule else refusal.message

