"""Replay perspective (issue 8): while a game is in play a player sees only their own seat and
only up to the latest move; a spectator sees no hand; after the game everything is face up.

Each step is rebuilt with the engine here and every ``data-card`` in the replay fragment is
checked against what that viewer may know at that step: their own hand, the melds on the table
and the top of the discard pile. No other card may reach the page.
"""
import itertools
import re

import pytest

from games.engine.melds import show
from games.models import Game
from records.replay import logged_moves, replay
from tests.factories import login, make_user
from tests.records.helpers import people_game

pytestmark = pytest.mark.django_db

CARD = re.compile(r'data-card="([^"]+)"')


def fragment(client, game, step):
    response = client.get(f"/games/{game.pk}/replay?step={step}", headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def public_cards(deal):
    table = {c.key for meld in deal.melds for c in meld.shape.cards}
    return table | ({deal.discard[-1].key} if deal.discard else set())


@pytest.mark.parametrize("variant", ["standard", "wild", "frustration"])
def test_in_play_a_player_sees_only_their_own_hand_at_every_step(variant):
    game = people_game(variant, humans=2, seed=f"perspective-{variant}", moves=30)
    assert game.status == Game.Status.ACTIVE
    moves = logged_moves(game)
    assert len(moves) == 30
    seats = list(game.seats.select_related("user").order_by("position"))
    for seat in seats:
        client = login(seat.user)
        other = 1 - seat.position
        for step in range(len(moves) + 1):
            state, _ = replay(game, moves, step)
            html = fragment(client, game, step)
            shown = set(CARD.findall(html))
            own = {c.key for c in state.deal.hands[seat.position]}
            assert shown <= own | public_cards(state.deal), (step, shown - own - public_cards(state.deal))
            assert own <= shown
            hidden = {c.key for c in state.deal.hands[other]} | {c.key for c in state.deal.stock}
            assert not hidden & shown - public_cards(state.deal)
            assert html.count("card-back") >= len(state.deal.hands[other])
            assert 'data-face-up="0"' in html and 'data-testid="replay-stock"' not in html


def test_in_play_the_replay_stops_at_the_latest_move():
    game = people_game("standard", humans=2, seed="perspective-now", moves=6)
    client = login(game.seats.get(position=0).user)
    html = fragment(client, game, 500)
    assert 'data-step="6"' in html and 'data-last-step="6"' in html
    assert "replay-forward" not in html


def test_a_spectator_of_a_public_game_in_play_sees_no_hand():
    game = people_game("standard", humans=2, seed="perspective-spectator", moves=20)
    moves = logged_moves(game)
    client = login(make_user())
    for step in (0, 7, 20):
        state, _ = replay(game, moves, step)
        shown = set(CARD.findall(fragment(client, game, step)))
        assert shown <= public_cards(state.deal)


def test_after_the_game_every_hand_and_the_stock_are_face_up():
    game = people_game("standard", humans=2, seed="perspective-finished")
    assert game.status == Game.Status.FINISHED
    moves = logged_moves(game)
    client = login(make_user())
    state, ended = replay(game, moves, 10)
    shown = set(CARD.findall(fragment(client, game, 10)))
    deal = ended or state.deal
    assert shown == {c.key for c in deal.all_cards()}


def test_the_caption_names_a_drawn_card_only_after_the_game():
    finished = people_game("standard", humans=2, seed="caption-finished")
    moves = logged_moves(finished)
    draw = next(m for m in moves if m.action["type"] == "draw_stock")
    before, _ = replay(finished, moves, draw.step - 1)
    html = fragment(login(make_user()), finished, draw.step)
    name = finished.seats.get(position=draw.seat).name
    assert f"{name} drew {show(before.deal.stock[-1])} from the stock." in html
    playing = people_game("standard", humans=2, seed="caption-playing", moves=8)
    moves = logged_moves(playing)
    draw = next(m for m in moves if m.action["type"] == "draw_stock")
    seat = playing.seats.get(position=draw.seat)
    assert f"{seat.name} drew from the stock." in fragment(login(seat.user), playing, draw.step)


def test_a_deals_last_move_is_labelled_with_that_deal():
    """In play the step after a deal's last move shows the next deal's table, but the move, and its
    caption, belong to the deal it ended."""
    game = people_game("frustration", humans=2, seed="caption-deal", moves=150)
    moves = logged_moves(game)
    last = next(m for m, after in itertools.pairwise(moves) if after.deal != m.deal)
    assert game.status == Game.Status.ACTIVE and last.deal == 1
    client = login(game.seats.get(position=0).user)
    assert f"· round {last.deal} ·" in fragment(client, game, last.step)
    assert f"· round {last.deal + 1} ·" in fragment(client, game, last.step + 1)
