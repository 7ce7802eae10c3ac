"""A moderator's seat handover racing the seat's own move (PostgreSQL row locks): both lock the game
row, so either the move lands first and the computer takes over after it, or the handover lands
first and the move is refused because the player no longer holds the seat; never both half-way."""
import pytest
from django.db import connection

from games import services
from games.models import Move, Seat
from moderation import services as moderation
from moderation.models import AuditEntry
from tests.factories import make_started_game, seat_to_move
from tests.games.test_concurrency import label, race_calls
from tests.moderators import make_moderator

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locking (select_for_update) is only real on PostgreSQL; set DATABASE_URL"),
    pytest.mark.django_db(transaction=True),
]


@pytest.mark.parametrize("hold", [0.0, 0.3])
def test_handover_racing_the_seats_move(hold, monkeypatch):
    game = make_started_game(players=2, seed=f"race-handover-{hold}")
    seat = seat_to_move(game)
    person, moderator = seat.user, make_moderator()
    outcomes = race_calls([
        lambda: services.submit_move(person, game.pk, game.version, {"type": "draw_stock"}),
        lambda: moderation.hand_seat_to_computer(moderator, game.pk, seat.position, "Stuck for an hour."),
    ], hold, monkeypatch)
    move, handover = (label(outcome) for outcome in outcomes)
    assert handover == "applied"
    assert move in ("applied", "403 not_seated")
    seat = Seat.objects.get(pk=seat.pk)
    assert seat.is_bot and seat.former_user == person
    player_moves = Move.objects.filter(game=game, seat=seat, actor=Move.Actor.PLAYER).count()
    assert player_moves == (1 if move == "applied" else 0)
    assert AuditEntry.objects.filter(action="replace_seat", game=game).count() == 1
