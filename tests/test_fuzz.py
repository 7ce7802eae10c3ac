"""Fuzz (issue 14): hypothesis sends requests to every URL of the site and malformed frames to both
websockets, and no request answers 5xx, no socket closes with 1011 and nothing is logged at ERROR.

Every URL pattern is enumerated from the resolver; each request picks one, fills its converters with
real ids and names or with junk (NUL, huge numbers, odd text), adds a query string and, for a POST,
form fields (moves, versions, cursors, table options, admin actions with bad ids...), with or
without htmx headers, as an anonymous visitor, a seated player, an outsider or a moderator.

``FUZZ_EXAMPLES`` (default 2000 requests) and ``FUZZ_FRAME_BATCHES`` (default 25 batches of 10-20
frames per socket) set the size; a longer run is e.g.
``FUZZ_EXAMPLES=20000 FUZZ_FRAME_BATCHES=250 .venv/bin/python -m pytest tests/test_fuzz.py``.
"""
from __future__ import annotations

import logging
import os
import re
from urllib.parse import quote, urlencode

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.models import Game, Seat
from moderation import services as moderation
from rummy_site.asgi import application
from tests.factories import login, make_started_game, make_table, make_user, play_moves
from tests.games.conftest import close_thread_connections  # noqa: F401 (fixture)
from tests.games.sockets import HOST, SILENCE
from tests.moderators import make_moderator
from tests.records.helpers import computer_game

REQUESTS = int(os.environ.get("FUZZ_EXAMPLES", "2000"))
FRAME_BATCHES = int(os.environ.get("FUZZ_FRAME_BATCHES", "25"))
FUZZ_SETTINGS = dict(deadline=None, database=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CONVERTER = re.compile(r"<(?:(?P<kind>[^>:]+):)?(?P<name>[^>]+)>")
SITE_WEIGHT = 3
NUMBERS = {"int", "id"}
"""Converters whose URL parts are drawn as numbers (other text would only ever be a 404)."""
LOGOUTS = {"account_logout", "logout"}
"""Sent as the anonymous visitor only, so the signed-in clients stay signed in for the whole run."""


def url_chains() -> list[tuple[tuple, str | None]]:
    """Every endpoint of the site: the chain of patterns from the root resolver to it, and its name.
    The site's own endpoints come ``SITE_WEIGHT`` times, so that the admin's many generic pages do
    not take most of the requests."""
    def walk(patterns, prefix):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, (*prefix, entry.pattern))
            elif isinstance(entry, URLPattern):
                yield (*prefix, entry.pattern), entry.name
    chains = list(walk(get_resolver().url_patterns, ()))
    assert len(chains) > 50, "the resolver was not walked"
    return [chain for chain in chains for _ in range(1 if str(chain[0][0]) == "admin/" else SITE_WEIGHT)]


JUNK = ["", "\x00", "a\x00b", "abc", "-1", "0", "1.5", " ", "null", "[]", "{}", "../..", "\u2603", "\u00b2",
        "\u0663", "1e9", "99999999999999999999999", "99999999999999999999999.1", "1.99999999999999999999999",
        "9" * 5000, "9" * 5000 + ".1", "x" * 20000, "\x00" * 100, "<script>", "%00", "%", "'; --"]
JUNK_KEYS = ["", "\x00", "x" * 300, "_selected_action", "version", "cards", "older"]
QUERY_KEYS = ["older", "newer", "step", "sort", "variant", "result", "opponent", "since", "until", "q", "o", "p",
              "e", "all", "next", "status__exact", "game__status__exact", "game__id__exact", "id__gte", "_popup",
              "_changelist_filters", "code", "level"]
FORM_KEYS = ["version", "action", "cards", "code", "level", "lay_off_on", "reading", "swap", "play_card", "target",
             "choose_target", "groups", "group:2C", "stands:JK", "reason", "reported_user", "_selected_action",
             "index", "apply", "select_across", "login", "password", "email", "username", "password1", "password2",
             "form", "starts_at", "ends_at", "variant", "players", "is_private", "time_per_move", "creator_plays",
             "absence_stops_clock", "email_turn", "quiet_start", "quiet_end", "time_zone", "csrfmiddlewaretoken",
             "seat", "deal", "sort", "remember"]


@st.composite
def numbers(draw, real: list[int]) -> str:
    """A number as URL or form text: a real id, a small or huge one, or one at the edge of a 32- or
    64-bit column (an admin selection past 64 bits once failed in SQLite)."""
    edges = [2**31 - 1, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 99999999999999999999999]
    return str(draw(st.one_of(st.sampled_from(real), st.integers(-3, 60), st.integers(0, 10**30),
                              st.sampled_from(edges))))


def values(real_ids: list[int], names: list[str]) -> st.SearchStrategy[str]:
    """Text for one URL part, query value or form value."""
    return st.one_of(numbers(real_ids), st.sampled_from(names), st.sampled_from(JUNK), st.text(max_size=40),
                     st.builds("{}.{}".format, st.integers(0, 10**25), st.integers(0, 10**25)))


@st.composite
def requests(draw, chains, clients, real_ids, names):
    """One request: ``(client, method, path, data, headers)``."""
    chain, name = draw(st.sampled_from(chains))
    value = values(real_ids, names)
    path = "/"
    for pattern in chain:
        text = str(pattern)
        if isinstance(pattern, RoutePattern):
            pieces = CONVERTER.split(text)
            path += "".join(
                piece if index % 3 == 0
                else quote(draw(numbers(real_ids) if pieces[index - 1] in NUMBERS else value), safe="")
                for index, piece in enumerate(pieces) if index % 3 != 1)
        else:
            path += quote(draw(st.from_regex(text, fullmatch=True)), safe="/")
    query = draw(st.dictionaries(st.sampled_from(QUERY_KEYS) | st.sampled_from(JUNK_KEYS), value, max_size=4))
    if query:
        path += "?" + urlencode(query)
    method = draw(st.sampled_from(["GET", "POST"]))
    data = {}
    if method == "POST":
        data = draw(st.dictionaries(st.sampled_from(FORM_KEYS) | st.sampled_from(JUNK_KEYS),
                                    st.lists(value, min_size=1, max_size=3), max_size=6))
    headers = {}
    if draw(st.booleans()):
        headers = {"HX-Request": "true", "HX-Current-URL": "http://testserver" + draw(st.sampled_from(["/", path]))}
    if name in LOGOUTS:
        client = clients["anonymous"]
    elif path.startswith("/admin/"):
        client = draw(st.sampled_from([clients["moderator"]] * 3 + list(clients.values())))
    else:
        client = draw(st.sampled_from(list(clients.values())))
    return client, method, path, data, headers


def errors_logged(caplog) -> list[str]:
    return [f"{record.name}: {record.getMessage()[:300]}"
            for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.django_db
def test_fuzzed_requests_to_every_url_never_answer_5xx(caplog):
    caplog.set_level(logging.ERROR)
    player, other, outsider = make_user("ana"), make_user("ben"), make_user("dan")
    game = make_started_game(players=2, humans=[player, other], seed="fuzz")
    play_moves(game, 2)
    waiting = make_table(make_user("cat"), players=3)
    private = make_table(other, players=2, is_private=True)
    finished = computer_game(seed="fuzz")
    moderator = make_moderator("mod")
    report = moderation.file_report(player, game.pk, "Stalling.", other.pk)
    game.refresh_from_db()
    seat_ids = list(Seat.objects.values_list("pk", flat=True))
    real_ids = sorted({game.pk, waiting.pk, private.pk, finished.pk, report.pk, player.pk, moderator.pk,
                       game.version, *seat_ids, 1, 2, 3})
    names = ["ana", "ben", "dan", "mod", private.invite_code, "standard", "wild", "frustration", "frayzy",
             "draw_stock", "discard", "abort", "remove_player", "suspend", "replace_with_computer", "void"]
    clients = {"anonymous": Client(), "player": login(player), "outsider": login(outsider),
               "moderator": login(moderator)}
    sent = []

    @settings(max_examples=REQUESTS, **FUZZ_SETTINGS)
    @given(requests(url_chains(), clients, real_ids, names))
    def answer_without_server_errors(request):
        caplog.clear()
        client, method, path, data, headers = request
        if method == "POST":
            response = client.post(path, data, headers=headers)
        else:
            response = client.get(path, headers=headers)
        sent.append(response.status_code)
        assert response.status_code < 500, (method, path, data, response.status_code)
        assert not errors_logged(caplog), errors_logged(caplog)

    answer_without_server_errors()
    assert len(sent) >= REQUESTS
    assert Game.objects.filter(pk=game.pk).exists()


FRAMES = st.one_of(
    st.text(min_size=1, max_size=200).map(lambda text: {"text_data": text}),
    st.binary(min_size=1, max_size=200).map(lambda data: {"bytes_data": data}),
    st.integers(1, 120_000).map(lambda depth: {"text_data": "[" * depth + "]" * depth}),
    st.integers(1, 120_000).map(lambda depth: {"text_data": '{"a":' * depth + "1" + "}" * depth}),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                 max_leaves=20).map(lambda content: {"json_data": content}),
    st.sampled_from(["ping", "sync", "game.changed", "", None, 1, ["ping"], "\x00"]).map(
        lambda kind: {"json_data": {"type": kind, "count": "x" * 10}}),
    st.sampled_from([{"text_data": "x" * 1_000_000}, {"text_data": "\ud800"}, {"text_data": "{\"type\": \"ping\""}]),
)


async def open_both(game_id: int, cookie: str) -> list[WebsocketCommunicator]:
    headers = [(b"origin", b"http://testserver"), (b"host", HOST), (b"cookie", f"sessionid={cookie}".encode())]
    sockets = [WebsocketCommunicator(application, path, headers=headers)
               for path in (f"/ws/games/{game_id}/", "/ws/user/")]
    for socket in sockets:
        assert await socket.connect(timeout=5) == (True, None)
        await socket.receive_json_from(timeout=5)
    return sockets


async def send_frames(game_id: int, cookie: str, frames: list[dict]) -> None:
    """Send ``frames`` on a fresh game socket and user socket; both must stay open (the user socket
    still answers a ping), and nothing they send may be a close."""
    sockets = await open_both(game_id, cookie)
    for socket in sockets:
        for frame in frames:
            if "json_data" in frame:
                await socket.send_json_to(frame["json_data"])
            else:
                await socket.send_to(**frame)
    game_socket, user_socket = sockets
    await user_socket.send_json_to({"type": "ping"})
    answer = await user_socket.receive_output(timeout=5)
    assert answer["type"] == "websocket.send" and '"games.waiting"' in answer["text"], answer
    while not await game_socket.receive_nothing(timeout=SILENCE / 4):
        answer = await game_socket.receive_output()
        assert answer["type"] == "websocket.send", answer
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("close_thread_connections")
def test_fuzzed_frames_keep_both_sockets_open(caplog):
    caplog.set_level(logging.ERROR)
    game = make_started_game(players=2, seed="fuzz-frames")
    player = Seat.objects.filter(game=game, user__isnull=False).select_related("user").first().user
    cookie = login(player).cookies["sessionid"].value
    sent = []

    @settings(max_examples=FRAME_BATCHES, **FUZZ_SETTINGS)
    @given(st.lists(FRAMES, min_size=10, max_size=20))
    def sockets_stay_open(frames):
        caplog.clear()
        async_to_sync(send_frames)(game.pk, cookie, frames)
        sent.extend(frames)
        assert not errors_logged(caplog), errors_logged(caplog)

    sockets_stay_open()
    assert len(sent) >= 10 * FRAME_BATCHES
    assert services.access_board(player, game.pk).game.pk == game.pk
