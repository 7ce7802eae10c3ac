"""OpenSkill ratings per user and game type (issue 8, "Ratings").

A finished game is rated when every seat is a person who played it themselves: a computer player
makes it unrated (``computer``), and so does a seat most of whose moves were made for it by
someone or something else (``autopilot``: Move.actor other than ``player``, e.g. the autopilot
or a moderator). Rating uses OpenSkill's Plackett-Luce model, which takes a finishing order of 2-4
players with shared places for ties.
"""
from __future__ import annotations

from collections import Counter

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
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    updated = MODEL.rate(teams, ranks=[seat.place for seat in seats])
    changes, now = [], timezone.now()
    for rating, [after] in zip(ratings, updated):
        changes.append(RatingChange(user_id=rating.user_id, variant=game.variant, game=game, mu_before=rating.mu,
                                    sigma_before=rating.sigma, mu_after=after.mu, sigma_after=after.sigma))
        rating.mu, rating.sigma, rating.games, rating.updated_at = after.mu, after.sigma, rating.games + 1, now
    Rating.objects.bulk_update(ratings, ["mu", "sigma", "games", "updated_at"])
    return RatingChange.objects.bulk_create(changes)
