"""Frustration Rummy games played whole through the services: ``manage.py simulate --variant
frustration`` ends with one winner on contract 14 (R15), the seed plus move log replays to the stored
rows, contract melds and who laid down included (R10), and a game stopped mid-round replays too."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.engine.contracts import LAST_CONTRACT
from games.engine.state import HandResult
from games.models import Deal, Game, Meld
from tests.factories import load_state, seats_of
from tests.games.test_replay import comparable, computer_game, replay, stored_deal

pytestmark = pytest.mark.django_db


def test_simulate_plays_frustration_to_a_winner_on_contract_14_and_the_log_replays_it():
    out = StringIO()
    call_command("simulate", variant="frustration", players=2, games=1, seed="i", stdout=out)
    result = json.loads(out.getvalue())
    assert (result["finished"], result["stalled"], result["errors"], result["invariant_violations"]) == (1, 0, 0, 0)
    game = Game.objects.get()
    seats = seats_of(game)
    winner = next(seat for seat in seats if seat.place == 1)
    assert winner.total == LAST_CONTRACT and [seat.place for seat in seats].count(1) == 1
    assert result["deals"] == game.deals.count() >= LAST_CONTRACT

    state, results, ended = replay(game)

    assert comparable(state) == comparable(load_state(game))
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert [HandResult.from_json(deal.result) for deal in deals] == results
    assert [stored_deal(game, deal) for deal in deals] == ended
    assert results[-1].winner == winner.position
    assert Meld.objects.filter(deal__game=game, is_contract=True).exists()


def test_a_frustration_game_stopped_mid_round_replays_to_its_rows():
    game, made = computer_game(3, "replay-frustration-mid", moves=300, variant="frustration")
    state, results, _ = replay(game)
    loaded = load_state(game)
    assert results and comparable(state) == comparable(loaded)
    assert loaded.deal.laid_down == state.deal.laid_down
    assert [m.contract for m in loaded.deal.melds] == [m.contract for m in state.deal.melds]
    assert [seat.total for seat in seats_of(game)] == state.totals
