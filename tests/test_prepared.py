"""Prepared queries (``rummy_site.prepared``) answer exactly what the ORM answers for the same
query: the same instances with the same fields, related rows and annotations, and the same
values_list rows, on SQLite and on PostgreSQL; a query that cannot be prepared is refused."""
import datetime as dt

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import Absence
from games import store
from games.models import Game, Seat
from games.services import access
from rummy_site.prepared import PreparedQuery
from tests.factories import current_deal, make_started_game, make_user, play_moves

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    """Every concrete field of ``instance`` by attribute name (foreign keys as ids)."""
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def seat_facts(seat: Seat) -> tuple:
    return (fields(seat), fields(seat.game), seat.user and fields(seat.user),
            seat.former_user and fields(seat.former_user), getattr(seat, "away", None),
            getattr(seat, "waiting_elsewhere", None))


@pytest.fixture
def busy_game():
    """A three-seat game several hands in, one person away, another waited on elsewhere too, and a
    computer seat that a person left (a former user)."""
    game = make_started_game(players=3, humans=2, seed="prepared", options={"target": 1000})
    play_moves(game, until=lambda g: current_deal(g).number >= 2)
    ana, ben = (seat.user for seat in game.seats.exclude(user=None).order_by("position"))
    now = timezone.now()
    Absence.objects.create(user=ana, starts_at=now - dt.timedelta(hours=1), ends_at=now + dt.timedelta(days=1))
    make_started_game(players=2, humans=[ben], seed="prepared-elsewhere")  # the computer plays: Ben is to move
    computer = game.seats.filter(user=None).first()
    computer.former_user = make_user("left-the-table")
    computer.save(update_fields=["former_user"])
    game.refresh_from_db()
    return game


def test_the_seats_with_their_game_users_and_annotations_are_the_orms(busy_game):
    with transaction.atomic():
        now = timezone.now()
        expected = [seat_facts(seat) for seat in access._seats_query(busy_game.pk, now)]
        prepared = [seat_facts(seat) for seat in access.LOCKED_SEATS.run(game_id=busy_game.pk, now=now)]
    assert prepared == expected
    assert [facts[4:] for facts in prepared] == [(True, 0), (False, 1), (False, 0)]  # Ana away, Ben waited on
    assert prepared[2][3]["username"] == "left-the-table" and prepared[2][2] is None
    assert [seat_facts(seat) for seat in access.SEATS.run(game_id=busy_game.pk)] == \
           [seat_facts(seat) for seat in access._seats_query(busy_game.pk)]
    assert access.SEATS.run(game_id=-1) == []


def test_deals_cards_and_latest_moves_are_the_orms(busy_game):
    deals = store.DEALS.run(game_id=busy_game.pk)
    assert [fields(deal) for deal in deals] == [fields(deal) for deal in busy_game.deals.order_by("number")]
    assert isinstance(deals[0].result, dict) and deals[0].ended_at.tzinfo is not None
    deal = deals[-1]
    assert store.PLACED_CARDS.run(deal_id=deal.pk) == list(store.PLACED_CARDS.build(deal_id=deal.pk))
    moves = access.LATEST_MOVES.run(game_id=busy_game.pk)
    orm = access.LATEST_MOVES.build(game_id=busy_game.pk)
    assert [(fields(move), move.step) for move in moves] == [(fields(move), move.step) for move in orm]
    assert len(moves) == access.RECENT_MOVES and isinstance(moves[0].action, dict)


def test_the_board_read_through_prepared_queries_is_the_board_of_a_move(busy_game):
    """The service's board (prepared reads) has the state the engine replays from the rows."""
    ana = busy_game.seats.get(position=0).user
    board = access.access_board(ana, busy_game.pk)
    assert board.view.hand == store.load_state(store.load_rows(busy_game)).player_view(0).hand
    assert [move.step for move in board.last_moves] == sorted((move.step for move in board.last_moves), reverse=True)


def test_a_value_that_reaches_the_sql_twice_or_not_at_all_is_refused():
    twice = PreparedQuery(lambda game_id: Game.objects.filter(pk=game_id, created_by_id=game_id), game_id=int)
    with pytest.raises(ValueError, match="2 times"):
        twice.run(game_id=1)
    unused = PreparedQuery(lambda game_id: Game.objects.filter(pk=1), game_id=int)
    with pytest.raises(ValueError, match="0 times"):
        unused.run(game_id=1)


def test_only_instances_and_values_list_rows_are_prepared():
    dicts = PreparedQuery(lambda game_id: Game.objects.filter(pk=game_id).values("pk"), game_id=int)
    with pytest.raises(ValueError, match="values_list"):
        dicts.run(game_id=1)
