"""Moves a person made stay theirs after a computer takes their seat: the game page's move log
and the record's move list name who made each move, and the log says when the seat changed hands."""
import re

import pytest

from games.models import Game, Move
from moderation import services as moderation
from tests.factories import login, make_started_game, play_moves, run_due_jobs

pytestmark = pytest.mark.django_db


def _left_game():
    game = make_started_game(players=3, humans=["alice", "bobby"], variant="frustration", seed="handover")
    bobby = game.seats.get(user__username="bobby")
    play_moves(game, until=lambda g: Move.objects.filter(game=g, seat=bobby, actor="player").count() >= 3)
    assert game.status == Game.Status.ACTIVE
    alice = game.seats.get(user__username="alice").user
    moderation.leave_game(bobby.user, game.pk)
    run_due_jobs()
    play_moves(game, until=lambda g: Move.objects.filter(game=g, seat=bobby, actor="computer").exists())
    bobby.refresh_from_db()
    return game, bobby, alice


def test_the_log_and_the_record_name_the_person_who_made_each_move():
    game, bobby, alice = _left_game()
    computer = f"Computer {bobby.position + 1} (normal)"
    made = list(Move.objects.filter(game=game, seat=bobby).order_by("ply").values_list("ply", "actor"))
    assert {actor for _, actor in made} == {"player", "computer"}

    client = login(alice)
    lines = re.findall(r'data-testid="move-line"><span class="move-seat">([^<]*)</span>',
                       client.get(f"/games/{game.pk}/record").content.decode())
    plies = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    by_ply = dict(zip(plies, lines, strict=True))
    for ply, actor in made:
        assert by_ply[ply] == ("bobby" if actor == "player" else computer)

    page = client.get(f"/games/{game.pk}/").content.decode()
    # The log numbers moves as the record does; a ply is a version and skips those of seat changes.
    logged = [int(n) for n in re.findall(r'<li value="(\d+)" data-ply=', page)]
    assert logged == list(range(len(plies), len(plies) - len(logged), -1))
    assert f"bobby left; {computer} took the seat." in page
