"""The one writer of the records app's rows: it hears of a game finished (``games.hooks.game_finished``,
sent by the move that ends it) and of a game voided by a moderator (``games.hooks.game_voided``)."""
from __future__ import annotations

from games.models import Game, Seat

from . import ratings
from .models import PlayerResult


def record_finished_game(game: Game, seats: list[Seat]) -> list[PlayerResult]:
    """Write one PlayerResult per person seated at the just-finished ``game`` and, when the game
    is rated (``ratings.unrated_reason``), update their ratings.

    Runs inside the transaction that finishes the game, so a game is recorded exactly when it
    finishes. ``seats`` are the game's seats with their final ``place`` and ``total``. Returns the
    rows written.
    """
    reason = ratings.unrated_reason(seats, ratings.moves_by_actor(game))
    rated = reason == PlayerResult.UnratedReason.NONE
    results = PlayerResult.objects.bulk_create(
        PlayerResult(game=game, user_id=seat.user_id, variant=game.variant, position=seat.position,
                     place=seat.place, players=game.players, total=seat.total, finished_at=game.finished_at,
                     is_private=game.is_private, rated=rated, unrated_reason=reason)
        for seat in seats if seat.user_id)
    if rated:
        ratings.rate_game(game, seats)
    return results


def void_game_record(game: Game) -> list[int]:
    """Make the voided ``game`` count for nothing: delete its PlayerResult rows, so it leaves
    every match history, profile statistic and recent-games list (which read those rows alone),
    and undo its rating effect (``ratings.unrate_game``: ratings rebuilt as if it had never been
    rated). The game's own rows (seats, standings, moves) stay on record.

    Runs inside the moderator's transaction that voids the game. Returns the ids of the users
    whose ratings were rebuilt (empty for an unrated game).
    """
    PlayerResult.objects.filter(game=game).delete()
    return ratings.unrate_game(game)


def on_game_finished(sender, game: Game, seats: list[Seat], **kwargs) -> None:
    """Receiver of ``games.hooks.game_finished``: ``record_finished_game``."""
    record_finished_game(game, seats)


def on_game_voided(sender, game: Game, **kwargs) -> None:
    """Receiver of ``games.hooks.game_voided``: ``void_game_record``."""
    void_game_record(game)
