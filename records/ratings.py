"""OpenSkill ratings per user and game type (issue 8, "Ratings").

A finished game is rated when every seat is a person who played it themselves: a computer player
makes it unrated (``computer``), and so does a seat most of whose moves were made for it by
someone or something else (``autopilot``: Move.actor other than ``player``, e.g. the autopilot
or a moderator). Rating uses OpenSkill's Plackett-Luce model, which takes a finishing order of 2-4
players with shared places for ties.

A voided game counts for nothing (``unrate_game``): its rating changes are deleted and every rated
game of its type finished after it that its players' ratings reached, directly or through later
opponents, is rated again in finishing order, so the ratings are exactly what rating the remaining
games alone would give.
"""
from __future__ import annotations

from collections import Counter
from itertools import groupby

from django.db.models import Count
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Game, Move, Seat

from .models import PlayerResult, Rating, RatingChange

MODEL = PlackettLuce()
"""The rating model; new players start at its defaults (mu 25, sigma 25/3)."""

AUTOPILOT_SHARE = 0.5
"""A seat whose share of moves not made by its player exceeds this makes the game unrated."""


def unrated_reason(seats: list[Seat], moves_by_actor: Counter) -> str:
    """Why a game with ``seats`` is unrated, or ``""`` when it is rated.

    ``moves_by_actor`` counts moves by ``(seat id, actor)``. Returns
    ``PlayerResult.UnratedReason.COMPUTER`` when any seat is (now) a computer player, ``AUTOPILOT``
    when any seat made more than ``AUTOPILOT_SHARE`` of its moves with an actor other than
    ``"player"``."""
    if any(seat.is_bot for seat in seats):
        return PlayerResult.UnratedReason.COMPUTER
    for seat in seats:
        own = moves_by_actor[(seat.pk, Move.Actor.PLAYER)]
        total = sum(n for (seat_id, _), n in moves_by_actor.items() if seat_id == seat.pk)
        if total and (total - own) / total > AUTOPILOT_SHARE:
            return PlayerResult.UnratedReason.AUTOPILOT
    return PlayerResult.UnratedReason.NONE


def moves_by_actor(game: Game) -> Counter:
    """Count ``game``'s moves by ``(seat id, actor)``: one query."""
    rows = Move.objects.filter(game=game).values_list("seat_id", "actor")
    return Counter(rows)


def rate_game(game: Game, seats: list[Seat]) -> list[RatingChange]:
    """Update the ratings of the players of the finished, rated ``game`` from their places
    (``Seat.place``, 1 = first; equal places are ties) and return the RatingChange rows written.

    A player's first rating in a game type starts at the model's defaults. The Rating rows are
    inserted if missing (a concurrent insert of the same row is not an error) and then locked
    (``select_for_update``), so two games finishing at once for one player apply one after the
    other. Four queries for any table size.
    """
    users = [seat.user_id for seat in seats]
    Rating.objects.bulk_create([Rating(user_id=user, variant=game.variant, mu=MODEL.mu, sigma=MODEL.sigma)
                                for user in users], ignore_conflicts=True)
    locked = {r.user_id: r for r in Rating.objects.select_for_update().filter(user_id__in=users, variant=game.variant)}
    ratings = [locked[user] for user in users]
    updated = rate_table([(r.mu, r.sigma) for r in ratings], [seat.place for seat in seats])
    changes, now = [], timezone.now()
    for rating, (mu, sigma) in zip(ratings, updated):
        changes.append(RatingChange(user_id=rating.user_id, variant=game.variant, game=game, mu_before=rating.mu,
                                    sigma_before=rating.sigma, mu_after=mu, sigma_after=sigma))
        rating.mu, rating.sigma, rating.games, rating.updated_at = mu, sigma, rating.games + 1, now
    Rating.objects.bulk_update(ratings, ["mu", "sigma", "games", "updated_at"])
    return RatingChange.objects.bulk_create(changes)


def rate_table(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """The ``(mu, sigma)`` of each player after one rated game, from their ``(mu, sigma)`` before
    it and their ``places`` (1 = first, equal places are ties), in the same order: the one use of
    the rating model."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(after.mu, after.sigma) for [after] in MODEL.rate(teams, ranks=places)]


def unrate_game(game: Game) -> list[int]:
    """Undo the rating effect of ``game`` (being voided) and return the ids of the users whose
    rating in its game type was rebuilt, sorted.

    The game's RatingChange rows are deleted. Starting from its players' ratings before it, the
    rated games of the same type that finished after it (``PlayerResult.rated``, in finishing
    order: ``finished_at``, then game id) are rated again with ``rate_table`` whenever a player
    whose rating was rebuilt sits at the table; that game's other players are rebuilt from then on
    too, the rest keep their recorded ratings. Their RatingChange rows are rewritten and their
    Rating rows set to the last result (a user left with no rated game of the type loses the row,
    as if never rated).

    Every rebuilt user's Rating row is locked (``select_for_update``) before their games are read
    for the last time: a pass that reaches players not yet locked locks them and reads again
    (usually two passes of three queries), so a game finishing meanwhile is either read here or
    rated after this transaction on top of the rebuilt rating. Must run inside a transaction; an
    unrated game changes nothing.
    """
    voided = list(RatingChange.objects.filter(game=game))
    if not voided:
        return []
    variant = game.variant
    start = {change.user_id: (change.mu_before, change.sigma_before) for change in voided}
    locked = _lock(start, variant)
    while True:
        rebuilt, rewritten = _rate_again(game, start)
        if rebuilt.keys() <= locked.keys():
            break
        locked.update(_lock(rebuilt.keys() - locked.keys(), variant))
    RatingChange.objects.filter(game=game).delete()
    RatingChange.objects.bulk_update(rewritten, ["mu_before", "sigma_before", "mu_after", "sigma_after"])
    _store(rebuilt, [locked[user] for user in rebuilt], variant)
    return sorted(rebuilt)


def _rate_again(game: Game, start: dict[int, tuple[float, float]]) -> tuple[dict, list[RatingChange]]:
    """One pass of ``unrate_game``: rate again, from the ``(mu, sigma)`` per user in ``start``, the
    rated games of ``game``'s type after it that the rebuilt users reached. Returns the rebuilt
    users' last ``(mu, sigma)`` and the RatingChange rows changed (not saved)."""
    later = (PlayerResult.objects.filter(variant=game.variant, rated=True, finished_at__gte=game.finished_at)
             .exclude(finished_at=game.finished_at, game_id__lte=game.pk)
             .order_by("finished_at", "game_id", "position").values_list("game_id", "user_id", "place"))
    tables = [(game_id, [(user, place) for _, user, place in rows]) for game_id, rows in groupby(later, lambda r: r[0])]
    changes = {(c.game_id, c.user_id): c for c in RatingChange.objects.filter(
        variant=game.variant, game__finished_at__gte=game.finished_at).exclude(game=game)}
    rebuilt, rewritten = dict(start), []
    for game_id, table in tables:
        if not any(user in rebuilt for user, _ in table):
            continue
        rows = [changes[(game_id, user)] for user, _ in table]
        before = [rebuilt.get(row.user_id, (row.mu_before, row.sigma_before)) for row in rows]
        for row, (mu, sigma), after in zip(rows, before, rate_table(before, [place for _, place in table])):
            row.mu_before, row.sigma_before, (row.mu_after, row.sigma_after) = mu, sigma, after
            rebuilt[row.user_id] = after
            rewritten.append(row)
    return rebuilt, rewritten


def _lock(users, variant: str) -> dict[int, Rating]:
    rows = Rating.objects.select_for_update().filter(user_id__in=users, variant=variant).order_by("user_id")
    return {rating.user_id: rating for rating in rows}


def _store(latest: dict[int, tuple[float, float]], rows: list[Rating], variant: str) -> None:
    """Set the locked Rating ``rows`` to their users' ``(mu, sigma)`` in ``latest`` and their rated
    game count; delete the rows of users with no rated game of ``variant`` left."""
    counts = dict(RatingChange.objects.filter(user_id__in=latest, variant=variant)
                  .values("user_id").annotate(n=Count("id")).values_list("user_id", "n"))
    now = timezone.now()
    for rating in rows:
        rating.mu, rating.sigma = latest[rating.user_id]
        rating.games, rating.updated_at = counts.get(rating.user_id, 0), now
    Rating.objects.filter(pk__in=[r.pk for r in rows if not r.games]).delete()
    Rating.objects.bulk_update([r for r in rows if r.games], ["mu", "sigma", "games", "updated_at"])
