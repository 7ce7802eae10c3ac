"""Every refused move over HTTP: the right status, code and message, and not one row changed.

Each test takes a ``snapshot`` of all the game's rows before the refused POST and compares it after.
Refusals are checked with and without ``HX-Request``: htmx gets the board fragment with the
refusal's status, a plain form a redirect (303) to the game page, which shows the refusal once
(Post/Redirect/Get); the games here have people only in their seats, so no computer turn follows
an accepted move.
"""
import re
from html import escape
from itertools import combinations

import pytest
from django.test import Client

from games import services
from games.engine.cards import parse_card
from games.engine.errors import IllegalAction
from games.engine.melds import read_meld
from games.engine.variants.standard import StandardRummy
from games.errors import Refusal
from games.models import Card, Game, Move
from tests.engine.builders import frayzy
from tests.factories import (
    current_deal,
    data_version,
    hand_keys,
    load_state,
    login,
    make_started_game,
    make_user,
    move_fields,
    move_url,
    play_moves,
    post_move,
    put_position,
    seat_to_move,
    seats_of,
    snapshot,
    stock_keys,
)

pytestmark = pytest.mark.django_db

htmx_or_not = pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])


def send(client, game, fields, htmx):
    """POST raw play-form ``fields`` to ``game``'s move URL, as htmx or as a plain form."""
    return client.post(move_url(game), fields, headers={"HX-Request": "true"} if htmx else {})


def assert_refused(response, status, code, message, htmx):
    """``response`` is a refusal showing ``code`` and ``message`` on the board: for htmx a fragment
    with ``status``; for a plain form a redirect (303) to the game page, whose whole page shows them.
    Returns the response that shows the refusal."""
    if not htmx:
        game_id = response.wsgi_request.resolver_match.kwargs["game_id"]
        assert (response.status_code, response.get("Location")) == (303, f"/games/{game_id}/"), \
            response.content.decode()[:2000]
        response, status = response.client.get(response["Location"]), 200
    body = response.content.decode()
    assert response.status_code == status, body[:2000]
    assert f'data-error-code="{code}"' in body
    assert escape(message) in body
    assert ("<html" in body) is not htmx
    assert data_version(body) == Game.objects.get(pk=response.wsgi_request.resolver_match.kwargs["game_id"]).version
    return response


def other_seat(game):
    """The seat that is not to move (2-player games)."""
    mover = seat_to_move(game)
    return next(seat for seat in seats_of(game) if seat.pk != mover.pk)


def drawn(game, action="draw_stock"):
    """Let the seat to move draw (through the service), so it is in the play phase; return its seat."""
    seat = seat_to_move(game)
    services.submit_move(seat.user, game.pk, game.version, {"type": action})
    game.refresh_from_db()
    return seat


# ----- accepted moves ---------------------------------------------------------------------------

@htmx_or_not
def test_accepted_move_writes_one_move_at_its_version_and_bumps_the_version(htmx):
    game = make_started_game(players=2, seed="accepted")
    mover = seat_to_move(game)
    client = login(mover.user)
    version = game.version
    stock_top = max(Card.objects.filter(deal=current_deal(game), location="stock"), key=lambda c: c.position)
    before = snapshot(game)

    response = post_move(client, game, {"type": "draw_stock"}, version, htmx=htmx)

    if htmx:
        assert response.status_code == 200
        assert data_version(response.content.decode()) == version + 1
    else:
        assert response.status_code == 302
        assert response["Location"] == game.get_absolute_url()
    assert "HX-Request" in response["Vary"]
    after = snapshot(game)
    assert after["game"][0]["version"] == version + 1
    new_moves = after["moves"][len(before["moves"]):]
    assert len(new_moves) == 1
    assert new_moves[0]["ply"] == version
    assert new_moves[0]["seat_id"] == mover.pk and new_moves[0]["actor"] == Move.Actor.PLAYER
    assert new_moves[0]["action"] == {"type": "draw_stock"}
    changed = [(b, a) for b, a in zip(before["cards"], after["cards"]) if a != b]
    assert len(changed) == 1, "a draw moves exactly one card"
    card_before, card_after = changed[0]
    assert card_before["id"] == stock_top.pk
    assert (card_after["location"], card_after["seat_id"]) == ("hand", mover.pk)

    # The discard that ends the turn is the next ply.
    card = sorted(hand_keys(game, mover))[0]
    response = post_move(client, game, {"type": "discard", "card": card}, version + 1, htmx=htmx)
    assert response.status_code == (200 if htmx else 302)
    game.refresh_from_db()
    assert game.version == version + 2
    last = Move.objects.get(game=game, ply=version + 1)
    assert last.action == {"type": "discard", "card": card}
    assert seat_to_move(game).pk != mover.pk


# ----- conflicts --------------------------------------------------------------------------------

@htmx_or_not
def test_out_of_turn_is_409_and_changes_nothing(htmx):
    game = make_started_game(players=2, seed="out-of-turn")
    waiting = other_seat(game)
    before = snapshot(game)

    response = post_move(login(waiting.user), game, {"type": "draw_stock"}, game.version, htmx=htmx)

    assert_refused(response, 409, "not_your_turn", "It is not your turn.", htmx)
    assert snapshot(game) == before


@htmx_or_not
def test_stale_version_is_409_with_the_fresh_board(htmx):
    game = make_started_game(players=2, seed="stale")
    old_version = game.version
    mover = drawn(game)
    card = sorted(hand_keys(game, mover))[0]
    before = snapshot(game)

    for version in (old_version, game.version + 1):
        response = post_move(login(mover.user), game, {"type": "discard", "card": card}, version, htmx=htmx)
        shown = assert_refused(response, 409, "stale_version",
                               "The game has moved on since your page was drawn; here is the board now.", htmx)
        body = shown.content.decode()
        assert f'data-version="{game.version}"' in body
        assert f'data-version="{old_version}"' not in body
        assert f'name="version" value="{game.version}"' in body
    assert snapshot(game) == before


@htmx_or_not
def test_duplicate_post_applies_once(htmx):
    game = make_started_game(players=2, seed="duplicate")
    mover = seat_to_move(game)
    client = login(mover.user)
    fields = move_fields({"type": "draw_stock"}, game.version)

    first = send(client, game, fields, htmx)
    assert first.status_code == (200 if htmx else 302)
    after_first = snapshot(game)
    assert after_first["game"][0]["version"] == game.version + 1

    second = send(client, game, fields, htmx)
    assert_refused(second, 409, "stale_version",
                   "The game has moved on since your page was drawn; here is the board now.", htmx)
    assert snapshot(game) == after_first
    assert Move.objects.filter(game=game).count() == len(after_first["moves"])


@htmx_or_not
def test_finished_game_is_409(htmx):
    game = make_started_game(players=2, seed="finished", options={"target": 1})
    play_moves(game)
    assert game.status == Game.Status.FINISHED
    before = snapshot(game)

    for seat in seats_of(game):
        response = post_move(login(seat.user), game, {"type": "draw_stock"}, game.version, htmx=htmx)
        assert_refused(response, 409, "game_over", "This game is not in play.", htmx)
    assert snapshot(game) == before


# ----- against the rules ------------------------------------------------------------------------

@htmx_or_not
def test_card_not_in_hand_is_422(htmx):
    game = make_started_game(players=2, seed="not-in-hand")
    opponent = other_seat(game)
    mover = drawn(game)
    client = login(mover.user)
    before = snapshot(game)

    for card in (sorted(hand_keys(game, opponent))[0], sorted(stock_keys(game))[0]):
        response = post_move(client, game, {"type": "discard", "card": card}, game.version, htmx=htmx)
        assert_refused(response, 422, "not_in_hand", "You do not hold that card.", htmx)
    own = sorted(hand_keys(game, mover))[:2]
    response = post_move(client, game, {"type": "lay_meld", "cards": [*own, sorted(hand_keys(game, opponent))[0]]},
                         game.version, htmx=htmx)
    assert_refused(response, 422, "not_in_hand", "You do not hold that card.", htmx)
    assert snapshot(game) == before


def _not_a_meld(keys):
    """Three of ``keys`` that are not a legal Standard meld, with the engine's reason."""
    rules = StandardRummy().meld_rules
    for combo in combinations(sorted(keys), 3):
        try:
            read_meld([parse_card(k) for k in combo], rules)
        except IllegalAction as error:
            return list(combo), error
    raise AssertionError(f"every three of {keys} make a meld")


@htmx_or_not
def test_illegal_meld_is_422_citing_rule_s8(htmx):
    game = make_started_game(players=2, seed="bad-meld")
    mover = drawn(game)
    cards, reason = _not_a_meld(hand_keys(game, mover))
    assert reason.code == "bad_meld" and reason.rule == "S8"
    before = snapshot(game)

    response = post_move(login(mover.user), game, {"type": "lay_meld", "cards": cards}, game.version, htmx=htmx)

    shown = assert_refused(response, 422, "bad_meld", reason.message, htmx).content.decode()
    assert "rule S8" in shown
    # The selection is kept so the player can fix it.
    for key in cards:
        assert re.search(rf'<input type="checkbox" name="cards" value="{key}"[^>]* checked', shown)
    assert snapshot(game) == before


@htmx_or_not
def test_discarding_the_card_taken_from_the_discard_pile_is_422_rule_s7(htmx):
    game = make_started_game(players=2, seed="taken-discard")
    top = load_state(game).deal.discard[-1]
    mover = drawn(game, "take_discard")
    assert top.key in hand_keys(game, mover)
    before = snapshot(game)

    response = post_move(login(mover.user), game, {"type": "discard", "card": top.key}, game.version, htmx=htmx)

    message = f"You took {top.rank_name}{dict(C='♣', D='♦', H='♥', S='♠')[top.suit]} from the discard pile " \
              "this turn, so you may not discard it."
    assert "rule S7" in assert_refused(response, 422, "taken_discard", message, htmx).content.decode()
    assert snapshot(game) == before


def test_a_move_refused_without_javascript_leaves_the_browser_at_the_game_page():
    """Post/Redirect/Get: a plain form's refused move redirects to the game page (the address bar
    no longer shows the move URL, and a reload posts nothing), which shows the refusal and the
    ticked cards once."""
    game = make_started_game(players=2, seed="refused-prg")
    mover = drawn(game)
    cards, reason = _not_a_meld(hand_keys(game, mover))
    client = login(mover.user)
    before = snapshot(game)

    response = post_move(client, game, {"type": "lay_meld", "cards": cards}, game.version)

    assert (response.status_code, response["Location"]) == (303, game.get_absolute_url())
    page = client.get(response["Location"])
    body = page.content.decode()
    assert page.status_code == 200 and 'data-error-code="bad_meld"' in body and escape(reason.message) in body
    assert all(re.search(rf'name="cards" value="{key}"[^>]* checked', body) for key in cards)
    again = client.get(game.get_absolute_url()).content.decode()
    assert "data-error-code" not in again
    assert not any(re.search(rf'name="cards" value="{key}"[^>]* checked', again) for key in cards)
    assert snapshot(game) == before


@htmx_or_not
def test_discarding_before_drawing_is_409_wrong_phase(htmx):
    game = make_started_game(players=2, seed="wrong-phase")
    mover = seat_to_move(game)
    card = sorted(hand_keys(game, mover))[0]
    before = snapshot(game)

    response = post_move(login(mover.user), game, {"type": "discard", "card": card}, game.version, htmx=htmx)

    assert "rule 0.2" in assert_refused(response, 409, "wrong_phase", "Draw a card before you discard.",
                                        htmx).content.decode()
    assert snapshot(game) == before


@htmx_or_not
def test_laying_off_on_a_missing_meld_is_422(htmx):
    game = make_started_game(players=2, seed="no-meld")
    mover = drawn(game)
    card = sorted(hand_keys(game, mover))[0]
    before = snapshot(game)

    response = post_move(login(mover.user), game, {"type": "lay_off", "meld": 7, "cards": [card]}, game.version,
                         htmx=htmx)

    assert_refused(response, 422, "no_such_meld", "There is no such meld on the table.", htmx)
    assert snapshot(game) == before


# ----- malformed payloads -----------------------------------------------------------------------

V = object()
"""Placeholder for the game's current version in the cases below."""

MALFORMED = {
    "missing version": ({"action": "draw_stock"}, "The move is missing the game version."),
    "empty version": ({"version": "", "action": "draw_stock"}, "The move is missing the game version."),
    "non-integer version": ({"version": "abc", "action": "draw_stock"}, "The move's game version is not a number."),
    "decimal version": ({"version": "3.0", "action": "draw_stock"}, "The move's game version is not a number."),
    "no action": ({"version": V}, "Choose an action."),
    "unknown action": ({"version": V, "action": "cheat"}, "Choose an action."),
    "discard with no card": ({"version": V, "action": "discard"}, "Select exactly one card to discard."),
    "discard with two cards": ({"version": V, "action": "discard", "cards": ["AS", "2S"]},
                               "Select exactly one card to discard."),
    "lay_off_on a word": ({"version": V, "lay_off_on": "first", "cards": ["AS"]}, "Choose a meld on the table."),
    "lay_off_on empty": ({"version": V, "lay_off_on": "", "cards": ["AS"]}, "Choose a meld on the table."),
    "lay_off_on negative": ({"version": V, "lay_off_on": "-1", "cards": ["AS"]}, "Choose a meld on the table."),
    # str.isdigit() accepts superscript digits that int() cannot read.
    "lay_off_on superscript digit": ({"version": V, "lay_off_on": "²", "cards": ["AS"]},
                                     "Choose a meld on the table."),
    # int() refuses strings of more than 4,300 digits with ValueError.
    "lay_off_on 5000 digits": ({"version": V, "lay_off_on": "9" * 5000, "cards": ["AS"]},
                               "Choose a meld on the table."),
    "reading naming no meld": ({"version": V, "reading": "garbage", "cards": ["AS"]},
                               "That reading is not one on offer: choose one of the readings shown."),
    "reading on a 5000-digit meld": ({"version": V, "reading": "9" * 5000 + "/AS=2H", "cards": ["AS"]},
                                     "That reading is not one on offer: choose one of the readings shown."),
    "reading with a wild standing for nothing": ({"version": V, "reading": "-/AS", "cards": ["AS"]},
                                                 "That reading is not one on offer: choose one of the readings shown."),
    "lay_meld with no cards": ({"version": V, "action": "lay_meld"}, "Choose one or more cards."),
    "lay_meld with a card twice": ({"version": V, "action": "lay_meld", "cards": ["AS", "AS", "2S"]},
                                   "The same card was chosen twice."),
}


@htmx_or_not
@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_payload_is_400(case, htmx):
    game = make_started_game(players=2, seed="malformed")
    mover = drawn(game)
    fields, message = MALFORMED[case]
    fields = {name: (str(game.version) if value is V else value) for name, value in fields.items()}
    before = snapshot(game)

    response = send(login(mover.user), game, fields, htmx)

    assert_refused(response, 400, "malformed", message, htmx)
    assert snapshot(game) == before


MALFORMED_ELSEWHERE = {
    "swap on a 5000-digit meld": ("wild", {"swap": "9" * 5000 + ":AS"}, "Choose a meld on the table."),
    "Draw 5 at a word": ("frayzy", {"play_card": "DRAW5", "target": "ben"}, "Choose a player."),
    "Draw 5 at a 3-digit seat": ("frayzy", {"play_card": "DRAW5", "target": "100"}, "Choose a player."),
    "start Draw 5 at nobody": ("frayzy", {"choose_target": ""}, "Choose the player who draws 5."),
}
"""Malformed moves of a game that has them (another game refuses them as moves it does not have)."""


@pytest.mark.parametrize("case", list(MALFORMED_ELSEWHERE))
def test_malformed_payload_of_the_game_s_own_move_is_400(case):
    variant, fields, message = MALFORMED_ELSEWHERE[case]
    game = make_started_game(players=2, seed="malformed", variant=variant)
    before = snapshot(game)

    response = send(login(seat_to_move(game).user), game, {"version": str(game.version), **fields}, True)

    assert_refused(response, 400, "malformed", message, True)
    assert snapshot(game) == before


FOREIGN_FORMS = {
    "lay_contract with empty groups": {"action": "lay_contract", "groups": "3"},
    "lay_contract with a garbled group count": {"action": "lay_contract", "groups": "many"},
    "lay_contract by a chosen reading": {"reading": "contract/JK=8H"},
    "Draw 5 at a word": {"play_card": "DRAW5", "target": "ben"},
    "Skip": {"play_card": "SKIP"},
    "start Draw 5 at nobody": {"choose_target": ""},
    "start Draw 5 at seat 1": {"choose_target": "1"},
    "swap on a garbled meld": {"swap": "first:AS"},
    "swap with no card": {"swap": "1:"},
}
FOREIGN_KINDS = {
    "standard": ("lay_contract", "play_action", "choose_target", "swap_wild"),
    "wild": ("lay_contract", "play_action", "choose_target"),
    "frustration": ("play_action", "choose_target", "swap_wild"),
    "frayzy": ("lay_contract",),
}
KIND_OF_FORM = {"action": "lay_contract", "reading": "lay_contract", "play_card": "play_action",
                "choose_target": "choose_target", "swap": "swap_wild"}
NO_SWAPS = {"standard": ("S10", "Standard Rummy has no wild swaps"),
            "frustration": ("R12", "Frustration Rummy has no wild swaps")}


@pytest.mark.parametrize(("variant", "case"), [
    (variant, case) for variant, kinds in FOREIGN_KINDS.items() for case, fields in FOREIGN_FORMS.items()
    if KIND_OF_FORM[next(iter(fields))] in kinds])
def test_a_move_the_game_does_not_have_is_refused_before_its_fields(variant, case):
    """A move kind foreign to the variant (R4: contracts, F8: action cards, S10/R12: no swaps) gets the
    game's "no such move" refusal, whatever its other fields hold, and changes nothing."""
    game = make_started_game(players=2, seed="foreign", variant=variant)
    fields = FOREIGN_FORMS[case]
    before = snapshot(game)

    response = send(login(seat_to_move(game).user), game, {"version": str(game.version), **fields}, True)

    if KIND_OF_FORM[next(iter(fields))] == "swap_wild":
        rule, message = NO_SWAPS[variant]
        assert_refused(response, 422, "no_swaps", message, True)
        assert f"(rule {rule})" in response.content.decode()
    else:
        title = game.rules.title
        assert_refused(response, 400, "malformed", f"{title} has no such move.", True)
    assert snapshot(game) == before


@pytest.mark.parametrize(("variant", "action"), [
    ("wild", {"type": "lay_contract", "groups": [[]]}),
    ("standard", {"type": "lay_contract", "groups": "all"}),
    ("standard", {"type": "swap_wild"}),
    ("frayzy", {"type": "lay_contract"}),
    ("frustration", {"type": "play_action", "card": 7}),
    ("wild", {"type": "choose_target"}),
])
def test_a_json_move_the_game_does_not_have_is_refused_before_its_fields(variant, action):
    game = make_started_game(players=2, seed="foreign", variant=variant)
    before = snapshot(game)

    with pytest.raises(Refusal) as refused:
        services.submit_move(seat_to_move(game).user, game.pk, game.version, action)

    expected = "no_swaps" if action["type"] == "swap_wild" else "malformed"
    assert refused.value.code == expected
    assert expected == "no_swaps" or refused.value.message == f"{game.rules.title} has no such move."
    assert snapshot(game) == before


TWICE = "The same card was chosen twice"
DUPLICATES = {
    "meld": ("standard", {"action": "lay_meld", "cards": ["AS", "2S", "AS"]}),
    "lay-off": ("standard", {"lay_off_on": "1", "cards": ["AS", "AS"]}),
    "meld by a chosen reading": ("wild", {"reading": "-/AS=2H", "cards": ["AS", "3H", "AS"]}),
    "lay-off by a chosen reading": ("wild", {"reading": "1/AS=2H", "cards": ["AS", "AS"]}),
    "contract card in two groups": ("frustration", {"action": "lay_contract", "groups": "3",
                                                    "group:AS": ["1", "2"], "group:KS": "3"}),
    "contract card twice in one group": ("frustration", {"action": "lay_contract", "groups": "3",
                                                         "group:AS": ["1", "1"], "group:KS": ["2", "3"]}),
}


@pytest.mark.parametrize("case", list(DUPLICATES))
def test_a_card_given_twice_in_a_move_is_refused_as_such(case):
    """Rule 0.7: a move naming one card twice is refused, saying so, and changes nothing."""
    variant, fields = DUPLICATES[case]
    game = make_started_game(players=2, seed="twice", variant=variant)
    before = snapshot(game)

    response = send(login(seat_to_move(game).user), game, {"version": str(game.version), **fields}, True)

    assert_refused(response, 400, "malformed", TWICE, True)
    assert snapshot(game) == before


def test_a_json_contract_naming_a_card_in_two_groups_is_refused_as_such():
    game = make_started_game(players=2, seed="twice", variant="frustration")
    before = snapshot(game)

    with pytest.raises(Refusal) as refused:
        services.submit_move(seat_to_move(game).user, game.pk, game.version,
                             {"type": "lay_contract", "groups": [["AS", "KS"], ["AS"], ["QS"]]})

    assert refused.value.code == "malformed" and refused.value.message.startswith(TWICE)
    assert snapshot(game) == before


STALE = "The game has moved on since your page was drawn; here is the board now."


@pytest.mark.parametrize("case", [case for case, (fields, _) in MALFORMED.items() if fields.get("version") is V])
def test_a_stale_version_wins_over_a_malformed_move(case):
    game = make_started_game(players=2, seed="malformed-stale")
    old_version = game.version
    mover = drawn(game)
    fields = {name: (str(old_version) if value is V else value) for name, value in MALFORMED[case][0].items()}
    before = snapshot(game)

    response = send(login(mover.user), game, fields, True)

    assert_refused(response, 409, "stale_version", STALE, True)
    assert f'name="version" value="{game.version}"' in response.content.decode()
    assert snapshot(game) == before


@htmx_or_not
def test_a_wild_rummy_meld_with_a_garbled_reading_at_a_stale_version_is_409(htmx):
    game = make_started_game(players=2, seed="wild-stale-reading", variant="wild")
    mover = seat_to_move(game)
    old_version = game.version - 1
    fields = {"version": str(old_version), "reading": "no-such-reading", "cards": sorted(hand_keys(game, mover))[:3]}
    before = snapshot(game)

    response = send(login(mover.user), game, fields, htmx)

    assert_refused(response, 409, "stale_version", STALE, htmx)
    assert snapshot(game) == before
    response = send(login(mover.user), game, {**fields, "version": str(game.version)}, htmx)
    assert_refused(response, 400, "malformed", "That reading is not one on offer: choose one of the readings shown.",
                   htmx)
    assert snapshot(game) == before


# ----- who may move -----------------------------------------------------------------------------

@htmx_or_not
def test_user_without_a_seat_is_403_at_a_public_table(htmx):
    game = make_started_game(players=2, seed="stranger")
    before = snapshot(game)

    response = post_move(login(make_user("stranger")), game, {"type": "draw_stock"}, game.version, htmx=htmx)

    shown = assert_refused(response, 403, "not_seated", "You do not have a seat at this table.", htmx)
    assert 'name="cards"' not in shown.content.decode(), "a spectator's board shows no hand"
    assert snapshot(game) == before


@htmx_or_not
def test_user_without_a_seat_is_403_at_a_private_table(htmx):
    game = make_started_game(players=2, seed="stranger-private", is_private=True)
    before = snapshot(game)

    response = post_move(login(make_user("stranger")), game, {"type": "draw_stock"}, game.version, htmx=htmx)

    message = "You do not have a seat at this table."
    if not htmx:
        # The game page the plain form is sent back to says why that table is not shown.
        assert response.status_code == 303
        response, message = response.client.get(response["Location"]), "This is a private table; join it"
    assert response.status_code == 403
    body = response.content.decode()
    assert escape(message) in body
    assert "data-version" not in body and "data-card" not in body
    assert snapshot(game) == before


def test_move_at_a_table_not_started_is_409():
    ann = make_user("ann")
    game = services.create_table(ann, variant="standard", players=2, is_private=False)
    before = snapshot(game)

    response = post_move(login(ann), game, {"type": "draw_stock"}, game.version, htmx=True)

    assert_refused(response, 409, "not_started", "This game is not in play.", True)
    assert snapshot(game) == before


def test_a_move_needs_the_csrf_token():
    game = make_started_game(players=2, seed="csrf")
    mover = seat_to_move(game)
    client = Client(enforce_csrf_checks=True)
    client.force_login(mover.user)
    before = snapshot(game)

    response = client.post(move_url(game), move_fields({"type": "draw_stock"}, game.version))

    assert response.status_code == 403
    assert snapshot(game) == before
    page = client.get(game.get_absolute_url()).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    header_token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = client.post(move_url(game), move_fields({"type": "draw_stock"}, game.version),
                           headers={"HX-Request": "true", "X-CSRFToken": header_token})
    assert response.status_code == 200, "the token htmx sends from <body hx-headers> is accepted"
    game.refresh_from_db()
    card = sorted(hand_keys(game, mover))[0]
    fields = {**move_fields({"type": "discard", "card": card}, game.version), "csrfmiddlewaretoken": token}
    assert client.post(move_url(game), fields).status_code == 302, "the form's token is accepted"
    assert Move.objects.filter(game=game).count() == len(before["moves"]) + 2


def test_anonymous_user_is_sent_to_log_in():
    game = make_started_game(players=2, seed="anonymous")
    before = snapshot(game)

    response = Client().post(move_url(game), move_fields({"type": "draw_stock"}, game.version))

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert snapshot(game) == before


def test_get_on_the_move_url_is_405():
    game = make_started_game(players=2, seed="get")
    mover = seat_to_move(game)
    before = snapshot(game)

    response = login(mover.user).get(move_url(game), move_fields({"type": "draw_stock"}, game.version))

    assert response.status_code == 405
    assert snapshot(game) == before


def test_move_on_a_missing_game_is_404():
    game = make_started_game(players=2, seed="missing")
    before = snapshot(game)

    response = post_move(login(seat_to_move(game).user), game.pk + 1000, {"type": "draw_stock"}, 0)

    assert response.status_code == 404
    assert snapshot(game) == before


def test_too_many_moves_are_rate_limited(settings):
    settings.RUMMY_MOVE_RATE = "2/m"
    game = make_started_game(players=2, seed="rate")
    mover = seat_to_move(game)
    client = login(mover.user)
    post_move(client, game, {"type": "draw_stock"}, game.version)
    card = sorted(hand_keys(game, mover))[0]
    game.refresh_from_db()
    assert post_move(client, game, {"type": "discard", "card": card}, game.version).status_code == 302
    game.refresh_from_db()

    response = post_move(login(seat_to_move(game).user), game, {"type": "draw_stock"}, game.version)
    assert response.status_code == 302, "the limit is per user"
    game.refresh_from_db()
    before = snapshot(game)
    response = post_move(client, game, {"type": "draw_stock"}, game.version, htmx=True)

    assert_refused(response, 429, "rate_limited", "Too many moves; wait a moment.", True)
    assert snapshot(game) == before


# ----- Frayzy: action cards and the one-wild limit -------------------------------------------------

FRAYZY_REFUSALS = {
    "action card taken from the discard pile": (
        dict(hands=["R7 B12", "Y1 Y2"], discard="Y9 DRAW5~1", phase="draw"), [], {"type": "take_discard"},
        "discard_closed", "The discard pile is closed while Draw 5 is on top."),
    "second action card in a turn": (
        dict(hands=["R7 DISCARD1 SKIP", "Y1 Y2"]), [{"type": "play_action", "card": "DISCARD1"}],
        {"type": "play_action", "card": "SKIP"}, "one_action_per_turn", "Only one action card may be played in a turn"),
    "Draw 5 at a seat that does not exist": (
        dict(hands=["R7 DRAW5", "Y1 Y2"]), [], {"type": "play_action", "card": "DRAW5", "target": 3},
        "no_such_seat", "Choose who draws 5: a seat from 0 to 1."),
    "second wild in a meld": (
        dict(hands=["W B3", "Y1 Y2"], melds=[(1, "R9 W~1=R10 R11")]), [],
        {"type": "lay_off", "meld": 1, "cards": ["W"], "wilds": {"W": "R12"}}, "bad_lay_off",
        "A meld may hold at most 1 wild, not 2."),
}


@htmx_or_not
@pytest.mark.parametrize("case", list(FRAYZY_REFUSALS))
def test_frayzy_refusals_are_422_and_change_nothing(case, htmx):
    position, before_moves, action, code, message = FRAYZY_REFUSALS[case]
    game = make_started_game(players=2, seed="frayzy-errors", variant="frayzy")
    put_position(game, frayzy(**position).deal)
    for earlier in before_moves:
        services.submit_move(seat_to_move(game).user, game.pk, game.version, earlier)
        game.refresh_from_db()
    before = snapshot(game)

    response = post_move(login(seat_to_move(game).user), game, action, game.version, htmx=htmx)

    assert_refused(response, 422, code, message, htmx)
    assert snapshot(game) == before


AMBIGUOUS = {
    "an action card and a discard": {"play_card": "SKIP", "action": "discard", "cards": ["R7"]},
    "an action card and a draw": {"play_card": "SKIP", "action": "draw_stock"},
    "two actions": {"action": ["discard", "lay_meld"], "cards": ["R7"]},
    "a lay-off and a discard": {"lay_off_on": "1", "action": "discard", "cards": ["R7"]},
    "two action cards": {"play_card": ["SKIP", "DRAW5"], "target": "2"},
}


@htmx_or_not
@pytest.mark.parametrize("case", list(AMBIGUOUS))
def test_a_form_naming_two_moves_is_400_and_changes_nothing(case, htmx):
    game = make_started_game(players=2, seed="frayzy-ambiguous", variant="frayzy")
    put_position(game, frayzy(hands=["R7 B12 SKIP DRAW5", "Y1 Y2"], melds=[(1, "R9 R10 R11")]).deal)
    before = snapshot(game)

    response = send(login(seat_to_move(game).user), game, {"version": str(game.version), **AMBIGUOUS[case]}, htmx)

    assert_refused(response, 400, "malformed", "Make one move at a time: this form asked for more than one.", htmx)
    assert snapshot(game) == before
