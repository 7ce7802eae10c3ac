"""Recording an accepted change of a game: the one place its version is bumped."""
from __future__ import annotations

from django.db import transaction

from .. import hooks, notify, store
from ..models import Game, Seat


def record_change(game: Game, seats: list[Seat] | None = None, rows: store.LoadedGame | None = None,
                  mover: Seat | None = None) -> None:
    """Bump ``game``'s version for an accepted change, tell whoever hooks onto it
    (``hooks.change_accepted``: the turn clock's deadlines, queued computer moves and notices),
    save it, and send the "changed" event after commit. ``seats``: the game's seats in position
    order, if loaded; ``rows``: everything loaded for a move (``store.LoadedGame``), which spares
    the receivers their reads and whose seat changes, the move's and the receivers', are written
    here in one UPDATE (``store.save_seats``); ``mover``: the seat whose person moved, for a
    player's move."""
    game.version += 1
    hooks.change_accepted.send(sender=Game, game=game, seats=seats, rows=rows, mover=mover)
    if rows is not None:
        store.save_seats(rows)
    game.save()
    version = game.version
    transaction.on_commit(lambda: notify.game_changed(game.pk, version))
