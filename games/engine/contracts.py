"""Frustration Rummy's contracts (rule R4) and the search for a contract in a hand.

A contract is a tuple of requirements ``(kind, size)``: ``("set", 3)`` is a set of 3 or more,
``("run", 4)`` a run of 4 or more. ``find_contract`` answers whether a hand can lay a contract
down now (R10) and with which cards; legal-action hints and the computer player use it.

The search is exact and pruned, never a walk over all partitions of the hand. Naturals are counted
per (rank, suit); wilds (jokers and 2s, R5) are a pool, because any wild can stand anywhere a
natural is missing, except in a set of 2s only or of jokers only (R8), which takes those cards
by kind. Runs are placed first, one window of ``size`` places per suit and lowest place, each using
a subset of the naturals in the window (a natural is left out only when a later meld could use it);
sets follow, each taking naturals of one rank, as many as it holds or fewer with wilds in their
place (four queens and three wilds make two sets of queens). Every meld keeps wilds <= naturals (R8), so a
meld of ``size`` needs at least ``ceil(size / 2)`` naturals. Failed sub-positions are memoised.
Only minimum-size melds are built: a longer meld never makes a contract possible that was not.
Each group found is then read by the shared validator (``melds.read_meld``) before it is returned.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import Card
from .melds import RUN, SET, MeldRules, MeldShape, declaration, meld_readings, read_meld

Requirement = tuple[str, int]

CONTRACTS: dict[int, tuple[Requirement, ...]] = {
    1: ((SET, 3), (SET, 3), (SET, 3)),
    2: ((SET, 3), (RUN, 4)),
    3: ((SET, 3), (SET, 3), (RUN, 4)),
    4: ((SET, 4), (SET, 4)),
    5: ((RUN, 4), (RUN, 4)),
    6: ((SET, 3), (SET, 3), (SET, 3), (SET, 3)),
    7: ((SET, 3), (RUN, 7)),
    8: ((SET, 4), (SET, 4), (SET, 4)),
    9: ((RUN, 4), (RUN, 4), (RUN, 4)),
    10: ((SET, 5), (SET, 5)),
    11: ((RUN, 5), (RUN, 5)),
    12: ((SET, 4), (SET, 4), (RUN, 4)),
    13: ((RUN, 4), (RUN, 4), (SET, 4)),
    14: ((SET, 3), (RUN, 9)),
}
"""R4: the 14 contracts, each meld in the order the rule book lists it."""
LAST_CONTRACT = 14
ACE_HIGH_PLACE = 14
SUIT_INDEX = {"C": 0, "D": 1, "H": 2, "S": 3}
ORDINALS = ("first", "second", "third", "fourth")


def contract_text(number: int) -> str:
    """R4's wording: ``contract_text(3) == "2 sets of 3 + 1 run of 4"``."""
    parts: list[str] = []
    requirements = CONTRACTS[number]
    for kind, size in dict.fromkeys(requirements):
        count = requirements.count((kind, size))
        parts.append(f"{count} {kind}{'s' if count > 1 else ''} of {size}")
    return " + ".join(parts)


def group_label(number: int, index: int) -> str:
    """How a refusal names meld ``index`` of contract ``number``: "the run", "the second set"."""
    requirements = CONTRACTS[number]
    kind = requirements[index][0]
    same = [i for i, (k, _) in enumerate(requirements) if k == kind]
    if len(same) == 1:
        return f"the {kind}"
    return f"the {ORDINALS[same.index(index)]} {kind}"


def tray_label(number: int, index: int) -> str:
    """How the lay-contract form names meld ``index`` of contract ``number``: "Set 1", "Run 1"
    (each kind counted on its own, in the contract's order)."""
    requirements = CONTRACTS[number]
    kind = requirements[index][0]
    return f"{kind.capitalize()} {[k for k, _ in requirements[:index + 1]].count(kind)}"


def cards_needed(number: int) -> int:
    """The fewest cards contract ``number`` takes (the sum of its minimum sizes)."""
    return sum(size for _, size in CONTRACTS[number])


def _slot(rank: int, suit: str) -> int:
    return (rank - 1) * 4 + SUIT_INDEX[suit]


class _Search:
    """One search: the hand as counts, the requirements in search order, a memo of failures."""

    def __init__(self, hand: Sequence[Card], requirements: Sequence[Requirement], rules: MeldRules):
        self.by_slot: dict[int, list[Card]] = {}
        self.jokers = [c for c in hand if c.is_joker]
        self.twos = [c for c in hand if not c.is_joker and rules.is_wild(c)]
        for card in hand:
            if not rules.is_wild(card):
                self.by_slot.setdefault(_slot(card.rank, card.suit), []).append(card)
        self.counts = [0] * 52
        for slot, found in self.by_slot.items():
            self.counts[slot] = len(found)
        order = sorted(range(len(requirements)), key=lambda i: (requirements[i][0] != RUN, -requirements[i][1]))
        self.order = order
        self.requirements = [requirements[i] for i in order]
        self.wilds = len(self.jokers) + len(self.twos)
        self.failed: set[tuple] = set()
        self.plan: list[tuple] = []

    def run_windows(self, size: int):
        """Every (suit, places) window of a run of ``size`` (R7: ace low or high, no wrap)."""
        for suit in SUIT_INDEX:
            for low in range(1, ACE_HIGH_PLACE - size + 2):
                yield suit, range(low, low + size)

    def solve(self, step: int, generic: int, specific_twos: int, specific_jokers: int, last_choice) -> bool:
        """True when requirements ``step``.. can be met with what is left; fills ``self.plan``."""
        if generic + specific_twos + specific_jokers > self.wilds:
            return False
        if step == len(self.requirements):
            return True
        key = (step, generic, specific_twos, specific_jokers, last_choice, bytes(self.counts))
        if key in self.failed:
            return False
        kind, size = self.requirements[step]
        same_as_before = step > 0 and self.requirements[step - 1] == (kind, size)
        later = self.requirements[step + 1:]
        least_naturals = (size + 1) // 2
        choices = self._run_choices(size, later, least_naturals) if kind == RUN else \
            self._set_choices(size, least_naturals, specific_twos, specific_jokers)
        for choice_key, slots, wild_kind, wilds in choices:
            if same_as_before and last_choice is not None and choice_key < last_choice:
                continue
            for slot in slots:
                self.counts[slot] -= 1
            self.plan.append((slots, wild_kind, wilds))
            found = self.solve(step + 1, generic + (wilds if wild_kind == "any" else 0),
                               specific_twos + (wilds if wild_kind == "2" else 0),
                               specific_jokers + (wilds if wild_kind == "JK" else 0),
                               choice_key if step + 1 < len(self.requirements)
                               and self.requirements[step + 1] == (kind, size) else None)
            for slot in slots:
                self.counts[slot] += 1
            if found:
                return True
            self.plan.pop()
        self.failed.add(key)
        return False

    def _run_choices(self, size: int, later, least_naturals: int):
        keep_all = not later
        for suit, places in self.run_windows(size):
            held = [_slot(1 if p == ACE_HIGH_PLACE else p, suit) for p in places
                    if p != 2 and self.counts[_slot(1 if p == ACE_HIGH_PLACE else p, suit)] > 0]
            if len(held) < least_naturals:
                continue
            smallest = len(held) if keep_all else least_naturals
            for used in range(len(held), smallest - 1, -1):
                for slots in combinations(held, used):
                    yield (suit, places.start), slots, "any", size - used

    def _set_choices(self, size: int, least_naturals: int, specific_twos: int, specific_jokers: int):
        by_rank = []
        for rank in range(1, 14):
            if rank == 2:
                continue
            slots = [s for s in range(_slot(rank, "C"), _slot(rank, "C") + 4) for _ in range(self.counts[s])]
            if len(slots) >= least_naturals:
                by_rank.append((rank, slots))
        by_rank.sort(key=lambda item: -len(item[1]))
        for rank, slots in by_rank:
            for used in range(min(size, len(slots)), least_naturals - 1, -1):
                yield (rank, -used), tuple(slots[:used]), "any", size - used
        if len(self.twos) - specific_twos >= size:
            yield (20,), (), "2", size
        if len(self.jokers) - specific_jokers >= size:
            yield (21,), (), "JK", size

    def groups(self) -> list[list[Card]]:
        """The cards of each requirement, in the caller's order, from ``self.plan``."""
        pools = {slot: list(cards) for slot, cards in self.by_slot.items()}
        twos, jokers = list(self.twos), list(self.jokers)
        found: list[list[Card]] = [[] for _ in self.order]
        for (slots, wild_kind, wilds), index in zip(self.plan, self.order):
            group = [pools[slot].pop() for slot in slots]
            if wild_kind == "2":
                group += [twos.pop() for _ in range(wilds)]
            elif wild_kind == "JK":
                group += [jokers.pop() for _ in range(wilds)]
            found[index] = group
        for (_slots, wild_kind, wilds), index in zip(self.plan, self.order):
            if wild_kind == "any":
                found[index] += [(jokers or twos).pop() for _ in range(wilds)]
        return found


def search_groups(hand: Sequence[Card], number: int, rules: MeldRules) -> list[list[Card]] | None:
    """Cards of ``hand`` that make contract ``number`` (one list per requirement, R4's order), or
    None when the hand cannot make it. Leaves no card aside on purpose: see ``find_contract``."""
    requirements = CONTRACTS[number]
    if cards_needed(number) > len(hand):
        return None
    search = _Search(hand, requirements, rules)
    if not search.solve(0, 0, 0, 0, None):
        return None
    return search.groups()


def find_contract(hand: Sequence[Card], number: int, rules: MeldRules,
                  taken: Card | None = None) -> list[MeldShape] | None:
    """The melds of contract ``number`` that ``hand`` can lay down now, or None (R10).

    The hand must keep a card to discard afterwards (0.5, R14), and that card may not be ``taken``,
    the card taken from the discard pile this turn (0.4a). Each meld is read by the shared validator.
    """
    spare = len(hand) - cards_needed(number)
    if spare < 1:
        return None
    if spare == 1 and taken is not None:
        kept_options = {c.code: c for c in hand if c != taken}.values()
        attempts = [[c for c in hand if c != kept] for kept in kept_options]
    else:
        attempts = [list(hand)]
    for cards in attempts:
        groups = search_groups(cards, number, rules)
        if groups is not None:
            return [_read(group, rules, kind) for group, (kind, _) in zip(groups, CONTRACTS[number])]
    return None


def _read(group: list[Card], rules: MeldRules, kind: str) -> MeldShape:
    """The group as the shared validator reads it, its wilds given their first reading (0.3)."""
    readings, _ = meld_readings(group, rules, kind)
    return read_meld(group, rules, dict(declaration(readings[0], group)), kind)
