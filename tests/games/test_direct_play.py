"""Direct play's server side: the legal targets the page may offer (from the engine's legal actions),
the wild readings picked for the player and the ones still asked for, the contract's suggestion and
its reading buttons, and the hand order a player arranges (kept in the session)."""
import json
import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.direct_play import arranged, automatic_reading, legal_readings, play_targets, saved_order
from games.engine.cards import sort_by_suit
from games.engine.melds import reading_matters
from games.engine.variants.frustration import MELD_RULES as FRUSTRATION_RULES
from games.models import Meld, Seat
from games.presenters import contract_reading_choices
from tests.engine.builders import build, cards, frayzy, frustration, wild
from tests.factories import current_deal, login, make_started_game, post_move, put_position, seat_to_move, seats_of


def view_of(state, seat: int = 0):
    return state.player_view(seat)


# ----- legal targets ----------------------------------------------------------------------------

def test_the_targets_are_the_legal_melds_lay_offs_and_discards_each_listed_once():
    state = build(["7H 8H 9H 10H KS 2C", "KH QH JS"], melds=[(1, "3C 4C 5C")], phase="play", taken="KS")
    targets = play_targets(view_of(state))
    assert sorted(targets["melds"]) == [["10H", "7H", "8H", "9H"], ["10H", "8H", "9H"], ["7H", "8H", "9H"]]
    assert targets["layoffs"] == {"1": [["2C"]]}
    assert sorted(targets["discards"]) == ["10H", "2C", "7H", "8H", "9H"]  # not the K♠ taken (S7)
    assert targets["contract"] is None


def test_a_wild_meld_with_several_readings_is_one_target():
    state = wild(["QC QD AH 9S", "KH QH JS"])
    assert play_targets(view_of(state))["melds"] == [["AH", "QC", "QD"]]
    assert len(legal_readings(view_of(state), ["QC", "QD", "AH"], None)) == 2


def test_the_targets_hold_only_the_viewers_own_cards():
    state = build(["7H 8H 9H KS", "KH QH JH 2S"], melds=[(1, "3C 4C 5C")], phase="play")
    text = json.dumps(play_targets(view_of(state)))
    assert not {"KH", "QH", "JH", "2S"} & set(re.findall(r'"(\w+)"', text))


def test_the_contract_target_is_the_engines_way_to_lay_it_down():
    state = frustration(["5S 5H JK 7H 7D 7C 9C 9D 9S KS", "KH QH JS"])
    contract = play_targets(view_of(state))["contract"]
    assert len(contract) == 3 and sorted(key for group in contract for key in group) == sorted(
        "5S 5H JK 7H 7D 7C 9C 9D 9S".split())


# ----- wild readings: picked when the choice cannot matter, asked for otherwise ----------------

CASES = [
    # (game, state, cards, meld, asks, readings)
    ("Wild Rummy: a set's wild takes either free suit", wild(["QC QD AH 9S", "KH QH JS"]),
     ["QC", "QD", "AH"], None, False, 2),
    ("Wild Rummy: a wild at either end of a run", wild(["5C 6C AH 9S", "KH QH JS"]),
     ["5C", "6C", "AH"], None, True, 2),
    ("Wild Rummy: one natural and two wilds, a set or a run", wild(["QC AH AS 9S", "KH QH JS"]),
     ["QC", "AH", "AS"], None, True, None),
    ("Wild Rummy: a wild laid off at either end of a run", wild(["AC 9S 9D", "KH QH JS"], melds=[(1, "5H 6H 7H")]),
     ["AC"], 1, True, 2),
    ("Frayzy: the Wild laid off at either end of a run",
     frayzy(["W B2 B9", "Y1 Y2 Y3"], melds=[(0, "R3 R4 R5"), (1, "G7 B7 Y7")]), ["W"], 1, True, 2),
]


@pytest.mark.parametrize("name, state, keys, meld, asks, count", CASES, ids=[case[0] for case in CASES])
def test_which_readings_are_still_asked_for(name, state, keys, meld, asks, count):
    view = view_of(state)
    readings = legal_readings(view, keys, meld)
    assert len(readings) > 1 and (count is None or len(readings) == count)
    onto = next((m.shape for m in view.melds if m.id == meld), None)
    assert reading_matters(readings[0].cards, [r.wilds for r in readings], onto) is asks
    payload = {"type": "lay_off", "meld": meld, "cards": keys} if meld else {"type": "lay_meld", "cards": keys}
    picked = automatic_reading(view, payload)
    assert (picked is None) is asks
    if not asks:
        assert picked == {**payload, "wilds": dict(readings[0].wilds)}


def test_a_frayzy_wild_laid_off_on_a_set_has_one_reading_and_is_never_asked():
    view = view_of(frayzy(["W B2 B9", "Y1 Y2 Y3"], melds=[(0, "R3 R4 R5"), (1, "G7 B7 Y7")]))
    assert len(legal_readings(view, ["W"], 2)) == 1


def test_no_reading_is_picked_for_a_declared_or_unlisted_play():
    view = view_of(wild(["QC QD AH 9S", "KH QH JS"]))
    assert automatic_reading(view, {"type": "lay_meld", "cards": ["QC", "QD", "AH"], "wilds": {"AH": "QS"}}) is None
    assert automatic_reading(view, {"type": "lay_meld", "cards": ["QC", "9S", "AH"]}) is None
    assert automatic_reading(view, {"type": "discard", "card": "9S"}) is None


def test_a_contract_run_whose_wild_may_take_either_end_offers_both_places():
    hand = cards("5S 5H JK~1 7C 7D 7S 9C 9D 9S 5D 6D 8D JK KS")
    groups = {"5S": "1", "5H": "1", "JK~1": "1", "7C": "2", "7D": "2", "7S": "2", "5D": "3", "6D": "3", "8D": "3",
              "JK": "3"}
    # Contract 3: set, set, run; the run's JK fills 7♦.
    assert contract_reading_choices(FRUSTRATION_RULES, 3, hand, groups) == []
    groups.update({"8D": "", "7D": "3", "7H": "2"})
    choices = contract_reading_choices(FRUSTRATION_RULES, 3, hand, {k: v for k, v in groups.items() if v})
    assert [c.value for c in choices] == ["contract/JK=4D", "contract/JK=8D"]
    assert choices[0].label == "The run with JK as 4♦"


# ----- the hand order ---------------------------------------------------------------------------

def test_an_arranged_hand_keeps_its_order_and_new_cards_follow_sorted():
    hand = cards("2C 9H 4D KS 7H")
    assert [c.key for c in arranged(hand, ["KS", "2C", "QD", "7H"], sort_by_suit)] == ["KS", "2C", "7H", "4D", "9H"]


def test_a_saved_order_keeps_short_distinct_keys_only():
    assert saved_order(["KS", "2C", "KS", "", "x" * 13, "7H~1"]) == ["KS", "2C", "7H~1"]
    assert len(saved_order([f"K{n}" for n in range(100)])) == 60


# ----- through the site -------------------------------------------------------------------------

def wild_table(hands, **fields):
    game = make_started_game(players=2, seed="direct-play", variant="wild")
    put_position(game, wild(hands, **fields).deal)
    return game


def board(client, game, query: str = "") -> str:
    return client.get(reverse("game_board", args=[game.pk]) + query, headers={"HX-Request": "true"}).content.decode()


@pytest.mark.django_db
def test_a_set_whose_wild_could_take_either_suit_is_laid_without_asking():
    game = wild_table(["QC QD AH 9S 4C", "KH QH JS"])
    response = post_move(login(seat_to_move(game).user), game, {"type": "lay_meld", "cards": ["QC", "QD", "AH"]},
                         game.version, htmx=True)
    assert response.status_code == 200
    meld = Meld.objects.get(deal=current_deal(game))
    assert meld.kind == "set"
    assert meld.cards.get(code="AH").stands_for == "QH"


@pytest.mark.django_db
def test_a_run_whose_wild_could_take_either_end_asks_with_the_readings_of_that_target_only():
    game = wild_table(["5C 6C AH 9S", "KH QH JS"], melds=[(1, "5H 6H 7H")])
    client = login(seat_to_move(game).user)
    response = post_move(client, game, {"type": "lay_meld", "cards": ["5C", "6C", "AH"]}, game.version, htmx=True)
    body = response.content.decode()
    assert response.status_code == 422 and 'data-error-code="choose_wild"' in body
    assert re.findall(r'name="reading" value="([^"]+)"', body) == ["-/AH=4C", "-/AH=7C"]


@pytest.mark.django_db
def test_a_frayzy_wild_laid_off_asks_only_about_the_meld_chosen():
    game = make_started_game(players=2, seed="direct-play", variant="frayzy")
    put_position(game, frayzy(["W B2 B9", "Y1 Y2 Y3 Y4"], melds=[(0, "R3 R4 R5"), (1, "G3 G4 G5"),
                                                                  (1, "B6 B7 B8")]).deal)
    response = post_move(login(seat_to_move(game).user), game, {"type": "lay_off", "meld": 2, "cards": ["W"]},
                         game.version, htmx=True)
    body = unescape(response.content.decode())
    assert response.status_code == 422
    assert re.findall(r'name="reading" value="([^"]+)"', body) == ["2/W=G2", "2/W=G6"]


def refused_contract(hands: list[str], groups: list[list[str]]):
    """A Frustration game at contract 2 (a set of 3 and a run of 4, R4) with ``hands``, where the
    player to move sends ``groups`` as the contract and is asked which reading they mean:
    (game, that player's client, the 422 body, the form fields of a retry without its reading)."""
    game = make_started_game(players=2, seed="direct-play", variant="frustration")
    put_position(game, frustration(hands).deal)
    Seat.objects.filter(game=game).update(total=2)
    client = login(seat_to_move(game).user)
    response = post_move(client, game, {"type": "lay_contract", "groups": groups}, game.version, htmx=True)
    assert response.status_code == 422
    fields = {"version": str(game.version), "groups": str(len(groups)),
              **{f"group:{key}": str(n) for n, group in enumerate(groups, 1) for key in group}}
    return game, client, unescape(response.content.decode()), fields


@pytest.mark.django_db
def test_a_contract_reading_chosen_by_its_button_lays_the_contract_down():
    game, client, body, fields = refused_contract(["5S 5H JK~1 7C 7H 7S 9C 5D 6D 7D JK KS", "KH QH JS"],
                                                  [["5S", "5H", "JK~1"], ["5D", "6D", "7D", "JK"]])
    assert 'data-error-code="choose_wild"' in body
    assert re.findall(r'name="reading" value="([^"]+)"', body) == ["contract/JK=4D", "contract/JK=8D"]
    assert 'name="group:JK"' in body and re.search(r'name="group:JK"[^>]*>.*?<option value="2" selected', body, re.S)

    response = client.post(reverse("game_move", args=[game.pk]), {**fields, "reading": "contract/JK=8D"})
    assert response.status_code == 302
    assert current_deal(game).variant_state["laid_down"][0] is True
    assert Meld.objects.get(deal=current_deal(game), kind="run").cards.get(code="JK").stands_for == "8D"


@pytest.mark.django_db
def test_a_contract_run_with_two_jokers_offers_each_run_once_and_its_button_lays_it():
    game, client, body, fields = refused_contract(["5S 5H 5D 10H JH JK JK~1 KS", "KC QC"],
                                                  [["5S", "5H", "5D"], ["10H", "JH", "JK", "JK~1"]])
    assert "Choose what the wilds stand for: JK=8♥ JK=9♥ or JK=9♥ JK=Q♥ or JK=Q♥ JK=K♥." in body
    buttons = re.findall(r'<button[^>]*name="reading" value="([^"]+)"[^>]*>([^<]*)</button>', body)
    assert [label for _, label in buttons] == ["The run with JK as 8♥, JK as 9♥", "The run with JK as 9♥, JK as Q♥",
                                               "The run with JK as Q♥, JK as K♥"]

    assert client.post(reverse("game_move", args=[game.pk]), {**fields, "reading": buttons[1][0]}).status_code == 302
    run = Meld.objects.get(deal=current_deal(game), kind="run")
    assert sorted(run.cards.exclude(stands_for="").values_list("stands_for", flat=True)) == ["9H", "QH"]


@pytest.mark.django_db
def test_the_contract_suggestion_carries_its_reading_so_laying_it_down_is_not_refused():
    """0.3, R10: "Suggest a way" fills the groups and what each wild stands for, so pressing "Lay
    down contract" straight after it lays the contract even where its wilds have several readings."""
    hands = ["5S 5H 5D 10H JH JK JK~1 KS", "KC QC"]
    targets = play_targets(view_of(frustration(hands, totals=[2, 1])))
    suggestion = {"type": "lay_contract", "groups": targets["contract"]}
    assert sorted(targets["contract_wilds"]) == ["JK", "JK~1"]
    game = make_started_game(players=2, seed="direct-play", variant="frustration")
    put_position(game, frustration(hands).deal)
    Seat.objects.filter(game=game).update(total=2)
    client = login(seat_to_move(game).user)
    asked = post_move(client, game, suggestion, game.version, htmx=True)
    assert asked.status_code == 422 and 'data-error-code="choose_wild"' in asked.content.decode()

    response = post_move(client, game, {**suggestion, "wilds": targets["contract_wilds"]}, game.version, htmx=True)

    assert response.status_code == 200, response.content.decode()[:2000]
    assert current_deal(game).variant_state["laid_down"][0] is True
    run = Meld.objects.get(deal=current_deal(game), kind="run")
    assert sorted(run.cards.exclude(stands_for="").values_list("stands_for", flat=True)) == sorted(
        targets["contract_wilds"].values())


@pytest.mark.django_db
def test_two_different_wilds_that_only_swap_places_are_one_button():
    game = wild_table(["3H 5H 7C 7H 9S", "KC QC"], number=7)
    client = login(seat_to_move(game).user)
    response = post_move(client, game, {"type": "lay_meld", "cards": ["3H", "5H", "7C", "7H"]}, game.version, htmx=True)
    body = unescape(response.content.decode())
    assert response.status_code == 422
    assert "Choose what the wilds stand for: 7♣=2♥ 7♥=4♥ or 7♣=4♥ 7♥=6♥." in body
    buttons = re.findall(r'<button[^>]*name="reading" value="([^"]+)"[^>]*>([^<]*)</button>', body)
    assert buttons == [("-/7C=2H,7H=4H", "Meld with 7♣ as 2♥, 7♥ as 4♥"),
                       ("-/7C=4H,7H=6H", "Meld with 7♣ as 4♥, 7♥ as 6♥")]

    fields = {"version": str(game.version), "reading": buttons[1][0], "cards": ["3H", "5H", "7C", "7H"]}
    assert client.post(reverse("game_move", args=[game.pk]), fields).status_code == 302
    meld = Meld.objects.get(deal=current_deal(game))
    assert dict(meld.cards.exclude(stands_for="").values_list("code", "stands_for")) == {"7C": "4H", "7H": "6H"}


@pytest.mark.django_db
def test_the_board_offers_its_targets_on_the_viewers_turn_only():
    game = wild_table(["QC QD AH 9S", "KH QH JS"])
    mover, other = seats_of(game)
    assert 'id="play-targets"' in board(login(mover.user), game)
    assert 'id="play-targets"' not in board(login(other.user), game)


@pytest.mark.django_db
def test_a_hand_order_is_kept_for_that_viewer_until_a_sort_is_chosen():
    game = wild_table(["QC QD AH 9S 4C", "KH QH JS"])
    mover = seat_to_move(game)
    client = login(mover.user)
    url = reverse("game_hand_order", args=[game.pk])
    assert client.post(url, {"cards": ["9S", "QD", "XX", "AH"]}).status_code == 204

    body = board(client, game)
    assert re.findall(r'class="hand-card[^"]*" id="hand-(\w+)"', body) == ["9S", "QD", "AH", "4C", "QC"]
    assert 'data-testid="hand-arranged"' in body
    assert 'data-testid="hand-arranged"' not in board(login(seats_of(game)[1].user), game)

    body = board(client, game, "?sort=rank")
    assert 'data-testid="hand-arranged"' not in body
    assert re.findall(r'class="hand-card[^"]*" id="hand-(\w+)"', body)[0] == "AH"
    assert 'data-testid="hand-arranged"' not in board(client, game)


@pytest.mark.django_db
def test_saving_a_hand_order_needs_a_logged_in_post_with_its_csrf_token():
    game = wild_table(["QC QD AH 9S", "KH QH JS"])
    url = reverse("game_hand_order", args=[game.pk])
    user = seat_to_move(game).user
    assert login(user).get(url).status_code == 405
    assert Client().post(url, {"cards": ["9S"]}).status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(url, {"cards": ["9S"]}).status_code == 403
