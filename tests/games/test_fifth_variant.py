"""A game is one module: Quick Rummy (tests/quick_rummy.py), registered through the registry,
is opened from the lobby form, played to the end through the move view, recorded, exported, and
the export verifies by replay."""
import json
import random

import pytest
from django.urls import reverse

from games.engine.bots import chooser
from games.engine.variants import VARIANTS
from games.models import Game, Seat
from records.export import verify_export
from records.models import PlayerResult
from tests.factories import load_state, login, make_user, post_move
from tests.quick_rummy import QuickRummy

pytestmark = pytest.mark.django_db


@pytest.fixture
def quick_rummy(monkeypatch):
    """Quick Rummy in the registry for one test."""
    monkeypatch.setitem(VARIANTS, QuickRummy.name, QuickRummy)
    return QuickRummy


def test_quick_rummy_is_offered_opened_played_recorded_and_exported(quick_rummy, settings):
    settings.RUMMY_MOVE_RATE = "100000/m"
    ana, ben = make_user("ana"), make_user("ben")
    lobby = login(ana).get(reverse("lobby")).content.decode()
    assert '<option value="quick">Quick Rummy</option>' in lobby
    assert 'name="quick_target"' in lobby and "Quick Rummy deals 7 cards and plays to 50" in lobby
    assert reverse("help", args=["quick-rummy"]) in lobby

    response = login(ana).post(reverse("game_new"), {"variant": "quick", "players": "2", "quick_target": "30",
                                                     "target": "250", "going_rummy": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and (game.variant, game.options) == ("quick", {"target": 30})
    assert login(ben).post(reverse("game_join", args=[game.pk])).status_code == 302
    assert login(ana).post(reverse("game_start", args=[game.pk])).status_code == 302
    state = load_state(game)
    assert isinstance(state.variant, QuickRummy) and state.variant.target == 30
    assert sorted(len(hand) for hand in state.deal.hands) == [7, 7]

    clients = {seat.position: login(seat.user) for seat in Seat.objects.filter(game=game).select_related("user")}
    board = clients[0].get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"}).content.decode()
    assert "Hand 1" in board and reverse("help", args=["quick-rummy"]) in board
    rng = random.Random(5)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = load_state(game)
        seat = state.deal.turn
        action = chooser(state.variant)(state.player_view(seat), rng)
        assert post_move(clients[seat], game, action.to_json(), game.version).status_code == 302
    assert game.status == Game.Status.FINISHED
    state = load_state(game)
    assert max(state.totals) >= 30 and min(state.standings()) == 1

    results = PlayerResult.objects.filter(game=game).order_by("position")
    assert [(r.variant, r.total) for r in results] == [("quick", t) for t in state.totals]
    record = clients[0].get(reverse("game_record", args=[game.pk]))
    assert record.status_code == 200 and "Quick Rummy" in record.content.decode()
    assert clients[0].get(reverse("help", args=["quick-rummy"])).status_code == 200
    exported = clients[1].get(reverse("game_export", args=[game.pk]))
    data = json.loads(b"".join(exported.streaming_content) if exported.streaming else exported.content)
    assert data["variant"] == "quick" and data["options"] == {"target": 30}
    report = verify_export(data)
    assert report.ok, report.problems
    assert report.deals == game.deals.count() >= 1


def test_without_registration_there_is_no_quick_rummy():
    assert QuickRummy.name not in VARIANTS
    response = login(make_user()).post(reverse("game_new"), {"variant": "quick", "players": "2"})
    assert response.status_code == 400 and not Game.objects.exists()
    assert login(make_user()).get("/help/quick-rummy").status_code == 404
