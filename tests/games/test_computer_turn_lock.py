"""A computer turn chooses outside the game row's lock (issue 16): an expert's search can take a
good part of a second, and the row must stay free meanwhile; the move is applied under the lock
only if the game is still at the version the computer chose for."""
import threading

import pytest
from django.db import DatabaseError, connection, connections, transaction

from games import services
from games.models import Game, Move
from games.services import moves
from tests.factories import computer_game

pytestmark = pytest.mark.django_db


def wrap_chooser(monkeypatch, before_choosing):
    """Make every bot call ``before_choosing()`` first, then choose as it would."""
    real = moves.chooser

    def chooser(variant, level):
        choose = real(variant, level)

        def checked(view, rng, memory=None):
            before_choosing()
            return choose(view, rng, memory)

        return checked

    monkeypatch.setattr(moves, "chooser", chooser)


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks (FOR UPDATE NOWAIT) need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_the_game_row_is_not_locked_while_the_computer_chooses(monkeypatch):
    """While the bot chooses, another connection can lock the game row at once (NOWAIT)."""
    game = computer_game("standard", "unlocked", "expert", "normal")
    outcomes = []

    def lock_from_another_connection():
        def attempt():
            try:
                with transaction.atomic():
                    Game.objects.select_for_update(nowait=True).get(pk=game.pk)
                outcomes.append("free")
            except DatabaseError as error:
                outcomes.append(repr(error))
            finally:
                connections.close_all()

        thread = threading.Thread(target=attempt)
        thread.start()
        thread.join(timeout=10)

    wrap_chooser(monkeypatch, lock_from_another_connection)
    assert services.play_computer_turn(game.pk, game.version)
    assert outcomes == ["free"]
    assert Move.objects.filter(game=game).count() == 1


def test_a_choice_made_stale_by_a_move_meanwhile_is_dropped(monkeypatch):
    """A move lands while the computer is choosing (here: the same turn played by a second job);
    the first choice, made for the old version, is dropped, so the turn is played once."""
    game = computer_game("standard", "stale", "expert", "normal")
    nested = []

    def move_meanwhile():
        if not nested:
            nested.append(True)
            assert services.play_computer_turn(game.pk, game.version)

    wrap_chooser(monkeypatch, move_meanwhile)
    assert not services.play_computer_turn(game.pk, game.version)
    assert Move.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == game.version + 1
