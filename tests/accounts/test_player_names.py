"""Player pages find the user a URL names in any letter case: "/players/ALICE/" is alice's page."""
import pytest

from tests.factories import login, make_user
from tests.records.helpers import people_game

pytestmark = pytest.mark.django_db


def test_a_player_page_named_in_another_case_redirects_to_the_name_as_spelt():
    make_user("alice")
    client = login(make_user("bob"))

    profile = client.get("/players/ALICE/")
    history = client.get("/players/Alice/games?variant=wild&result=won")

    assert (profile.status_code, profile["Location"]) == (302, "/players/alice/")
    assert (history.status_code, history["Location"]) == (302, "/players/alice/games?variant=wild&result=won")
    assert client.get(profile["Location"]).status_code == 200


def test_the_history_filter_finds_an_opponent_named_in_another_case():
    ana, bo = make_user("ana"), make_user("bo")
    game = people_game("standard", humans=[ana, bo], seed="opponent-case")

    response = login(ana).get("/players/ana/games?opponent=BO")

    assert response.status_code == 200
    assert f'data-game="{game.pk}"' in response.content.decode()


def test_names_that_differ_only_in_case_each_keep_their_page_and_a_third_spelling_names_neither():
    """Sign-ups refuse a name taken in another case, but the column's unique constraint is
    case-sensitive, so users made otherwise (createsuperuser, the shell) may differ in case alone."""
    make_user("alice")
    make_user("Alice")
    client = login(make_user("bob"))

    assert client.get("/players/alice/").context["player"].username == "alice"
    assert client.get("/players/Alice/games").context["player"].username == "Alice"
    assert client.get("/players/ALICE/").status_code == 404
    assert client.get("/players/nobody/").status_code == 404
