"""Migrations 0010-0011: deals written under the old per-variant Deal columns (wild_rank and
pending, W3 and W6; laid_down, R10) load from ``Deal.variant_state`` afterwards and play on."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine.cards import parse_card
from tests.engine.builders import frustration, wild
from tests.factories import (
    current_deal,
    load_state,
    login,
    make_started_game,
    post_move,
    put_position,
    seat_to_move,
)

BEFORE = [("games", "0009_expert_bot_level")]
AFTER = [("games", "0011_drop_deal_variant_columns")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def latest_schema_after():
    """Leave the test database at the latest migrations, as the tests after this one expect (the
    test migrates back and forth; later migrations add columns the models read)."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("latest_schema_after")
def test_deals_under_the_old_columns_load_and_play_on_after_the_migration():
    wild_game = make_started_game(players=2, seed="migrate-wild", variant="wild")
    put_position(wild_game, wild(["6H 9C 9D KS", "KH QH JS"], melds=[(1, "7H 8H 9H")], number=2).deal)
    frustration_game = make_started_game(players=2, seed="migrate-frustration", variant="frustration")
    put_position(frustration_game, frustration(["5S 5H 9C", "KH QH JS"], melds=[(0, "9S 9H 9D")]).deal)
    standard_game = make_started_game(players=2, seed="migrate-standard")
    deals = {game.variant: current_deal(game).pk for game in (wild_game, frustration_game, standard_game)}

    old = _migrate(BEFORE)
    Deal = old.get_model("games", "Deal")
    Deal.objects.filter(pk=deals["wild"]).update(wild_rank="2", pending=["6H"], laid_down=[])
    Deal.objects.filter(pk=deals["frustration"]).update(wild_rank="", pending=[],
                                                                     laid_down=[True, False])
    Deal.objects.filter(pk=deals["standard"]).update(wild_rank="", pending=[], laid_down=[])
    _migrate(AFTER)
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # the models read later columns

    assert current_deal(wild_game).variant_state == {"wild_rank": "2", "pending": ["6H"]}
    assert current_deal(frustration_game).variant_state == {"laid_down": [True, False]}
    assert current_deal(standard_game).variant_state == {}
    deal = load_state(wild_game).deal
    assert (deal.wild_rank, deal.pending) == (2, [parse_card("6H")])
    assert load_state(frustration_game).deal.laid_down == [True, False]

    # Wild: the pending 6H must be played before the discard (W6); it lays off and the turn goes on.
    mover = login(seat_to_move(wild_game).user)
    wild_game.refresh_from_db()
    response = post_move(mover, wild_game, {"type": "lay_off", "meld": 1, "cards": ["6H"]}, wild_game.version)
    assert response.status_code == 302, response.content
    assert current_deal(wild_game).variant_state["pending"] == []
    wild_game.refresh_from_db()
    assert post_move(mover, wild_game, {"type": "discard", "card": "KS"}, wild_game.version).status_code == 302
    # Frustration: seat 0 has its contract down (R10), so it may lay off on its set (R11).
    mover = login(seat_to_move(frustration_game).user)
    frustration_game.refresh_from_db()
    response = post_move(mover, frustration_game, {"type": "lay_off", "meld": 1, "cards": ["9C"]},
                         frustration_game.version)
    assert response.status_code == 302 and "9C" not in {c.key for c in load_state(frustration_game).deal.hands[0]}
    for game in (wild_game, frustration_game, standard_game):
        assert load_state(game).legal_actions(load_state(game).deal.turn)
