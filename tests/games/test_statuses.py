"""One vocabulary of game statuses (``Game.LIVE``, ``Game.OVER``; ``live()``, ``over()``,
``not_over()``) and the lists that use it: a paused game is in play everywhere a player's games in
play are listed."""
import pytest
from django.urls import reverse

from games.models import Game, Seat
from tests.factories import login, make_started_game, make_table

pytestmark = pytest.mark.django_db


def test_every_status_is_open_live_or_over_exactly_once():
    groups = [(Game.Status.OPEN,), Game.LIVE, Game.OVER]
    assert sorted(status for group in groups for status in group) == sorted(Game.Status.values)


def test_the_queryset_words_pick_the_statuses_they_name():
    games = {status: make_started_game(players=2, humans=1, seed=f"status-{status}") for status in Game.Status.values}
    for status, game in games.items():
        Game.objects.filter(pk=game.pk).update(status=status)
    assert {game.status for game in Game.objects.live()} == {Game.Status.ACTIVE, Game.Status.PAUSED}
    assert {game.status for game in Game.objects.over()} == set(Game.OVER)
    assert {game.status for game in Game.objects.not_over()} == {Game.Status.OPEN, *Game.LIVE}


def test_a_paused_game_is_in_progress_on_the_profile_and_lobby_as_in_my_games():
    game = make_started_game(players=2, humans=1, seed="paused-lists")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PAUSED)
    waiting = make_table(players=3, seed="paused-lists-open")
    player = Seat.objects.get(game=game, position=0).user
    Seat.objects.create(game=waiting, position=1, user=player)
    client = login(player)
    url = game.get_absolute_url()

    profile = client.get(reverse("profile", args=[player.username])).content.decode()
    start = profile.index('data-testid="in-progress"')
    in_progress = profile[start:profile.index("</ul>", start)]
    assert url in in_progress and waiting.get_absolute_url() in in_progress
    assert url in client.get(reverse("my_games")).content.decode()
    lobby = client.get(reverse("lobby")).content.decode()
    assert url in lobby
    # As the game page says it: a game pauses when every seat is on autopilot (players still sit).
    assert "Paused (every seat on autopilot)" in lobby and "no player at the table" not in lobby
