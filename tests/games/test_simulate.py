"""``manage.py simulate``: whole computer-only games through the services, one JSON line of figures."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game, Move

pytestmark = pytest.mark.django_db

KEYS = {"variant", "players", "games", "finished", "moves", "deals", "stalled", "errors", "invariant_violations",
        "seconds"}


def simulate(**options):
    """Run ``simulate`` with ``options``; return its parsed output (exactly one JSON object)."""
    out, err = StringIO(), StringIO()
    call_command("simulate", stdout=out, stderr=err, **options)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, out.getvalue()
    assert err.getvalue() == ""
    return json.loads(lines[0])


@pytest.mark.parametrize(("players", "games"), [(2, 2), (4, 1)])
def test_simulate_plays_every_game_to_the_end(players, games):
    result = simulate(variant="standard", players=players, games=games, seed="t")

    assert set(result) == KEYS
    assert (result["variant"], result["players"], result["games"]) == ("standard", players, games)
    assert result["finished"] == games
    assert result["errors"] == 0
    assert result["invariant_violations"] == 0
    assert result["moves"] == Move.objects.count() > 0
    assert isinstance(result["seconds"], (int, float)) and result["seconds"] > 0
    played = Game.objects.all()
    assert played.count() == games
    assert {g.status for g in played} == {Game.Status.FINISHED}
    assert {g.seed for g in played} == {f"t:{n}" for n in range(games)}
    assert all(g.seats.filter(user=None).count() == players for g in played)


def test_simulate_plays_wild_rummy_to_the_end_of_deal_13():
    result = simulate(variant="wild", players=3, games=1, seed="w")

    assert (result["finished"], result["errors"], result["invariant_violations"]) == (1, 0, 0)
    game = Game.objects.get()
    assert game.variant == "wild" and game.status == Game.Status.FINISHED
    assert list(game.deals.order_by("number").values_list("number", flat=True)) == list(range(1, 14))
    assert all(deal.result is not None for deal in game.deals.all())


def test_simulate_plays_frayzy_to_the_target():
    result = simulate(variant="frayzy", players=2, games=1, seed="f")

    assert (result["finished"], result["errors"], result["invariant_violations"]) == (1, 0, 0)
    game = Game.objects.get()
    assert game.variant == "frayzy" and game.status == Game.Status.FINISHED
    assert result["deals"] == game.deals.count() >= 1
    assert max(seat.total for seat in game.seats.all()) >= 100
    kinds = {event["type"] for move in Move.objects.filter(game=game) for event in move.events}
    assert "play_action" in kinds
