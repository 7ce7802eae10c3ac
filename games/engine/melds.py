"""Meld validation: sets, runs and wilds, with the limits each variant sets through MeldRules.

One validator serves every variant; a variant differs only in its MeldRules (rule S8 for Standard
Rummy, W7-W11 for Wild Rummy; the parameters also cover Frustration's R5-R8 and Frayzy's F9-F11:
colours in place of suits, numbers 1-12 with no wrap, the Wild card, at most one wild per meld, and
action cards that can never be melded).
Every refusal is an IllegalAction with code ``"bad_meld"``, ``"bad_lay_off"``, ``"bad_wild"`` (a
wild declared as a card it cannot stand for), ``"choose_wild"`` (more than one reading and none
chosen, rule 0.3) or ``"bad_swap"``, a sentence that says what is wrong, and the rule number.

A meld holding wilds records what each wild stands for (rule 0.3): a card code such as ``"9C"``
(a run place, or a set's suit slot), or a rank alone such as ``"9"`` (a set whose suits do not
matter, or a surplus wild, W12). A wild on the table is written ``7D=9C``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import permutations

from .cards import (
    ACTION_NAMES,
    COLOUR_NAMES,
    COLOUR_WILD,
    COLOURS,
    NUMBERS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    card_code,
    parse_card,
)
from .errors import IllegalAction

SET = "set"
RUN = "run"
ACE_HIGH_RANK = 14


@dataclass(frozen=True)
class Reason:
    """Why cards are not a meld: the refusal's ``message`` and the ``rule`` it cites (e.g. W8)."""

    message: str
    rule: str


@dataclass(frozen=True)
class MeldRules:
    """A variant's meld limits.

    Attributes:
        rule: rule number cited when cards are no meld of either kind, e.g. ``"S8"``, ``"F9-F11"``.
        set_rule / run_rule: rule number cited when cards are no set / no run (W7 / W8, F9 / F10).
        set_min / set_max: card count bounds for a set (``set_max`` None = no maximum).
        set_distinct_suits: True when a set may not hold one suit twice.
        run_min: the fewest cards in a run. run_max: the most (R7: 13), None for no cap.
        ace_high: True when an ace may also rank above the king (never both, never wrapping; R7).
        run_top: the highest rank a run may reach (13 = king; Frayzy's numbers stop at 12, F10).
        wild_ranks: ranks whose cards are wild (W3: the deal's rank; R5: 2s). Empty: no wilds (S10).
        jokers_wild: True when jokers are wild (R5).
        min_naturals: the fewest naturals a meld needs (W9: 1).
        max_wilds: the most wilds one meld may hold (F11: 1), None for no cap (W9).
        wilds_at_most_naturals: R8's ratio, wilds <= naturals in every meld at all times.
        wild_rank_sets: W9: a set made only of cards of the wild rank is a natural set of that rank,
            each card standing for itself (R8: a set of 2s only).
        joker_sets: R8: a set made only of jokers is legal, each joker standing for itself (``"JK"``).
        wild_rule: rule number cited when a wild is refused, e.g. ``"W9"``.
        wild_limit_rule: rule number cited when a meld holds too many wilds or too few naturals
            (F11's one Wild, W9's one natural, R8's ratio); unused in a game without wilds.
        wild_codes: card codes that are always wild (Frayzy's ``"W"``, F11).
        rank_names: how the ranks 1.. are written (``RANKS``: A..K; Frayzy's ``NUMBERS``: 1..12),
            e.g. in what a wild of a set stands for (``"9"``) and in refusals.
        rank_word / suit_word: what refusals call a rank and a suit (Frayzy: "number", "colour").

    In a set with ``set_distinct_suits`` a wild fills a free suit slot and stands for a card
    (``"9C"``); otherwise it stands for the rank alone (``"9"``). In a run it stands for a card.
    """

    rule: str
    set_rule: str
    run_rule: str
    set_min: int = 3
    set_max: int | None = 4
    set_distinct_suits: bool = True
    run_min: int = 3
    run_max: int | None = None
    ace_high: bool = False
    run_top: int = 13
    wild_ranks: frozenset[int] = field(default_factory=frozenset)
    jokers_wild: bool = False
    min_naturals: int = 1
    max_wilds: int | None = None
    wilds_at_most_naturals: bool = False
    wild_rank_sets: bool = False
    joker_sets: bool = False
    wild_rule: str = ""
    wild_limit_rule: str = ""
    wild_codes: frozenset[str] = field(default_factory=frozenset)
    rank_names: tuple[str, ...] = RANKS
    rank_word: str = "rank"
    suit_word: str = "suit"

    def not_a_meld(self, cards: Sequence[Card]) -> str:
        """Why ``cards`` are neither a set nor a run, in the variant's words (S8, F9-F11)."""
        return (f"{show_cards(cards)} is not a meld: a set needs one {self.rank_word} and a run needs "
                f"one {self.suit_word}.")

    @property
    def has_wilds(self) -> bool:
        """True when some card can be wild under these rules."""
        return bool(self.wild_ranks) or self.jokers_wild or bool(self.wild_codes)

    def is_wild(self, card: Card) -> bool:
        """True when ``card`` is wild under these rules (W3, R5, F11)."""
        if card.code in self.wild_codes:
            return True
        if card.is_joker:
            return self.jokers_wild
        return card.has_rank and card.rank in self.wild_ranks

    def can_meld(self, card: Card) -> bool:
        """True when ``card`` may be part of a meld: a natural with a rank, or a wild. Frayzy's
        action cards never can (F11)."""
        return card.has_rank or self.is_wild(card)

    def no_wrap_message(self) -> str:
        """Why a run may not join the top rank to rank 1 (S8 aces low; F10 no wrap)."""
        if self.run_top == len(RANKS):
            return "Aces are low only: a run may go A-2-3 but not Q-K-A or K-A-2."
        top = self.rank_names[self.run_top - 1]
        return f"Runs do not wrap: {top} and {self.rank_names[0]} are not consecutive."


@dataclass(frozen=True)
class MeldShape:
    """A checked meld: its kind (``"set"`` or ``"run"``) and its cards in table order.

    Runs are ordered from low to high rank; sets keep the order given.
    """

    kind: str
    cards: tuple[Card, ...]
    wilds: tuple[tuple[Card, str], ...] = ()
    """Each wild of the meld with what it stands for (0.3), in table order; empty without wilds."""

    def stands_for(self, card: Card) -> str:
        """What ``card`` stands for in this meld (``"9C"``, ``"9"``), or ``""`` for a natural."""
        return next((code for wild, code in self.wilds if wild == card), "")

    def notation(self) -> str:
        """The meld as the rule book writes it: ``"9S 9H 7D=9C"``."""
        return " ".join(f"{c.key}={self.stands_for(c)}" if self.stands_for(c) else c.key for c in self.cards)


def show(card: Card) -> str:
    """A card as players read it: ``"10♥"``, ``"JK"``; Frayzy ``"Red 7"``, ``"Wild"``, ``"Draw 5"``."""
    if card.is_coloured:
        return f"{COLOUR_NAMES[card.suit].capitalize()} {card.rank_name}"
    if card.is_action:
        return ACTION_NAMES[card.code]
    if card.code == COLOUR_WILD:
        return "Wild"
    return card.code if card.is_joker else f"{card.rank_name}{SUIT_SYMBOLS[card.suit]}"


def show_cards(cards: Sequence[Card]) -> str:
    """Cards as players read them, space-separated."""
    return " ".join(show(c) for c in cards)


def show_code(code: str) -> str:
    """What a wild stands for, as players read it: ``"9♣"``, Frayzy ``"Red 10"``, or a rank alone: ``"9"``."""
    if code[:1] in COLOURS and code[1:] in NUMBERS:
        return show(Card(code))
    if code[-1:] in SUITS and code[:-1] in RANKS:
        return f"{code[:-1]}{SUIT_SYMBOLS[code[-1]]}"
    return code


def stands_apart(card: Card, code: str) -> str:
    """What wild ``card`` is shown standing for: ``code``, or ``""`` when it stands for itself (a
    set of wild-rank cards only, W9 and R8; a set of jokers, R8; a 2♦ in the 2♦'s place of a run),
    as a wild so placed is shown as the plain card on the table (0.3)."""
    return "" if code == card.code else code


def show_wild(card: Card, code: str) -> str:
    """A wild with what it stands for: ``"7♦=9♣"``."""
    return f"{show(card)}={show_code(code)}"


def show_placed(card: Card, code: str) -> str:
    """A card of a meld on the table as players read it, ``code`` being what it stands for (``""``
    for a natural): a wild as ``"7♦=9♣"``, a natural or a wild that stands for itself as ``"2♦"``."""
    return show_wild(card, code) if stands_apart(card, code) else show(card)


def _refuse(message: str, rule: str, code: str = "bad_meld") -> IllegalAction:
    return IllegalAction(code, message, rule)


def check_set(cards: Sequence[Card], rules: MeldRules) -> MeldShape:
    """Check that ``cards`` form a set under ``rules`` and return it.

    Raises:
        IllegalAction("bad_meld"): too few or too many cards, mixed ranks, or a suit twice.
    """
    if len(cards) < rules.set_min:
        raise _refuse(f"A set needs at least {rules.set_min} cards of one {rules.rank_word}.", rules.set_rule)
    if len({c.rank for c in cards}) > 1:
        raise _refuse(f"A set needs cards of one {rules.rank_word}: {show_cards(cards)} mixes "
                      f"{rules.rank_word}s.", rules.set_rule)
    if rules.set_max is not None and len(cards) > rules.set_max:
        raise _refuse(f"A set has at most {rules.set_max} cards.", rules.set_rule)
    if rules.set_distinct_suits:
        twice = [suit for suit, n in Counter(c.suit for c in cards).items() if n > 1]
        if twice:
            raise _refuse(f"A set needs different suits: {SUIT_SYMBOLS[twice[0]]} appears twice.", rules.set_rule)
    return MeldShape(SET, tuple(cards))


def _run_order(ranks: list[int]) -> bool:
    ordered = sorted(ranks)
    return all(b - a == 1 for a, b in zip(ordered, ordered[1:]))


def check_run(cards: Sequence[Card], rules: MeldRules) -> MeldShape:
    """Check that ``cards`` (any order) form a run under ``rules``; return it ordered low to high.

    Raises:
        IllegalAction("bad_meld"): too few cards, mixed suits, a repeated rank, a gap, or an ace
        used high where aces are low only.
    """
    if len(cards) < rules.run_min:
        raise _refuse(f"A run needs at least {rules.run_min} cards of one {rules.suit_word} in sequence.",
                      rules.run_rule)
    if rules.run_max is not None and len(cards) > rules.run_max:
        raise _refuse(f"A run has at most {rules.run_max} cards.", rules.run_rule)
    if len({c.suit for c in cards}) > 1:
        raise _refuse(f"A run needs cards of one {rules.suit_word}: {show_cards(cards)} mixes "
                      f"{rules.suit_word}s.", rules.run_rule)
    ranks = [c.rank for c in cards]
    if len(set(ranks)) < len(ranks):
        raise _refuse(f"A run cannot hold the same {rules.rank_word} twice.", rules.run_rule)
    if _run_order(ranks):
        return MeldShape(RUN, tuple(sorted(cards, key=lambda c: c.rank)))
    high = [ACE_HIGH_RANK if r == 1 else r for r in ranks]
    if rules.ace_high and 1 in ranks and _run_order(high):
        return MeldShape(RUN, tuple(sorted(cards, key=lambda c: ACE_HIGH_RANK if c.rank == 1 else c.rank)))
    if not rules.ace_high and 1 in ranks and rules.run_top in ranks:
        raise _refuse(rules.no_wrap_message(), rules.run_rule)
    ordered = sorted(cards, key=lambda c: c.rank)
    gap = next((a, b) for a, b in zip(ordered, ordered[1:]) if b.rank - a.rank != 1)
    raise _refuse(f"A run needs consecutive {rules.rank_word}s: there is a gap between {show(gap[0])} and "
                  f"{show(gap[1])}.", rules.run_rule)


def _plain_meld(cards: Sequence[Card], rules: MeldRules) -> MeldShape:
    """Read a meld with no wild in it (e.g. rule S8)."""
    if len(cards) < min(rules.set_min, rules.run_min):
        raise _refuse(f"A meld needs at least {min(rules.set_min, rules.run_min)} cards.", rules.rule)
    if len({c.rank for c in cards}) == 1:
        return check_set(cards, rules)
    if len({c.suit for c in cards}) == 1:
        return check_run(cards, rules)
    raise _refuse(rules.not_a_meld(cards), rules.rule)


def _unmeldable(cards: Sequence[Card], rules: MeldRules) -> Reason | None:
    """Why a card among ``cards`` can never be melded (F11: action cards), or None."""
    banned = next((c for c in cards if not rules.can_meld(c)), None)
    if banned is None:
        return None
    return Reason(f"{show(banned)} cannot be melded: only number cards and wilds go into melds.", rules.rule)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"


def _set_rank(naturals: Sequence[Card], wilds: Sequence[tuple[Card, str]], rules: MeldRules) -> int:
    if naturals:
        return naturals[0].rank
    return rules.rank_names.index(wilds[0][1].rstrip("".join(SUITS))) + 1


def _set_readings(cards: Sequence[Card], naturals: list[Card], wilds: list[Card],
                  rules: MeldRules) -> tuple[list[MeldShape], Reason | None]:
    if len({c.rank for c in naturals}) > 1:
        return [], Reason(f"A set needs cards of one {rules.rank_word}: {show_cards(naturals)} mixes "
                          f"{rules.rank_word}s.", rules.set_rule)
    if len(cards) < rules.set_min:
        return [], Reason(f"A set needs at least {rules.set_min} cards of one {rules.rank_word}.", rules.set_rule)
    if rules.set_max is not None and len(cards) > rules.set_max:
        return [], Reason(f"A set has at most {rules.set_max} cards.", rules.set_rule)
    rank = naturals[0].rank
    if not rules.set_distinct_suits:
        return [MeldShape(SET, tuple(cards), tuple((w, rules.rank_names[rank - 1]) for w in wilds))], None
    held = [c.suit for c in naturals]
    if len(set(held)) < len(held):
        twice = next(suit for suit, n in Counter(held).items() if n > 1)
        return [], Reason(f"A set needs different suits: {SUIT_SYMBOLS[twice]} appears twice.", rules.set_rule)
    free = [suit for suit in SUITS if suit not in held]
    return [MeldShape(SET, tuple(cards), tuple((w, card_code(rank, suit)) for w, suit in zip(wilds, slots)))
            for slots in permutations(free, len(wilds))], None


def _run_readings(cards: Sequence[Card], naturals: list[Card], wilds: list[Card],
                  rules: MeldRules) -> tuple[list[MeldShape], Reason | None]:
    if len({c.suit for c in naturals}) > 1:
        return [], Reason(f"A run needs cards of one {rules.suit_word}: {show_cards(naturals)} mixes "
                          f"{rules.suit_word}s.", rules.run_rule)
    if len(cards) < rules.run_min:
        return [], Reason(f"A run needs at least {rules.run_min} cards of one {rules.suit_word} in sequence.",
                          rules.run_rule)
    if rules.run_max is not None and len(cards) > rules.run_max:
        return [], Reason(f"A run has at most {rules.run_max} cards.", rules.run_rule)
    suit, size = naturals[0].suit, len(cards)
    mappings = [{c: c.rank for c in naturals}]
    # A run of 13 holds every rank: read with the ace high it is the same meld, so it is read once, ace low (R7).
    if rules.ace_high and any(c.rank == 1 for c in naturals) and size < ACE_HIGH_RANK - 1:
        mappings.append({c: ACE_HIGH_RANK if c.rank == 1 else c.rank for c in naturals})
    top = ACE_HIGH_RANK if rules.ace_high else rules.run_top
    found: list[MeldShape] = []
    for places in mappings:
        ranks = sorted(places.values())
        if len(set(ranks)) < len(ranks):
            return [], Reason(f"A run cannot hold the same {rules.rank_word} twice.", rules.run_rule)
        for low in range(max(1, ranks[-1] - size + 1), min(ranks[0], top - size + 1) + 1):
            gaps = [r for r in range(low, low + size) if r not in ranks]
            for order in permutations(wilds):
                slot = {**{c: r for c, r in places.items()}, **dict(zip(order, gaps))}
                table = tuple(sorted(cards, key=lambda c: slot[c]))
                found.append(MeldShape(RUN, table, tuple(
                    (w, card_code(1 if slot[w] == ACE_HIGH_RANK else slot[w], suit)) for w in table if w in wilds)))
    if found:
        return found, None
    if not rules.ace_high and 1 in ranks and rules.run_top in ranks:
        return [], Reason(rules.no_wrap_message(), rules.run_rule)
    last = rules.rank_names[min(top, len(rules.rank_names)) - 1]
    return [], Reason(f"{show_cards(naturals)} and {_count(len(wilds), 'wild')} cannot make a run of {size} within "
                      f"{rules.rank_names[0]}..{last}.", rules.run_rule)


def reading_matters(cards: Sequence[str], declarations: Sequence[Sequence[tuple[str, str]]],
                    onto: MeldShape | None = None) -> bool:
    """Whether the choice between several legal readings of the same play matters (rule 0.3).

    ``cards`` are the keys played, ``declarations`` each reading's ``(wild key, code)`` pairs, and
    ``onto`` the meld they are laid off on (None: a new meld). False when the readings differ only
    in which free suit a wild of a set takes: 0.3 records a set's wild by its rank, and any natural
    of a free suit can still join the set, by a lay-off or a swap (W10, W11). A wild's place in a
    run (which end, which gap) always matters.
    """
    if onto is not None:
        return onto.kind != SET
    wilds = {key for declared in declarations for key, _ in declared}
    ranks = {parse_card(key).rank for key in cards if key not in wilds}
    ranks |= {_code_rank(code) for declared in declarations for _, code in declared}
    return len(ranks) != 1 or None in ranks


def wild_places(wilds: Sequence[tuple[object, str]]) -> tuple[str, ...]:
    """The places a reading's wilds take, sorted: ``((JK, "9H"), (JK~1, "8H"))`` -> ``("8H", "9H")``.

    ``wilds`` are ``(wild, code)`` pairs, the wild as a Card or a key (a MeldShape's ``wilds``, an
    action's). Two readings of the same cards with the same places put the same meld on the table
    and differ only in which wild fills which place. That is no choice for the player (rule 0.3):
    no rule tells two wilds of one deal apart. Wild Rummy's all have the deal's rank, score 25 and
    are freed by a swap into the same duty (W3, W6, W11, W14); Frustration's never leave the table
    (R12); Frayzy allows one Wild a meld (F11). The codes alone tell a set from a run: a set's share
    one rank, a run's one suit and no rank.
    """
    return tuple(sorted(code for _, code in wilds))


def distinct_readings(readings: Sequence[MeldShape]) -> list[MeldShape]:
    """The first of ``readings`` for each of their ``wild_places``, in order: one reading per meld
    the player could mean (rule 0.3)."""
    first: dict[tuple[str, ...], MeldShape] = {}
    for reading in readings:
        first.setdefault(wild_places(reading.wilds), reading)
    return list(first.values())


def _code_rank(code: str) -> int | None:
    try:
        return parse_card(code).rank
    except ValueError:
        return None


def meld_readings(cards: Sequence[Card], rules: MeldRules,
                  kind: str | None = None) -> tuple[list[MeldShape], Reason | None]:
    """Every legal reading of ``cards`` as one meld (of ``kind`` when given) under ``rules``.

    A reading is a MeldShape whose ``wilds`` say what each wild stands for (0.3; W7-W9). Returns
    ``(readings, reason)``: when the list is empty, ``reason`` says why there is none and cites
    the rule (a set's, a run's, or the variant's meld rules when the cards are neither); otherwise
    it is None. A meld without wilds has at most one reading.
    """
    reason = _unmeldable(cards, rules)
    if reason:
        return [], reason
    wilds = [c for c in cards if rules.is_wild(c)]
    naturals = [c for c in cards if not rules.is_wild(c)]
    if not wilds:
        try:
            shape = (_plain_meld(cards, rules) if kind is None
                     else (check_set if kind == SET else check_run)(cards, rules))
        except IllegalAction as refusal:
            return [], Reason(refusal.message, refusal.rule)
        return [shape], None
    if (rules.wild_rank_sets and not naturals and kind in (None, SET) and not any(c.is_joker for c in cards)
            and len({c.rank for c in cards}) == 1):
        try:
            check_set(cards, rules)
        except IllegalAction as refusal:
            return [], Reason(refusal.message, refusal.rule)
        return [MeldShape(SET, tuple(cards), tuple((c, c.code) for c in cards))], None
    if rules.joker_sets and not naturals and kind in (None, SET) and all(c.is_joker for c in cards):
        if len(cards) < rules.set_min:
            return [], Reason(f"A set needs at least {rules.set_min} cards.", rules.set_rule)
        return [MeldShape(SET, tuple(cards), tuple((c, c.code) for c in cards))], None
    if rules.max_wilds is not None and len(wilds) > rules.max_wilds:
        return [], Reason(f"A meld may hold at most {_count(rules.max_wilds, 'wild')}, not {len(wilds)}.",
                          rules.wild_limit_rule)
    if len(naturals) < rules.min_naturals:
        return [], Reason(f"A meld needs at least {_count(rules.min_naturals, 'natural card')} (a natural is a card "
                          "that is not wild).", rules.wild_limit_rule)
    if rules.wilds_at_most_naturals and len(wilds) > len(naturals):
        mixed = " (a set of wilds alone must be all 2s or all jokers)" if not naturals else ""
        return [], Reason(f"{_count(len(wilds), 'wild')} and {_count(len(naturals), 'natural')}: wilds may not "
                          f"outnumber naturals{mixed}.", rules.wild_limit_rule)
    found: list[MeldShape] = []
    reasons: list[Reason | None] = []
    for wanted, reader in ((SET, _set_readings), (RUN, _run_readings)):
        if kind in (None, wanted):
            shapes, reason = reader(cards, naturals, wilds, rules)
            found += shapes
            reasons.append(reason)
    if found or kind is not None:
        return found, None if found else next((r for r in reasons if r), None)
    if len({c.rank for c in naturals}) > 1 and len({c.suit for c in naturals}) > 1:
        return [], Reason(rules.not_a_meld(cards), rules.rule)
    return [], reasons[0] if len({c.rank for c in naturals}) == 1 else reasons[1]


def _shown_key(key: str) -> str:
    """A card key as players read it (``"7♦"``), or the key itself, quoted, when it names no card."""
    try:
        return show(parse_card(key))
    except ValueError:
        return f'"{key}"'


def _declared(cards: Sequence[Card], wilds: Mapping[str, str], rules: MeldRules) -> dict[Card, str]:
    by_key = {c.key: c for c in cards}
    chosen: dict[Card, str] = {}
    for key, stands in wilds.items():
        card = by_key.get(key)
        if card is None or not rules.is_wild(card):
            raise IllegalAction("bad_wild", f"{_shown_key(key)} is not a wild among the cards played.",
                                rules.wild_rule or rules.rule)
        chosen[card] = stands
    return chosen


def choose_reading(readings: list[MeldShape], declared: Mapping[Card, str], rules: MeldRules,
                   fixed: Mapping[Card, str] | None = None) -> MeldShape:
    """Pick the one reading that agrees with ``fixed`` (wilds already on the table, 0.3) and the
    player's ``declared`` wilds; readings that differ only in which wild fills which place count
    as one (``distinct_readings``) and the first of them is taken.

    Raises:
        IllegalAction("bad_wild"): no reading gives a wild what it was declared as.
        IllegalAction("choose_wild"): more than one reading is left and the player must say which.
    """
    fixed = fixed or {}
    readings = [r for r in readings if all(r.stands_for(c) == code for c, code in fixed.items())]
    matching = distinct_readings([r for r in readings
                                  if all(r.stands_for(c) == code for c, code in declared.items())])
    if not matching:
        said = ", ".join(show_wild(c, code) for c, code in declared.items())
        options = "; ".join(dict.fromkeys(" ".join(show_wild(c, code) for c, code in r.wilds if c in declared)
                                          for r in readings))
        raise IllegalAction("bad_wild", f"A wild cannot stand for that here ({said}). It can be: {options}.",
                            rules.wild_rule or "0.3")
    if len(matching) > 1:
        options = " or ".join(" ".join(show_wild(c, code) for c, code in r.wilds if c not in fixed) for r in matching)
        several = sum(c not in fixed for c, _ in matching[0].wilds) > 1
        raise IllegalAction("choose_wild", f"Choose what the {'wilds stand' if several else 'wild stands'} for: "
                            f"{options}.", "0.3")
    return matching[0]


def read_meld(cards: Sequence[Card], rules: MeldRules, wilds: Mapping[str, str] | None = None,
              kind: str | None = None) -> MeldShape:
    """Decide whether ``cards`` are a set or a run and check them (a new meld, e.g. rules S8, W7-W9);
    with ``kind`` (``"set"``/``"run"``) they must be that kind (a contract's meld, R10).

    ``wilds`` maps a wild's key to what it stands for (0.3); it may be left out when only one
    reading exists. Returns the MeldShape. Raises IllegalAction("bad_meld") with the most telling
    reason, or ``bad_wild`` / ``choose_wild`` (see ``choose_reading``).
    """
    declared = _declared(cards, wilds or {}, rules)
    readings, reason = meld_readings(cards, rules, kind)
    if not readings:
        raise _refuse(reason.message, reason.rule)
    return choose_reading(readings, declared, rules)


def extension_readings(meld: MeldShape, cards: Sequence[Card],
                       rules: MeldRules) -> tuple[list[MeldShape], Reason | None]:
    """Every reading of ``meld`` grown by ``cards`` that keeps each table wild's record (0.3, S9,
    W10), and the Reason when there is none (as ``meld_readings``)."""
    readings, reason = meld_readings([*meld.cards, *cards], rules, meld.kind)
    kept = [r for r in readings if all(r.stands_for(c) == code for c, code in meld.wilds)]
    if readings and not kept:
        reason = Reason("The wilds on the table keep what they stand for.",
                        rules.set_rule if meld.kind == SET else rules.run_rule)
    return kept, reason


def extend_meld(meld: MeldShape, cards: Sequence[Card], rules: MeldRules,
                wilds: Mapping[str, str] | None = None) -> MeldShape:
    """Lay off ``cards`` on ``meld``; return the grown meld (rules S9, W10 with the meld limits).

    ``wilds`` says what each wild laid off stands for, when more than one place fits (0.3).

    Raises:
        IllegalAction("bad_lay_off"): the grown meld is no longer a legal set or run.
        IllegalAction("bad_wild" / "choose_wild"): see ``choose_reading``.
    """
    declared = _declared(cards, wilds or {}, rules)
    reason = _unmeldable(cards, rules)
    if reason:
        raise _refuse(reason.message, reason.rule, "bad_lay_off")
    if not meld.wilds and not any(rules.is_wild(c) for c in cards):
        check = check_set if meld.kind == SET else check_run
        try:
            return check([*meld.cards, *cards], rules)
        except IllegalAction as refusal:
            raise _refuse(f"{show_cards(cards)} does not fit {show_cards(meld.cards)}. {refusal.message}",
                          refusal.rule, "bad_lay_off") from None
    readings, reason = extension_readings(meld, cards, rules)
    if not readings:
        raise _refuse(f"{show_cards(cards)} does not fit {show_cards(meld.cards)}. {reason.message}", reason.rule,
                      "bad_lay_off")
    return choose_reading(readings, declared, rules, dict(meld.wilds))


def add_surplus_wild(meld: MeldShape, wild: Card, rules: MeldRules) -> MeldShape:
    """W12's going-out exception: ``wild`` as one card more than a full set allows.

    The wild stands for the set's rank alone (it fills no suit slot) and can never be swapped (W11).

    Raises:
        IllegalAction("bad_lay_off"): the meld is not a full set or the card is not wild.
    """
    if meld.kind != SET or rules.set_max is None or len(meld.cards) != rules.set_max or not rules.is_wild(wild):
        raise IllegalAction("bad_lay_off", f"Only a wild may go on a full set of {rules.set_max}, "
                            "and only as the going-out exception.", "W12")
    naturals = [c for c in meld.cards if not meld.stands_for(c)]
    rank = _set_rank(naturals, meld.wilds, rules)
    return replace(meld, cards=(*meld.cards, wild), wilds=(*meld.wilds, (wild, rules.rank_names[rank - 1])))


def swappable_wilds(meld: MeldShape, natural: Card, rules: MeldRules) -> list[Card]:
    """The wilds of ``meld`` that ``natural`` may replace (W11; F13 for sets whose suits do not matter).

    Run: the natural is exactly the card the wild stands for. Set with suit slots: the natural has
    the set's rank and a suit no other card of the set holds; a wild standing for a rank alone (a
    surplus wild, W12) or for itself (an all-wild set, W9) never comes out.
    """
    if rules.is_wild(natural) or not natural.has_rank:
        return []
    if meld.kind == RUN:
        return [w for w, code in meld.wilds if code == natural.code]
    naturals = [c for c in meld.cards if not meld.stands_for(c)]
    if not meld.wilds or natural.rank != _set_rank(naturals, meld.wilds, rules):
        return []
    if not rules.set_distinct_suits:
        return [w for w, _ in meld.wilds]
    found = []
    for wild, code in meld.wilds:
        if code[-1:] not in SUITS or code == wild.code:
            continue
        held = {c.suit for c in naturals} | {other[-1] for w, other in meld.wilds if w != wild}
        if natural.suit not in held:
            found.append(wild)
    return found


def swap_wild(meld: MeldShape, natural: Card, wild: Card | None, rules: MeldRules) -> MeldShape:
    """Put ``natural`` in the place of ``wild`` in ``meld`` and return the new meld (W11).

    ``wild`` may be None when only one wild of the meld can come out.

    Raises:
        IllegalAction("bad_swap"): the natural does not match what any (or the chosen) wild stands
            for; or two wilds could come out and none was chosen.
    """
    options = swappable_wilds(meld, natural, rules)
    rule = rules.wild_rule or rules.rule
    if wild is not None and wild not in options:
        if not meld.stands_for(wild):
            raise IllegalAction("bad_swap", f"{show(wild)} is not a wild in that meld.", rule)
        raise IllegalAction("bad_swap", f"{show(natural)} cannot replace {show_wild(wild, meld.stands_for(wild))}: "
                            "in a run the card must be exactly the one the wild stands for; in a set it must be "
                            "of the set's rank and of a free suit.", rule)
    if not options:
        raise IllegalAction("bad_swap", f"{show(natural)} matches no wild in that meld: in a run the card must be "
                            "exactly the one the wild stands for; in a set it must be of the set's rank and of a "
                            "free suit.", rule)
    if wild is None:
        if len(options) > 1:
            raise IllegalAction("choose_wild", "Say which wild comes out: "
                                + " or ".join(show_wild(w, meld.stands_for(w)) for w in options) + ".", rule)
        wild = options[0]
    return replace(meld, cards=tuple(natural if c == wild else c for c in meld.cards),
                   wilds=tuple((w, code) for w, code in meld.wilds if w != wild))


def declaration(shape: MeldShape, cards: Sequence[Card]) -> tuple[tuple[str, str], ...]:
    """The ``wilds`` field of an action: what each wild among ``cards`` stands for in ``shape`` (0.3),
    as ``(key, code)`` pairs sorted by key."""
    return tuple(sorted((c.key, shape.stands_for(c)) for c in cards if shape.stands_for(c)))
