"""Two games finishing at once for the same new player (PostgreSQL row locks): both are rated,
one after the other, and the finishing moves never fail on the player's first Rating row."""
import threading
import time

import pytest
from django.db import connection, connections, transaction

from games.models import Seat
from records import ratings
from records.models import Rating, RatingChange
from tests.factories import make_table, make_user

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are only real on PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]

HOLD_SECONDS = 0.3


def test_two_games_finishing_at_once_for_a_new_player_are_rated_one_after_the_other():
    ana = make_user("ana")
    games = [make_table(), make_table()]
    tables = [[Seat(position=0, user=ana, place=1), Seat(position=1, user=make_user(), place=2)] for _ in games]
    barrier = threading.Barrier(2)
    errors = []

    def finish(game, seats):
        try:
            barrier.wait(timeout=10)
            with transaction.atomic():
                ratings.rate_game(game, seats)
                time.sleep(HOLD_SECONDS)
        except Exception as error:  # noqa: BLE001 - the test reports whatever went wrong
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=finish, args=pair) for pair in zip(games, tables)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    rating = Rating.objects.get(user=ana, variant="standard")
    first, second = RatingChange.objects.filter(user=ana).order_by("created_at", "id")
    assert rating.games == 2
    assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)
    assert (rating.mu, rating.sigma) == (second.mu_after, second.sigma_after)
