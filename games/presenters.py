"""Turn a services.Board into what the templates show: seat panels, the sorted hand, the actions
the viewer may take, the table's melds, the move log in words and the score sheet.

Everything here is built from the viewer's PlayerView and public move events only.
"""
from __future__ import annotations

from dataclasses import dataclass

from .engine.actions import Discard, LayMeld, LayOff
from .engine.cards import Card, parse_card, sort_by_rank, sort_by_suit
from .engine.melds import show
from .engine.state import Phase, TableMeld
from .models import Game, Move
from .services import Board


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


@dataclass(frozen=True)
class HandCard:
    """A card in the viewer's hand, and whether it may be the turn's discard (S7)."""

    card: Card
    discardable: bool


@dataclass(frozen=True)
class MeldPanel:
    """A meld on the table with its owner's name and whether the viewer may lay off on it now."""

    meld: TableMeld
    owner: str
    can_lay_off: bool


@dataclass(frozen=True)
class ScoreRow:
    """One finished hand on the score sheet: penalties per seat and how it ended."""

    deal: int
    penalties: list[int]
    outcome: str


def _show_keys(keys: list[str]) -> str:
    return " ".join(show(parse_card(key)) for key in keys)


def describe_event(event: dict, names: list[str]) -> str:
    """One public event in words, e.g. "Ana discarded 7♣". Never names a card drawn from the stock."""
    who = names[event["seat"]] if "seat" in event else ""
    kind = event["type"]
    if kind == "draw_stock":
        return f"{who} drew from the stock."
    if kind == "take_discard":
        return f"{who} took {_show_keys([event['card']])} from the discard pile."
    if kind == "lay_meld":
        return f"{who} laid down {_show_keys(event['cards'])}."
    if kind == "lay_off":
        return f"{who} laid off {_show_keys(event['cards'])}."
    if kind == "discard":
        return f"{who} discarded {_show_keys([event['card']])}."
    if kind == "stock_rebuilt":
        return "The discard pile was shuffled into a new stock."
    if kind == "stock_exhausted":
        return "The stock is used up: the hand ends after this turn."
    if kind == "hand_over":
        winner = event["winner"]
        ending = "ended in a stalemate" if winner is None else f"is over: {names[winner]} went out"
        rummy = " (rummy: penalties doubled)" if event.get("rummy") else ""
        return f"Hand {event['deal']} {ending}{rummy}."
    if kind == "new_deal":
        return f"Hand {event['deal']} dealt by {names[event['dealer']]}."
    if kind == "game_over":
        return "The game is over."
    return kind


def describe_move(move: Move, names: list[str]) -> list[str]:
    """Every event of ``move`` in words."""
    return [describe_event(event, names) for event in move.events]


def board_context(board: Board, hand_sort: str) -> dict:
    """Template context for ``games/_board.html`` from ``board`` (see module docstring)."""
    game, view = board.game, board.view
    names = [seat.name for seat in board.seats]
    context: dict = {"game": game, "board": board, "view": view, "names": names, "hand_sort": hand_sort,
                     "my_seat": board.seat, "your_turn": False}
    if view is None:
        context["title"] = f"{game} \u2014 waiting for players"
        return context
    legal = view.legal_actions
    lay_off_melds = {action.meld for action in legal if isinstance(action, LayOff)}
    discardable = {action.card for action in legal if isinstance(action, Discard)}
    order = sort_by_rank if hand_sort == "rank" else sort_by_suit
    your_turn = bool(legal)
    context.update({
        "your_turn": your_turn,
        "legal_types": {action.type for action in legal},
        "can_meld": any(isinstance(action, LayMeld) for action in legal),
        "seats": [SeatPanel(seat.position, seat.name, seat.is_bot, board.seat is not None and seat.pk == board.seat.pk,
                            view.turn == seat.position and view.phase != Phase.GAME_OVER,
                            view.dealer == seat.position, view.hand_sizes[seat.position],
                            view.totals[seat.position], seat.place) for seat in board.seats],
        "hand": [HandCard(c, c.key in discardable) for c in order(list(view.hand))],
        "melds": [MeldPanel(m, names[m.owner], m.id in lay_off_melds) for m in view.melds],
        "moves": [(move.ply, line) for move in board.last_moves for line in reversed(describe_move(move, names))],
        "score_sheet": [ScoreRow(r["deal"], r["penalties"],
                                 "stalemate" if r["winner"] is None else f"{names[r['winner']]} went out")
                        for r in board.results],
        "finished": game.status == Game.Status.FINISHED,
        "turn_name": names[view.turn],
        "title": f"Your turn \u2014 {game}" if your_turn else str(game),
    })
    return context
