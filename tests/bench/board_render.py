"""How much CPU drawing the board fragment (``games/_board.html``) costs, per board, in milliseconds.

Builds a few representative boards in a throwaway SQLite test database (Standard Rummy two-handed
with melds on the table, Wild Rummy at four seats, Frustration Rummy at two before the contracts
and at three later on, Frayzy at three),
reads each once with ``services.access_board`` as a seated player would, then draws it as the
board view does (``presenters.board_context``, then ``games/_board.html`` with the request's
context processors) many times, timing each with ``time.process_time``. The clock is frozen while
the boards are built and drawn, so the HTML is the same from run to run. Prints, per board and
viewer (the player to move, the player waiting), the median milliseconds of the whole draw and of
the template alone; writes every board's HTML (CSRF tokens blanked) to the file given, so that two
versions of the templates can be compared byte for byte::

    DJANGO_DEBUG=0 SECRET_KEY=$(python -c 'print("x" * 50)') SECURE_SSL_REDIRECT=0 \\
        .venv/bin/python tests/bench/board_render.py /tmp/boards.html [--renders 300]

Run it from another checkout with that checkout first on ``PYTHONPATH`` to compare the two
(``cd /other && PYTHONPATH=/other .venv/bin/python /this/tests/bench/board_render.py ...``).
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
# The computer players move at once, as under pytest (settings.RUMMY_COMPUTER_PAUSE_SECONDS).
os.environ.setdefault("DJANGO_TESTING", "1")
sys.path.insert(0, os.getcwd())

import django  # noqa: E402

django.setup()

import time_machine  # noqa: E402
from django.db import connection  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games import services  # noqa: E402
from games.engine.state import Phase  # noqa: E402
from games.models import Game, Meld  # noqa: E402
from games.presenters import board_context  # noqa: E402
from games.views import STOPPED  # noqa: E402
from tests.factories import load_state, make_started_game, play_moves, seat_to_move, seats_of  # noqa: E402

FROZEN_AT = "2026-03-02 10:00:00+00:00"
TEMPLATE = "games/_board.html"
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _in_play(game: Game) -> bool:
    return load_state(game).deal.phase == Phase.PLAY


def _melds(count: int):
    return lambda game: Meld.objects.filter(deal__game=game).count() >= count


def build_boards() -> list[tuple[str, Game]]:
    """The boards measured, each stopped where a person is to play (drawn, before the discard)."""
    boards = []
    for name, variant, players, moves, until in (
        ("standard 2p, melds", "standard", 2, 200, _melds(2)),
        ("wild 4p", "wild", 4, 30, None),
        ("frustration 2p, contract", "frustration", 2, 0, None),
        ("frustration 3p", "frustration", 3, 40, None),
        ("frayzy 3p", "frayzy", 3, 30, None),
    ):
        seed = f"board-render-{name}"
        game = make_started_game(players=players, seed=seed, variant=variant)
        play_moves(game, moves, until=until, seed=seed)
        play_moves(game, 20, until=_in_play, seed=seed)
        boards.append((name, game))
    return boards


def draw(request, board) -> tuple[str, float, float]:
    """The board fragment of ``board`` as the board view draws it, with the CPU seconds of the
    whole draw and of the template alone."""
    start = time.process_time()
    context = board_context(board, "suit")
    context["stopped"] = board.game.status in STOPPED
    middle = time.process_time()
    html = render_to_string(TEMPLATE, context, request)
    end = time.process_time()
    return html, end - start, end - middle


def measure(game: Game, renders: int) -> list[tuple[str, str, float, float]]:
    """For the player to move and a player waiting at ``game``: (viewer, HTML, median ms of the
    whole draw, median ms of the template)."""
    mover = seat_to_move(game)
    waiting = next(seat for seat in seats_of(game) if seat.pk != mover.pk and not seat.is_bot)
    results = []
    for viewer, seat in (("to move", mover), ("waiting", waiting)):
        board = services.access_board(seat.user, game.pk)
        request = RequestFactory().get(f"/games/{game.pk}/board", headers={"HX-Request": "true"})
        request.user = seat.user
        with CaptureQueriesContext(connection) as queries:
            html, _, _ = draw(request, board)
        if queries.captured_queries:
            raise AssertionError(f"drawing the board ran {len(queries.captured_queries)} queries")
        wholes, templates = [], []
        for _ in range(renders):
            _, whole, template = draw(request, board)
            wholes.append(whole)
            templates.append(template)
        results.append((viewer, CSRF_TOKEN.sub('name="csrfmiddlewaretoken" value=""', html),
                        statistics.median(wholes) * 1000, statistics.median(templates) * 1000))
    return results


def main() -> None:
    """Build the boards, draw each many times, print the medians and write the HTML."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html", type=Path, help="file the boards' HTML is written to")
    parser.add_argument("--renders", type=int, default=300, help="draws timed per board and viewer")
    arguments = parser.parse_args()
    creation = connection.creation
    test_database = creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with time_machine.travel(FROZEN_AT, tick=False):
            pages = []
            for name, game in build_boards():
                for viewer, html, whole, template in measure(game, arguments.renders):
                    print(f"{name:26} {viewer:8} draw {whole:6.2f} ms  template {template:6.2f} ms")
                    pages.append(f"<!-- {name}, {viewer} -->\n{html}\n")
        arguments.html.write_text("".join(pages))
    finally:
        creation.destroy_test_db(test_database, verbosity=0)


if __name__ == "__main__":
    main()
