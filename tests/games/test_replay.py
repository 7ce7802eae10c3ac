"""Seed plus move log replays the game: replaying ``Move.action`` through the engine reproduces the
rows (``store.load_state``), every hand's result and final position, the seat totals and places.

Three variants are covered: Standard Rummy (a points target ends the game, S15), Wild Rummy
(13 deals with a rotating wild rank, W3/W15; wilds on the table with what they stand for, 0.3;
pending cards, W6; streaks, W14; one stock rebuild before a stalemate, W13) and Frayzy (action
cards, the extra discard phase of a Discard 1, F14; the 100-point target, F18).
"""
import pytest

from games import services, store
from games.engine.actions import action_from_json
from games.engine.cards import RANKS
from games.engine.state import GameState, HandResult, Phase
from games.engine.variants import make_variant
from games.models import Card, Deal, Game, Move
from tests.factories import load_state, make_user, seats_of

pytestmark = pytest.mark.django_db


def computer_game(players, seed, options=None, moves=None, variant="standard", levels=None):
    """A computer-only game of ``variant`` made as ``manage.py simulate`` makes it, played to the end
    (or for ``moves`` computer turns); ``levels``: the computer level of each seat (default normal)."""
    host = make_user()
    game = services.create_table(host, variant=variant, players=players, is_private=True, options=options,
                                 creator_plays=False, seed=seed)
    for level in levels or ["normal"] * players:
        services.add_computer_player(host, game.pk, level)
    services.start_game(host, game.pk)
    made = 0
    while (moves is None or made < moves) and services.play_computer_turn(game.pk):
        made += 1
    game.refresh_from_db()
    return game, made


def computer_game_until(players, seed, variant, reached, limit=800):
    """A computer-only game of ``variant`` (normal players) played one computer turn at a time until
    ``reached(state)`` holds for the stored position (``load_state``); returns the game and the
    number of turns played. Fails when the game ends or ``limit`` turns pass first."""
    game, made = computer_game(players, seed, moves=0, variant=variant)
    while made < limit:
        assert services.play_computer_turn(game.pk), "the game ended before the position was reached"
        made += 1
        game.refresh_from_db()
        if reached(load_state(game)):
            return game, made
    pytest.fail(f"no such position within {limit} turns")


def _has_table_wild(state) -> bool:
    return any(meld.shape.wilds for meld in state.deal.melds)


def replay(game):
    """Replay ``game`` from its seed and move log; return the final state, each ended hand's result
    and each ended hand's final position (a DealState)."""
    state = GameState.new(make_variant(game.variant, game.options), game.players, game.seed)
    results, ended = [], []
    moves = list(Move.objects.filter(game=game).select_related("seat").order_by("ply"))
    assert [m.ply for m in moves] == list(range(moves[0].ply, moves[0].ply + len(moves))), "plies are consecutive"
    for move in moves:
        assert move.deal_number == state.deal.number
        state, events = state.apply(move.seat.position, action_from_json(move.action))
        assert events == move.events
        if state.ended_deal is not None:
            results.append(state.last_result)
            ended.append(state.ended_deal)
    return state, results, ended


def comparable(state):
    """A GameState without the transient ``ended_deal`` (it exists only right after a hand ends)."""
    copy = state.copy()
    copy.ended_deal = None
    return copy


def stored_deal(game, deal):
    """The position the rows of ``deal`` (any deal of ``game``, not only the latest) hold, rebuilt
    by ``games.store``."""
    rows = store.load_rows(Game.objects.get(pk=game.pk))
    rows.deal = deal
    return store.load_state(rows).deal


FINISHED_GAMES = [
    pytest.param("standard", 2, "replay-19", {"target": 50}, id="standard"),
    # 376 moves, 13 deals, a normal against an easy computer player; on the way a streak bonus (W14).
    pytest.param("wild", 2, "replay-wild-m0", None, id="wild"),
    # 13 rounds between normal computer players; Skip, Draw 5 and Discard 1 all played (F14).
    pytest.param("frayzy", 2, "replay-frayzy-9", None, id="frayzy"),
]


@pytest.mark.parametrize("variant, players, seed, options", FINISHED_GAMES)
def test_replay_of_a_finished_game_reproduces_its_rows(variant, players, seed, options):
    levels = ["normal", "easy"] if variant == "wild" else None
    game, made = computer_game(players, seed, options=options, variant=variant, levels=levels)
    assert game.status == Game.Status.FINISHED
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert len(deals) >= 3, "the game should span several hands"
    assert made == Move.objects.filter(game=game).count()

    state, results, ended = replay(game)

    assert state.finished
    assert comparable(state) == comparable(load_state(game))
    assert [HandResult.from_json(deal.result) for deal in deals] == results
    assert [stored_deal(game, deal) for deal in deals] == ended, "every hand's final position"
    seats = seats_of(game)
    assert [seat.total for seat in seats] == state.totals
    assert [seat.place for seat in seats] == list(state.standings())
    if variant == "standard":
        assert max(state.totals) >= 50
    elif variant == "frayzy":
        assert max(state.totals) >= 100
        played = {event.get("action") for move in Move.objects.filter(game=game) for event in move.events
                  if event["type"] == "play_action"}
        assert played == {"SKIP", "DRAW5", "DISCARD1"}
    else:
        # W15: exactly 13 deals, the wild rank going A..K (W3); W14 exercised on the way.
        assert [deal.number for deal in deals] == list(range(1, 14))
        assert [deal.variant_state["wild_rank"] for deal in deals] == list(RANKS)
        assert any(result.streak_bonus for result in results), "a streak bonus (W14)"
        assert [seat.streak for seat in seats] == state.streaks
        assert Card.objects.filter(deal__game=game).exclude(stands_for="").exists(), "wilds were melded"


MID_GAMES = [
    # Stopped in the second hand.
    pytest.param("standard", 3, "replay-mid", lambda state: state.deal.number >= 2, id="standard"),
    # Stopped in a later deal with the taken discard pending (W6) and wilds on the table (0.3).
    pytest.param("wild", 3, "replay-wild-mid", lambda state: state.deal.number >= 2 and _has_table_wild(state)
                 and state.deal.taken_discard is not None and state.deal.taken_discard in state.deal.pending,
                 id="wild"),
    # Stopped in a later round in the extra discard of a Discard 1 (F14).
    pytest.param("frayzy", 3, "replay-frayzy-mid", lambda state: state.deal.number >= 2
                 and state.deal.phase == Phase.EXTRA_DISCARD, id="frayzy"),
]


@pytest.mark.parametrize("variant, players, seed, reached", MID_GAMES)
def test_replay_stopped_mid_game_reproduces_the_current_deal(variant, players, seed, reached):
    game, made = computer_game_until(players, seed, variant, reached)
    assert game.status == Game.Status.ACTIVE
    assert game.version == players + 1 + made

    state, results, ended = replay(game)

    assert state.deal.number >= 2 and len(results) == state.deal.number - 1, "a hand ended before the stop"
    loaded = load_state(game)
    assert comparable(state) == comparable(loaded)
    assert state.deal.stock == loaded.deal.stock, "stock order included"
    finished_deals = list(Deal.objects.filter(game=game).exclude(result=None).order_by("number"))
    assert [HandResult.from_json(d.result) for d in finished_deals] == results
    assert [stored_deal(game, deal) for deal in finished_deals] == ended
    assert [seat.total for seat in seats_of(game)] == state.totals
    if variant == "frayzy":
        assert loaded.deal.phase == state.deal.phase == Phase.EXTRA_DISCARD
        assert loaded.deal.taken_discard == state.deal.taken_discard
    if variant == "wild":
        assert [seat.streak for seat in seats_of(game)] == state.streaks
        assert loaded.deal.wild_rank == loaded.deal.number
        assert loaded.deal.pending and loaded.deal.taken_discard in loaded.deal.pending, "stopped with a pending card"
        assert loaded.deal.pending == state.deal.pending and loaded.deal.taken_discard == state.deal.taken_discard
        assert any(meld.shape.wilds for meld in loaded.deal.melds), "a wild on the table"


def test_replay_detects_a_changed_row():
    """Control: the comparison above sees a single card out of place."""
    game, _ = computer_game(2, "replay-control", moves=20)
    state, _, _ = replay(game)
    deal = Deal.objects.filter(game=game).order_by("-number").first()
    bottom = deal.cards.get(location="stock", position=0)
    top = deal.cards.filter(location="stock").order_by("-position").first()
    bottom.position, top.position = top.position, 0
    bottom.save()
    top.save()

    assert comparable(state) != comparable(load_state(game))


def test_replay_detects_a_changed_wild_declaration_or_pending_card():
    """Control (Wild Rummy): the comparison sees what a wild on the table stands for (0.3) and the
    pending list (W6), not only where the cards are."""
    game, _ = computer_game_until(2, "replay-wild-control", "wild", _has_table_wild)
    state, _, _ = replay(game)
    assert comparable(state) == comparable(load_state(game))
    deal = Deal.objects.filter(game=game).order_by("-number").first()
    wild = deal.cards.exclude(stands_for="").first()
    assert wild is not None, "a wild on the table"
    declared = wild.stands_for
    wild.stands_for = "KD" if declared != "KD" else "QD"
    wild.save()
    assert comparable(state) != comparable(load_state(game))

    wild.stands_for = declared
    wild.save()
    assert comparable(state) == comparable(load_state(game))
    deal.variant_state = {**deal.variant_state, "pending": [*deal.variant_state["pending"],
                                                          deal.cards.filter(location="hand").first().code]}
    deal.save()
    assert comparable(state) != comparable(load_state(game))
