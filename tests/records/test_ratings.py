"""OpenSkill ratings: updated when a game between people finishes, unrated with a computer
player or a seat played mostly by someone else (autopilot), history kept per game."""
from collections import Counter

import pytest

from games.models import Move, Seat
from records import ratings
from records.models import PlayerResult, Rating, RatingChange
from records.services import record_finished_game
from tests.factories import make_user
from tests.records.helpers import computer_game, people_game

pytestmark = pytest.mark.django_db


def test_a_finished_game_between_people_is_recorded_and_rated():
    game = people_game("standard", humans=2, seed="rated-standard")
    seats = {s.position: s for s in game.seats.select_related("user")}
    results = {r.position: r for r in PlayerResult.objects.filter(game=game)}
    assert sorted(results) == [0, 1]
    for position, result in results.items():
        assert (result.place, result.total, result.user_id) == (seats[position].place, seats[position].total,
                                                                  seats[position].user_id)
        assert result.rated and result.unrated_reason == "" and result.finished_at == game.finished_at
    winner = next(s for s in seats.values() if s.place == 1)
    loser = next(s for s in seats.values() if s.place == 2)
    won = Rating.objects.get(user=winner.user, variant="standard")
    lost = Rating.objects.get(user=loser.user, variant="standard")
    assert won.mu > ratings.MODEL.mu > lost.mu and won.games == lost.games == 1
    change = RatingChange.objects.get(game=game, user=winner.user)
    assert (change.mu_before, change.mu_after) == (ratings.MODEL.mu, won.mu) and change.delta > 0
    assert RatingChange.objects.get(game=game, user=loser.user).delta < 0


def test_a_second_game_starts_from_the_first_ones_rating():
    ana, bo = make_user("ana"), make_user("bo")
    people_game("standard", humans=[ana, bo], seed="rated-twice-1")
    first = Rating.objects.get(user=ana, variant="standard")
    people_game("standard", humans=[ana, bo], seed="rated-twice-2")
    second = RatingChange.objects.filter(user=ana, variant="standard").order_by("created_at", "id").last()
    assert (second.mu_before, second.sigma_before) == (first.mu, first.sigma)
    assert Rating.objects.get(user=ana, variant="standard").games == 2
    assert not Rating.objects.filter(variant="wild").exists()


def test_a_game_with_a_computer_player_is_recorded_but_unrated():
    game = people_game("standard", humans=1, seed="unrated-computer")
    result = PlayerResult.objects.get(game=game)
    assert not result.rated and result.unrated_reason == PlayerResult.UnratedReason.COMPUTER
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not PlayerResult.objects.filter(game=computer_game("standard", seed="unrated-bots")).exists()


def test_a_seat_mostly_on_autopilot_makes_the_game_unrated():
    game = people_game("standard", humans=2, seed="unrated-autopilot")
    PlayerResult.objects.filter(game=game).delete()
    seat = game.seats.get(position=1)
    own_moves = list(Move.objects.filter(game=game, seat=seat).order_by("ply").values_list("pk", flat=True))
    Move.objects.filter(pk__in=own_moves[: len(own_moves) // 2 + 1]).update(actor="autopilot")
    results = record_finished_game(game, list(game.seats.select_related("user").order_by("position")))
    assert {(r.rated, r.unrated_reason) for r in results} == {(False, "autopilot")}


def test_unrated_reason_counts_each_seat_on_its_own():
    seats = [Seat(pk=1, position=0, user_id=1), Seat(pk=2, position=1, user_id=2)]
    half = Counter({(1, "player"): 10, (2, "player"): 5, (2, "autopilot"): 5})
    assert ratings.unrated_reason(seats, half) == ""
    most = Counter({(1, "player"): 10, (2, "player"): 4, (2, "autopilot"): 6})
    assert ratings.unrated_reason(seats, most) == "autopilot"
    bot = [seats[0], Seat(pk=3, position=1, bot_level="simple")]
    assert ratings.unrated_reason(bot, Counter()) == "computer"


def test_four_player_finishing_order_with_a_tie():
    game = people_game("standard", humans=2, seed="rated-four")
    users = [make_user() for _ in range(4)]
    seats = [Seat(game=game, position=p, user=u, place=place) for p, (u, place) in enumerate(zip(users, [2, 1, 4, 2]))]
    ratings.rate_game(game, seats)
    mu = {u.pk: Rating.objects.get(user=u, variant="standard").mu for u in users}
    assert mu[users[1].pk] > mu[users[0].pk] > mu[users[2].pk]
    assert mu[users[0].pk] == pytest.approx(mu[users[3].pk])


def test_record_finished_games_backfills_games_finished_before_the_records_app():
    from io import StringIO

    from django.core.management import call_command

    game = people_game("standard", humans=2, seed="backfill")
    PlayerResult.objects.all().delete()
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    out = StringIO()
    call_command("record_finished_games", stdout=out)
    assert "Recorded 1 finished game." in out.getvalue()
    assert PlayerResult.objects.filter(game=game, rated=True).count() == 2
    assert RatingChange.objects.filter(game=game).count() == 2
    call_command("record_finished_games", stdout=out)
    assert "Recorded 0 finished games." in out.getvalue()
