"""Benchmark: delay from a move's commit to the websocket event at the other player, on two daphne
processes sharing PostgreSQL and Redis (the scaled-out set-up). Prints figures; asserts nothing;
not collected by pytest.

Two people play Standard Rummy (moves chosen by the computer player for their seat). Each move is
POSTed to server B; both players' game websockets are connected to server A, where a reader thread
stamps each event's arrival. For every move the delay is measured from the Move row's
``created_at`` (written inside the move's transaction, a few milliseconds before its commit) to the
event's arrival at the other player's socket, and also from the start of the POST. A finished game
is replaced by a new one. Prints one JSON object with median, p95 and max in milliseconds.

Usage (a database of your own, never rummy_ci; the script migrates it):

    createdb -h 127.0.0.1 -U postgres rummy_async
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/rummy_async REDIS_URL=redis://127.0.0.1:6379/3 \\
        .venv/bin/python tests/bench/bench_event_latency.py --moves 200
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
os.environ["RUMMY_MOVE_RATE"] = "100000/m"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.urls import reverse  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from games import store  # noqa: E402
from games.engine.bots import chooser  # noqa: E402
from games.models import Game, Move  # noqa: E402
from tests.factories import make_started_game, make_user, move_fields, seats_of  # noqa: E402
from tests.live_servers import post_form, server_url, session_of, start_daphne  # noqa: E402

EVENT_TIMEOUT_SECONDS = 10


class Listener:
    """A game websocket on one server whose reader thread stamps every event's arrival:
    ``arrivals[version] = time.time()``."""

    def __init__(self, base_url: str, game_id: int, session: str):
        self.arrivals: dict[int, float] = {}
        self.arrived = threading.Condition()
        self.connection = connect(base_url.replace("http://", "ws://") + f"/ws/games/{game_id}/", origin=base_url,
                                  additional_headers={"Cookie": f"sessionid={session}"})
        self.socket = self.connection.__enter__()
        self.socket.recv()  # the greeting: the version at connect
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for raw in self.socket:
                stamp = time.time()
                with self.arrived:
                    self.arrivals[json.loads(raw)["version"]] = stamp
                    self.arrived.notify_all()
        except Exception:  # noqa: BLE001 - the socket closed
            return

    def wait_for(self, version: int) -> float:
        """Arrival time of the event for ``version``. Raises TimeoutError after 10 s."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: version in self.arrivals, timeout=EVENT_TIMEOUT_SECONDS):
                raise TimeoutError(f"no event for version {version}")
            return self.arrivals[version]

    def close(self):
        self.connection.__exit__(None, None, None)


def percentile(values: list[float], share: float) -> float:
    """The ``share`` (0-1) percentile of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def new_game(people, seed: str, server_a: str, sessions: dict):
    game = make_started_game(players=2, humans=people, seed=seed)
    listeners = {user.pk: Listener(server_a, game.pk, sessions[user.pk]) for user in people}
    return game, listeners


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    engine = settings.DATABASES["default"]["ENGINE"]
    if engine != "django.db.backends.postgresql" or not settings.REDIS_URL:
        sys.exit("set DATABASE_URL=postgres://... and REDIS_URL=redis://... (see the docstring)")
    call_command("migrate", verbosity=0)
    stamp = int(time.time())
    people = [make_user(f"bench-{name}-{stamp}") for name in ("a", "b")]
    sessions = {user.pk: session_of(user) for user in people}
    connections.close_all()
    servers = [start_daphne(), start_daphne()]
    server_a, server_b = (server_url(process) for process in servers)
    rng = random.Random(args.seed)
    from_commit, from_post = [], []
    games = 1
    game, listeners = new_game(people, f"{args.seed}-{games}", server_a, sessions)
    try:
        while len(from_commit) < args.moves:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                for listener in listeners.values():
                    listener.close()
                games += 1
                game, listeners = new_game(people, f"{args.seed}-{games}", server_a, sessions)
                continue
            state = store.load_state(store.load_rows(game))
            seats = seats_of(game)
            mover = seats[state.deal.turn]
            other = next(seat for seat in seats if seat.pk != mover.pk)
            action = chooser(state.variant)(state.player_view(mover.position), rng)
            version = game.version
            started = time.time()
            status = post_form(server_b + reverse("game_move", args=[game.pk]),
                               move_fields(action.to_json(), version), sessions[mover.user_id])
            if status != 302:
                raise RuntimeError(f"move refused with {status}: {action.to_json()}")
            arrived = listeners[other.user_id].wait_for(version + 1)
            written = Move.objects.get(game=game, ply=version).created_at.timestamp()
            from_commit.append((arrived - written) * 1000)
            from_post.append((arrived - started) * 1000)
    finally:
        for listener in listeners.values():
            listener.close()
        for process in servers:
            process.terminate()
            process.join(10)

    def figures(values):
        return {"median_ms": round(statistics.median(values), 1), "p95_ms": round(percentile(values, 0.95), 1),
                "max_ms": round(max(values), 1)}

    print(json.dumps({"moves": len(from_commit), "games": games, "servers": 2,
                      "commit_to_event": figures(from_commit), "post_to_event": figures(from_post)}))


if __name__ == "__main__":
    main()
