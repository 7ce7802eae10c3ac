"""How many draws a hand is from going out, and which unseen cards bring it closer: the strong
level's measure of a hand (the shortfall and outs of tile-efficiency play).

A hand's **shortfall** is about the number of draws it still needs. Its naturals are split into
groups: made melds (``Outlook.set_size`` / ``run_size``, rules S8, W7, R6/R7, F10), partial melds
that live cards could complete (a pair, two cards of a suit one or two places apart, ...), cards
that lay off on the table, and loose cards. Each draw can bring one missing card and let one loose
card go, so the shortfall is ``max(missing cards - wilds, loose cards - spare)``, at its least over
the ways to split the hand (a loose card may also count as the start of a meld missing two more).
``spare`` loose cards are free: the card the turn will discard. Where going out is a discard (W12),
a split only counts when every turn can still end with one: each drawn card that joins a meld
needs a card of the hand to discard, a loose card or a spare one (a card that would lay off, a
wild no meld needs, a meld member beyond the least size). So a lone pair is no draw from going
out (the third card would leave nothing to discard, 0.5): it counts as two loose cards. Before a
Frustration contract (R10) only the contract counts: the shortfall is the missing cards of its
best-placed melds, less the wilds. A card without a rank that is not wild (a Frayzy action card)
leaves the hand by being played, so it is neither loose nor part of a meld.

The **outs** of a hand are the unseen copies (``knowledge.unseen``) of the cards that, drawn,
would lower its shortfall. This is a heuristic for choosing draws and discards; legality is always
the engine's (meld validator and legal actions).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from ..cards import COLOURS, SUITS, Card, card_code
from ..melds import RUN, SET
from .evaluation import Outlook, place_code, run_places

RUN_GAP = 2
"""Two cards of a suit count as a partial run when at most this many places apart (8-10)."""
BEST_PLACES = 2
"""Before a contract, each required meld tries only its this many best-placed candidates."""

SPARE_CAP = 2
"""Spare cards (that could be the discard instead of being melded) are counted up to this many."""

Group = tuple[tuple[int, ...], int, int]
"""A group of the hand's naturals: (indices into the sorted naturals, cards missing, spare members
beyond the meld's least size)."""


class HandMeter:
    """Measures hands for one decision: ``shortfall(cards, spare)`` and ``outs(cards)``.

    ``outlook`` gives the meld rules, the kinds and sizes that count and the live cards;
    ``fits_table(card)`` says whether a card lays off on the table (None before a Frustration
    contract, when nothing may be laid off, R11); ``contract`` is the seat's current contract
    (R4) when it still has to lay it, else empty; ``ends_with_discard`` makes every turn, the
    last included, keep a card to discard (W12). Results are memoised per multiset of codes.
    """

    def __init__(self, outlook: Outlook, fits_table: Callable[[Card], bool] | None,
                 contract: Sequence[tuple[str, int]] = (), ends_with_discard: bool = False):
        self.outlook, self.fits_table, self.contract = outlook, fits_table, tuple(contract)
        self.ends_with_discard = ends_with_discard
        self._memo: dict[tuple, int] = {}
        self._fits: dict[str, bool] = {}

    def shortfall(self, cards: Sequence[Card], spare: int = 0) -> int:
        """About how many draws ``cards`` need before the hand can go out (or lay its contract);
        ``spare`` loose cards are not counted (0 or 1). 0 means ready."""
        key = (tuple(sorted(c.code for c in cards)), spare)
        if key not in self._memo:
            self._memo[key] = self._measure(cards, spare)
        return self._memo[key]

    def outs(self, cards: Sequence[Card]) -> int:
        """Unseen copies of the cards that, added to ``cards``, lower the shortfall (one loose card
        then goes as the discard). Without an ``unseen`` count (a seat that knows nothing) it is 0."""
        unseen = self.outlook.unseen
        if unseen is None:
            return 0
        now = self.shortfall(cards)
        total = 0
        for code in self._related(cards, unseen):
            if self.shortfall((*cards, Card(code)), spare=1) < now:
                total += unseen[code]
        return total

    def _related(self, cards: Sequence[Card], unseen) -> list[str]:
        rules = self.outlook.rules
        near: set[str] = set()
        for card in cards:
            if not card.has_rank or rules.is_wild(card):
                continue
            suits = COLOURS if card.is_coloured else SUITS
            near.update(card_code(card.rank, suit) for suit in suits)
            for step in range(-RUN_GAP, RUN_GAP + 1):
                rank = card.rank + step
                if 1 <= rank <= 13:
                    near.add(card_code(rank, card.suit))
        return [code for code, copies in unseen.items()
                if copies and (code in near or rules.is_wild(Card(code)))]

    def _split(self, cards: Sequence[Card]) -> tuple[list[Card], int]:
        rules = self.outlook.rules
        naturals = sorted((c for c in cards if c.has_rank and not rules.is_wild(c)), key=lambda c: (c.suit, c.rank))
        wilds = sum(1 for c in cards if rules.is_wild(c))
        return naturals, wilds

    def _measure(self, cards: Sequence[Card], spare: int) -> int:
        naturals, wilds = self._split(cards)
        if self.contract:
            return max(0, self._contract_missing(naturals) - wilds)
        fits = [self._fits_table(card) for card in naturals]
        frontier = self._frontier(naturals, fits)
        loose_need = min(self.outlook.set_size, self.outlook.run_size) - 1
        best = len(naturals) + 1
        for missing, loose, spares in frontier:
            for started in range(loose + 1):
                short = missing + started * loose_need - wilds
                draws, left = max(short, 0), loose - started
                if self.ends_with_discard and draws + spare > left + spares + max(-short, 0):
                    continue  # a turn would have no card left to discard
                best = min(best, max(draws, left - spare))
        return best

    def _fits_table(self, card: Card) -> bool:
        if self.fits_table is None:
            return False
        if card.code not in self._fits:
            self._fits[card.code] = self.fits_table(card)
        return self._fits[card.code]

    def _frontier(self, naturals: list[Card], fits: list[bool]) -> set[tuple[int, int, int]]:
        """The best (missing, loose, spare) triples over the ways to split ``naturals`` into groups
        (``_least``; spares counted up to ``SPARE_CAP``)."""
        groups = self._groups(naturals)
        memo: dict[frozenset[int], set[tuple[int, int, int]]] = {}

        def best(left: frozenset[int]) -> set[tuple[int, int, int]]:
            if not left:
                return {(0, 0, 0)}
            if left in memo:
                return memo[left]
            first = min(left)
            rest = left - {first}
            fit = fits[first]
            options = {(m, loose + (not fit), min(SPARE_CAP, spares + fit)) for m, loose, spares in best(rest)}
            for members, missing, extra in groups[first]:
                if all(index in left for index in members):
                    options |= {(m + missing, loose, min(SPARE_CAP, spares + extra))
                                for m, loose, spares in best(left - set(members))}
            memo[left] = _least(options, self.ends_with_discard)
            return memo[left]

        return best(frozenset(range(len(naturals))))

    def _groups(self, naturals: list[Card]) -> list[list[Group]]:
        """For each natural, the groups it is the first member of (by index)."""
        groups: list[list[Group]] = [[] for _ in naturals]
        kinds = self.outlook.kinds
        for index in range(len(naturals)):
            if SET in kinds:
                groups[index].extend(self._set_groups(naturals, index))
            if RUN in kinds:
                groups[index].extend(self._run_groups(naturals, index))
        return groups

    def _set_groups(self, naturals: list[Card], index: int) -> list[Group]:
        card, outlook = naturals[index], self.outlook
        distinct = outlook.rules.set_distinct_suits
        mates, suits = [], {card.suit}
        for other in range(index + 1, len(naturals)):
            mate = naturals[other]
            if mate.rank == card.rank and not (distinct and mate.suit in suits):
                mates.append(other)
                if distinct:
                    suits.add(mate.suit)
        found: list[Group] = []
        for size in range(1, min(len(mates), max(outlook.set_size, 2)) + 1):
            for chosen in combinations(mates, size):
                missing = max(0, outlook.set_size - size - 1)
                used = {naturals[i].suit for i in (index, *chosen)} if distinct else set()
                if missing and not self._live_rank(card, used, missing):
                    continue
                found.append(((index, *chosen), missing, max(0, size + 1 - outlook.set_size)))
        return found

    def _live_rank(self, card: Card, used_suits: set[str], missing: int) -> bool:
        unseen = self.outlook.unseen
        if unseen is None:
            return True
        suits = COLOURS if card.is_coloured else SUITS
        return sum(unseen[card_code(card.rank, s)] for s in suits if s not in used_suits) >= missing

    def _run_groups(self, naturals: list[Card], index: int) -> list[Group]:
        card, outlook = naturals[index], self.outlook
        found: list[Group] = []
        for place in run_places(card.rank, self.outlook.rules):
            by_place: dict[int, int] = {place: index}
            for other in range(index + 1, len(naturals)):
                mate = naturals[other]
                if mate.suit == card.suit and mate.rank != card.rank:
                    for mate_place in run_places(mate.rank, self.outlook.rules):
                        by_place.setdefault(mate_place, other)
            places = sorted(by_place)
            at = places.index(place)
            for low in range(at, -1, -1):
                if low < at and places[low + 1] - places[low] > RUN_GAP:
                    break
                for high in range(at, len(places)):
                    if high > at and places[high] - places[high - 1] > RUN_GAP:
                        break
                    if high == low:
                        continue
                    chosen = places[low:high + 1]
                    gaps = [p for p in range(chosen[0], chosen[-1] + 1) if p not in by_place]
                    missing = len(gaps) + max(0, outlook.run_size - len(chosen) - len(gaps))
                    if missing >= outlook.run_size - 1 or not self._live_run(card.suit, gaps):
                        continue
                    extra = max(0, len(chosen) - outlook.run_size) if not gaps else 0
                    found.append((tuple(by_place[p] for p in chosen), missing, extra))
        return found

    def _live_run(self, suit: str, gaps: list[int]) -> bool:
        unseen = self.outlook.unseen
        if unseen is None:
            return True
        return all(unseen[place_code(p, suit)] for p in gaps)

    def _contract_missing(self, naturals: list[Card]) -> int:
        """The fewest cards missing from the contract's melds placed on the hand's naturals."""
        counts: dict[tuple[int, str], int] = {}
        for card in naturals:
            counts[(card.rank, card.suit)] = counts.get((card.rank, card.suit), 0) + 1
        suits = sorted({suit for _, suit in counts})
        top = 14 if self.outlook.rules.ace_high else 13

        def place_melds(needs: tuple[tuple[str, int], ...], left: dict[tuple[int, str], int]) -> int:
            if not needs:
                return 0
            (kind, size), rest = needs[0], needs[1:]
            options = []
            if kind == SET:
                for rank in {r for r, _ in left}:
                    have = [key for key in left if key[0] == rank and left[key]]
                    options.append((size - min(size, sum(left[k] for k in have)), ("set", rank)))
            else:
                for suit in suits:
                    for low in range(1, top - size + 2):
                        have = [((p - 1) % 13 + 1, suit) for p in range(low, low + size)]
                        options.append((size - sum(1 for k in have if left.get(k)), ("run", suit, low)))
            if not options:
                return sum(s for _, s in needs)
            options.sort(key=lambda option: option[0])
            best = None
            for missing, where in options[:BEST_PLACES]:
                used = dict(left)
                if where[0] == "set":
                    take = size
                    for key in sorted(k for k in used if k[0] == where[1]):
                        spent = min(take, used[key])
                        used[key] -= spent
                        take -= spent
                else:
                    for p in range(where[2], where[2] + size):
                        key = ((p - 1) % 13 + 1, where[1])
                        if used.get(key):
                            used[key] -= 1
                total = missing + place_melds(rest, used)
                best = total if best is None else min(best, total)
            return best

        return place_melds(self.contract, counts)


def _least(options: set[tuple[int, int, int]], ends_with_discard: bool) -> set[tuple[int, int, int]]:
    """The (missing, loose, spare) triples of ``options`` that no other triple beats. Without
    ``ends_with_discard`` fewer missing and loose cards beat more (of equal ones, the one with more
    spares stays). With it
    more loose cards are not simply worse, as each can be a turn's discard: only a triple with as
    many loose cards, no more missing and no fewer spares beats another."""
    if ends_with_discard:
        return {a for a in options
                if not any(b != a and b[1] == a[1] and b[0] <= a[0] and b[2] >= a[2] for b in options)}
    return {a for a in options
            if not any(b[0] <= a[0] and b[1] <= a[1] and (b[:2] != a[:2] or b[2] > a[2]) for b in options)}
