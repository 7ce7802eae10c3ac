"""Seed plus move log replays the game: replaying ``Move.action`` through the engine reproduces the
rows (``store.load_state``), every hand's result and the seat totals."""
import pytest

from games import services
from games.engine.actions import action_from_json
from games.engine.state import GameState, HandResult
from games.engine.variants import make_variant
from games.models import Deal, Game, Move
from tests.factories import load_state, make_user, seats_of

pytestmark = pytest.mark.django_db


def computer_game(players, seed, options=None, moves=None):
    """A computer-only game made as ``manage.py simulate`` makes it, played to the end (or for
    ``moves`` computer turns)."""
    host = make_user()
    game = services.create_table(host, variant="standard", players=players, is_private=True, options=options,
                                 creator_plays=False, seed=seed)
    for _ in range(players):
        services.add_computer_player(host, game.pk)
    services.start_game(host, game.pk)
    made = 0
    while (moves is None or made < moves) and services.play_computer_turn(game.pk):
        made += 1
    game.refresh_from_db()
    return game, made


def replay(game):
    """Replay ``game`` from its seed and move log; return the final state and each ended hand's result."""
    state = GameState.new(make_variant(game.variant, game.options), game.players, game.seed)
    results = []
    moves = list(Move.objects.filter(game=game).select_related("seat").order_by("ply"))
    assert [m.ply for m in moves] == list(range(moves[0].ply, moves[0].ply + len(moves))), "plies are consecutive"
    for move in moves:
        assert move.deal_number == state.deal.number
        state, events = state.apply(move.seat.position, action_from_json(move.action))
        assert events == move.events
        if state.ended_deal is not None:
            results.append(state.last_result)
    return state, results


def comparable(state):
    """A GameState without the transient ``ended_deal`` (it exists only right after a hand ends)."""
    copy = state.copy()
    copy.ended_deal = None
    return copy


def test_replay_of_a_finished_game_reproduces_its_rows():
    game, made = computer_game(2, "replay-19", options={"target": 50})
    assert game.status == Game.Status.FINISHED
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert len(deals) >= 3, "the game should span several hands"
    assert made == Move.objects.filter(game=game).count()

    state, results = replay(game)

    assert state.finished
    assert comparable(state) == comparable(load_state(game))
    assert [HandResult.from_json(deal.result) for deal in deals] == results
    seats = seats_of(game)
    assert [seat.total for seat in seats] == state.totals
    assert [seat.place for seat in seats] == list(state.standings())
    assert max(state.totals) >= 50


def test_replay_stopped_mid_game_reproduces_the_current_deal():
    game, made = computer_game(3, "replay-mid", moves=150)
    assert made == 150 and game.status == Game.Status.ACTIVE
    assert game.version == 3 + 1 + 150

    state, results = replay(game)

    assert state.deal.number >= 2 and len(results) == state.deal.number - 1, "a hand ended before the stop"
    loaded = load_state(game)
    assert comparable(state) == comparable(loaded)
    assert state.deal.stock == loaded.deal.stock, "stock order included"
    finished = [HandResult.from_json(d.result) for d in Deal.objects.filter(game=game).exclude(result=None)
                .order_by("number")]
    assert finished == results
    assert [seat.total for seat in seats_of(game)] == state.totals


def test_replay_detects_a_changed_row():
    """Control: the comparison above sees a single card out of place."""
    game, _ = computer_game(2, "replay-control", moves=20)
    state, _ = replay(game)
    deal = Deal.objects.filter(game=game).order_by("-number").first()
    bottom = deal.cards.get(location="stock", position=0)
    top = deal.cards.filter(location="stock").order_by("-position").first()
    bottom.position, top.position = top.position, 0
    bottom.save()
    top.save()

    assert comparable(state) != comparable(load_state(game))
