"""Tables: opening, joining (public and by invite), computer players, freeing seats, starting,
the deal (rule S3) and computer turns after a person's move; through HTTP and the services."""
import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.errors import Refusal
from games.models import Card, Game, Move, Seat
from tests.factories import (
    current_deal,
    hand_keys,
    login,
    make_started_game,
    make_table,
    make_user,
    moves_by,
    play_moves,
    post_move,
    run_due_jobs,
    seat_to_move,
    seats_of,
    snapshot,
)
from tests.records.helpers import people_game

pytestmark = pytest.mark.django_db


def url(name, game, *args):
    """Reverse a games URL for ``game``."""
    return reverse(name, args=[game.pk, *args])


def lobby_sections(client):
    """The lobby's "Your games" and "Open tables" lists as sets of game ids."""
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    sections = {}
    for label in ("Your games", "Open tables"):
        found = re.search(rf'aria-label="{label}">(.*?)</section>', body, re.S)
        assert found, f"no {label!r} section"
        sections[label] = {int(n) for n in re.findall(r'href="/games/(\d+)/"', found.group(1))}
    return sections["Your games"], sections["Open tables"]


def error_code(response):
    """The ``data-error-code`` shown on the board of a refused request, if any."""
    found = re.search(r'data-error-code="(\w+)"', response.content.decode())
    return found.group(1) if found else None


# ----- opening a table --------------------------------------------------------------------------

def test_lobby_form_opens_a_table_with_the_creator_in_seat_0():
    ann = make_user("ann")
    client = login(ann)

    response = client.post(reverse("game_new"), {"variant": "standard", "players": "3", "target": "150",
                                                "going_rummy": "on"})

    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert (game.variant, game.players, game.is_private, game.status) == ("standard", 3, False, Game.Status.OPEN)
    assert game.options == {"target": 150, "going_rummy": True}
    assert [(s.position, s.user_id) for s in seats_of(game)] == [(0, ann.pk)]
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200 and "1 of 3 seats taken" in page.content.decode()


@pytest.mark.parametrize("fields", [{"variant": "standard", "players": "5", "target": "100"},
                                    {"variant": "poker", "players": "2", "target": "100"},
                                    {"variant": "standard", "players": "2", "target": "10"}],
                         ids=["five players", "unknown variant", "target too low"])
def test_lobby_form_refuses_bad_tables(fields):
    response = login(make_user("ann")).post(reverse("game_new"), fields)
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_create_table_refuses_bad_player_counts_and_options():
    ann = make_user("ann")
    with pytest.raises(Refusal) as refused:
        services.create_table(ann, variant="standard", players=5, is_private=False)
    assert (refused.value.status, refused.value.code, refused.value.rule) == (400, "bad_players", "S2")
    with pytest.raises(Refusal) as refused:
        services.create_table(ann, variant="gin", players=2, is_private=False)
    assert (refused.value.status, refused.value.code) == (400, "bad_variant")
    assert not Game.objects.exists()


def test_create_table_refuses_an_unknown_option_as_malformed():
    """create_table's docstring: "Raises Refusal 400 for an unknown variant or option"."""
    with pytest.raises(Refusal) as refused:
        services.create_table(make_user("ann"), variant="standard", players=2, is_private=False,
                              options={"jokers": 2})
    assert (refused.value.status, refused.value.code) == (400, "bad_options")
    assert not Game.objects.exists()


def test_open_a_table_needs_a_login():
    response = Client().post(reverse("game_new"), {"variant": "standard", "players": "2", "target": "100"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Game.objects.exists()


# ----- the lobby --------------------------------------------------------------------------------

def test_lobby_lists_open_public_tables_and_the_users_games():
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    bobs_open = make_table(bob)
    bobs_private = make_table(bob, is_private=True)
    cats_full = make_table(cat)
    services.add_computer_player(cat, cats_full.pk)
    cats_started = make_started_game(players=2, humans=[cat], seed="lobby")
    anns_open = make_table(ann)
    anns_private = make_table(ann, is_private=True)
    ann_joined = make_table(bob, players=3)
    services.join_table(ann, ann_joined.pk)
    ann_playing = make_started_game(players=2, humans=[ann], seed="lobby-2")
    ann_finished = make_started_game(players=2, humans=[ann], seed="lobby-3", options={"target": 1})
    play_moves(ann_finished)
    assert ann_finished.status == Game.Status.FINISHED

    mine, open_tables = lobby_sections(login(ann))

    assert mine == {anns_open.pk, anns_private.pk, ann_joined.pk, ann_playing.pk}
    assert open_tables == {bobs_open.pk, cats_full.pk, anns_open.pk, ann_joined.pk}
    assert bobs_private.pk not in open_tables | mine
    assert cats_started.pk not in open_tables


def test_lobby_offers_a_join_button_for_each_open_table_the_user_can_sit_at():
    """A POST form (CSRF token, the join URL) in the row of each open table with a free seat
    that ann is not at; joining from it seats her and goes to the table's page."""
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    bobs_open = make_table(bob)
    cats_full = make_table(cat)
    services.add_computer_player(cat, cats_full.pk)
    anns_open = make_table(ann)
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    body = client.get("/").content.decode()
    open_tables = re.search(r'aria-label="Open tables">(.*?)</section>', body, re.S).group(1)
    forms = re.findall(r'<form method="post" action="/games/(\d+)/join"[^>]*>(.*?)</form>', open_tables, re.S)
    assert [int(pk) for pk, _ in forms] == [bobs_open.pk], (anns_open.pk, cats_full.pk)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', forms[0][1]).group(1)
    response = client.post(url("game_join", bobs_open), {"csrfmiddlewaretoken": token})
    assert response.status_code == 302 and response["Location"] == bobs_open.get_absolute_url()
    assert [seat.user for seat in seats_of(bobs_open)] == [bob, ann]


def test_anonymous_lobby_invites_to_sign_up_and_lists_nothing():
    make_table(make_user("bob"))
    response = Client().get("/")
    body = response.content.decode()
    assert response.status_code == 200
    assert "Sign up" in body and "/games/" not in body


# ----- private tables ---------------------------------------------------------------------------

def test_private_table_is_not_joinable_without_its_invite_code():
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, is_private=True)
    client = login(ann)
    before = snapshot(game)

    assert client.get(game.get_absolute_url()).status_code == 403
    assert client.get(url("game_board", game), headers={"HX-Request": "true"}).status_code == 403
    for code in ("", "not-the-code"):
        response = client.post(url("game_join", game), {"code": code})
        assert response.status_code == 403
        assert "private table" in response.content.decode()
    with pytest.raises(Refusal) as refused:
        services.join_table(ann, game.pk, "")
    assert (refused.value.status, refused.value.code) == (403, "invite_only")
    assert snapshot(game) == before


def test_private_table_is_joined_through_the_invite_page_form():
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, is_private=True)
    client = login(ann)

    page = client.get(reverse("join_by_code", args=[game.invite_code]))

    assert page.status_code == 200
    body = page.content.decode()
    main = body[body.index("<main"):]
    action = re.search(r'<form method="post" action="([^"]+)"', main).group(1)
    code = re.search(r'name="code" value="([^"]+)"', body).group(1)
    assert action == url("game_join", game)
    response = client.post(action, {"code": code})
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert [(s.position, s.user_id) for s in seats_of(game)] == [(0, bob.pk), (1, ann.pk)]
    game.refresh_from_db()
    assert game.version == 1
    assert client.get(game.get_absolute_url()).status_code == 200


def test_the_invite_page_sends_a_seated_player_to_the_table_instead_of_offering_a_seat():
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, players=3, is_private=True)
    client = login(ann)
    client.post(url("game_join", game), {"code": game.invite_code})

    body = client.get(reverse("join_by_code", args=[game.invite_code])).content.decode()

    main = body[body.index("<main"):]
    assert "Join this table" not in main and 'name="code"' not in main
    assert f'You have a seat at this table: <a href="{game.get_absolute_url()}">go to the table</a>' in main


def test_a_user_may_have_three_tables_waiting_for_players_and_no_more(settings):
    assert settings.RUMMY_OPEN_TABLES_PER_USER == 3
    bob, ann = make_user("bob"), make_user("ann")
    client = login(bob)
    fields = {"variant": "standard", "players": "2", "time_per_move": "86400"}
    answers = [client.post(reverse("game_new"), fields) for _ in range(50)]

    assert [answer.status_code for answer in answers[:3]] == [302] * 3
    assert {answer.status_code for answer in answers[3:]} == {409}
    assert ("You already have 3 tables waiting for players. Start or close one of them before you open "
            "another.") in answers[3].content.decode()
    assert Game.objects.filter(created_by=bob).count() == 3
    # Starting one (or closing one) makes room; another user's tables do not count.
    waiting = list(Game.objects.filter(created_by=bob))
    services.join_table(ann, waiting[0].pk)
    services.start_game(bob, waiting[0].pk)
    services.close_table(bob, waiting[1].pk)
    assert [client.post(reverse("game_new"), fields).status_code for _ in range(3)] == [302, 302, 409]
    assert login(ann).post(reverse("game_new"), fields).status_code == 302


def invite_closed_text(client, game) -> str:
    body = client.get(reverse("join_by_code", args=[game.invite_code])).content.decode()
    return re.sub(r"<[^>]+>", "", re.search(r'<p data-testid="invite-closed">(.*?)</p>', body, re.S).group(1))


def test_the_invite_page_of_a_table_that_cannot_be_joined_says_why():
    bob, ann, cid = make_user("bob"), make_user("ann"), make_user("cid")
    closed = make_table(bob, players=3, is_private=True)
    services.join_table(cid, closed.pk, closed.invite_code)
    services.close_table(bob, closed.pk)
    started = make_table(bob, players=2, is_private=True)
    services.join_table(cid, started.pk, started.invite_code)
    services.start_game(bob, started.pk)

    assert invite_closed_text(login(ann), closed) == ("This table was closed before it started. "
                                                      "It cannot be joined. Back to the lobby")
    assert invite_closed_text(login(ann), started) == ("This game has already started. "
                                                       "It cannot be joined. Back to the lobby")
    assert invite_closed_text(login(cid), started) == "This game has already started. Go to your game."


def test_the_invite_page_of_a_full_table_offers_no_seat():
    bob, ann = make_user("bob"), make_user("ann")
    full = make_table(bob, players=2, is_private=True)
    services.add_computer_player(bob, full.pk)
    assert invite_closed_text(login(ann), full) == ("Every seat at this table is taken. "
                                                    "It cannot be joined. Back to the lobby")
    assert "Join this table" not in login(ann).get(reverse("join_by_code", args=[full.invite_code])).content.decode()
    body = login(bob).get(reverse("join_by_code", args=[full.invite_code])).content.decode()
    assert "You have a seat at this table" in body


def test_invite_link_with_an_unknown_code_is_404():
    make_table(make_user("bob"), is_private=True)
    response = login(make_user("ann")).get(reverse("join_by_code", args=["no-such-code"]))
    assert response.status_code == 404


def test_invite_link_needs_a_login():
    game = make_table(make_user("bob"), is_private=True)
    response = Client().get(reverse("join_by_code", args=[game.invite_code]))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


# ----- seats ------------------------------------------------------------------------------------

def test_public_table_is_joined_from_its_page():
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, players=3)
    client = login(ann)
    assert "Join this table" in client.get(game.get_absolute_url()).content.decode()

    response = client.post(url("game_join", game), headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "(you)" in response.content.decode()
    assert Seat.objects.get(game=game, user=ann).position == 1


def test_joining_twice_a_full_or_a_started_table_is_409():
    bob, ann, cat = make_user("bob"), make_user("ann"), make_user("cat")
    game = make_table(bob)
    services.join_table(ann, game.pk)
    before = snapshot(game)

    assert error_code(login(ann).post(url("game_join", game))) == "already_seated"
    response = login(cat).post(url("game_join", game), headers={"HX-Request": "true"})
    assert response.status_code == 409 and error_code(response) == "table_full"
    response = login(bob).post(url("game_add_computer", game))
    assert response.status_code == 409 and error_code(response) == "table_full"
    assert snapshot(game) == before

    services.start_game(bob, game.pk)
    game.refresh_from_db()
    started = snapshot(game)
    dan = make_user("dan")
    response = login(dan).post(url("game_join", game))
    assert response.status_code == 409 and error_code(response) == "already_started"
    assert login(bob).post(url("game_start", game)).status_code == 409
    assert snapshot(game) == started


def test_only_the_creator_adds_computers_and_starts():
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, players=3)
    services.join_table(ann, game.pk)
    client = login(ann)
    before = snapshot(game)

    response = client.post(url("game_add_computer", game))
    assert response.status_code == 403 and error_code(response) == "not_creator"
    response = client.post(url("game_start", game), headers={"HX-Request": "true"})
    assert response.status_code == 403 and error_code(response) == "not_creator"
    assert snapshot(game) == before

    creator = login(bob)
    assert creator.post(url("game_add_computer", game)).status_code == 302
    seats = seats_of(game)
    assert [(s.position, s.user_id, s.bot_level) for s in seats] == [(0, bob.pk, ""), (1, ann.pk, ""),
                                                                     (2, None, "normal")]
    assert client.post(url("game_start", game)).status_code == 403
    assert creator.post(url("game_start", game)).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.started_at is not None


def test_starting_with_empty_seats_is_409():
    bob = make_user("bob")
    game = make_table(bob, players=3)
    services.add_computer_player(bob, game.pk)
    game.refresh_from_db()
    before = snapshot(game)

    response = login(bob).post(url("game_start", game))

    assert response.status_code == 409 and error_code(response) == "seats_empty"
    assert snapshot(game) == before
    assert not current_deal(game)


def test_freeing_seats():
    bob, ann, cat = make_user("bob"), make_user("ann"), make_user("cat")
    game = make_table(bob, players=4)
    services.join_table(ann, game.pk)
    services.join_table(cat, game.pk)
    services.add_computer_player(bob, game.pk)
    game.refresh_from_db()
    before = snapshot(game)

    # A player cannot free somebody else's seat, nobody frees the creator's, an empty seat is 404.
    assert login(ann).post(url("game_free_seat", game, 2)).status_code == 403
    assert login(ann).post(url("game_free_seat", game, 3)).status_code == 403
    assert login(bob).post(url("game_free_seat", game, 0)).status_code == 403
    assert login(ann).post(url("game_free_seat", game, 0)).status_code == 403
    assert snapshot(game) == before
    services.remove_seat(bob, game.pk, 3)
    with pytest.raises(Refusal) as refused:
        services.remove_seat(bob, game.pk, 3)
    assert (refused.value.status, refused.value.code) == (404, "no_such_seat")

    # The creator removes a player; a player leaves.
    assert login(bob).post(url("game_free_seat", game, 2)).status_code == 302
    left = login(ann).post(url("game_free_seat", game, 1), headers={"HX-Request": "true"})
    assert (left.status_code, left.headers["HX-Redirect"]) == (204, reverse("lobby"))
    assert [s.user_id for s in seats_of(game)] == [bob.pk]
    game.refresh_from_db()
    assert game.version == before["game"][0]["version"] + 3

    # A freed seat is taken again by the next to join.
    services.join_table(cat, game.pk)
    assert Seat.objects.get(game=game, user=cat).position == 1


def test_the_creator_is_asked_before_removing_a_person_and_each_remove_names_its_seat():
    """Removing a person from a waiting table asks first (the third trial removed one by a single
    tap); a computer seat goes at once. Each Remove button names the seat to a screen reader."""
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, players=3)
    services.join_table(ann, game.pk)
    services.add_computer_player(bob, game.pk)
    body = login(bob).get(game.get_absolute_url()).content.decode()
    forms = re.findall(r'<form method="post" action="/games/\d+/seats/(\d+)/free"[^>]*>', body)
    assert len(forms) == 2, forms
    confirms = re.findall(r'action="[^"]*/seats/(\d+)/free"[^>]*hx-confirm="([^"]*)"', body)
    assert confirms == [("1", "Remove ann from this table? They can join it again while it waits.")]
    assert 'Remove<span class="visually-hidden"> ann</span>' in body
    assert re.search(r'Remove<span class="visually-hidden"> Computer 3[^<]*</span>', body)


def test_the_creator_closes_an_open_table_and_nobody_else_can():
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, players=3)
    services.join_table(ann, game.pk)
    game.refresh_from_db()
    before = snapshot(game)
    assert login(ann).post(url("game_close", game)).status_code == 403
    assert snapshot(game) == before
    assert "Close this table" in login(bob).get(game.get_absolute_url()).content.decode()
    assert "Close this table" not in login(ann).get(game.get_absolute_url()).content.decode()

    closed = login(bob).post(url("game_close", game), headers={"HX-Request": "true"})
    assert (closed.status_code, closed.headers["HX-Redirect"]) == (204, reverse("lobby"))
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and not Game.objects.open_public().filter(pk=game.pk).exists()
    closed = snapshot(game)
    for client, name in ((login(ann), "game_join"), (login(bob), "game_add_computer"), (login(bob), "game_start")):
        response = client.post(url(name, game))
        assert response.status_code == 409 and error_code(response) == "table_closed"
        assert "This table was closed before it started." in response.content.decode()
    assert snapshot(game) == closed


def test_a_started_table_cannot_be_closed():
    game = make_started_game(players=2, humans=1, seed="close-started")
    before = snapshot(game)
    response = login(game.created_by).post(url("game_close", game))
    assert response.status_code == 409 and error_code(response) == "already_started"
    assert snapshot(game) == before


def test_an_outsider_freeing_a_seat_of_a_private_game_learns_nothing_of_its_state():
    game = make_started_game(players=2, humans=1, seed="free-outsider", is_private=True)
    before = snapshot(game)
    response = login(make_user("eve")).post(url("game_free_seat", game, 1))
    assert response.status_code == 403 and "You cannot free that seat." in response.content.decode()
    assert "started" not in response.content.decode()
    assert snapshot(game) == before


def test_seats_cannot_be_freed_once_started():
    game = make_started_game(players=2, humans=1, seed="free-started")
    before = snapshot(game)
    response = login(game.created_by).post(url("game_free_seat", game, 1))
    assert response.status_code == 409 and error_code(response) == "already_started"
    assert snapshot(game) == before


@pytest.mark.parametrize("is_private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("started", [False, True], ids=["open", "started"])
def test_joining_a_table_you_are_seated_at_says_so_public_or_private(is_private, started):
    if started:
        game = make_started_game(players=2, humans=1, seed="join-again", is_private=is_private)
    else:
        game = make_table(make_user("bob"), players=2, is_private=is_private)
    before = snapshot(game)

    response = login(game.created_by).post(url("game_join", game), headers={"HX-Request": "true"})

    assert response.status_code == 409 and error_code(response) == "already_seated"
    assert "You already have a seat at this table." in response.content.decode()
    assert snapshot(game) == before


OVER = {
    Game.Status.FINISHED: "This game is over.",
    Game.Status.VOIDED: "This game is over: a moderator voided it.",
    Game.Status.ABANDONED: "This game is over: nobody came back to the table.",
    Game.Status.ABORTED: "This game is over: it was aborted.",
}


@pytest.mark.parametrize("name", ["game_close", "game_start", "game_add_computer", "game_join"])
@pytest.mark.parametrize("status", list(OVER))
def test_a_table_action_on_a_game_that_is_over_says_it_is_over(status, name):
    game = make_started_game(players=2, humans=1, seed="over")
    Game.objects.filter(pk=game.pk).update(status=status)
    before = snapshot(game)
    client = login(make_user("dan") if name == "game_join" else game.created_by)

    response = client.post(url(name, game))

    assert response.status_code == 409 and error_code(response) == "game_over"
    assert OVER[status] in response.content.decode()
    assert "already started" not in response.content.decode()
    assert snapshot(game) == before


@pytest.mark.parametrize("status", [Game.Status.ACTIVE, Game.Status.PAUSED])
def test_closing_a_game_in_play_or_paused_says_it_has_started(status):
    game = make_started_game(players=2, humans=1, seed="close-live")
    Game.objects.filter(pk=game.pk).update(status=status)
    before = snapshot(game)

    response = login(game.created_by).post(url("game_close", game))

    assert response.status_code == 409 and error_code(response) == "already_started"
    assert "This game has already started." in response.content.decode()
    assert snapshot(game) == before


# ----- the deal ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "hand_size"), [(2, 10), (3, 7), (4, 7)])
def test_start_deals_the_hands_of_rule_s3(players, hand_size):
    game = make_started_game(players=players, seed=f"deal-{players}", play_computers=False)

    deal = current_deal(game)
    cards = list(Card.objects.filter(deal=deal))
    assert game.status == Game.Status.ACTIVE and game.version == players  # (players - 1) joins and the start
    assert len(cards) == 52
    assert len({(c.code, c.copy) for c in cards}) == 52
    in_hands = Counter(c.seat_id for c in cards if c.location == Card.Location.HAND)
    assert in_hands == {seat.pk: hand_size for seat in seats_of(game)}
    places = Counter(c.location for c in cards)
    assert places[Card.Location.DISCARD] == 1
    assert places[Card.Location.STOCK] == 52 - players * hand_size - 1
    assert sorted(c.position for c in cards if c.location == Card.Location.STOCK) == list(
        range(52 - players * hand_size - 1))
    assert deal.number == 1 and deal.phase == "draw" and deal.turn == (deal.dealer + 1) % players
    assert not Move.objects.filter(game=game).exists()


# ----- computer players -------------------------------------------------------------------------

def test_computers_move_until_a_person_is_to_move():
    ann = make_user("ann")
    game = make_table(ann, players=4, seed="computers")
    client = login(ann)
    for _ in range(3):
        assert client.post(url("game_add_computer", game)).status_code == 302
    assert client.post(url("game_start", game)).status_code == 302
    game.refresh_from_db()
    # The start queued the first computer move for the worker; nothing moved in the request.
    assert seat_to_move(game).position == 1 and not Move.objects.filter(game=game).exists()
    assert run_due_jobs() > 0
    game.refresh_from_db()

    # Seat 0 is the person; the computer seats that play before them (this seed: all three) already have.
    assert seat_to_move(game).position == 0
    opening = list(Move.objects.filter(game=game).order_by("ply"))
    assert opening and all(m.actor == Move.Actor.COMPUTER for m in opening)
    assert {m.seat.position for m in opening} == set(range(current_deal(game).dealer + 1, 4))

    for _ in range(3):
        game.refresh_from_db()
        plies_before = game.version
        mover = seat_to_move(game)
        assert mover.user_id == ann.pk
        post_move(client, game, {"type": "draw_stock"}, game.version)
        game.refresh_from_db()
        card = sorted(hand_keys(game, mover))[0]
        response = post_move(client, game, {"type": "discard", "card": card}, game.version, htmx=True)
        assert response.status_code == 200
        assert f'data-version="{game.version + 1}"' in response.content.decode()
        run_due_jobs()
        game.refresh_from_db()
        after = list(Move.objects.filter(game=game, ply__gte=plies_before).order_by("ply"))
        assert [m.actor for m in after[:2]] == [Move.Actor.PLAYER] * 2
        computer_moves = after[2:]
        assert computer_moves and all(m.actor == Move.Actor.COMPUTER for m in computer_moves)
        assert [m.ply for m in after] == list(range(plies_before, game.version))
        if current_deal(game).number == 1:
            # Each computer seat drew and discarded in turn, 1 then 2 then 3.
            discards = [m.seat.position for m in computer_moves if m.action["type"] == "discard"]
            assert discards == [1, 2, 3]
        assert seat_to_move(game).user_id == ann.pk
    assert moves_by(game, Move.Actor.COMPUTER).count() >= 6


def test_no_computer_move_while_a_person_is_to_move():
    game = make_started_game(players=2, seed="people")
    assert not services.play_computer_turn(game.pk)
    assert run_due_jobs() == 0
    assert not Move.objects.filter(game=game).exists()


def test_play_again_against_the_computers_starts_a_new_game_like_the_old_one_at_once():
    old = people_game("wild", humans=1, players=3, seed="again")
    Seat.objects.filter(game=old, position=2).update(bot_level=Seat.BotLevel.STRONG)
    player = seats_of(old)[0].user
    assert old.status == Game.Status.FINISHED

    response = login(player).post(reverse("game_again", args=[old.pk]))

    game = Game.objects.exclude(pk=old.pk).get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.status == Game.Status.ACTIVE and game.created_by == player
    assert ((game.variant, game.options, game.players, game.is_private, game.time_per_move, game.absence_stops_clock)
            == (old.variant, old.options, old.players, old.is_private, old.time_per_move, old.absence_stops_clock))
    assert [(seat.user, seat.bot_level) for seat in seats_of(game)] == [
        (player, ""), (None, seats_of(old)[1].bot_level), (None, Seat.BotLevel.STRONG)]


def test_play_again_opens_one_table_per_player_however_often_it_is_pressed(settings):
    old = people_game("standard", humans=1, players=2, seed="again-twice")
    player = seats_of(old)[0].user
    for _ in range(settings.RUMMY_OPEN_TABLES_PER_USER):
        make_table(player)  # at the limit of waiting tables: a game dealt at once is not one

    first, second = services.play_again(player, old.pk), services.play_again(player, old.pk)

    assert first == second and first.status == Game.Status.ACTIVE and first.again_of == old
    assert Game.objects.filter(again_of=old).count() == 1


def test_play_again_with_people_opens_a_table_that_waits_for_them():
    old = people_game("standard", humans=2, players=3, seed="again-people")
    player = seats_of(old)[1].user
    game = services.play_again(player, old.pk)
    assert game.status == Game.Status.OPEN and game.created_by == player
    assert [(seat.position, seat.user, seat.is_bot) for seat in seats_of(game)] == [(0, player, False), (1, None, True)]


def test_only_a_player_of_a_finished_game_can_play_it_again():
    finished = people_game("standard", humans=1, players=2, seed="again-refused")
    in_play = make_started_game(players=2, seed="again-in-play")
    stranger = make_user("stranger")

    assert login(stranger).post(reverse("game_again", args=[finished.pk])).status_code == 403
    with pytest.raises(Refusal) as refused:
        services.play_again(seats_of(in_play)[0].user, in_play.pk)
    assert (refused.value.status, refused.value.code) == (409, "not_finished")
    assert Game.objects.count() == 2


def test_the_final_standings_offer_play_again_to_the_players_only():
    old = people_game("standard", humans=1, players=2, seed="again-button")
    player = seats_of(old)[0].user
    button = f'<form method="post" action="{reverse("game_again", args=[old.pk])}"'
    assert button in login(player).get(old.get_absolute_url()).content.decode()
    assert button not in login(make_user("watcher")).get(old.get_absolute_url()).content.decode()


def test_the_other_players_of_a_finished_game_are_offered_the_table_opened_to_play_it_again():
    old = people_game("standard", humans=2, players=2, seed="again-offer")
    Game.objects.filter(pk=old.pk).update(is_private=True)
    opener, other = seats_of(old)[0].user, seats_of(old)[1].user
    table = services.play_again(opener, old.pk)

    offered = login(other).get(old.get_absolute_url()).content.decode()
    own = login(opener).get(old.get_absolute_url()).content.decode()

    join = reverse("join_by_code", args=[table.invite_code])
    assert f'{opener.username} opened a new table like this one: <a href="{join}">join it</a>' in offered
    assert 'data-testid="table-again"' not in own
    assert 'data-testid="play-again"' not in offered and 'data-testid="play-again"' in own
    assert login(other).post(reverse("game_join", args=[table.pk]), {"code": table.invite_code}).status_code == 302
    assert 'data-testid="table-again"' not in login(other).get(old.get_absolute_url()).content.decode()


def test_a_second_player_pressing_play_again_joins_the_table_the_first_opened():
    """Both players of a finished game press "Play again" (the second from a page drawn before
    the first pressed): they meet at one new table, not two."""
    old = people_game("standard", humans=2, players=3, seed="again-both")
    Game.objects.filter(pk=old.pk).update(is_private=True)
    opener, other = seats_of(old)[0].user, seats_of(old)[1].user
    table = services.play_again(opener, old.pk)

    response = login(other).post(reverse("game_again", args=[old.pk]))

    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert Game.objects.filter(again_of=old).count() == 1
    assert [seat.user for seat in seats_of(table)] == [opener, None, other]
    assert services.play_again(other, old.pk) == table


def test_play_again_opens_a_new_table_when_the_first_was_closed():
    """A trial closed the table Play again had opened; every later press led back to it."""
    old = people_game("standard", humans=2, players=2, seed="again-closed")
    opener = seats_of(old)[0].user
    closed = services.play_again(opener, old.pk)
    services.close_table(opener, closed.pk)

    response = login(opener).post(reverse("game_again", args=[old.pk]))

    table = Game.objects.get(again_of=old)
    assert table != closed and table.status == Game.Status.OPEN and table.created_by == opener
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert services.play_again(opener, old.pk) == table


def test_a_refused_play_again_goes_back_to_the_game_page_with_its_reason(settings):
    """The refusal used to answer at /games/N/again, which a reload would post again."""
    old = people_game("standard", humans=2, players=2, seed="again-limit")
    player = seats_of(old)[0].user
    for _ in range(settings.RUMMY_OPEN_TABLES_PER_USER):
        make_table(player)
    client = login(player)

    response = client.post(reverse("game_again", args=[old.pk]))

    assert response.status_code == 303 and response["Location"] == old.get_absolute_url()
    page = client.get(old.get_absolute_url()).content.decode()
    assert "tables waiting for players" in page
    assert "tables waiting for players" not in client.get(old.get_absolute_url()).content.decode()
    assert not Game.objects.filter(again_of=old).exists()


def test_play_again_opens_a_table_of_its_own_when_the_others_is_full():
    old = people_game("standard", humans=2, players=2, seed="again-full")
    opener, other = seats_of(old)[0].user, seats_of(old)[1].user
    table = services.play_again(opener, old.pk)
    services.join_table(make_user("newcomer"), table.pk)

    own = services.play_again(other, old.pk)

    assert own != table and own.created_by == other and own.status == Game.Status.OPEN
    assert Game.objects.filter(again_of=old).count() == 2


@pytest.mark.parametrize("humans, hint", [
    (1, "A new table like this one, with the same computer players."),
    (2, "A new table like this one."),
])
def test_the_play_again_hint_names_computer_players_only_when_there_were_some(humans, hint):
    old = people_game("standard", humans=humans, players=2, seed=f"again-hint-{humans}")
    page = login(seats_of(old)[0].user).get(old.get_absolute_url()).content.decode()
    assert f'<span class="hint">{hint}</span>' in page
