"""Explicit factories for the Django-side tests: users, tables and started games, built through the
real service functions (``games.services``), plus helpers to read a game back and to drive it over HTTP.

Typical use::

    game = make_started_game(players=2, seed="errors")
    mover = seat_to_move(game)
    before = snapshot(game)
    response = post_move(login(mover.user), game, {"type": "draw_stock"}, version=game.version)
    assert snapshot(game) != before

Nothing here is a pytest fixture: every test builds what it needs and says so.
"""
from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from html import escape

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import services, store
from games.engine.bots import chooser
from games.engine.state import DealState, GameState
from games.errors import Refusal
from games.models import Card, Deal, Game, Meld, Move, Seat

PASSWORD = "felt-table-4-rummy"
_user_numbers = itertools.count(1)


def make_user(name: str | None = None, *, password: str = PASSWORD):
    """Create and return an active user called ``name`` (a fresh ``player<n>`` when omitted)
    with password ``password`` and an e-mail address ``<name>@example.com``."""
    name = name or f"player{next(_user_numbers)}"
    return get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=password)


def make_table(creator=None, *, players: int = 2, is_private: bool = False, options: dict | None = None,
               seed: str | None = None, creator_plays: bool = True, variant: str = "standard",
               **clock) -> Game:
    """Open a table of ``variant`` (Standard Rummy by default) through ``services.create_table``.

    ``creator`` defaults to a new user; with ``creator_plays`` the creator holds seat 0. ``clock``:
    ``time_per_move`` (seconds) and ``absence_stops_clock``, passed on.
    """
    creator = creator or make_user()
    return services.create_table(creator, variant=variant, players=players, is_private=is_private,
                                 options=options, creator_plays=creator_plays, seed=seed, **clock)


def computer_game(variant: str, seed: str, *levels: str) -> Game:
    """A started game of ``variant`` whose seats all go to computer players of ``levels``, in order."""
    host = make_user()
    game = services.create_table(host, variant=variant, players=len(levels), is_private=True, creator_plays=False,
                                 seed=seed)
    for level in levels:
        services.add_computer_player(host, game.pk, level)
    services.start_game(host, game.pk)
    return Game.objects.get(pk=game.pk)


def make_started_game(players: int = 2, humans: int | Sequence | None = None, seed: str = "factory",
                      *, is_private: bool = False, options: dict | None = None,
                      play_computers: bool = True, variant: str = "standard", **clock) -> Game:
    """Create, fill and start a game of ``variant`` (Standard Rummy by default) through the real
    services and return it (refreshed from the database).

    Args:
        players: seats at the table (2-4).
        humans: how many seats people hold (an int, default all of them), or the users themselves
            (a sequence of users or user names, created when given as names). People take seats
            0..h-1 in order (the first one opens the table); computer players fill the rest. With
            0 humans a non-playing host opens the table, as ``manage.py simulate`` does.
        seed: the game seed (``create_table(seed=...)``), so the deal is reproducible.
        is_private / options / clock (``time_per_move``, ``absence_stops_clock``): table settings
            passed to ``create_table``.
        play_computers: after dealing, run the due jobs (``run_due_jobs``: computer seats move)
            until a person is to move, as the worker does after the start view.
    """
    if humans is None:
        humans = players
    if isinstance(humans, int):
        people = [make_user() for _ in range(humans)]
    else:
        people = [make_user(h) if isinstance(h, str) else h for h in humans]
    if len(people) > players:
        raise ValueError(f"{len(people)} humans do not fit {players} seats")
    host = people[0] if people else make_user()
    game = make_table(host, players=players, is_private=is_private, options=options, seed=seed,
                      creator_plays=bool(people), variant=variant, **clock)
    for person in people[1:]:
        services.join_table(person, game.pk, game.invite_code)
    for _ in range(players - len(people)):
        services.add_computer_player(host, game.pk)
    services.start_game(host, game.pk)
    if play_computers:
        run_due_jobs()
    game.refresh_from_db()
    return game


def run_due_jobs(limit: int = 100_000) -> int:
    """Run every background job that is due now (``run_after`` passed), and the jobs those queue
    that are due too, through django-tasks-db's own ``Worker.run_task`` as ``manage.py db_worker``
    does, in this thread and transaction; returns how many ran. The clock is the test's
    (time-machine moves it). Raises AssertionError if ``limit`` jobs ran (a runaway chain).
    A failed job is re-raised, so a test sees the error."""
    from django_tasks_db.management.commands.db_worker import Worker
    from django_tasks_db.models import DBTaskResult

    worker = Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False,
                    max_tasks=None, worker_id="tests-inline", excluded_queue_names=[])
    ran = 0
    while ran < limit:
        with transaction.atomic():
            job = DBTaskResult.objects.ready().get_locked()
            if job is None:
                return ran
            job.claim(worker.worker_id)
        worker.run_task(job)
        job.refresh_from_db()
        if job.status == "FAILED":
            raise AssertionError(f"job {job.task_path} failed: {job.traceback}")
        ran += 1
    raise AssertionError(f"more than {limit} jobs ran")


def seats_of(game: Game) -> list[Seat]:
    """The seats of ``game`` in position order, with their users."""
    return list(Seat.objects.filter(game=game).select_related("user").order_by("position"))


def current_deal(game: Game) -> Deal | None:
    """The latest Deal row of ``game`` (None before the first deal)."""
    return Deal.objects.filter(game=game).order_by("-number").first()


def seat_to_move(game: Game) -> Seat:
    """The seat whose turn it is in ``game``'s current deal (read from the Deal row's ``turn``).

    Raises ValueError when the game has not been dealt.
    """
    deal = current_deal(game)
    if deal is None:
        raise ValueError(f"game {game.pk} has not been dealt")
    return Seat.objects.select_related("user").get(game=game, position=deal.turn)


def load_state(game: Game) -> GameState:
    """The engine state of ``game`` rebuilt from its rows by ``games.store``."""
    return store.load_state(store.load_rows(Game.objects.get(pk=game.pk)))


def put_position(game: Game, deal: DealState) -> None:
    """Write ``deal`` (an engine DealState, e.g. built with ``tests/engine/builders.wild``) over the
    current deal of ``game`` through ``store.save_state``, so a test can start from an exact
    position. The Deal row keeps its number and seed; the card places, melds (with what their
    wilds stand for), turn, phase, wild rank and pending cards become ``deal``'s.

    The game row is locked first, as the services lock it for a move, so a computer turn that a
    live job worker plays meanwhile is either wholly before the position or refused after it."""
    with transaction.atomic():
        rows = store.load_rows(services.lock_game(game.pk))
        before = store.load_state(rows)
        after = before.copy()
        after.deal = replace(deal, number=before.deal.number, seed=before.deal.seed)
        store.save_state(rows, before, after)
        # Melds the computer laid before the position was put keep their rows: align them.
        for meld in after.deal.melds:
            Meld.objects.filter(deal=rows.deal, number=meld.id).update(kind=meld.shape.kind,
                                                                      owner=rows.seats[meld.owner],
                                                                      is_contract=meld.contract)
        Meld.objects.filter(deal=rows.deal).exclude(number__in=[m.id for m in after.deal.melds]).delete()
    game.refresh_from_db()


def snapshot(game: Game) -> dict:
    """A comparable dump of every row that belongs to ``game``.

    Keys: ``game`` (all Game fields, including version and status), ``seats``, ``deals``,
    ``cards`` (code, copy, location, position, seat_id, meld_id and ids), ``melds`` and ``moves``;
    each a list of dicts of all field values in a fixed order, so ``snapshot(g) == snapshot(g)``
    exactly when nothing was written.
    """
    pk = game.pk
    return {
        "game": list(Game.objects.filter(pk=pk).values()),
        "seats": list(Seat.objects.filter(game_id=pk).order_by("position").values()),
        "deals": list(Deal.objects.filter(game_id=pk).order_by("number").values()),
        "cards": list(Card.objects.filter(deal__game_id=pk).order_by("deal_id", "code", "copy").values(
            "id", "deal_id", "code", "copy", "location", "position", "seat_id", "meld_id", "stands_for")),
        "melds": list(Meld.objects.filter(deal__game_id=pk).order_by("deal_id", "number").values()),
        "moves": list(Move.objects.filter(game_id=pk).order_by("ply").values()),
    }


SESSION_STATEMENTS = 0 if settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db" else 1
"""SQL statements a signed-in request spends on its session: none where Redis caches the sessions
(production and CI, ``REDIS_URL`` set), one where the database alone keeps them."""


def login(user) -> Client:
    """A django test Client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def move_url(game: Game | int) -> str:
    """``/games/<id>/move``."""
    return reverse("game_move", args=[getattr(game, "pk", game)])


def move_fields(action: dict, version: int | None) -> dict:
    """The play form's fields (``games.forms.move_payload``) for an engine action in JSON form.

    ``draw_stock``/``take_discard`` -> ``action``; ``lay_meld`` -> ``action`` + ``cards``;
    ``lay_off`` -> ``lay_off_on`` + ``cards``; ``discard`` -> ``action`` + one ``cards`` value;
    a meld or lay-off with declared ``wilds`` -> ``reading`` + ``cards``; ``swap_wild`` -> ``swap``;
    ``lay_contract`` -> ``action`` + ``groups`` + ``group:<key>`` per card + ``stands:<key>`` per declared wild;
    Frayzy's ``play_action`` -> ``play_card`` (+ ``target``); ``choose_target`` -> ``choose_target``.
    ``version`` None leaves the version field out.
    """
    kind = action["type"]
    if kind == "lay_contract":
        fields = {"action": kind, "groups": str(len(action["groups"]))}
        fields.update({f"group:{key}": str(n) for n, group in enumerate(action["groups"], start=1) for key in group})
        fields.update({f"stands:{key}": code for key, code in action.get("wilds", {}).items()})
        return {**fields, **({"version": str(version)} if version is not None else {})}
    if kind == "lay_off":
        fields = {"lay_off_on": str(action["meld"]), "cards": list(action["cards"])}
    elif kind == "discard":
        fields = {"action": "discard", "cards": [action["card"]]}
    elif kind == "lay_meld":
        fields = {"action": "lay_meld", "cards": list(action["cards"])}
    elif kind == "swap_wild":
        fields = {"swap": f"{action['meld']}:{action['card']}:{action.get('wild') or ''}"}
    elif kind == "play_action":
        fields = {"play_card": action["card"], **({"target": str(action["target"])} if "target" in action else {})}
    elif kind == "choose_target":
        fields = {"choose_target": str(action["target"])}
    else:
        fields = {"action": kind}
    if action.get("wilds") and kind in ("lay_meld", "lay_off"):
        declared = ",".join(f"{key}={code}" for key, code in action["wilds"].items())
        fields = {"reading": f"{action['meld'] if kind == 'lay_off' else '-'}/{declared}",
                  "cards": list(action["cards"])}
    if version is not None:
        fields["version"] = str(version)
    return fields


def post_move(client: Client, game: Game | int, action: dict, version: int | None, *, htmx: bool = False):
    """POST ``action`` (engine JSON) to the move URL as the play form would; returns the response.

    With ``htmx`` the request carries ``HX-Request: true`` and gets the board fragment back.
    """
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(move_url(game), move_fields(action, version), headers=headers)


def data_version(html: str) -> int | None:
    """The ``data-version`` of the board in ``html``, or None when there is none."""
    found = re.search(r'data-version="(\d+)"', html)
    return int(found.group(1)) if found else None


def hand_keys(game: Game, seat: Seat) -> set[str]:
    """Keys of the cards ``seat`` holds in ``game``'s current deal (read from the Card rows)."""
    return {_key(code, copy) for code, copy in
            Card.objects.filter(deal=current_deal(game), location=Card.Location.HAND, seat=seat)
            .values_list("code", "copy")}


def stock_keys(game: Game) -> set[str]:
    """Keys of the cards in the stock of ``game``'s current deal."""
    return {_key(code, copy) for code, copy in
            Card.objects.filter(deal=current_deal(game), location=Card.Location.STOCK).values_list("code", "copy")}


def _key(code: str, copy: int) -> str:
    return code if copy == 0 else f"{code}~{copy}"


def moves_by(game: Game, actor: str) -> Iterable[Move]:
    """Move rows of ``game`` made by ``actor`` ("player" or "computer"), in ply order."""
    return Move.objects.filter(game=game, actor=actor).order_by("ply")


def play_moves(game: Game, count: int | None = None, *, until=None, seed: str = "play") -> int:
    """Play moves in ``game`` through the services, each chosen by the variant's computer player
    (``bots.chooser``) for the seat to move: people's seats through ``services.submit_move`` (as
    that user, at the current version), computer seats through ``services.play_computer_turn`` (in
    a live test the job worker may play a computer's turn first, even between reading the version
    and the board; that move is not counted and the person's move is chosen again).

    Stops after ``count`` moves, when ``until(game)`` is true (checked before each move, ``game``
    refreshed), or when the game is no longer active. Returns the number of moves made.
    """
    rng = random.Random(seed)
    made = 0
    while count is None or made < count:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or (until is not None and until(game)):
            break
        state = load_state(game)
        seat = Seat.objects.select_related("user").get(game=game, position=state.deal.turn)
        if seat.is_bot:
            version = game.version
            if not services.play_computer_turn(game.pk):
                game.refresh_from_db()
                if game.version == version:
                    raise AssertionError(f"computer seat {seat.position} did not move in game {game.pk}")
                continue  # a live test's job worker played that turn first
        else:
            action = chooser(state.variant)(state.player_view(seat.position), rng)
            try:
                services.submit_move(seat.user, game.pk, game.version, action.to_json())
            except Refusal as refusal:
                if refusal.code != "stale_version":
                    raise
                continue  # a live test's job worker moved the game on after ``game`` was read
        made += 1
    game.refresh_from_db()
    return made


def assert_move_refused(game: Game, action: dict, status: int, code: str, text: str) -> str:
    """POST ``action`` (htmx) as the seat to move and check the refusal: ``status``, the error code and
    ``text`` on the page, and every row of the game unchanged. Returns the response body."""
    seat = seat_to_move(game)
    before = snapshot(game)
    response = post_move(login(seat.user), game, action, game.version, htmx=True)
    body = response.content.decode()
    assert response.status_code == status, body[:1500]
    assert f'data-error-code="{code}"' in body and escape(text) in body, body[:3000]
    assert snapshot(game) == before
    return body
