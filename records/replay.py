"""Rebuild any point of a game from its seed and move log, and decide what a viewer may see of it.

A game's engine state after its first ``step`` moves is ``GameState.new(variant, players, seed)``
with those moves applied through ``GameState.apply``: the same engine that played them. What a
viewer sees of that state follows one rule (issue 8, "replay viewer"): while the game is in play a
player sees only their own seat's ``player_view`` (a spectator sees none), and only up to the
latest move; once the game is finished every hand and the stock are face up.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.engine.actions import action_from_json
from games.engine.state import DealState, GameState
from games.engine.variants import make_variant
from games.models import Game


@dataclass(frozen=True)
class LoggedMove:
    """A move of the log as the replay needs it: ``step`` counts from 1 in ply order; ``seat`` is
    the seat position; ``action`` and ``events`` are the stored JSON."""

    step: int
    ply: int
    deal: int
    seat: int
    actor: str
    action: dict
    events: list


def logged_moves(game: Game) -> list[LoggedMove]:
    """Every move of ``game`` in ply order (one query)."""
    rows = game.moves.order_by("ply").values_list("ply", "deal_number", "seat__position", "actor", "action", "events")
    return [LoggedMove(step, *row) for step, row in enumerate(rows, start=1)]


def new_state(variant: str, options: dict, players: int, seed: str) -> GameState:
    """The state of a game before its first move (its first deal dealt)."""
    return GameState.new(make_variant(variant, options), players, seed)


def replay(game: Game, moves: list[LoggedMove], step: int) -> tuple[GameState, DealState | None]:
    """The state of ``game`` after its first ``step`` moves, and the final position of a deal that
    the ``step``-th move ended (None otherwise).

    Raises IllegalAction if a logged move no longer applies (a corrupted log)."""
    state = new_state(game.variant, game.options, game.players, game.seed)
    for move in moves[:step]:
        state, _ = state.apply(move.seat, action_from_json(move.action))
    return state, state.ended_deal if step else None


@dataclass
class ReplayLog:
    """What one pass over the whole log finds: each deal as dealt (before its first move), by deal
    number, and the card each stock draw took, by step (secret until the game is over)."""

    dealt: dict[int, DealState]
    drawn: dict[int, str]


def replay_log(game: Game, moves: list[LoggedMove]) -> ReplayLog:
    """Replay the whole log of ``game`` once (see ReplayLog)."""
    state = new_state(game.variant, game.options, game.players, game.seed)
    log = ReplayLog({state.deal.number: state.deal}, {})
    for move in moves:
        before = state.deal
        state, _ = state.apply(move.seat, action_from_json(move.action))
        if move.action.get("type") == "draw_stock":
            log.drawn[move.step] = before.stock[-1].key
        log.dealt.setdefault(state.deal.number, state.deal)
    return log
