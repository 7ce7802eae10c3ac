"""Match history and profile pages: filters, keyset pagination, a query count that does not grow
with the number of games, private games, games in progress."""
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from records.benchmark import START, seed_finished_games
from records.history import HistoryFilters, filtered
from records.models import PlayerResult
from tests.factories import login, make_started_game, make_user
from tests.records.helpers import people_game

pytestmark = pytest.mark.django_db

ROW = re.compile(r'data-testid="history-row" data-game="(\d+)"')


def history(client, user, query=""):
    return client.get(f"/players/{user.username}/games?{query}")


def games_on(response) -> list[int]:
    return [int(g) for g in ROW.findall(response.content.decode())]


def player_with_games(count, opponents=4):
    player = make_user()
    others = [make_user() for _ in range(opponents)]
    seed_finished_games(player, others, count, batch=50)
    return player, others


def queries_for(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_history_page_query_count_does_not_grow_with_the_number_of_games():
    player, others = player_with_games(30)
    client = login(player)
    queries = ["", "variant=wild", "result=won", "result=lost", f"opponent={others[0].username}",
               "since=2024-01-01&until=2024-01-01", f"variant=standard&result=lost&opponent={others[1].username}"]

    def counts():
        found = {}
        for query in queries:
            assert games_on(history(client, player, query)), query
            found[query] = queries_for(client, f"/players/{player.username}/games?{query}")
        older = re.search(r'older=([\d.]+)', history(client, player).content.decode()).group(1)
        found["older"] = queries_for(client, f"/players/{player.username}/games?older={older}")
        found["profile"] = queries_for(client, f"/players/{player.username}/")
        return found

    before = counts()
    seed_finished_games(player, others, 300, seed=9, batch=100)
    assert PlayerResult.objects.filter(user=player).count() == 330
    assert counts() == before
    assert before[""] <= 7  # with the menu's games-waiting badge


def test_keyset_pages_walk_every_game_once_newest_first_and_back():
    player, _ = player_with_games(60)
    client = login(player)
    expected = list(filtered(player, HistoryFilters()).values_list("game_id", flat=True))
    seen, query, pages = [], "", []
    while True:
        response = history(client, player, query)
        page = games_on(response)
        pages.append((query, page))
        seen += page
        found = re.search(r'older=([\d.]+)', response.content.decode())
        if not found:
            break
        query = f"older={found.group(1)}"
    assert seen == expected and len(pages) == 3
    newer = re.search(r'newer=([\d.]+)', history(client, player, pages[2][0]).content.decode()).group(1)
    assert games_on(history(client, player, f"newer={newer}")) == pages[1][1]


def test_filters_by_game_type_result_opponent_and_date():
    player, others = player_with_games(80)
    client = login(player)
    rows = PlayerResult.objects.filter(user=player)
    wild = games_on(history(client, player, "variant=wild"))
    assert wild and set(wild) <= set(rows.filter(variant="wild").values_list("game_id", flat=True))
    won = games_on(history(client, player, "result=won"))
    assert won and all(rows.get(game_id=g).place == 1 for g in won)
    lost = games_on(history(client, player, "result=lost"))
    assert lost and all(rows.get(game_id=g).place > 1 for g in lost)
    rival = others[2]
    against = games_on(history(client, player, f"opponent={rival.username}"))
    assert against and all(PlayerResult.objects.filter(game_id=g, user=rival).exists() for g in against)
    day = (START + timedelta(minutes=10 * 30)).date()
    dated = games_on(history(client, player, f"since={day}&until={day}"))
    assert dated == list(rows.filter(finished_at__date=day).order_by("-finished_at", "-game_id")
                         .values_list("game_id", flat=True))[:25]
    unknown = history(client, player, "opponent=nobody-at-all")
    assert unknown.status_code == 400 and "There is no player called nobody-at-all." in unknown.content.decode()


def test_another_players_private_games_stay_out_of_their_history():
    ana, bo = make_user("ana"), make_user("bo")
    game = people_game("standard", humans=[ana, bo], seed="history-private")
    PlayerResult.objects.filter(game=game).update(is_private=True)
    assert games_on(history(login(ana), ana)) == [game.pk]
    assert games_on(history(login(make_user()), ana)) == []


def test_profile_shows_record_ratings_history_and_own_games_in_progress():
    ana, bo = make_user("ana"), make_user("bo")
    finished = people_game("standard", humans=[ana, bo], seed="profile-finished")
    playing = make_started_game(players=2, humans=[ana], seed="profile-playing")
    own = login(ana).get("/players/ana/").content.decode()
    ana_place = finished.seats.get(user=ana).place
    assert re.search(r'<tr data-variant="standard"><th scope="row">Standard Rummy</th>'
                     r'<td>1</td><td>(\d)</td><td>([\d.]+)</td>',
                     own).groups() == (str(int(ana_place == 1)), f"{float(ana_place)}")
    assert 'data-testid="rating"' in own and f"Standard Rummy #{finished.pk}" in own
    assert 'data-testid="rating-chart"' in own
    assert own.count('aria-label="Rating history"') == 1  # the section; its table's region has its own name
    # What a rating is, and why a new player's may be below zero (the third trial's question).
    assert 'data-testid="rating-note"' in own and "Everyone starts at 0" in own
    make_user("cy")
    assert 'data-testid="rating-note"' not in login(bo).get("/players/cy/").content.decode()  # no games, no ratings
    assert f'data-game="{finished.pk}"' in own
    assert f'href="/games/{playing.pk}/"' in own
    theirs = login(bo).get("/players/ana/").content.decode()
    assert "Games in progress" not in theirs and f'href="/games/{playing.pk}/"' not in theirs
    assert login(bo).get("/players/nobody-here/").status_code == 404


def test_each_history_row_names_its_game_by_kind_and_number():
    """Two games of one kind are told apart: "Wild Rummy #<id>", as the game page's title."""
    player, _ = player_with_games(8)
    body = history(login(player), player).content.decode()
    rows = dict(re.findall(r'data-game="(\d+)">.*?<a href="/games/\1/record">([^<]*)</a>', body, re.S))
    assert len(rows) == 8 and all(re.fullmatch(rf"[A-Z][a-z]+( Rummy)? #{pk}", name) for pk, name in rows.items()), rows


def test_history_and_profile_say_their_times_are_utc_for_a_viewer_without_a_zone():
    """The history's and the profile's time columns name the viewer's time zone in their headings:
    UTC for one who chose none (tests/accounts/test_time_zone_pages.py: one who chose a zone)."""
    player, _ = player_with_games(2)
    client = login(player)
    assert '<th scope="col">Finished (UTC)</th>' in history(client, player).content.decode()
    profile = client.get(reverse("profile", args=[player.username])).content.decode()
    assert '<th scope="col">Finished (UTC)</th>' in profile and '<th scope="col">When (UTC)</th>' in profile


def test_dates_at_the_ends_of_the_calendar_and_odd_cursors_never_answer_5xx():
    """The "To" picker allows 9999-12-31: the history shows every game up to then (the day after it
    is no date); a year past 9999 is a form error; a cursor at the last instant or past it pages
    normally."""
    player, _ = player_with_games(3)
    client = login(player)
    everything = games_on(history(client, player))
    assert len(everything) == 3
    for query in ("until=9999-12-31", "since=0001-01-01&until=9999-12-31"):
        response = history(client, player, query)
        assert response.status_code == 200 and games_on(response) == everything, query
    assert games_on(history(client, player, "since=9999-12-31")) == []
    for query in ("until=10000-01-01", "since=10000-01-01"):
        assert history(client, player, query).status_code == 400, query
    for query in ("older=253402300799999999.1", "newer=253402300799999999.1", "older=999999999999999999.1",
                  "until=9999-12-31&newer=0.0"):
        assert history(client, player, query).status_code == 200, query


def test_a_date_range_that_ends_before_it_starts_is_a_form_error():
    player, _ = player_with_games(3)
    response = history(login(player), player, "since=2024-02-01&until=2024-01-01")
    assert response.status_code == 400
    assert "The To date (2024-01-01) is before the From date (2024-02-01)" in response.content.decode()
    assert history(login(player), player, "since=2024-01-01&until=2024-01-01").status_code == 200


def test_a_computer_opponent_by_its_seat_name_is_refused_saying_why():
    """The Against column names a computer seat "Computer 2 (normal)"; the filter takes people only
    and says so."""
    player, _ = player_with_games(3)
    response = history(login(player), player, "opponent=Computer 2 (normal)")
    assert response.status_code == 400
    assert "Computer players cannot be chosen here" in response.content.decode()
