"""Frustration Rummy through the site: opening a table, the contract board, the lay-contract form,
wild markers, and every refusal of bad input (a contract split over two turns, another contract's
melds, a meld or lay-off before the contract, a swap) with not one row changed."""
import re

import pytest
from django.urls import reverse

from games.models import Deal, Game, Meld, Seat
from tests.engine.builders import frustration
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
    snapshot,
)

pytestmark = pytest.mark.django_db

CONTRACT_1 = {"type": "lay_contract", "groups": [["5S", "5H", "JK"], ["7H", "7H~1", "7S"], ["9C", "9D", "2C"]]}


def frustration_game(hands, **fields):
    """A 2-player Frustration Rummy game between people, put at the position ``frustration(hands, **fields)``,
    the seats on the contracts of ``totals`` (default 1 each)."""
    game = make_started_game(players=2, seed="frustration-moves", variant="frustration")
    state = frustration(hands, **fields)
    put_position(game, state.deal)
    for position, contract in enumerate(state.totals):
        Seat.objects.filter(game=game, position=position).update(total=contract)
    return game




def board(game):
    return login(seat_to_move(game).user).get(reverse("game_board", args=[game.pk]),
                                              headers={"HX-Request": "true"}).content.decode()


def test_the_lobby_form_opens_a_frustration_table():
    response = login(make_user()).post(reverse("game_new"), {"variant": "frustration", "players": "4"})
    game = Game.objects.get()
    assert response.status_code == 302 and (game.variant, game.players) == ("frustration", 4)
    assert game.options == {"max_rounds": 100}


def test_the_board_shows_the_contract_board_the_form_and_wild_markers():
    game = frustration_game(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS", "KH QH JS"], totals=[1, 3])
    body = board(game)
    assert "Contract board" in body and "2 sets of 3 + 1 run of 4" in body and "3 sets of 3" in body
    assert 'data-testid="contract-form"' in body and 'name="group:7H~1"' in body and "Set 3 (3+ cards)" in body
    assert "Your hand can make this contract now." in body
    assert 'data-card="JK" role="img" aria-label="joker, wild"' in body and 'name="stands:2C"' in body
    assert "Round 1" in body and "Jokers and 2s are wild" in body
    assert reverse("help", args=["frustration-rummy"]) in body


def test_the_contract_forms_fields_are_labelled_with_the_cards_in_words():
    """A screen reader hears each group field named after its card, two copies in the hand
    numbered, and a wild's stands-for field named after the wild (never a storage key such as
    "7H~1"); a card the hand holds once is not numbered, whichever copy it is."""
    body = board(frustration_game(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS", "KH QH JS"], totals=[1, 3]))
    labels = set(re.findall(r'aria-label="((?:Group for|What) [^"]*)"', body))
    assert {"Group for 7 of hearts, copy 1", "Group for 7 of hearts, copy 2", "Group for joker", "Group for 2 of clubs",
            "Group for 5 of spades", "What 2 of clubs stands for", "What joker stands for"} <= labels
    assert not [label for label in labels if "~" in label or re.search(r"for [0-9AJQK]+[CDHS]\b", label)]
    # Each tray's button says which group it puts the cards in (the fourth trial heard three alike).
    assert re.findall(r'Put selected here<span class="visually-hidden"> in ([^<]*)</span>', body) == \
           ["Set 1 (3+ cards)", "Set 2 (3+ cards)", "Set 3 (3+ cards)"]


def test_the_frustration_help_page_is_served():
    response = login(make_user()).get(reverse("help", args=["frustration-rummy"]))
    assert response.status_code == 200 and b"How to play Frustration Rummy" in response.content


def test_laying_the_contract_through_the_form_stores_contract_melds_and_who_laid_down():
    game = frustration_game(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS 3D", "KH QH JS"])
    response = post_move(login(seat_to_move(game).user), game, CONTRACT_1, game.version)
    assert response.status_code == 302
    deal = current_deal(game)
    assert deal.variant_state["laid_down"] == [True, False]
    assert list(Meld.objects.filter(deal=deal).values_list("is_contract", flat=True)) == [True, True, True]
    assert [m.shape.notation() for m in load_state(game).deal.melds] == ["5S 5H JK=5", "7H 7H~1 7S", "9C 9D 2C=9"]
    assert "laid down" in board(game)


def test_a_wrong_group_is_refused_with_its_reason_and_changes_nothing():
    game = frustration_game(["5S 5H JK 7H JK~1 2S 9C 9D 9S KS", "KH QH JS"])
    assert_move_refused(game,
            {"type": "lay_contract", "groups": [["5S", "5H", "JK"], ["7H", "JK~1", "2S"], ["9C", "9D", "9S"]]},
            422, "bad_contract",
            "The second set (7♥ JK 2♠): 2 wilds and 1 natural: wilds may not outnumber naturals")


def test_a_contract_over_two_turns_is_refused_and_changes_nothing():
    game = frustration_game(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS", "KH QH JS"])
    assert_move_refused(game, {"type": "lay_contract", "groups": [["5S", "5H", "JK"], ["7H", "7H~1", "7S"]]}, 422,
            "wrong_contract", "lay down all 3 melds at once (you gave 2)")


def test_another_contracts_melds_are_refused_and_change_nothing():
    game = frustration_game(["5S 5H 5D 5C 9C 9D 9S 9H KS", "KH QH JS"], totals=[3, 1])
    assert_move_refused(game, {"type": "lay_contract", "groups": [["5S", "5H", "5D", "5C"], ["9C", "9D", "9S", "9H"]]},
            422, "wrong_contract", "Contract 3 is 2 sets of 3 + 1 run of 4")


def test_a_lay_off_or_meld_before_the_contract_is_refused_and_changes_nothing():
    game = frustration_game(["9H 4C 5C 6C 7C", "KH QH JS"], melds=[(1, "9C 9D 9S")], laid_down=[False, True])
    assert_move_refused(game, {"type": "lay_off", "meld": 1, "cards": ["9H"]}, 422, "contract_first",
            "Lay down your contract first")
    assert_move_refused(game, {"type": "lay_meld", "cards": ["4C", "5C", "6C", "7C"]}, 422, "contract_first",
            "(rule R11)")


def test_a_swap_is_refused_and_changes_nothing():
    game = frustration_game(["9C 9H", "KH QH JS"], melds=[(1, "9S 9D JK")], laid_down=[True, False])
    assert_move_refused(game, {"type": "swap_wild", "meld": 1, "card": "9C", "wild": "JK"}, 422, "no_swaps",
            "(rule R12)")


def test_going_out_records_the_advances_on_the_contract_board():
    game = frustration_game(["5C", "KH QH JS"], totals=[4, 2], laid_down=[True, False])
    post_move(login(seat_to_move(game).user), game, {"type": "discard", "card": "5C"}, game.version)
    deal = Deal.objects.get(game=game, number=1)
    assert deal.result["laid_down"] == [True, False] and deal.result["penalties"] == [1, 0]
    assert [s.total for s in seats_of(game)] == [5, 2]
    body = board(game)
    assert "4 &rarr; 5" in body or "4 → 5" in body
    assert "stays on 2" in body
    assert "Round 1 is over: " in body and "moved up a contract." in body


def test_an_empty_group_is_refused_and_the_form_keeps_the_players_groups():
    game = frustration_game(["5S 5H JK 7H 7H~1 7S 9C 9D 2C KS 3D", "KH QH JS"])
    before = snapshot(game)
    fields = {"version": game.version, "action": "lay_contract", "groups": "3",
              "group:5S": "1", "group:5H": "1", "group:JK": "1", "group:7H": "2", "group:7H~1": "2", "group:7S": "2"}

    response = login(seat_to_move(game).user).post(reverse("game_move", args=[game.pk]), fields,
                                                   headers={"HX-Request": "true"})

    body = response.content.decode()
    assert response.status_code == 422 and 'data-error-code="wrong_contract"' in body
    assert "Put cards in every group of your contract: Set 3 is empty." in body and "(rule R10)" in body
    assert snapshot(game) == before
    select = body[body.index('name="group:7H~1"'):]
    assert select[:select.index("</select>")].count(" selected") == 1
    assert '<option value="2" selected>' in select[:select.index("</select>")]
