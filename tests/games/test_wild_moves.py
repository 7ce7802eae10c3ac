"""Wild Rummy through the site: opening a table, the board's wild rank, deal counter, wild markers,
pending row and readings, and every new refusal (a swap with the wrong card, a wild declared as an
impossible card, a discard while cards are pending) with not one row changed."""
from html import escape

import pytest
from django.urls import reverse

from games.models import Card, Deal, Game, Seat
from tests.engine.builders import wild
from tests.factories import (
    assert_move_refused,
    current_deal,
    load_state,
    login,
    make_started_game,
    make_user,
    post_move,
    put_position,
    seat_to_move,
    seats_of,
)

pytestmark = pytest.mark.django_db


def wild_game(hands, **fields):
    """A 2-player Wild Rummy game between people, put at the position ``wild(hands, **fields)``."""
    game = make_started_game(players=2, seed="wild-moves", variant="wild")
    put_position(game, wild(hands, **fields).deal)
    return game




def test_the_turn_banner_says_why_the_discard_cannot_be_taken():
    game = wild_game(["4H 8D 9S", "KH QH"], phase="draw", discard="5S 2C", number=13, turn=0)
    mover = seat_to_move(game)
    body = login(mover.user).get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"}).content.decode()
    banner = body[body.index('class="turn-banner turn-banner-you"'):]
    banner = banner[:banner.index("</div>")]
    assert "Draw from the stock." in banner and "or take the top" not in banner
    assert "You may take 2♣ only if you can play it straight away" in banner and "(rule W6)" in banner


def test_the_lobby_form_opens_a_wild_table_without_standard_options():
    user = make_user()
    response = login(user).post(reverse("game_new"), {"variant": "wild", "players": "3", "target": "250",
                                                      "going_rummy": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and (game.variant, game.players, game.options) == ("wild", 3, {})


def test_the_board_shows_the_deal_the_wild_rank_and_marks_wilds():
    game = wild_game(["AS 5C 6C 7C 9D", "KH QH JS 2D 3D 4S 8H"], melds=[(1, "9S 9H AD=9C")])
    body = login(seat_to_move(game).user).get(reverse("game_board", args=[game.pk]),
                                              headers={"HX-Request": "true"}).content.decode()
    assert "Deal 1 of 13" in body and "Aces are wild" in body
    assert 'class="card-wild-mark">wild<' in body and 'data-stands-for="9C"' in body
    assert escape("A♦=9♣") in body
    assert reverse("help", args=["wild-rummy"]) in body
    assert "Score sheet" in body


def test_a_wild_that_stands_for_itself_is_shown_as_the_plain_card():
    """0.3, W9: a set of wild-rank cards only is a natural set, each card standing for itself, and
    a wild may take its own place in a run; neither is shown as "A♠=A♠", on the table or in the log."""
    game = wild_game(["AS AH AD KS 5C", "KH QH JS 2D 3D 4S 8H"], melds=[(1, "AC=AC 2C 3C")])
    client = login(seat_to_move(game).user)
    response = post_move(client, game, {"type": "lay_meld", "cards": ["AS", "AH", "AD"]}, game.version, htmx=True)
    assert response.status_code == 200
    assert load_state(game).deal.melds[1].shape.notation() == "AS=AS AH=AH AD=AD"
    body = response.content.decode()

    assert escape("laid down A♠ A♥ A♦.") in body
    assert "data-stands-for" not in body and "card-stands" not in body
    assert escape("A♣=A♣") not in body and escape("A♠=A♠") not in body and "standing for" not in body


def test_the_wild_help_page_is_served():
    response = login(make_user()).get(reverse("help", args=["wild-rummy"]))
    assert response.status_code == 200 and b"How to play Wild Rummy" in response.content


def test_a_swap_with_the_wrong_card_is_refused_and_changes_nothing():
    game = wild_game(["6D 6H 8H 9S", "KH QH JS"], melds=[(1, "5H AS=6H 7H")])
    assert_move_refused(game, {"type": "swap_wild", "meld": 1, "card": "6D"}, 422, "bad_swap", "6♦ matches no wild")


def test_a_wild_declared_as_an_impossible_card_is_refused_and_changes_nothing():
    game = wild_game(["AC 9S 9D", "KH QH JS"], melds=[(1, "5H 6H 7H")])
    assert_move_refused(game, {"type": "lay_off", "meld": 1, "cards": ["AC"], "wilds": {"AC": "9H"}}, 422, "bad_wild",
            "A wild cannot stand for that here")


def test_an_undeclared_wild_with_two_readings_offers_exactly_the_legal_readings():
    game = wild_game(["AC 9S 9D", "KH QH JS"], melds=[(1, "5H 6H 7H")])
    body = assert_move_refused(game, {"type": "lay_off", "meld": 1, "cards": ["AC"]}, 422, "choose_wild",
                               "Choose what the wild stands for")
    assert 'name="reading" value="1/AC=4H"' in body and 'name="reading" value="1/AC=8H"' in body
    assert body.count('name="reading"') == 2


def test_a_discard_with_a_pending_card_is_refused_and_changes_nothing():
    game = wild_game(["AS 6H 8S", "KH QH JS"], melds=[(1, "4H 5H 7H AD=6H")], pending="AS")
    body = assert_move_refused(game, {"type": "discard", "card": "8S"}, 422, "pending", "Play A♠ first")
    assert 'aria-label="Pending cards"' in body
    assert_move_refused(game, {"type": "discard", "card": "AS"}, 422, "pending", "A♠ is pending")


def test_a_swap_then_a_lay_off_through_http_store_what_the_wilds_stand_for():
    game = wild_game(["6H 9S 9D KS", "KH QH JS"], melds=[(1, "5H AS=6H 7H")])
    client = login(seat_to_move(game).user)
    response = post_move(client, game, {"type": "swap_wild", "meld": 1, "card": "6H", "wild": "AS"}, game.version)
    assert response.status_code == 302
    game.refresh_from_db()
    assert current_deal(game).variant_state["pending"] == ["AS"]
    response = post_move(client, game, {"type": "lay_off", "meld": 1, "cards": ["AS"], "wilds": {"AS": "8H"}},
                         game.version)
    assert response.status_code == 302
    stands = dict(Card.objects.filter(deal=current_deal(game), location="meld").values_list("code", "stands_for"))
    assert stands == {"5H": "", "6H": "", "7H": "", "AS": "8H"}
    assert current_deal(game).variant_state["pending"] == []
    assert load_state(game).deal.melds[0].shape.notation() == "5H 6H 7H AS=8H"


def test_a_finished_deal_records_streaks_and_the_next_deals_wild_rank():
    game = wild_game(["5C", "KH QH JS"], streaks=[2, 0])
    Seat.objects.filter(game=game, position=0).update(streak=2)
    seat = seat_to_move(game)
    post_move(login(seat.user), game, {"type": "discard", "card": "5C"}, game.version)
    deal = Deal.objects.get(game=game, number=1)
    assert deal.result["winner"] == 0 and deal.result["streak_bonus"] is True
    assert [s.streak for s in seats_of(game)] == [3, 0] and [s.total for s in seats_of(game)] == [-12, 30]
    assert current_deal(game).variant_state["wild_rank"] == "2"
