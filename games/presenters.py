"""Turn a services.Board into what the templates show: seat panels, the sorted hand, the actions
the viewer may take, the table's melds, the move log in words and the score sheet.

Everything here is built from the viewer's PlayerView and public move events only.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import Min
from django.urls import reverse

from notices.services import deadline_in_words as time_left

from .direct_play import arranged, legal_readings, play_targets
from .engine.actions import ChooseTarget, Discard, LayContract, LayMeld, LayOff, PlayAction, SwapWild
from .engine.cards import (
    ACTION_NAMES,
    COLOUR_NAMES,
    COLOUR_WILD,
    COLOURS,
    DISCARD1,
    DRAW5,
    NUMBERS,
    RANKS,
    SKIP,
    SUIT_NAMES,
    SUITS,
    Card,
    parse_card,
    sort_by_rank,
    sort_by_suit,
)
from .engine.contracts import CONTRACTS, contract_text, group_label, tray_label
from .engine.melds import (
    MeldRules,
    declaration,
    distinct_readings,
    meld_readings,
    show,
    show_code,
    show_placed,
    stands_apart,
    wild_places,
)
from .engine.state import Phase, PlayerView, TableMeld
from .forms import ComputerPlayerForm
from .models import Game, Move, Seat
from .services import Board
from .turn_clock import WARNING_SHARE

RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
"""Court cards and the ace in words; number ranks are read as written ("7 of clubs")."""


def code_name(code: str) -> str:
    """A card code in words for assistive technology: ``"QH"`` -> ``"queen of hearts"``, ``"R7"`` ->
    ``"red 7"``, ``"W"`` -> ``"Wild"``, ``"SKIP"`` -> ``"Skip"``, ``"JK"`` -> ``"joker"``; a rank
    alone (what a wild stands for in a set, 0.3) -> ``"any 9"``."""
    if code[:1] in COLOURS and code[1:] in NUMBERS:
        return f"{COLOUR_NAMES[code[0]]} {code[1:]}"
    if code[-1:] in SUITS and code[:-1] in RANKS:
        return f"{RANK_WORDS.get(code[:-1], code[:-1])} of {SUIT_NAMES[code[-1]]}"
    if code in RANKS:
        return f"any {RANK_WORDS.get(code, code)}"
    if code in ACTION_NAMES:
        return ACTION_NAMES[code]
    return {COLOUR_WILD: "Wild", "JK": "joker"}.get(code, code)


def card_name(card: Card, wild: bool = False, stands_for: str = "") -> str:
    """``card`` in words (``code_name``); a wild says so and, on the table, what it stands for:
    ``"7 of diamonds, wild, standing for 9 of clubs"`` (W3, R5, 0.3); a wild that stands for
    itself on the table is named as the plain card (``stands_apart``)."""
    stands_for = stands_apart(card, stands_for)
    name = code_name(card.code)
    if (wild or stands_for or card.is_joker) and card.code != COLOUR_WILD:
        name += ", wild"
    return f"{name}, standing for {code_name(stands_for)}" if stands_for else name


def face_name(card: Card, wild: bool = False) -> str:
    """What a card's face is called for assistive technology: ``card_name``, and Frayzy's action
    cards say so (``"Skip, action card"``, F1)."""
    return f"{card_name(card, wild)}, action card" if card.is_action else card_name(card, wild)


@dataclass(frozen=True)
class SeatPanel:
    """One seat as the table shows it."""

    position: int
    name: str
    is_bot: bool
    is_me: bool
    is_turn: bool
    is_dealer: bool
    hand_size: int
    total: int
    place: int | None
    time_left: str = ""
    autopilot: bool = False
    former_player: str = ""
    """The person a computer took the seat from (they left, or a moderator removed or suspended
    them), or empty: the record names them beside the computer that played on."""


@dataclass(frozen=True)
class HandCard:
    """A card in the viewer's hand, whether it may be the turn's discard (S7, W6), whether it is
    wild this deal (W3) and whether it is pending (W6)."""

    card: Card
    discardable: bool
    is_wild: bool = False
    pending: bool = False
    group: str = ""
    """The contract group chosen for this card in a refused lay-contract form (R10), kept for the retry."""
    stands: str = ""
    """What this wild was declared to stand for in that form (0.3), kept for the retry."""
    twin: bool = False
    """Another copy of this card is in the same hand (two-deck games, Frayzy)."""

    @property
    def name(self) -> str:
        """The card in words (``code_name``) and, where the hand holds another copy of it, which
        copy, so its fields and checkbox are told apart: ``"4 of clubs, copy 2"``."""
        return self._numbered(code_name(self.card.code))

    @property
    def label(self) -> str:
        """The name of the card's checkbox in the hand, whose face is hidden from assistive
        technology so the card is heard once: the face's own words (``face_name``) and, as for
        ``name``, which copy (``"2 of clubs, wild, copy 2"``)."""
        return self._numbered(face_name(self.card, self.is_wild))

    def _numbered(self, words: str) -> str:
        return f"{words}, copy {self.card.copy + 1}" if self.twin else words


@dataclass(frozen=True)
class TableCard:
    """A card of a meld: ``stands_for`` is what a wild stands for (0.3), blank for a natural."""

    card: Card
    stands_for: str

    @property
    def label(self) -> str:
        """``"7♦=9♣"`` for a wild, ``"9♠"`` for a natural or a wild that stands for itself."""
        return show_placed(self.card, self.stands_for)


@dataclass(frozen=True)
class Choice:
    """A button the page offers: its label and the form value it sends."""

    label: str
    value: str


@dataclass(frozen=True)
class MeldPanel:
    """A meld on the table with its owner's name, its cards (wilds with what they stand for),
    whether the viewer may lay off on it now, and the wild swaps the viewer may make on it (W11)."""

    meld: TableMeld
    owner: str
    can_lay_off: bool
    cards: tuple[TableCard, ...] = ()
    swaps: tuple[Choice, ...] = ()

    @property
    def words(self) -> str:
        """The meld as a screen reader says it, to tell its controls from another meld's:
        ``"ben's meld: 7 of hearts, 2 of clubs, wild, standing for 7 of clubs"``."""
        return f"{self.owner}'s meld: " + ", ".join(card_name(c.card, stands_for=c.stands_for) for c in self.cards)


@dataclass(frozen=True)
class ScoreRow:
    """One finished deal on the score sheet: points per seat, how it ended, and whether the winner
    scored the streak bonus (W14)."""

    deal: int
    penalties: list[int]
    outcome: str
    stalemate: bool = False
    streak_bonus: bool = False


@dataclass(frozen=True)
class ContractLine:
    """One seat on the contract board (R4, R10): its contract, the contract's text, laid down this round."""

    name: str
    contract: int
    text: str
    laid_down: bool


@dataclass(frozen=True)
class AdvanceRow:
    """One finished round on the contract board: per seat ``(contract played, laid down, advanced)``,
    and how the round ended (R15, R16)."""

    round: int
    seats: list[tuple[int, bool, bool]]
    outcome: str


def contract_board(names: list[str], view: PlayerView,
                   results: list[dict]) -> tuple[list[ContractLine], list[AdvanceRow]]:
    """The contract board of a Frustration Rummy game: each seat's line now, and every finished
    round's advances (read from the rounds' results, R15)."""
    lines = [ContractLine(name, view.totals[s], contract_text(view.totals[s]),
                          bool(view.laid_down and view.laid_down[s])) for s, name in enumerate(names)]
    contracts = [view.totals[s] - sum(r["penalties"][s] for r in results) for s in range(len(names))]
    history = []
    for result in results:
        laid = result.get("laid_down") or [False] * len(names)
        history.append(AdvanceRow(result["deal"], [(contracts[s], laid[s], result["penalties"][s] > 0)
                                                   for s in range(len(names))], _outcome(result, names)))
        contracts = [c + a for c, a in zip(contracts, result["penalties"])]
    return lines, history


def contract_groups(number: int) -> list[Choice]:
    """The groups of the lay-contract form: ``Choice("Set 1 (3+ cards)", "1")``, ... (R4, R10)."""
    return [Choice(f"{tray_label(number, index)} ({size}+ cards)", str(index + 1))
            for index, (_, size) in enumerate(CONTRACTS[number])]


def _declaration_text(wilds: tuple[tuple[str, str], ...]) -> str:
    return ",".join(f"{key}={code}" for key, code in wilds)


def _wild_label(wilds: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{show(parse_card(key))} as {show_code(code)}" for key, code in wilds)


def _distinct(keyed: Iterable[tuple[Hashable, Choice]]) -> tuple[Choice, ...]:
    """The first choice of each key, in order: choices that play the same thing are one button."""
    first: dict[Hashable, Choice] = {}
    for key, choice in keyed:
        first.setdefault(key, choice)
    return tuple(first.values())


def reading_choices(view: PlayerView, selected: set[str], meld: int | None) -> list[Choice]:
    """The legal readings (0.3) of the selected cards played as a new meld (``meld`` None) or laid
    off on meld ``meld``, as buttons, each with what its wilds stand for. Only actions from
    ``view.legal_actions`` are offered, only for the target the player chose, and one button per
    set of places the wilds take (readings that only swap two wilds' places put the same meld on
    the table, ``melds.wild_places``)."""
    choices = []
    for action in legal_readings(view, sorted(selected), meld):
        if isinstance(action, LayMeld):
            choice = Choice(f"Meld with {_wild_label(action.wilds)}", f"-/{_declaration_text(action.wilds)}")
        else:
            choice = Choice(f"Lay off on meld {action.meld} with {_wild_label(action.wilds)}",
                            f"{action.meld}/{_declaration_text(action.wilds)}")
        choices.append((wild_places(action.wilds), choice))
    return list(_distinct(choices))


def contract_reading_choices(rules: MeldRules, number: int, hand: list[Card], groups: dict[str, str]) -> list[Choice]:
    """For a contract refused because a wild has more than one place (0.3, R10): each distinct
    reading (``melds.distinct_readings``) of the first group that has several under the meld
    ``rules``, as a button declaring its wilds (``"contract/JK=8H"``), labelled with the wilds in
    table order (``"The run with JK as 8♥, JK as 9♥"``). ``groups`` maps card keys to group numbers
    as the player sent them."""
    for index, (kind, _) in enumerate(CONTRACTS[number], start=1):
        cards = [c for c in hand if groups.get(c.key) == str(index)]
        readings = distinct_readings(meld_readings(cards, rules, kind)[0]) if cards else []
        if len(readings) > 1:
            label = group_label(number, index - 1)
            return [Choice(f"{label.capitalize()} with {_wild_label(tuple((c.key, code) for c, code in r.wilds))}",
                           f"contract/{_declaration_text(declaration(r, cards))}") for r in readings]
    return []


def _swap_choices(view: PlayerView, meld: TableMeld) -> tuple[Choice, ...]:
    """One button per distinct swap on ``meld``: two copies of a card (``R10``, ``R10~1``) play the
    same swap, so the first copy's stands for both."""
    choices = []
    for a in view.legal_actions:
        if isinstance(a, SwapWild) and a.meld == meld.id:
            label = (f"Swap {show(parse_card(a.card))} for "
                     f"{show_placed(parse_card(a.wild), meld.shape.stands_for(parse_card(a.wild)))}")
            choices.append((label, Choice(label, f"{a.meld}:{a.card}:{a.wild}")))
    return _distinct(choices)


def _show_keys(keys: list[str], wilds: dict[str, str] | None = None) -> str:
    """Cards as players read them; a wild in ``wilds`` (key -> what it stands for, 0.3) as ``7♦=9♣``
    (``show_placed``)."""
    wilds = wilds or {}
    return " ".join(show_placed(parse_card(key), wilds.get(key, "")) for key in keys)


def start_card_effect(code: str, dealer: int, names: list[str]) -> str:
    """What a Frayzy start card did or asks for (F4), in words; empty for a card without effect."""
    players = len(names)
    if code == SKIP:
        return (f"the start card is a Skip: {names[(dealer + 1) % players]} loses the first turn and "
                f"{names[(dealer + 2) % players]} plays first")
    if code == DRAW5:
        return f"the start card is a Draw 5: {names[dealer]} (the dealer) chooses who draws 5 cards"
    if code == DISCARD1:
        return f"the start card is a Discard 1: {names[dealer]} (the dealer) discards one card on top of it"
    return ""


def _describe_action_card(event: dict, names: list[str]) -> str:
    """A Frayzy action card played to end a turn (F14), in words."""
    who = names[event["seat"]]
    if event["action"] == SKIP:
        skipped = event["skipped"]
        if len(names) == 2:
            return f"{who} played Skip: {names[skipped]} is skipped and {who} takes another turn."
        return f"{who} played Skip: {names[skipped]} is skipped."
    if event["action"] == DISCARD1:
        return f"{who} played Discard 1 and discards one more card."
    return f"{who} played Draw 5."


def _describe_draw_five(event: dict, names: list[str]) -> str:
    """F4/F14: who made whom draw, e.g. "Ana made Ben draw 5"."""
    who, target = names[event["seat"]], names[event["target"]]
    whom = "themselves" if event["seat"] == event["target"] else target
    short = f" (only {event['count']} left in the stock)" if event["count"] < 5 else ""
    start = "With the start card, " if event.get("start_card") else ""
    return f"{start}{who} made {whom} draw 5{short}."


def describe_event(event: dict, names: list[str], deal_word: str = "Deal") -> str:
    """One public event in words, e.g. "Ana discarded 7♣". A stock draw names its card only when
    the event carries one, as the engine's never does (a finished game's face-up replay adds it)."""
    who = names[event["seat"]] if "seat" in event else ""
    kind = event["type"]
    if kind == "draw_stock" and "card" in event:
        return f"{who} drew {_show_keys([event['card']])} from the stock."
    if kind == "draw_stock":
        return f"{who} drew from the stock."
    if kind == "take_discard":
        return f"{who} took {_show_keys([event['card']])} from the discard pile."
    if kind == "lay_meld":
        return f"{who} laid down {_show_keys(event['cards'], event.get('wilds'))}."
    if kind == "lay_off":
        return f"{who} laid off {_show_keys(event['cards'], event.get('wilds'))}."
    if kind == "lay_contract":
        melds = " \u00b7 ".join(_show_keys(meld["cards"], meld.get("wilds")) for meld in event["melds"])
        return f"{who} laid down contract {event['contract']}: {melds}."
    if kind == "discard":
        return f"{who} discarded {_show_keys([event['card']])}."
    if kind == "swap_wild":
        return (f"{who} swapped {_show_keys([event['card']])} for the wild "
                f"{show_placed(parse_card(event['wild']), event['stood_for'])}.")
    if kind == "play_action":
        return _describe_action_card(event, names)
    if kind == "draw_five":
        return _describe_draw_five(event, names)
    if kind == "extra_discard":
        return f"{who} discarded {_show_keys([event['card']])} for the Discard 1."
    if kind == "stock_rebuilt":
        return "The discard pile was shuffled into a new stock."
    if kind == "stock_exhausted":
        return f"The stock is used up: the {deal_word.lower()} ends after this turn."
    if kind == "hand_over" and "laid_down" in event:
        winner = event["winner"]
        ending = "ended in a stalemate" if winner is None else f"is over: {names[winner]} went out"
        up = [names[s] for s, advanced in enumerate(event["penalties"]) if advanced]
        return f"Round {event['deal']} {ending}; {', '.join(up) if up else 'nobody'} moved up a contract."
    if kind == "hand_over":
        winner = event["winner"]
        ending = "ended in a stalemate" if winner is None else f"is over: {names[winner]} went out"
        rummy = " (rummy: penalties doubled)" if event.get("rummy") else ""
        streak = " (streak bonus: \u221212)" if event.get("streak_bonus") else ""
        return f"{deal_word} {event['deal']} {ending}{rummy}{streak}."
    if kind == "game_over" and event.get("stalled"):
        return "The game stopped at its round limit: the highest contract wins."
    if kind == "new_deal":
        effect = start_card_effect(parse_card(event["start_card"]).code, event["dealer"], names) \
            if "start_card" in event else ""
        if effect:
            return f"{deal_word} {event['deal']} begins: {effect}."
        # Every variant starts a deal with the player left of its dealer (S4, W4, R3, F5).
        return f"{deal_word} {event['deal']} begins: {names[(event['dealer'] + 1) % len(names)]} plays first."
    if kind == "game_over":
        return "The game is over."
    return kind


ACTOR_NOTES = {Move.Actor.DEADLINE: " (time ran out: the computer played)",
               Move.Actor.AUTOPILOT: " (autopilot)"}
"""What the move log adds to a move the computer made for a person."""


def mover_name(seat: Seat, actor: str) -> str:
    """Who made a move of ``seat`` by ``actor``: a move its person made (or the computer made for
    them: time ran out, autopilot) stays theirs after a computer took the seat (``former_user``)."""
    if seat.is_bot and seat.former_user_id and actor != Move.Actor.COMPUTER:
        return seat.former_user.username
    return seat.name


def handover_plies(game: Game, seats: list[Seat]) -> dict[int, str]:
    """The first move of each seat a computer took from a person (``former_user``), by ply, with
    the line that says so ("bobby left; Computer 2 (normal) took the seat."). No query when no
    computer took a person's seat."""
    taken = {seat.pk: seat for seat in seats if seat.is_bot and seat.former_user_id}
    if not taken:
        return {}
    firsts = (Move.objects.filter(game=game, seat_id__in=taken, actor=Move.Actor.COMPUTER)
              .values("seat_id").annotate(first=Min("ply")).values_list("seat_id", "first"))
    return {ply: f"{taken[seat_id].former_user.username} left; {taken[seat_id].name} took the seat."
            for seat_id, ply in firsts}


def describe_move(move: Move, names: list[str], deal_word: str = "Deal") -> list[str]:
    """Every event of ``move`` (a Move row, or anything with its ``actor`` and ``events``) in words;
    ``deal_word`` is what the game calls a deal (``Variant.deal_word``). A move the computer made
    for a person says so (time ran out, autopilot)."""
    note = ACTOR_NOTES.get(move.actor, "")
    return [describe_event(event, names, deal_word) + note for event in move.events]


def move_log_lines(move: Move, seat: Seat, names: list[str], deal_word: str = "Deal") -> list[str]:
    """``move`` of ``seat`` as the move log writes it (``describe_move``), its mover named by
    ``mover_name`` and every other seat by ``names``."""
    said = list(names)
    said[seat.position] = mover_name(seat, move.actor)
    return describe_move(move, said, deal_word)


def _outcome(result: dict, names: list[str], no_winner: str = "stalemate") -> str:
    if result["winner"] is None:
        return no_winner
    streak = " \u2014 streak bonus" if result.get("streak_bonus") else ""
    return f"{names[result['winner']]} went out{streak}"


@dataclass(frozen=True)
class DrawFiveChooser:
    """The Draw 5 card the viewer may play and the seats it may aim at (F14), the next seat first."""

    card: str
    targets: tuple[Choice, ...]


def action_card_context(view: PlayerView, names: list[str], me: int | None) -> dict:
    """The board's part for a game with action cards (F4, F6, F14): the start card and its effect, whether the discard
    pile is closed, the action cards the viewer may play (Skip, Discard 1 as buttons; Draw 5 with a
    target chooser, themselves included) and a Draw 5 start card's choice of who draws."""
    legal = view.legal_actions
    plays = [a for a in legal if isinstance(a, PlayAction)]
    draw_five = [a for a in plays if a.target is not None]
    chooser = None
    if draw_five and me is not None:
        order = sorted(draw_five, key=lambda a: (a.target - me - 1) % len(names))
        chooser = DrawFiveChooser(draw_five[0].card, tuple(
            Choice("yourself" if a.target == me else names[a.target], str(a.target)) for a in order))
    start = view.start_card
    return {
        "start_card": start,
        "start_effect": start_card_effect(start.code, view.dealer, names) if start and view.discard_size == 1 else "",
        "discard_closed": bool(view.discard_top and view.discard_top.is_action),
        "action_buttons": [Choice(f"Play {show(parse_card(a.card))}", a.card) for a in plays if a.target is None],
        "draw_five": chooser,
        "start_targets": [Choice("yourself" if a.target == me else names[a.target], str(a.target))
                          for a in legal if isinstance(a, ChooseTarget)],
    }


@dataclass(frozen=True)
class RefusedForm:
    """What a refused play form carried, kept for the retry: the cards ticked, the lay-off target
    (``meld``, None for a new meld), and for a lay-contract form (R10) each card's group and the
    wilds declared (card key -> group number, card key -> code)."""

    selected: frozenset[str] = frozenset()
    meld: int | None = None
    groups: dict[str, str] = field(default_factory=dict)
    stands: dict[str, str] = field(default_factory=dict)


class TableLinks:
    """The table's URLs that the board writes twice (a form's ``action`` and ``hx-post``, a link's
    ``href`` and ``hx-get``), each reversed once, when the board first shows it."""

    def __init__(self, game_id: int, summary_deal: int | None):
        self.game_id = game_id
        self.summary_deal = summary_deal

    @cached_property
    def move(self) -> str:
        """Where the play form sends a move."""
        return reverse("game_move", args=[self.game_id])

    @cached_property
    def reclaim(self) -> str:
        """Where a player takes their seat back from the computer."""
        return reverse("game_reclaim", args=[self.game_id])

    @cached_property
    def board(self) -> str:
        """The board fragment, which the hand's sort links ask for."""
        return reverse("game_board", args=[self.game_id])

    @cached_property
    def deal_summary(self) -> str:
        """The end-of-deal summary of the latest finished deal."""
        return reverse("game_deal_summary", args=[self.game_id, self.summary_deal])


def board_context(board: Board, hand_sort: str, error=None, form: RefusedForm | None = None,
                  hand_order: tuple[str, ...] = ()) -> dict:
    """Template context for ``games/_board.html`` from ``board`` (see module docstring).

    ``error`` (the refusal) and ``form`` (what the refused form carried) let the page offer the
    legal readings of a meld, lay-off or contract whose wilds need declaring (0.3) and keep the
    player's contract groups for the retry. ``hand_order`` (card keys) is the order the player
    arranged the hand in; without it the hand is sorted by ``hand_sort`` ("suit" or "rank")."""
    form = form or RefusedForm()
    selected, groups = set(form.selected), form.groups
    game, view = board.game, board.view
    names = [seat.name for seat in board.seats]
    rules = game.rules
    context: dict = {"game": game, "rules": rules, "board": board, "view": view, "names": names, "hand_sort": hand_sort,
                     "my_seat": board.seat, "your_turn": False, "error": error, "selected": selected or set()}
    if view is None:
        # An open table waits for players; one stopped before its deal (aborted) says so.
        context["title"] = f"{game} \u2014 {game.get_status_display().lower()}"
        context["computer_form"] = ComputerPlayerForm()
        return context
    # A game a moderator aborted or voided offers no moves, whatever its last position allowed.
    legal = view.legal_actions if game.status in (Game.Status.ACTIVE, Game.Status.FINISHED) else []
    lay_off_melds = {action.meld for action in legal if isinstance(action, LayOff)}
    discardable = {action.card for action in legal if isinstance(action, Discard)}
    sort = sort_by_rank if hand_sort == "rank" else sort_by_suit

    def order(cards: list[Card]) -> list[Card]:
        return arranged(cards, hand_order, sort) if hand_order else sort(cards)

    your_turn = bool(legal)
    pending = set(view.pending)
    copies = Counter(c.code for c in (*view.hand, *view.pending))

    def hand_card(c: Card) -> HandCard:
        return HandCard(c, c.key in discardable, rules.is_wild(c, view), c in pending, groups.get(c.key, ""),
                        form.stands.get(c.key, ""), copies[c.code] > 1)

    me = board.seat.position if board.seat else None
    if rules.has_contracts:
        lines, history = contract_board(names, view, board.results)
        laying = bool(legal) and view.phase == Phase.PLAY and me is not None and not view.laid_down[me]
        context.update({"contract_lines": lines, "contract_history": history,
                        "contract_groups": contract_groups(view.totals[me]) if laying else [],
                        "my_contract": f"{view.totals[me]}: {contract_text(view.totals[me])}" if me is not None else "",
                        "contract_ready": any(isinstance(a, LayContract) for a in legal)})

    if rules.has_action_cards:
        context.update(action_card_context(view, names, me))

    readings: list[Choice] = []
    if error is not None and error.code == "choose_wild":
        readings = (contract_reading_choices(rules.meld_rules_for(view), view.totals[me], list(view.hand), groups)
                    if groups
                    else reading_choices(view, selected, form.meld))
    context.update({
        "deal_label": f"{rules.deal_word} {view.deal_number}"
                      + (f" of {view.deals_in_game}" if view.deals_in_game else ""),
        "wild_label": rules.wild_label(view),
        "discard_top_wild": view.discard_top is not None and rules.is_wild(view.discard_top, view),
        "taken_discard_wild": view.taken_discard is not None and rules.is_wild(view.taken_discard, view),
        "pending_cards": [hand_card(c) for c in order(list(view.pending))],
        "readings": readings,
        "plays": play_targets(view) if your_turn else None,
        "hand_arranged": bool(hand_order),
        "upcoming_deals": range(len(board.results) + 1, (view.deals_in_game or 0) + 1),
        "your_turn": your_turn,
        "legal_types": {action.type for action in legal},
        "can_meld": any(isinstance(action, LayMeld) for action in legal),
        "seats": [SeatPanel(seat.position, seat.name, seat.is_bot, board.seat is not None and seat.pk == board.seat.pk,
                            view.turn == seat.position and view.phase != Phase.GAME_OVER,
                            view.dealer == seat.position, view.hand_sizes[seat.position],
                            view.totals[seat.position], seat.place, time_left(seat.deadline),
                            seat.autopilot, seat.former_user.username if seat.is_bot and seat.former_user_id else "")
                  for seat in board.seats],
        "hand": [hand_card(c) for c in order(list(view.hand)) if c not in pending],
        "melds": [MeldPanel(m, names[m.owner], m.id in lay_off_melds,
                            tuple(TableCard(c, m.shape.stands_for(c)) for c in m.shape.cards), _swap_choices(view, m))
                  for m in view.melds],
        "score_sheet": [ScoreRow(r["deal"], r["penalties"],
                                 _outcome(r, names, rules.no_winner),
                                 r["winner"] is None, bool(r.get("streak_bonus"))) for r in board.results],
        "deal_word": rules.deal_word,
        "can_select": your_turn and view.phase in (Phase.PLAY, Phase.EXTRA_DISCARD),
        "finished": game.status == Game.Status.FINISHED,
        "can_reclaim": board.seat is not None and board.seat.autopilot
                       and game.is_live,
        "turn_name": names[view.turn],
        "title": f"Your turn \u2014 {game}" if your_turn else str(game),
    })
    context.update(table_feel_context(board, names))
    context["links"] = TableLinks(game.pk, context["summary_deal"])
    return context


@dataclass(frozen=True)
class LogEntry:
    """One move of the move log: its number in the game's move list (the record's move number,
    ``Board.last_moves``' ``step``) and its events in words."""

    ply: int
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TurnClock:
    """The running turn clock the page counts down: the seat to move, its deadline as an ISO 8601
    timestamp, and how many seconds before it the clock shows its warning (the last 20% of the
    time per move, as the warning e-mail, turn_clock.WARNING_SHARE)."""

    position: int
    deadline: str
    warn_seconds: int


def turn_clock_of(board: Board) -> TurnClock | None:
    """The clock of the seat whose deadline runs, or None (no person's turn, game not active)."""
    if board.game.status != Game.Status.ACTIVE:
        return None
    seat = next((seat for seat in board.seats if seat.deadline is not None), None)
    if seat is None:
        return None
    return TurnClock(seat.position, seat.deadline.isoformat(), round(board.game.time_per_move * (1 - WARNING_SHARE)))


def table_feel_context(board: Board, names: list[str]) -> dict:
    """The live parts of the board around the play: the move log by ply (newest first) and the
    latest move in words (the page's one live region for moves), the running turn clock, and the
    deal whose end-of-deal summary the page offers (the latest finished deal, during the next deal
    and at game over)."""
    deal_word = board.game.rules.deal_word
    seats = {seat.pk: seat for seat in board.seats}
    handovers = handover_plies(board.game, board.seats)
    log = []
    for move in board.last_moves:
        before = (handovers[move.ply],) if move.ply in handovers else ()
        log.append(LogEntry(move.step, (*before, *move_log_lines(move, seats[move.seat_id], names, deal_word))))
    summary_deal = board.results[-1]["deal"] if board.results else None
    return {"log": log, "latest_move": " ".join(log[0].lines) if log else "", "clock": turn_clock_of(board),
            "summary_deal": summary_deal}
