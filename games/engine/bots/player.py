"""The normal and strong computer players: sound greedy play, and the same play informed by memory.

Both choose only among ``view.legal_actions`` (so every choice passes the engine's checks) and
see only their own PlayerView and their own Memory of public events.

Draw (S5, W5/W6, R9): take the top discard when it makes a set or run with the hand, can be laid
off on the table, is wild (under R8 only while the hand holds fewer wilds than naturals), or
completes a Frustration contract (R10); Wild Rummy lists the take only when the card can be played
at once (W6), and then it is taken. Given a memory, neither level takes back the very card it
discarded since the deal began or the stock was last rebuilt; a wild taken is not followed by a
wild discard. Play: lay the contract as soon as it can (R10); lay the meld that starts the
largest packing of melds (``planning``); lay off naturals, and wilds only near the end of a hand;
swap wilds out of melds (W11, F13) when nothing else plays, in Wild Rummy whatever the hand's
size (the freed wild must be played at once, W6, so the swap shortens the hand like a lay-off: a
hand of two goes out with it). A Frayzy turn ends with an action card when the hand holds one, a
Draw 5 aimed at the seat closest to going out (F4, F8, F14). Discard (S7): the card that helps
the hand least (``evaluation.card_worth``, its melds counted toward the current contract in
Frustration), then the least dangerous to give away (``danger``), then the most penalty points.

With ``informed`` (the strong level) it also counts only live cards toward partial melds
(``knowledge.unseen``: cards gone are not live), weighs what the other seats took from and refused
on the discard pile, and plans by draws (``efficiency.HandMeter``): it takes the top discard when
that brings the hand a draw closer to going out, and discards so that the hand stays the fewest
draws from going out with the most outs; in Wild Rummy that measure counts that going out takes a
discard (W12), and a card that would lay off is kept as that discard when laying it off would
leave the hand further from going out. With ``holds_melds`` it keeps its melds in hand (nobody
can lay off on them) until it can go out in one turn or another seat gets close to going out.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

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
)
from ..cards import Card
from ..contracts import CONTRACTS, find_contract
from ..melds import MeldRules
from ..state import PlayerView
from . import knowledge
from .danger import danger, fits_table, swaps_lay_off
from .efficiency import HandMeter
from .evaluation import MELDED, Outlook, card_worth, outlook_for
from .memory import Memory
from .planning import best_meld, can_go_out

WILD_LAY_OFF_HAND = 3
"""A wild is laid off only when the hand holds at most this many cards (a wild in hand is flexible)."""
TAKE_TO_MELD_HAND = 3
"""The discard is taken to make a meld only with at least this many cards in hand, so a meld of
three and a card to end the turn remain (0.5); two short hands would otherwise pass one card back
and forth for ever."""
SAFE_HAND = 3
"""With ``holds_melds``, melds are kept in hand only while every other seat holds more than this many
cards (by default; ``ComputerPlayer.safe_hand``): a seat with fewer may go out soon, and melds
still in hand then count against the holder (S13, W14, F17)."""
FACE_POINTS = 10
POINTS_WEIGHT = 0.01
"""Between discards of equal worth and danger, the one with more penalty points goes (S13, W14, F17)."""
OUTS_COMPARED = 3
"""With ``informed``, how many of the best discards (by shortfall, then cost) are compared by their
outs by default (``ComputerPlayer.outs_compared``; costs in docs/computer-players.md)."""
MEASURED_HAND_LIMIT = 12
"""With ``informed``, a hand is measured by draws and outs (``efficiency``) only while it holds at most
this many cards, or while it builds a contract (``_measures``); a larger one (a Draw 5 can make it
twenty, F14) is played like the normal level's, as the measure of melds grows steeply with the hand
(costs in docs/computer-players.md)."""
OUT_WORTH = 5.0
"""With ``informed``, what one out kept weighs against a card's worth and danger (``evaluation``,
``danger``) between discards that leave the hand equally many draws from going out."""


def _points(card: Card) -> int:
    return min(card.rank, FACE_POINTS) if card.has_rank else FACE_POINTS


def _takes_back_own_discard(variant, view: PlayerView, memory: Memory) -> bool:
    """True when the top discard is the very card (by key: of two copies, only the one it discarded)
    this seat discarded since the deal began or the stock was last rebuilt, where taking it is a
    choice (not where the take is offered only when the card can be played at once and puts it on
    the table, ``variant.take_only_when_playable``, W6). Taking such cards back is how seats could
    pass the same cards round for ever without drawing from the stock (two seats, each taking the
    other's discard: never R16's stalemate), so both levels that remember draw instead."""
    top = view.discard_top
    return (not variant.take_only_when_playable and top is not None
            and top.key in memory.discarded.get(view.seat, ()))


def _room_for_wild(hand, rules: MeldRules) -> bool:
    """Whether a hand can place one more wild: under R8 (wilds <= naturals in every meld) a hand
    holding as many wilds as naturals cannot, and taking a wild from the discard pile would only
    pass it on (two such seats would pass wilds to each other for ever, never drawing)."""
    if not rules.wilds_at_most_naturals:
        return True
    wilds = sum(1 for card in hand if rules.is_wild(card))
    return wilds < len(hand) - wilds


def _keeping_taken_wild(view: PlayerView, rules: MeldRules, discards: list[Discard],
                        by_key: dict[str, Card]) -> list[Discard]:
    """``discards`` less the wilds after a wild was taken from the discard pile this turn, while
    another discard is legal: wilds stand in for each other, so discarding one would undo the take
    and could pass the same wild back and forth between seats for ever (S7, R13, F8)."""
    if view.taken_discard is None or not rules.is_wild(view.taken_discard):
        return discards
    naturals = [a for a in discards if not rules.is_wild(by_key[a.card])]
    return naturals or discards


@dataclass(frozen=True)
class ComputerPlayer:
    """A computer player for ``variant`` (the table's variant object, with its options). The strong
    level sets ``informed`` (counts live cards, reads its memory, plans by draws and outs) and, where it
    wins deals, ``holds_melds`` (keeps its melds in hand until it can go out in one turn, while every
    other seat holds more than ``safe_hand`` cards), and compares its ``outs_compared`` best discards by
    their outs (``SAFE_HAND`` and ``OUTS_COMPARED`` unless a variant measured other values better,
    ``Variant.strong_play``); with ``counts_last_discard`` its hand measure counts that going out takes
    a discard (W12; ``HandMeter``'s ``ends_with_discard``) and a card that would lay off may be kept as
    that discard.

    Call it as ``player(view, rng, memory=None) -> Action``: ``view`` is the seat's PlayerView,
    ``rng`` a random.Random for tie-breaks, ``memory`` the seat's Memory (the normal level reads
    it only to not take back its own discards; either level plays without one, knowing only the
    view). Raises ValueError when the view lists no legal action.
    """

    variant: object
    informed: bool = False
    holds_melds: bool = False
    safe_hand: int = SAFE_HAND
    outs_compared: int = OUTS_COMPARED
    counts_last_discard: bool = False

    def __call__(self, view: PlayerView, rng: random.Random, memory: Memory | None = None) -> Action:
        return self.choices(view, rng, memory)[0]

    def choices(self, view: PlayerView, rng: random.Random, memory: Memory | None = None) -> list[Action]:
        """The player's choice first (what calling it returns); when that is a discard, the other
        discards it considered follow, best first (least worth, then danger, then points; by the
        strong level's draws and outs). Raises ValueError when the view lists no legal action."""
        actions = view.legal_actions
        if not actions:
            raise ValueError("no legal action: not this seat's turn")
        if memory is not None:
            memory.sync(view)
        if DrawStock() in actions:
            return [self._draw(view, self._outlook(view, memory if self.informed else None), memory)]
        memory = memory if self.informed else None
        return self._play(view, self._outlook(view, memory), memory, rng)

    def _outlook(self, view: PlayerView, memory: Memory | None) -> Outlook:
        unseen = knowledge.unseen(self.variant, view, memory) if self.informed else None
        return outlook_for(knowledge.meld_rules(self.variant, view), unseen, self._requirements(view))

    def _requirements(self, view: PlayerView):
        if self.variant.has_contracts and not view.laid_down[view.seat]:
            return CONTRACTS[view.totals[view.seat]]
        return ()

    def _measures(self, view: PlayerView, size: int) -> bool:
        """Whether the informed level measures a hand of ``size`` cards by draws and outs: while a
        contract is still to lay (R10) at any size, as the contract's missing cards cost little to
        count; otherwise up to ``MEASURED_HAND_LIMIT``."""
        return self.informed and (bool(self._requirements(view)) or size <= MEASURED_HAND_LIMIT)

    def _draw(self, view: PlayerView, outlook: Outlook, memory: Memory | None) -> Action:
        """The draw: ``memory``, when given, at either level, only to not take back a discard."""
        top = view.discard_top
        if TakeDiscard() not in view.legal_actions or top is None:
            return DrawStock()
        if memory is not None and _takes_back_own_discard(self.variant, view, memory):
            return DrawStock()
        if self.variant.take_only_when_playable:
            return TakeDiscard()
        if outlook.rules.is_wild(top):
            return TakeDiscard() if _room_for_wild(view.hand, outlook.rules) else DrawStock()
        hand = (*view.hand, top)
        if self._requirements(view):
            wanted = find_contract(hand, view.totals[view.seat], outlook.rules, top) is not None
        else:
            wanted = fits_table(top, view, outlook.rules, self.variant)
        if len(view.hand) < TAKE_TO_MELD_HAND:
            return TakeDiscard() if wanted else DrawStock()
        if self._measures(view, len(hand)):
            meter = self._meter(view, outlook)
            closer = meter.shortfall(hand, spare=1) < meter.shortfall(view.hand)
            return TakeDiscard() if wanted or closer else DrawStock()
        return TakeDiscard() if wanted or card_worth(top, hand, outlook) >= MELDED else DrawStock()

    def _others_far(self, view: PlayerView) -> bool:
        """True while every other seat holds more than ``safe_hand`` cards."""
        return all(size > self.safe_hand for seat, size in enumerate(view.hand_sizes) if seat != view.seat)

    @staticmethod
    def _leader(view: PlayerView) -> int:
        """The other seat closest to going out (fewest cards; the next in turn on a tie)."""
        others = [(view.seat + step) % view.players for step in range(1, view.players)]
        return min(others, key=lambda seat: view.hand_sizes[seat])

    def _action_card(self, view: PlayerView, actions) -> Action | None:
        """Frayzy (F4, F8, F14): aim a Draw 5 (card or start card) at the leader; end the turn with an
        action card rather than a discard, as it leaves the hand just the same and adds its effect."""
        leader = self._leader(view)
        aimed = [a for a in actions if isinstance(a, (ChooseTarget, PlayAction))
                 and a.target in (None, leader)]
        return min(aimed, key=lambda a: (isinstance(a, PlayAction), a.card if isinstance(a, PlayAction) else ""),
                   default=None)

    def _play(self, view: PlayerView, outlook: Outlook, memory: Memory | None, rng: random.Random) -> list[Action]:
        actions = view.legal_actions
        contracts = [a for a in actions if isinstance(a, LayContract)]
        if contracts:
            return contracts[:1]
        melds = [a for a in actions if isinstance(a, LayMeld)]
        by_key = {c.key: c for c in view.hand}
        rules = outlook.rules
        lay_offs = [a for a in actions if isinstance(a, LayOff)
                    and (len(view.hand) <= WILD_LAY_OFF_HAND or not rules.is_wild(by_key[a.cards[0]]))]
        holding = self.holds_melds and not view.pending and self._others_far(view) and not can_go_out(view, rules)
        if melds and not holding:
            return [best_meld(melds)]
        if holding:
            in_melds = {key for meld in melds for key in meld.cards}
            lay_offs = [a for a in lay_offs if a.cards[0] not in in_melds]
        if self.informed and self.counts_last_discard and not view.pending:
            lay_offs = self._worth_laying_off(view, outlook, lay_offs)
        if lay_offs:
            return [min(lay_offs, key=lambda a: (rules.is_wild(by_key[a.cards[0]]), a.meld, a.cards))]
        ending = self._action_card(view, actions)
        if ending is not None:
            return [ending]
        discards = _keeping_taken_wild(view, rules, [a for a in actions if isinstance(a, Discard)], by_key)
        swaps = [a for a in actions if isinstance(a, SwapWild)]
        if swaps and (not discards or len(view.hand) > WILD_LAY_OFF_HAND or swaps_lay_off(self.variant)):
            return swaps[:1]
        if not discards:
            return [rng.choice(actions)]
        return self._ranked(view, outlook, memory, discards, by_key, rng)

    def _worth_laying_off(self, view: PlayerView, outlook: Outlook, lay_offs: list[LayOff]) -> list[LayOff]:
        """The lay-offs of ``lay_offs`` after which the hand, its best discard made, is no more draws
        from going out than if it kept the card (``HandMeter.shortfall``). A card that lays off can
        wait as the hand's last discard: four cards that would leave a lone pair after the lay-off
        and the discard keep the card, so that the next draw can make the pair a set (W12, 0.5)."""
        meter = self._meter(view, outlook)

        def after_discard(hand: list[Card]) -> int:
            return min(meter.shortfall([c for c in hand if c is not card]) for card in hand)

        keeping = after_discard(list(view.hand))
        return [a for a in lay_offs
                if len(view.hand) <= len(a.cards) + 1
                or after_discard([c for c in view.hand if c.key not in a.cards]) <= keeping]

    def shortfall(self, view: PlayerView) -> int:
        """About how many draws ``view``'s hand is from going out (before a Frustration contract: from
        laying it), by the informed measure (``efficiency.HandMeter``, every card counted live); a hand
        too large to measure (``_measures``) counts one draw per two cards."""
        if not (bool(self._requirements(view)) or len(view.hand) <= MEASURED_HAND_LIMIT):
            return len(view.hand) // 2
        outlook = outlook_for(knowledge.meld_rules(self.variant, view), None, self._requirements(view))
        return self._meter(view, outlook).shortfall(view.hand)

    def _cost(self, card: Card, view: PlayerView, outlook: Outlook, memory: Memory | None) -> float:
        """What discarding ``card`` gives up: its worth to the hand plus its danger, less a little per
        penalty point."""
        return (card_worth(card, view.hand, outlook) + danger(card, view, outlook.rules, memory, self.variant)
                - POINTS_WEIGHT * _points(card))

    def _meter(self, view: PlayerView, outlook: Outlook) -> HandMeter:
        contract = self._requirements(view)
        fits = None if contract else (lambda card: fits_table(card, view, outlook.rules, self.variant))
        return HandMeter(outlook, fits, contract, ends_with_discard=self.counts_last_discard)

    def _ranked(self, view: PlayerView, outlook: Outlook, memory: Memory | None, discards: list[Discard],
                by_key: dict[str, Card], rng: random.Random) -> list[Discard]:
        if self._measures(view, len(view.hand)):
            return self._ranked_by_outs(view, outlook, memory, discards, by_key, rng)
        return sorted(discards, key=lambda a: (self._cost(by_key[a.card], view, outlook, memory), rng.random()))

    def _ranked_by_outs(self, view: PlayerView, outlook: Outlook, memory: Memory | None, discards: list[Discard],
                        by_key: dict[str, Card], rng: random.Random) -> list[Discard]:
        """Discards best first: fewest draws left to go out (``HandMeter.shortfall``), then the informed
        cost (``_cost``); the best ``outs_compared`` of them then less ``OUT_WORTH`` per out kept."""
        meter = self._meter(view, outlook)
        left = {a.card: [c for c in view.hand if c.key != a.card] for a in discards}
        shortfall = {key: meter.shortfall(hand) for key, hand in left.items()}

        cost = {a.card: self._cost(by_key[a.card], view, outlook, memory) for a in discards}
        ranked = sorted(discards, key=lambda a: (shortfall[a.card], cost[a.card], rng.random()))
        compared = [a for a in ranked[:self.outs_compared] if shortfall[a.card] == shortfall[ranked[0].card]]
        for action in compared:
            cost[action.card] -= OUT_WORTH * meter.outs(left[action.card])
        return sorted(compared, key=lambda a: cost[a.card]) + ranked[len(compared):]
