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


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a second connection committing mid-read needs "
                    "PostgreSQL (SQLite's read would hold its database lock)")
@pytest.mark.django_db(transaction=True)
def test_a_move_committed_between_the_reads_of_a_choice_does_not_mix_two_positions(monkeypatch):
    """Another connection commits the same turn after the computer has read the game and its deal
    and before it reads the deal's cards: the bot is still shown the position of one commit (the
    one it read first), and its choice is dropped as stale. Read without one snapshot, the deal row
    came from one commit and the cards from the next (a browser test's job worker and the test's
    own computer turns met that way, and the bot was shown a finished deal with no legal action)."""
    game = computer_game("standard", "snapshot", "normal", "normal")
    rows = moves.store.load_rows(game)
    expected = moves.store.load_state(rows).player_view(rows.deal.turn)
    real_load_state, real_chooser = moves.store.load_state, moves.chooser
    started, commits, shown = [], [], []

    def commit_from_another_connection():
        def play():
            try:
                commits.append(services.play_computer_turn(game.pk, game.version))
            finally:
                connections.close_all()

        thread = threading.Thread(target=play)
        thread.start()
        thread.join(timeout=10)

    def load_state(*args, **kwargs):
        if not started:
            started.append(True)
            commit_from_another_connection()
        return real_load_state(*args, **kwargs)

    def chooser(variant, level):
        choose = real_chooser(variant, level)

        def watched(view, rng, memory=None):
            shown.append(view)
            return choose(view, rng, memory)

        return watched

    monkeypatch.setattr(moves.store, "load_state", load_state)
    monkeypatch.setattr(moves, "chooser", chooser)
    assert not services.play_computer_turn(game.pk, game.version)
    assert commits == [True]
    assert shown[-1] == expected
    assert Move.objects.filter(game=game).count() == 1
