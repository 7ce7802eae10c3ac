"""Computer levels on the site (issue 7): choosing easy/normal/strong for a seat, the level beside
the computer's name, and computer turns of every level applied through the services, which check
them exactly as they check a person's move; plus the ``bot_tournament`` command's output."""
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from games import services
from games.engine.bots.memory import Memory
from games.models import Game, Move, Seat
from games.services import moves
from tests.factories import computer_game, load_state, login, make_started_game, make_table, make_user, seats_of

pytestmark = pytest.mark.django_db


def test_the_creator_chooses_the_level_in_the_waiting_room():
    host = make_user()
    game = make_table(host, players=3)
    client = login(host)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'name="level"' in page and '<option value="strong">strong</option>' in page
    assert '<option value="expert">expert</option>' in page

    client.post(reverse("game_add_computer", args=[game.pk]), {"level": "strong"})
    client.post(reverse("game_add_computer", args=[game.pk]), {"level": "easy"})

    assert [s.bot_level for s in seats_of(game)] == ["", "strong", "easy"]
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Computer 2 (strong)" in page and "Computer 3 (easy)" in page


def test_an_unknown_level_is_refused_and_no_seat_is_given():
    host = make_user()
    game = make_table(host, players=2)
    response = login(host).post(reverse("game_add_computer", args=[game.pk]), {"level": "genius"},
                                HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "easy, normal, strong or expert" in response.content.decode()
    assert [s.bot_level for s in seats_of(game)] == [""]


def test_no_level_given_means_normal():
    host = make_user()
    game = make_table(host, players=2)
    login(host).post(reverse("game_add_computer", args=[game.pk]))
    assert seats_of(game)[1].bot_level == Seat.BotLevel.NORMAL


@pytest.mark.parametrize("variant", ["standard", "wild", "frustration", "frayzy"])
def test_computer_turns_of_every_level_go_through_the_services(variant):
    """A strong and an easy computer play 60 actions through ``services.play_computer_turn``; each
    is stored as a Move, and the stored game replays to the same position (every action passed
    the engine's checks in ``services``)."""
    game = computer_game(variant, f"levels-{variant}", "strong", "easy")
    for _ in range(60):
        assert services.play_computer_turn(game.pk)
        if Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE:
            break
    moves = Move.objects.filter(game=game)
    assert moves.count() >= 2
    assert {m.actor for m in moves} == {Move.Actor.COMPUTER}
    game.refresh_from_db()
    if game.status == Game.Status.ACTIVE:
        assert load_state(game).deal.turn in (0, 1)


def test_an_expert_computer_fills_a_seat_and_plays_through_the_services():
    """The expert level takes a seat like the others; its turns are stored as the computer's Moves."""
    game = computer_game("standard", "expert-seat", "expert", "strong")
    assert [s.name for s in seats_of(game)] == ["Computer 1 (expert)", "Computer 2 (strong)"]
    for _ in range(8):
        assert services.play_computer_turn(game.pk)
    assert {m.seat.bot_level for m in Move.objects.filter(game=game)} == {"expert", "strong"}


def test_a_persons_seat_played_by_the_computer_plays_at_the_normal_level(monkeypatch):
    """A seat on autopilot (its owner away) is played by the computer at the normal level, whatever
    levels the computer seats at the table have."""
    game = make_started_game(players=2, humans=1, seed="autopilot", play_computers=False)
    Seat.objects.filter(game=game, user__isnull=False).update(autopilot=True)
    Seat.objects.filter(game=game, user__isnull=True).update(bot_level=Seat.BotLevel.EXPERT)
    levels = []
    real = moves.chooser
    monkeypatch.setattr(moves, "chooser", lambda variant, level: levels.append(level) or real(variant, level))
    for _ in range(6):
        assert services.play_computer_turn(game.pk)
    movers = [(m.actor, level) for m, level in zip(Move.objects.filter(game=game).order_by("ply"), levels)]
    assert {level for actor, level in movers if actor == Move.Actor.AUTOPILOT} == {Seat.BotLevel.NORMAL}
    assert {level for actor, level in movers if actor == Move.Actor.COMPUTER} == {Seat.BotLevel.EXPERT}


def test_the_strong_computer_remembers_the_deal_from_the_move_log():
    """``services.moves._computer_memory`` rebuilds what the seat saw of this deal from stored public events."""
    game = computer_game("standard", "memory", "strong", "normal")
    for _ in range(12):
        services.play_computer_turn(game.pk)
    deal = load_state(game).deal
    memory = moves._computer_memory(game, deal.number)
    assert isinstance(memory, Memory) and memory.deal == deal.number
    seen = [c.code for c in deal.discard]
    assert memory.pile == seen[-len(memory.pile):]


def tournament(**options) -> dict:
    out = StringIO()
    call_command("bot_tournament", stdout=out, **options)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_bot_tournament_prints_one_json_object_and_replays():
    options = {"variant": "standard", "players": 2, "deals": 4, "seed": "t", "levels": "normal,easy"}
    result = tournament(**options)
    assert set(result) == {"variant", "deals", "levels"} and result["deals"] == 4
    assert set(result["levels"]) == {"normal", "easy"}
    for figures in result["levels"].values():
        assert set(figures) == {"deal_share", "ci95", "games_won", "decision_ms_p50", "decision_ms_p95",
                                "decision_ms_p99"}
        low, high = figures["ci95"]
        assert 0 <= low <= figures["deal_share"] <= high <= 1
    assert result["levels"]["normal"]["deal_share"] + result["levels"]["easy"]["deal_share"] == pytest.approx(1)
    again = tournament(**options)
    assert [again["levels"][k]["deal_share"] for k in ("normal", "easy")] == \
        [result["levels"][k]["deal_share"] for k in ("normal", "easy")]


def test_bot_tournament_refuses_bad_levels():
    with pytest.raises(CommandError, match="two or more different levels"):
        tournament(variant="standard", deals=2, levels="normal,normal")
    with pytest.raises(CommandError, match="lists 3 seats for a table of 2"):
        tournament(variant="standard", deals=2, levels="strong,normal,normal")
