"""Finished games for the records tests, made through the real services."""
from __future__ import annotations

from games import services
from games.models import Game
from tests.factories import make_started_game, make_user, play_moves

QUICK_OPTIONS = {"standard": {"target": 25}, "wild": None, "frustration": {"max_rounds": 14}, "frayzy": {"target": 25}}
"""Table options that end a game of each variant quickly (S15 and F18 targets, R16 round limit)."""


def computer_game(variant: str = "standard", players: int = 2, seed: str = "records", moves: int | None = None) -> Game:
    """A computer-only game of ``variant`` (as ``manage.py simulate`` makes it) with QUICK_OPTIONS,
    played to the end, or for ``moves`` computer turns."""
    host = make_user()
    game = services.create_table(host, variant=variant, players=players, is_private=False,
                                 options=QUICK_OPTIONS[variant], creator_plays=False, seed=seed)
    for _ in range(players):
        services.add_computer_player(host, game.pk)
    services.start_game(host, game.pk)
    made = 0
    while moves is None or made < moves:
        if services.play_computer_turn(game.pk):
            made += 1
            continue
        # Nothing applied: the game is over, or a job worker (browser tests run one) moved first
        # and this turn's choice was dropped as stale; play on from the new version.
        version = game.version
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or game.version == version:
            break
    game.refresh_from_db()
    return game


def people_game(variant: str = "standard", humans=2, players: int = 2, seed: str = "records",
                moves: int | None = None) -> Game:
    """A game of ``variant`` with QUICK_OPTIONS where people (``humans``: a count or users/names)
    hold the first seats and every move of theirs goes through ``services.submit_move`` (actor
    ``player``), played to the end or for ``moves`` moves."""
    game = make_started_game(players=players, humans=humans, seed=seed, options=QUICK_OPTIONS[variant],
                             variant=variant)
    play_moves(game, moves, seed=seed)
    return game
