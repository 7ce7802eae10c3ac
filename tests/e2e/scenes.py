"""Tables and pages for the look-and-feel browser tests: every game in a chosen position, between
people only (no computer moves while a page is looked at), and every other kind of page.

``TABLE_SCENES`` name positions of each game (draw phase, play phase, Frustration's contract
and a table after it, Frayzy's pending Draw 5 start card, ...); ``make_table_scene`` puts one on a fresh table.
"""
from __future__ import annotations

from games import services
from games.models import Seat
from tests.engine.builders import build, frayzy, frustration, wild
from tests.factories import make_started_game, make_table, make_user, play_moves, put_position

STANDARD_DRAW = ("standard", 2, lambda: build(
    ["2C 3C 4C 9D 9H JS QS KH 5D 7S", "AH 2H 3H 8C 8D 4S 6D"],
    melds=[(0, "5S 5H 5C"), (1, "10D JD QD KD"), (1, "7H 7C 7D")], discard="3S 8S QC", turn=0, phase="draw"))
STANDARD_PLAY = ("standard", 2, lambda: build(
    ["2C 3C 4C 9D 9H JS QS KH 5D 7S 9C", "AH 2H 3H 8C 8D 4S 6D"],
    melds=[(0, "5S 5H 5C"), (1, "10D JD QD KD"), (1, "7H 7C 7D")], discard="3S 8S QC", turn=0, phase="play"))
WILD_PLAY = ("wild", 3, lambda: wild(
    ["4C 5C 6H 9S 9D 4D KC QC", "KH QH JS 2D 3D 4S 8H", "2C 3S 7C 8C JC"],
    melds=[(1, "5H AS=6H 7H"), (2, "9C 10C AD=JC"), (2, "5D AC=6D AH=7D 8D")], discard="2S 6C", turn=0, pending="6H"))
FRUSTRATION_CONTRACT = ("frustration", 2, lambda: frustration(
    ["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS AH QD", "KH QH JS"], totals=[1, 3]))
FRUSTRATION_WILD_HAND = ("frustration", 2, lambda: frustration(
    ["2C 5S 5H JK 7H 7H~1 2D 7S 9C JK~1 9D 2S KS QD", "KH QH JS"], totals=[1, 3]))
"""The trial's 14-card hand at 320 px (issue 19): five wilds (2s and jokers) among the cards."""
FRUSTRATION_LAID = ("frustration", 2, lambda: frustration(
    ["5S 7H 9C 2C QD", "KH QH JS 4D 6C 8C 10S AD"], melds=[(0, "9D 9H 9S"), (0, "4C 4H JK=4"), (0, "KD KS KC")],
    laid_down=[True, False], totals=[1, 3]))
FRAYZY_PLAY = ("frayzy", 3, lambda: frayzy(
    ["R7 B12 W SKIP DRAW5 G3 Y5 Y6 B4 R11", "Y1 Y2 Y3 B1 B2", "G1 G2 G4 G5"],
    melds=[(1, "R9 W~1=R10 R11~1 R12"), (2, "Y7 Y8 Y9 Y10 Y11"), (0, "G6 B6 R6 Y6~1")], discard="SKIP~1 Y12"))
FRAYZY_FULL_HAND = ("frayzy", 3, lambda: frayzy(
    ["G2 G6 G8 R4 R9 R10 Y4 Y10 DRAW5 W W~1", "Y1 Y2 Y3 B1 B2 B3 B4", "G1 G3 G4 G5 G7"],
    melds=[(1, "B10 G10 R10~1 G10~1 Y10~1"), (2, "B5 B6 W~2=B7")], discard="R12"))
"""The trial's hand (issue 18): eleven cards, the long colour words and two Wilds side by side."""
FRAYZY_START_DRAW_FIVE = ("frayzy", 2, lambda: frayzy(
    ["R7 B3 G9 Y4 R1 B8 G11", "Y1 Y2 B5 B6 R3 R4 G7"], discard="DRAW5", phase="choose_target", turn=0, dealer=0))
FRAYZY_START_DISCARD_ONE = ("frayzy", 2, lambda: frayzy(
    ["R7 B3 G9 Y4 R1 B8 G11 Y9", "Y1 Y2 B5 B6 R3 R4 G7"], discard="DISCARD1 R5"))
"""A Discard 1 turned up to start the pile: its small start card ("DISCA 1" at 320 px, issue 19)."""
FRAYZY_CLOSED = ("frayzy", 2, lambda: frayzy(
    ["R7 B3 G9 Y4 R1 B8 G11", "Y1 Y2 B5 B6 R3 R4 G7"], discard="R5 Y12 DISCARD1", phase="draw"))
"""A Discard 1 on top of the pile: the pile is closed (F6) and says so under its card."""

TABLE_SCENES = {
    "standard-draw": STANDARD_DRAW,
    "standard-play": STANDARD_PLAY,
    "wild-play": WILD_PLAY,
    "frustration-contract": FRUSTRATION_CONTRACT,
    "frustration-wild-hand": FRUSTRATION_WILD_HAND,
    "frustration-laid": FRUSTRATION_LAID,
    "frayzy-play": FRAYZY_PLAY,
    "frayzy-draw-five": FRAYZY_START_DRAW_FIVE,
    "frayzy-discard-one": FRAYZY_START_DISCARD_ONE,
    "frayzy-closed": FRAYZY_CLOSED,
    "frayzy-full-hand": FRAYZY_FULL_HAND,
}
PEOPLE = ["ana", "ben", "cat", "dan"]


def people(count: int) -> list:
    """The users ``ana``, ``ben``, ... (created on first use), ``count`` of them."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    return [users.filter(username=name).first() or make_user(name) for name in PEOPLE[:count]]


def make_table_scene(name: str, **clock):
    """A game between people, ``ana`` at seat 0, put at the position of scene ``name``."""
    variant, players, position = TABLE_SCENES[name]
    game = make_started_game(players=players, humans=people(players), seed=f"scene-{name}", variant=variant, **clock)
    state = position()
    put_position(game, state.deal)
    for seat, total in enumerate(state.totals):
        Seat.objects.filter(game=game, position=seat).update(total=total)
    game.refresh_from_db()
    return game


def waiting_room():
    """An open table of ``ana``'s with a computer player in the second seat of three."""
    game = make_table(people(1)[0], players=3)
    services.add_computer_player(game.created_by, game.pk)
    return game


def finished_game(variant: str = "standard", players: int = 2):
    """A game between people played to its end (Standard to 25 points)."""
    options = {"standard": {"target": 25}, "frayzy": {"target": 25}}.get(variant)
    game = make_started_game(players=players, humans=people(players), seed=f"scene-finished-{variant}",
                             variant=variant, options=options)
    play_moves(game, seed="scene-finished")
    return game


def game_with_results(variant: str, players: int, deals: int = 1, humans=None):
    """A game between people (``humans``, else ``ana``, ``ben``, ...) in play after ``deals``
    finished deals (its score sheet has rows)."""
    game = make_started_game(players=players, humans=humans or people(players), seed=f"scene-results-{variant}",
                             variant=variant)
    play_moves(game, 2000, until=lambda g: g.deals.exclude(result=None).count() >= deals, seed="scene-results")
    return game
