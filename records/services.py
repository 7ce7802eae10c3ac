"""The one writer of the records app's rows: called by ``games.services`` when a game finishes."""
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
