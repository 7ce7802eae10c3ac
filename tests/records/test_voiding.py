"""A voided game counts for nothing: it leaves the match history, the profile statistics and the
recent games, and the ratings are rebuilt exactly as if it had never been rated."""
from datetime import timedelta

import pytest

from games.models import Game, Seat
from moderation import services as moderation
from records import ratings
from records.benchmark import START
from records.history import HistoryFilters, filtered, variant_stats
from records.models import PlayerResult, Rating, RatingChange
from records.services import record_finished_game
from tests.factories import login, make_user
from tests.moderators import make_moderator
from tests.records.helpers import people_game

pytestmark = pytest.mark.django_db

REASON = "Collusion between the two players."


def finished_game(table: list, places: list[int], minute: int, variant: str = "standard") -> Game:
    """A finished game of ``variant`` between the users ``table`` (seat order) with ``places``,
    finished ``minute`` minutes after START, recorded and rated by ``record_finished_game`` (no
    moves and no computer players: rated)."""
    finished = START + timedelta(minutes=minute)
    game = Game.objects.create(variant=variant, players=len(table), status=Game.Status.FINISHED,
                               created_by=table[0], started_at=finished - timedelta(minutes=20), finished_at=finished)
    seats = Seat.objects.bulk_create(Seat(game=game, position=p, user=user, place=place, total=10 * place)
                                     for p, (user, place) in enumerate(zip(table, places)))
    record_finished_game(game, seats)
    return game


def rating_state() -> tuple[dict, dict]:
    """Every Rating as ``(user, variant) -> (mu, sigma, games)`` and every RatingChange as
    ``(game, user) -> (mu before, sigma before, mu after, sigma after)``, exact floats."""
    current = {(r.user_id, r.variant): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    changes = {(c.game_id, c.user_id): (c.mu_before, c.sigma_before, c.mu_after, c.sigma_after)
               for c in RatingChange.objects.all()}
    return current, changes


def rate_afresh(games: list[Game]) -> tuple[dict, dict]:
    """``rating_state`` after forgetting every rating and rating ``games`` again in order."""
    Rating.objects.all().delete()
    RatingChange.objects.all().delete()
    for game in games:
        ratings.rate_game(game, list(game.seats.order_by("position")))
    return rating_state()


def test_voiding_rebuilds_the_ratings_exactly_as_if_the_game_had_never_been_rated():
    ana, bo, cy, dee, eve, fay = (make_user(name) for name in ("ana", "bo", "cy", "dee", "eve", "fay"))
    before_void = [
        finished_game([ana, bo], [1, 2], 0),
        finished_game([fay, bo], [2, 1], 5),
    ]
    voided = finished_game([ana, cy, eve], [1, 3, 2], 10)
    after_void = [
        finished_game([cy, dee], [2, 1], 20),  # dee's rating is reached through cy
        finished_game([ana, bo, cy], [1, 1, 3], 30),  # a shared first place
        finished_game([dee, bo], [1, 2], 40),
        finished_game([fay, bo], [1, 2], 40),  # same finishing time: game id decides the order
        finished_game([cy, fay], [1, 2], 50),
    ]
    wild = finished_game([ana, eve], [2, 1], 35, variant="wild")
    rated_before, changes_before = rating_state()
    moderation.void_game(make_moderator(), voided.pk, REASON)
    rated_after, changes_after = rating_state()

    assert not RatingChange.objects.filter(game=voided).exists()
    # eve's only Standard game was the voided one: no Standard rating left, her Wild one untouched.
    assert (eve.pk, "standard") not in rated_after and rated_after[(eve.pk, "wild")] == rated_before[(eve.pk, "wild")]
    assert rated_after[(ana.pk, "standard")][2] == rated_before[(ana.pk, "standard")][2] - 1 == 2
    # Everyone the voided game reached, directly or through later opponents, has another rating.
    for user in (ana, bo, cy, dee, fay):
        assert rated_after[(user.pk, "standard")][:2] != rated_before[(user.pk, "standard")][:2], user
    # Games before it, and the Wild game, keep their changes.
    for game in [*before_void, wild]:
        for key, change in changes_before.items():
            if key[0] == game.pk:
                assert changes_after[key] == change
    assert (rated_after, changes_after) == rate_afresh([*before_void, *after_void, wild])


def test_voiding_a_players_only_rated_game_leaves_no_rating_behind():
    ana, bo = make_user("ana"), make_user("bo")
    only = finished_game([ana, bo], [1, 2], 0)
    moderation.void_game(make_moderator(), only.pk, REASON)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert not PlayerResult.objects.exists()


def test_a_voided_game_leaves_the_history_the_statistics_and_the_recent_games():
    ana, bo = make_user("ana"), make_user("bo")
    kept = finished_game([ana, bo], [2, 1], 0)
    game = people_game("standard", humans=[ana, bo], seed="void-history")
    client = login(ana)
    assert f'data-game="{game.pk}"' in client.get("/players/ana/").content.decode()

    moderation.void_game(make_moderator(), game.pk, REASON)

    assert list(filtered(ana, HistoryFilters()).values_list("game_id", flat=True)) == [kept.pk]
    assert [(row.played, row.won, row.average_place) for row in variant_stats(ana)] == [(1, 0, 2.0)]
    history = client.get("/players/ana/games").content.decode()
    profile = client.get("/players/ana/").content.decode()
    for page in (history, profile):
        assert f'data-game="{game.pk}"' not in page and f'data-game="{kept.pk}"' in page
    record = client.get(f"/games/{game.pk}/record")
    assert record.status_code == 200
    assert 'data-testid="voided-notice"' in record.content.decode()
    assert 'data-testid="voided-notice"' not in client.get(f"/games/{kept.pk}/record").content.decode()
    # Its standings stay on the game's own record.
    assert sorted(game.seats.values_list("place", flat=True)) == [1, 2]
