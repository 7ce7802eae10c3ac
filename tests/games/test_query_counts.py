"""SQL queries per request do not grow with the length of the game.

A draw, a discard and a board fetch are measured right after the deal and again after 100+ moves
spanning several hands; the counts must be equal, and are pinned with
``django_assert_max_num_queries``. ``pytest -s`` prints the figures.
"""
import pytest
from django.urls import reverse

from games.engine.cards import parse_card
from games.models import Card
from tests.factories import (current_deal, data_version, hand_keys, login, make_started_game, play_moves,
                             post_move, seat_to_move)

pytestmark = pytest.mark.django_db

BOARD_QUERIES = 9
"""GET /games/<id>/board (htmx): session, user, game, seats, deals, melds, cards, moves, results."""
PAGE_QUERIES = 9
"""GET /games/<id>/ (the whole page): the same as the board fragment."""
DRAW_QUERIES = 25
"""POST draw_stock (htmx): session and user (2); the move transaction (savepoint, game, seats, deals,
melds, cards, card update, deal update, move insert, game update, release: 12); the computer-turn
check (savepoint, game, seats, deals, release: 5); the fresh board (6)."""
DISCARD_QUERIES = 25
"""POST discard (htmx): as a draw."""
LATE_MOVES = 100
LATE_DEAL = 4


def ready_to_measure(game):
    """A person is to draw, the draw will not empty the stock and the discard will not end the hand."""
    deal = current_deal(game)
    stock = Card.objects.filter(deal=deal, location=Card.Location.STOCK).count()
    return deal.phase == "draw" and stock >= 2 and not deal.stalemate


def measure(game, django_assert_max_num_queries):
    """Fetch the board, draw and discard as the seat to move (htmx requests); return the query counts."""
    game.refresh_from_db()
    assert ready_to_measure(game)
    seat = seat_to_move(game)
    client = login(seat.user)
    counts = {}
    with django_assert_max_num_queries(BOARD_QUERIES) as captured:
        response = client.get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"})
    assert response.status_code == 200
    counts["board"] = len(captured)
    with django_assert_max_num_queries(PAGE_QUERIES) as captured:
        response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    counts["page"] = len(captured)
    version = game.version
    with django_assert_max_num_queries(DRAW_QUERIES) as captured:
        response = post_move(client, game, {"type": "draw_stock"}, version, htmx=True)
    assert response.status_code == 200 and data_version(response.content.decode()) == version + 1
    counts["draw"] = len(captured)
    card = sorted(hand_keys(game, seat))[0]
    with django_assert_max_num_queries(DISCARD_QUERIES) as captured:
        response = post_move(client, game, {"type": "discard", "card": card}, version + 1, htmx=True)
    assert response.status_code == 200 and data_version(response.content.decode()) == version + 2
    counts["discard"] = len(captured)
    game.refresh_from_db()
    return counts


def test_queries_per_request_do_not_grow_with_the_game(django_assert_max_num_queries):
    game = make_started_game(players=2, seed="queries-23", options={"target": 1000})
    early = measure(game, django_assert_max_num_queries)

    start = game.version
    play_moves(game, until=lambda g: (g.version - start >= LATE_MOVES and current_deal(g).number >= LATE_DEAL
                                      and ready_to_measure(g)), seed="queries-23")
    deal = current_deal(game)
    assert game.version - start >= LATE_MOVES and deal.number >= LATE_DEAL
    assert deal.melds.exists() or deal.number > 1
    late = measure(game, django_assert_max_num_queries)

    print(f"\nqueries per request: early (ply {start - 2}) {early}; late (ply {game.version - 2}, "
          f"hand {deal.number}) {late}")
    assert late == early


def test_wild_rummy_queries_per_request_do_not_grow_with_the_game(django_assert_max_num_queries):
    game = make_started_game(players=2, seed="queries-wild", variant="wild")
    play_moves(game, until=ready_to_measure, seed="queries-wild")
    early = measure(game, django_assert_max_num_queries)

    start = game.version
    play_moves(game, until=lambda g: (g.version - start >= LATE_MOVES and current_deal(g).number >= LATE_DEAL
                                      and ready_to_measure(g) and len(hand_keys(g, seat_to_move(g))) > 1),
               seed="queries-wild")
    assert current_deal(game).number >= LATE_DEAL
    late = measure(game, django_assert_max_num_queries)
    print(f"\nWild Rummy queries per request: early {early}; late {late}")
    assert late == early


def test_frustration_rummy_queries_per_request_do_not_grow_with_the_game(django_assert_max_num_queries):
    game = make_started_game(players=2, seed="queries-frustration", variant="frustration")
    play_moves(game, until=ready_to_measure, seed="queries-frustration")
    early = measure(game, django_assert_max_num_queries)

    start = game.version
    play_moves(game, until=lambda g: (g.version - start >= LATE_MOVES and current_deal(g).number >= LATE_DEAL
                                      and ready_to_measure(g)), seed="queries-frustration")
    assert current_deal(game).number >= LATE_DEAL
    late = measure(game, django_assert_max_num_queries)
    print(f"\nFrustration Rummy queries per request: early {early}; late {late}")
    assert late == early


def frayzy_ready(game):
    """``ready_to_measure``, and the seat to move would discard a number card (an action card is played, F8)."""
    if not ready_to_measure(game):
        return False
    keys = sorted(hand_keys(game, seat_to_move(game)))
    return len(keys) > 1 and parse_card(keys[0]).is_coloured


def test_frayzy_queries_per_request_do_not_grow_with_the_game(django_assert_max_num_queries):
    game = make_started_game(players=2, seed="queries-frayzy", variant="frayzy", options={"target": 1000})
    play_moves(game, until=frayzy_ready, seed="queries-frayzy")
    early = measure(game, django_assert_max_num_queries)

    start = game.version
    play_moves(game, until=lambda g: (g.version - start >= LATE_MOVES and current_deal(g).number >= LATE_DEAL
                                      and frayzy_ready(g)), seed="queries-frayzy")
    assert current_deal(game).number >= LATE_DEAL
    late = measure(game, django_assert_max_num_queries)
    print(f"\nFrayzy queries per request: early {early}; late {late}")
    assert late == early
