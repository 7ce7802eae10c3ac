"""The move benchmark behind ``manage.py bench_moves``: the real stack against its floor, in one run.

Each repeat runs three phases on 127.0.0.1, one after the other, with the same client and the same
number of connections (games x players, one keep-alive connection per player):

- **floor**: two daphne processes serving ``tests/bench/floor.py`` (one ``SELECT ... FOR UPDATE``
  and one ``UPDATE`` per POST); every connection POSTs in a loop to its game's row.
- **signed-in floor**: the same view behind the site's own settings, middleware, session and
  signed-in user, served by the site's ASGI application (``tests/bench/signed_in_floor.py``,
  ``signed-in/<row>`` in ``tests/bench/floor_urls.py``); every
  connection is a user of its own with its CSRF token. A move of the site is one POST and a re-fetch
  by each other player through that stack, so this phase's requests per second, divided by the
  players per game and by the floor's, is the ratio the site would reach if its game work (reads,
  rules, writes, the board's template, events) cost nothing: the ``ceiling``.
- **site**: two daphne processes serving the project with production settings (``DJANGO_DEBUG=0``,
  the same pool), one ``db_worker``, PostgreSQL and Redis. Every game is played by its players,
  whose connections alternate between the two servers: the player to move POSTs the move an htmx
  page would send (draw from the stock, lay the contract, a meld or a lay-off when the hand allows,
  else discard), and after each accepted move every other player re-fetches its board fragment, as
  its page does on the event. Moves are chosen on a copy of the game's engine state kept in this
  process (the engine is deterministic from the seed), so choosing costs the servers nothing.

Each phase stops after ``seconds`` or ``max_moves``. Reported per phase: requests or moves per
second, latency percentiles, statuses, the servers' CPU per move (both daphnes, from /proc), the
PostgreSQL connections of the database at peak and 10 s after the load (pg_stat_activity; the
benchmark's own left out), and the
site's ratio to the floor; before the load, the SQL statements of one move of each kind, counted
in this process through the test client (transaction control left out).
"""
from __future__ import annotations

import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import aiohttp
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services, store
from games.engine.actions import Discard, DrawStock, LayContract, LayMeld, LayOff
from games.engine.state import GameState
from tests.factories import move_fields
from tests.live_servers import CSRF_SECRET, session_of

BASE_DIR = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
SAMPLE_SECONDS = 0.25
REQUEST_TIMEOUT_SECONDS = 30
START_TIMEOUT_SECONDS = 60
UNEXPECTED = 299
"""The status a 200 answer is counted under when it is not the board the request should get."""
TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "SET TRANSACTION", "BEGIN",
                       "COMMIT", "ROLLBACK")


def lean_choice(view):
    """The move a benchmark player makes: draw from the stock, lay the contract, a meld or a
    lay-off when the hand allows, else discard; any other phase's first legal action."""
    legal = view.legal_actions
    for kind in (DrawStock, LayContract, LayMeld, LayOff, Discard):
        chosen = next((action for action in legal if isinstance(action, kind)), None)
        if chosen is not None:
            return chosen
    return legal[0]


def percentile(values: list[float], share: float) -> float:
    """The ``share`` (0-1) percentile of ``values``, nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def latency(values: list[float]) -> dict:
    return {f"p{p}_ms": round(percentile(values, p / 100) * 1000, 1) for p in (50, 95, 99)}


# ----- processes ---------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def production_env(**extra) -> dict:
    """The environment of a production process on this machine: this process's database (the test
    database under pytest), Redis and secret key (which signs the players' sessions),
    plain HTTP on the loopback, no rate limit on moves, e-mails that wait beyond the run."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "PYTEST"))}
    database = connection.settings_dict
    url = (f"postgres://{quote(database['USER'] or '')}:{quote(database['PASSWORD'] or '')}@{database['HOST']}:"
           f"{database['PORT'] or 5432}/{database['NAME']}")
    env.update(DJANGO_DEBUG="0", SECRET_KEY=settings.SECRET_KEY, ALLOWED_HOSTS=HOST, SECURE_SSL_REDIRECT="0",
               DATABASE_URL=url, REDIS_URL=settings.REDIS_URL, RUMMY_MOVE_RATE="1000000/m",
               RUMMY_EMAIL_GRACE_SECONDS="86400", DJANGO_LOG_LEVEL="WARNING", PYTHONPATH=str(BASE_DIR), **extra)
    return env


class Servers:
    """Daphne processes (and optionally a db_worker) started with ``production_env``, stopped on exit."""

    def __init__(self, application: str, count: int, app_dir: Path, *, worker: bool, **env):
        self.processes: list[subprocess.Popen] = []
        self.urls: list[str] = []
        self.env = production_env(**env)
        self.env["PYTHONPATH"] = f"{app_dir}{os.pathsep}{BASE_DIR}"
        daphne = str(Path(sys.executable).with_name("daphne"))
        for _ in range(count):
            port = free_port()
            self.processes.append(subprocess.Popen([daphne, "-b", HOST, "-p", str(port), "-v", "0", application],
                                                   cwd=app_dir, env=self.env, stdout=subprocess.DEVNULL))
            self.urls.append(f"http://{HOST}:{port}")
        self.servers = list(self.processes)
        if worker:
            self.processes.append(subprocess.Popen(
                [sys.executable, "manage.py", "db_worker", "--queue-name", "*", "--interval", "0.2", "--no-reload"],
                cwd=app_dir, env=self.env, stdout=subprocess.DEVNULL))

    def wait_until_listening(self, path: str) -> None:
        """Wait until every server answers ``path``; raises RuntimeError after 60 s or on an exit."""
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        for url, process in zip(self.urls, self.servers):
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server {url} did not start (exit {process.poll()})")
                try:
                    urllib.request.urlopen(url + path, timeout=2).close()
                    break
                except OSError as error:
                    if getattr(error, "code", None):
                        break
                    time.sleep(0.2)

    def cpu_seconds(self) -> float:
        """User and system CPU the servers have used so far (from /proc), in seconds."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for process in self.servers:
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        return total / ticks

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class ConnectionSampler:
    """Counts this database's PostgreSQL connections (pg_stat_activity, the benchmark's own left
    out) every 0.25 s in a thread: ``peak`` since start, ``now()`` on demand."""

    def __init__(self):
        self.peak = 0
        self.own: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.own.add(cursor.fetchone()[0])
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND NOT pid = ANY(%s)", [sorted(self.own)])
            return cursor.fetchone()[0]

    def _run(self):
        try:
            while not self._stop.wait(SAMPLE_SECONDS):
                self.peak = max(self.peak, self.now())
        finally:
            connections.close_all()

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


@contextmanager
def plain_connections():
    """Give this process plain connections meanwhile, so that none of its own sits idle in a pool
    where the connection count would see it."""
    connections.close_all()
    connection.close_pool()
    pool = connection.settings_dict["OPTIONS"].pop("pool")
    try:
        yield pool["max_size"]
    finally:
        connections.close_all()
        connection.settings_dict["OPTIONS"]["pool"] = pool


# ----- the games ---------------------------------------------------------------------------------

@dataclass
class Table:
    """One game of the run: its id, the players' sessions by seat, and the engine state copy."""

    game_id: int
    sessions: list[str]
    state: GameState
    version: int
    servers: list[int] = field(default_factory=list)


def make_tables(games: int, players: int, variant: str, seed: str) -> list[Table]:
    """Open, fill and start ``games`` tables of ``variant`` through the services, for fresh users
    (sessions made as ``force_login`` makes them)."""
    User = get_user_model()
    tables = []
    for number in range(games):
        people = [User.objects.create(username=f"bench-{seed}-{number}-{seat}", email=f"b{number}-{seat}@example.com")
                  for seat in range(players)]
        game = services.create_table(people[0], variant=variant, players=players, is_private=False,
                                     options={"target": 1000} if variant in ("standard", "frayzy") else None,
                                     seed=f"{seed}-{number}")
        for person in people[1:]:
            services.join_table(person, game.pk)
        services.start_game(people[0], game.pk)
        game.refresh_from_db()
        state = store.load_state(store.load_rows(game))
        tables.append(Table(game.pk, [session_of(person) for person in people], state, game.version,
                            [(number + seat) % 2 for seat in range(players)]))
    return tables


def resynchronise(table: Table) -> None:
    """Read the game's state and version back from the database (after a refused or failed move)."""
    from games.models import Game

    game = Game.objects.get(pk=table.game_id)
    table.state, table.version = store.load_state(store.load_rows(game)), game.version
    connections.close_all()


def count_statements(variant: str, seed: str, moves: int) -> dict:
    """SQL statements of each kind of move request and of the board re-fetch, through Django's test
    client in this process (transaction control left out), and the median CPU of each kind of move
    request here (client included): ``{"draw_stock": {"statements": [10], "cpu_ms_median": 9.1}, ...}``."""
    from django.test import Client

    table = make_tables(1, 2, variant, f"{seed}-statements")[0]
    clients = []
    for session in table.sessions:
        client = Client()
        client.cookies["sessionid"] = session
        clients.append(client)
    seen: dict[str, set[int]] = {}
    cpu: dict[str, list[float]] = {}
    for _ in range(moves):
        seat = table.state.deal.turn
        action = lean_choice(table.state.player_view(seat))
        started = time.process_time()
        with CaptureQueriesContext(connection) as captured:
            response = clients[seat].post(reverse("game_move", args=[table.game_id]),
                                          move_fields(action.to_json(), table.version), headers={"HX-Request": "true"})
        cpu.setdefault(action.type, []).append(time.process_time() - started)
        if response.status_code != 200:
            raise RuntimeError(f"move refused with {response.status_code}")
        seen.setdefault(action.type, set()).add(sum(1 for q in captured.captured_queries
                                                     if not q["sql"].startswith(TRANSACTION_CONTROL)))
        table.state, _ = table.state.apply(seat, action)
        table.version += 1
        with CaptureQueriesContext(connection) as captured:
            clients[1 - seat].get(reverse("game_board", args=[table.game_id]), headers={"HX-Request": "true"})
        seen.setdefault("board", set()).add(sum(1 for q in captured.captured_queries
                                                if not q["sql"].startswith(TRANSACTION_CONTROL)))
        if table.state.finished:
            break
    return {kind: {"statements": sorted(counts),
                   **({"cpu_ms_median": round(statistics.median(cpu[kind]) * 1000, 2)} if kind in cpu else {})}
            for kind, counts in seen.items()}


# ----- the load ----------------------------------------------------------------------------------

@dataclass
class Tally:
    """What a phase's clients saw."""

    move_seconds: list[float] = field(default_factory=list)
    board_seconds: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    moves: int = 0


def player_session(session: str) -> aiohttp.ClientSession:
    """A browser of one player: one keep-alive connection, its session cookie and CSRF token."""
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=1), cookie_jar=aiohttp.DummyCookieJar(),
        timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT_SECONDS),
        headers={"Cookie": f"sessionid={session}; csrftoken={CSRF_SECRET}", "X-CSRFToken": CSRF_SECRET,
                 "HX-Request": "true"})


async def timed(tally: Tally, request, kind: list[float], expect: str = "") -> int:
    """Send ``request``, note its time in ``kind`` and its status in the tally (0: no answer), and
    return the status; a 200 whose body lacks ``expect`` (e.g. a sign-in redirect) counts as 299."""
    started = time.perf_counter()
    try:
        async with request as response:
            body = await response.text()
            status = response.status
    except (TimeoutError, aiohttp.ClientError):
        status, body = 0, ""
    kind.append(time.perf_counter() - started)
    if status == 200 and expect not in body:
        status = UNEXPECTED
    tally.statuses[status] += 1
    return status


async def play(table: Table, urls: list[str], tally: Tally, stop_at: float, max_moves: int) -> None:
    """Play ``table`` until the phase ends: the player to move POSTs, the others re-fetch."""
    browsers = [player_session(session) for session in table.sessions]
    move_path, board_path = reverse("game_move", args=[table.game_id]), reverse("game_board", args=[table.game_id])
    try:
        while time.monotonic() < stop_at and tally.moves < max_moves and not table.state.finished:
            seat = table.state.deal.turn
            action = lean_choice(table.state.player_view(seat))
            fields = move_fields(action.to_json(), table.version)
            status = await timed(tally, browsers[seat].post(urls[table.servers[seat]] + move_path, data=fields),
                                 tally.move_seconds, f'data-version="{table.version + 1}"')
            if status != 200:
                await asyncio.to_thread(resynchronise, table)
                continue
            tally.moves += 1
            table.state, _ = table.state.apply(seat, action)
            table.version += 1
            await asyncio.gather(*(timed(tally, browsers[other].get(urls[table.servers[other]] + board_path),
                                         tally.board_seconds, f'data-version="{table.version}"')
                                   for other in range(len(browsers)) if other != seat))
    finally:
        await asyncio.gather(*(browser.close() for browser in browsers))


async def hammer(session: aiohttp.ClientSession, url: str, tally: Tally, stop_at: float, max_moves: int) -> None:
    """A floor client: POST to its row in a loop until the phase ends."""
    try:
        while time.monotonic() < stop_at and tally.moves < max_moves:
            if await timed(tally, session.post(url), tally.move_seconds, "ok") == 200:
                tally.moves += 1
    finally:
        await session.close()


def phase_figures(tally: Tally, seconds: float, cpu: float, sampler: ConnectionSampler, after: int, cap: int) -> dict:
    per_second = tally.moves / seconds if seconds else 0.0
    return {"per_second": round(per_second, 1), "moves": tally.moves, "seconds": round(seconds, 1),
            **latency(tally.move_seconds), "board": latency(tally.board_seconds) if tally.board_seconds else None,
            "statuses": {str(code): n for code, n in sorted(tally.statuses.items())},
            "server_errors": sum(n for code, n in tally.statuses.items() if code >= 500 or code == 0),
            "server_cpu_ms_per_move": round(cpu * 1000 / tally.moves, 2) if tally.moves else None,
            "pg_connections": {"peak": sampler.peak, "after_settle": after, "cap": cap}}


def run_phase(servers: Servers, start, seconds: float,
              settle: float) -> tuple[Tally, float, float, ConnectionSampler, int]:
    """Run the clients ``start(stop_at)`` makes while sampling connections; then wait ``settle``
    seconds and count the connections left. Returns (tally, seconds, server CPU, sampler, connections after)."""
    tally = Tally()
    with ConnectionSampler() as sampler:
        cpu_before, began = servers.cpu_seconds(), time.monotonic()
        asyncio.run(start(tally, began + seconds))
        elapsed, cpu = time.monotonic() - began, servers.cpu_seconds() - cpu_before
        time.sleep(settle)
        after = sampler.now()
    connections.close_all()
    return tally, elapsed, cpu, sampler, after


def floor_phase(games: int, players: int, seconds: float, max_moves: int, cap: int, settle: float, *,
                signed_in: str = "") -> dict:
    """Two daphnes serving the floor; games x players connections POSTing to their game's row.
    With ``signed_in`` (a seed for the users' names), the signed-in floor: the floor's view behind
    the site's stack, each connection a user of its own."""
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_floor")
        cursor.execute("CREATE TABLE bench_floor (id integer PRIMARY KEY, version integer NOT NULL)")
        cursor.execute("INSERT INTO bench_floor SELECT n, 0 FROM generate_series(0, %s) AS n", [games - 1])
    sessions = [session_of(get_user_model().objects.create(username=f"bench-{signed_in}-floor-{number}",
                                                           email=f"floor-{signed_in}-{number}@example.com"))
                if signed_in else "" for number in range(games * players)]
    connections.close_all()
    if signed_in:
        servers = Servers("rummy_site.asgi:application", 2, BASE_DIR, worker=False,
                          DJANGO_SETTINGS_MODULE="tests.bench.signed_in_floor")
    else:
        servers = Servers("tests.bench.floor:application", 2, BASE_DIR, worker=False,
                          DJANGO_SETTINGS_MODULE="tests.bench.floor")
    route = "signed-in" if signed_in else "floor"
    try:
        servers.wait_until_listening(f"/{route}/0")

        async def start(tally, stop_at):
            clients = [hammer(player_session(sessions[n * players + seat]),
                              f"{servers.urls[(n + seat) % 2]}/{route}/{n}", tally, stop_at, max_moves)
                       for n in range(games) for seat in range(players)]
            await asyncio.gather(*clients)

        tally, elapsed, cpu, sampler, after = run_phase(servers, start, seconds, settle)
    finally:
        servers.stop()
    return phase_figures(tally, elapsed, cpu, sampler, after, 2 * cap)


def site_phase(games: int, players: int, variant: str, seed: str, seconds: float, max_moves: int,
               app_dir: Path, cap: int, settle: float) -> dict:
    """Two daphnes and a worker serving the site; ``games`` games of ``players`` played at once."""
    tables = make_tables(games, players, variant, seed)
    connections.close_all()
    servers = Servers("rummy_site.asgi:application", 2, app_dir, worker=True)
    try:
        servers.wait_until_listening("/healthz")

        async def start(tally, stop_at):
            await asyncio.gather(*(play(table, servers.urls, tally, stop_at, max_moves) for table in tables))

        tally, elapsed, cpu, sampler, after = run_phase(servers, start, seconds, settle)
    finally:
        servers.stop()
    return phase_figures(tally, elapsed, cpu, sampler, after, 3 * cap)


def spread(values: list[float]) -> list[float]:
    return [round(min(values), 2), round(max(values), 2)]


def run(*, games: int, players: int, variant: str, seconds: float, max_moves: int, repeat: int, seed: str,
        app_dir: Path, statement_moves: int, settle: float = 10.0) -> dict:
    """The whole benchmark: statements per move, then ``repeat`` times the floor, the signed-in
    floor and the site, each phase followed by ``settle`` seconds before the connections are
    counted again."""
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        raise RuntimeError("bench_moves needs DATABASE_URL=postgres://... and REDIS_URL=redis://...")
    with plain_connections() as cap:
        seed = f"{seed}-{random.randrange(10**9)}"
        report = {"variant": variant, "games": games, "players": players, "connections": games * players,
                  "app_dir": str(app_dir), "cpu_count": os.cpu_count(), "load_average": os.getloadavg()[0]}
        if app_dir == BASE_DIR and statement_moves:
            report["statements"] = count_statements(variant, seed, statement_moves)
        runs = []
        for number in range(repeat):
            floor = floor_phase(games, players, seconds, max_moves, cap, settle)
            signed_in = floor_phase(games, players, seconds, max_moves, cap, settle, signed_in=f"{seed}-{number}")
            site = site_phase(games, players, variant, f"{seed}-{number}", seconds, max_moves, app_dir, cap, settle)
            ratio = site["per_second"] / floor["per_second"] if floor["per_second"] else None
            ceiling = signed_in["per_second"] / players / floor["per_second"] if floor["per_second"] else None
            runs.append({"floor": floor, "signed_in_floor": signed_in, "site": site,
                         "ratio": round(ratio, 3) if ratio is not None else None,
                         "ceiling": round(ceiling, 3) if ceiling is not None else None})
    report["runs"] = runs
    report["summary"] = {
        "floor_per_second": spread([r["floor"]["per_second"] for r in runs]),
        "signed_in_floor_per_second": spread([r["signed_in_floor"]["per_second"] for r in runs]),
        "ceiling": spread([r["ceiling"] or 0 for r in runs]),
        "site_moves_per_second": spread([r["site"]["per_second"] for r in runs]),
        "ratio": spread([r["ratio"] or 0 for r in runs]),
        "site_p95_ms": spread([r["site"]["p95_ms"] for r in runs]),
        "site_server_errors": sum(r["site"]["server_errors"] for r in runs),
        "site_pg_connections_peak": max(r["site"]["pg_connections"]["peak"] for r in runs),
        "site_pg_connections_after_settle": spread([r["site"]["pg_connections"]["after_settle"] for r in runs]),
        "median_server_cpu_ms_per_move": statistics.median(
            r["site"]["server_cpu_ms_per_move"] or 0 for r in runs),
    }
    return report
