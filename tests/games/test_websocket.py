"""The game websocket (``/ws/games/<id>/``) through the project's real ASGI application: who may
connect, exactly one small ``game.changed`` event per accepted change, none for a refusal, and the
socket closed (4403) when its session logs out, its user is suspended, or its user loses their
seat at a private table."""
import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games import services
from games.errors import Refusal
from games.models import Move
from games.socket_lifetime import CHECK_AGAIN
from moderation import services as moderation
from tests.factories import (
    PASSWORD,
    hand_keys,
    login,
    make_started_game,
    make_table,
    make_user,
    post_move,
    run_due_jobs,
    seat_to_move,
    seats_of,
)
from tests.games.sockets import SILENCE, closed_as_forbidden, open_socket, session_cookie
from tests.moderators import make_moderator

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("close_thread_connections")]


async def next_event(socket):
    """The next message on ``socket`` (fails after 3 seconds)."""
    return await socket.receive_json_from(timeout=3)


@sync_to_async
def started_game(**kwargs):
    """``make_started_game`` from async code; returns the game and its seats."""
    game = make_started_game(**kwargs)
    return game, seats_of(game)


@sync_to_async
def post(user, game, action, version, htmx=False):
    """POST a move as ``user``; return (status, game version after it)."""
    response = post_move(login(user), game, action, version, htmx=htmx)
    game.refresh_from_db()
    return response.status_code, game.version


async def test_a_seated_player_gets_one_event_per_accepted_change():
    game, seats = await started_game(players=2, seed="ws-events")
    mover = await sync_to_async(seat_to_move)(game)
    waiting = next(seat for seat in seats if seat.pk != mover.pk)
    sockets = [await open_socket(game.pk, await session_cookie(seat.user)) for seat in seats]
    version = game.version

    status, now = await post(mover.user, game, {"type": "draw_stock"}, version)
    assert (status, now) == (302, version + 1)
    for socket in sockets:
        assert await next_event(socket) == {"type": "game.changed", "game": game.pk, "version": version + 1}

    # Refused: out of turn, stale (the repeated draw), against the rules. No event.
    assert (await post(waiting.user, game, {"type": "draw_stock"}, version + 1, htmx=True))[0] == 409
    assert (await post(mover.user, game, {"type": "draw_stock"}, version, htmx=True))[0] == 409
    assert (await post(mover.user, game, {"type": "discard", "card": "XX"}, version + 1, htmx=True))[0] == 422
    for socket in sockets:
        assert await socket.receive_nothing(timeout=SILENCE)

    card = sorted(await sync_to_async(hand_keys)(game, mover))[0]
    status, now = await post(mover.user, game, {"type": "discard", "card": card}, version + 1, htmx=True)
    assert (status, now) == (200, version + 2)
    status, now = await post(waiting.user, game, {"type": "take_discard"}, version + 2)
    assert (status, now) == (302, version + 3)
    for socket in sockets:
        assert [await next_event(socket), await next_event(socket)] == [
            {"type": "game.changed", "game": game.pk, "version": version + 2},
            {"type": "game.changed", "game": game.pk, "version": version + 3}]
        assert await socket.receive_nothing(timeout=SILENCE)
        await socket.disconnect()


async def test_computer_moves_send_one_event_each():
    game, seats = await started_game(players=3, humans=1, seed="ws-computers")
    person = seats[0]
    socket = await open_socket(game.pk, await session_cookie(person.user))
    version = game.version
    assert (await sync_to_async(seat_to_move)(game)).pk == person.pk

    await post(person.user, game, {"type": "draw_stock"}, version)
    card = sorted(await sync_to_async(hand_keys)(game, person))[0]
    status, discarded = await post(person.user, game, {"type": "discard", "card": card}, version + 1)
    assert status == 302 and discarded == version + 2

    # The worker's jobs (run here as the worker runs them) play the computers' turns.
    assert await sync_to_async(run_due_jobs)() > 0
    now = (await Move.objects.filter(game=game).order_by("-ply").afirst()).ply + 1
    made = await sync_to_async(Move.objects.filter(game=game, ply__gte=version).count)()
    assert made == now - version > 2, "the computers moved after the discard"
    events = [await next_event(socket) for _ in range(made)]
    assert events == [{"type": "game.changed", "game": game.pk, "version": v} for v in range(version + 1, now + 1)]
    assert await socket.receive_nothing(timeout=SILENCE)
    await socket.disconnect()


async def test_table_changes_are_announced():
    @sync_to_async
    def table():
        bob = make_user("bob")
        return bob, make_table(bob, is_private=True)

    bob, game = await table()
    socket = await open_socket(game.pk, await session_cookie(bob))
    ann = await sync_to_async(make_user)("ann")

    await sync_to_async(services.join_table)(ann, game.pk, game.invite_code)
    assert await next_event(socket) == {"type": "game.changed", "game": game.pk, "version": 1}
    with pytest.raises(Refusal):
        await sync_to_async(services.join_table)(ann, game.pk, game.invite_code)
    assert await socket.receive_nothing(timeout=SILENCE)
    await sync_to_async(services.start_game)(bob, game.pk)
    assert await next_event(socket) == {"type": "game.changed", "game": game.pk, "version": 2}
    await socket.disconnect()


async def test_an_anonymous_user_is_refused():
    game, _ = await started_game(players=2, seed="ws-anonymous")
    socket = await open_socket(game.pk, None, expect=False)
    assert socket.refusal == (False, 4403)


async def test_a_stranger_is_refused_at_a_private_table():
    game, _ = await started_game(players=2, seed="ws-private", is_private=True)
    stranger = await sync_to_async(make_user)("stranger")
    socket = await open_socket(game.pk, await session_cookie(stranger), expect=False)
    assert socket.refusal == (False, 4403)


async def test_no_such_game_is_refused():
    game, seats = await started_game(players=2, seed="ws-missing")
    socket = await open_socket(game.pk + 1000, await session_cookie(seats[0].user), expect=False)
    assert socket.refusal == (False, 4403)


async def test_a_foreign_origin_is_refused():
    game, seats = await started_game(players=2, seed="ws-origin")
    socket = await open_socket(game.pk, await session_cookie(seats[0].user), origin=b"http://evil.example",
                               expect=False)
    assert socket.refusal[0] is False


async def test_a_signed_in_stranger_may_watch_a_public_game():
    game, seats = await started_game(players=2, seed="ws-watch")
    stranger = await sync_to_async(make_user)("watcher")
    socket = await open_socket(game.pk, await session_cookie(stranger))
    mover = await sync_to_async(seat_to_move)(game)

    status, now = await post(mover.user, game, {"type": "draw_stock"}, game.version)

    assert status == 302
    message = await next_event(socket)
    assert message == {"type": "game.changed", "game": game.pk, "version": now}
    assert await socket.receive_nothing(timeout=SILENCE)
    await socket.disconnect()


async def test_a_logged_out_session_is_refused():
    game, seats = await started_game(players=2, seed="ws-logout")

    @sync_to_async
    def logged_out_cookie():
        client = login(seats[0].user)
        cookie = client.cookies["sessionid"].value
        client.logout()
        return cookie

    socket = await open_socket(game.pk, await logged_out_cookie(), expect=False)
    assert socket.refusal == (False, 4403)


async def test_a_game_socket_closes_when_its_session_logs_out():
    game, seats = await started_game(players=2, seed="ws-session-ends")
    leaving, staying = await sync_to_async(lambda: (login(seats[0].user), login(seats[0].user)))()
    leaving_socket = await open_socket(game.pk, leaving.cookies["sessionid"].value)
    staying_socket = await open_socket(game.pk, staying.cookies["sessionid"].value)

    assert (await sync_to_async(leaving.post)(reverse("account_logout"))).status_code == 302

    assert await closed_as_forbidden(leaving_socket)
    assert await staying_socket.receive_nothing(timeout=SILENCE)  # the same user's other session
    await leaving_socket.disconnect()
    await staying_socket.disconnect()


async def test_a_password_change_closes_the_users_sockets_to_be_checked_again():
    """A trial changed a password in one session and the user's other session kept its open
    sockets, and with them the game's events and the "your turn" notices."""
    game, seats = await started_game(players=2, seed="ws-password")
    user = seats[0].user
    changer, other = await sync_to_async(lambda: (login(user), login(user)))()
    other_cookie = other.cookies["sessionid"].value
    other_socket = await open_socket(game.pk, other_cookie)

    changed = await sync_to_async(changer.post)(reverse("account_change_password"), {
        "oldpassword": PASSWORD, "password1": "a-new-felt-table-7", "password2": "a-new-felt-table-7"})

    assert changed.status_code == 302
    assert await other_socket.receive_output(timeout=3) == {"type": "websocket.close", "code": CHECK_AGAIN}
    assert (await open_socket(game.pk, other_cookie, expect=False)).refusal == (False, 4403)
    reopened = await open_socket(game.pk, changer.cookies["sessionid"].value)
    await reopened.disconnect()


async def test_a_game_socket_closes_when_its_user_is_suspended():
    game, seats = await started_game(players=2, seed="ws-suspended")
    suspended, other = seats
    suspended_socket = await open_socket(game.pk, await session_cookie(suspended.user))
    other_socket = await open_socket(game.pk, await session_cookie(other.user))

    await sync_to_async(lambda: moderation.suspend_user(make_moderator(), suspended.user_id, "Abuse."))()

    assert await closed_as_forbidden(suspended_socket)
    assert (await next_event(other_socket))["version"] == game.version + 1  # a computer took the seat
    await suspended_socket.disconnect()
    await other_socket.disconnect()


@pytest.mark.parametrize("is_private", [True, False])
async def test_a_game_socket_closes_when_its_user_loses_a_seat_at_a_private_table(is_private):
    game, seats = await started_game(players=2, seed="ws-seat-lost", is_private=is_private)
    removed, other = seats
    removed_socket = await open_socket(game.pk, await session_cookie(removed.user))
    other_socket = await open_socket(game.pk, await session_cookie(other.user))

    await sync_to_async(lambda: moderation.remove_player(make_moderator(), game.pk, removed.position, "Abuse."))()

    changed = {"type": "game.changed", "game": game.pk, "version": game.version + 1}
    assert await next_event(other_socket) == changed
    if is_private:
        assert await closed_as_forbidden(removed_socket)
    else:  # at a public table the removed player may still watch
        assert await next_event(removed_socket) == changed
    await removed_socket.disconnect()
    await other_socket.disconnect()
