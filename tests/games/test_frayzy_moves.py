"""Frayzy through the site: opening a table (target 100 or Extended Play 200), the board's cards
(colour written and shaped), the start card, the closed discard pile, the action-card controls with
the Draw 5 target chooser, what the move log tells everyone, the score sheet, and every refusal of
bad input (an action card taken from the discard pile, a second action card in a turn, Draw 5 at a
seat that does not exist, a second wild in a meld) with not one row changed."""
import re

import pytest
from django.urls import reverse

from games.models import Deal, Game, Seat
from games.presenters import describe_event
from tests.engine.builders import frayzy
from tests.factories import (
    assert_move_refused,
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


def frayzy_game(hands, players=2, **fields):
    """A Frayzy game between people (``ann``, ``bob``, ...), put at the position ``frayzy(hands, **fields)``."""
    names = ["ann", "bob", "cat", "dan"][:players]
    game = make_started_game(players=players, humans=names, seed="frayzy-moves", variant="frayzy")
    state = frayzy(hands, **fields)
    put_position(game, state.deal)
    for position, total in enumerate(state.totals):
        Seat.objects.filter(game=game, position=position).update(total=total)
    return game


def board_of(game, position):
    seat = seats_of(game)[position]
    return login(seat.user).get(reverse("game_board", args=[game.pk]), headers={"HX-Request": "true"}).content.decode()


def test_the_lobby_form_opens_a_frayzy_table_for_extended_play():
    response = login(make_user()).post(reverse("game_new"), {"variant": "frayzy", "players": "3",
                                                             "frayzy_target": "200"})
    game = Game.objects.get()
    assert response.status_code == 302 and (game.variant, game.players) == ("frayzy", 3)
    assert game.options["target"] == 200
    assert "200 points (Extended Play)" in " ".join(game.table_rules())


def test_the_lobby_offers_frayzy_with_its_two_targets():
    body = login(make_user()).get(reverse("lobby")).content.decode()
    assert '<option value="frayzy">Frayzy</option>' in body
    assert "Extended Play: 200 points" in body and reverse("help", args=["frayzy"]) in body


def test_the_frayzy_help_page_is_served():
    response = login(make_user()).get(reverse("help", args=["frayzy"]))
    assert response.status_code == 200 and b"How to play Frayzy" in response.content


def test_the_board_writes_each_cards_colour_and_shows_the_start_card():
    game = frayzy_game(["R7 B12 W SKIP DRAW5 G3", "Y1 Y2"], discard="SKIP~1 Y9", melds=[(1, "R9 W~1=R10 R11")])
    body = board_of(game, 0)
    assert 'value="R7" aria-label="red 7"' in body  # in the hand: the checkbox says the card
    assert '<span class="card-colour-name">red</span>' in body
    assert "card-colour-blue" in body and '\u25a0' in body  # blue is a square as well as blue
    assert 'value="W" aria-label="Wild"' in body
    assert 'value="SKIP" aria-label="Skip, action card"' in body
    assert 'data-card="SKIP~1" role="img" aria-label="Skip, action card"' in body  # on the discard pile
    assert 'data-stands-for="R10">=Red 10</span>' in body
    assert 'data-testid="start-card"' in body and "Round 1" in body and reverse("help", args=["frayzy"]) in body


def test_the_discard_pile_shows_closed_while_an_action_card_is_on_top():
    game = frayzy_game(["R7 B12", "Y1 Y2"], discard="Y9 SKIP~1", phase="draw")
    body = board_of(game, 0)
    assert 'data-testid="discard-closed"' in body and 'value="take_discard"' not in body
    banner = body[body.index('class="turn-banner turn-banner-you"'):]
    assert ('Draw from the stock. <span class="take-refusal" data-testid="take-refusal">The discard pile is '
            "closed while Skip is on top. (rule F6)</span>") in banner[:banner.index("</div>")]


def test_the_draw_5_chooser_offers_every_seat_the_player_included():
    game = frayzy_game(["R7 DRAW5 SKIP", "Y1 Y2", "G1 G2"], players=3)
    body = board_of(game, 0)
    chooser = body[body.index('data-testid="draw-five-target"'):]
    chooser = chooser[:chooser.index("</select>")]
    assert chooser.index(">bob<") < chooser.index(">cat<") < chooser.index(">yourself<")
    assert 'name="play_card" value="DRAW5"' in body and 'name="play_card" value="SKIP"' in body


def test_draw_5_at_a_chosen_opponent_is_told_to_everyone():
    game = frayzy_game(["R7 DRAW5", "Y1 Y2", "G1 G2"], players=3)
    response = post_move(login(seat_to_move(game).user), game, {"type": "play_action", "card": "DRAW5", "target": 2},
                         game.version)
    assert response.status_code == 302
    assert [len(hand) for hand in load_state(game).deal.hands] == [1, 2, 7]
    for position in (0, 1, 2):
        assert "ann made cat draw 5." in board_of(game, position)


def test_skip_passes_over_the_next_player_and_says_so():
    game = frayzy_game(["R7 SKIP", "Y1 Y2", "G1 G2"], players=3)
    post_move(login(seat_to_move(game).user), game, {"type": "play_action", "card": "SKIP"}, game.version)
    assert load_state(game).deal.turn == 2
    assert "ann played Skip: bob is skipped." in board_of(game, 1)


def test_discard_1_asks_for_the_extra_discard():
    game = frayzy_game(["R7 B3 DISCARD1", "Y1 Y2"])
    post_move(login(seat_to_move(game).user), game, {"type": "play_action", "card": "DISCARD1"}, game.version)
    body = board_of(game, 0)
    assert "Discard one more card for the Discard 1." in body and 'value="R7"' in body
    game.refresh_from_db()
    post_move(login(seat_to_move(game).user), game, {"type": "discard", "card": "R7"}, game.version)
    assert "ann discarded Red 7 for the Discard 1." in board_of(game, 1)


def test_a_draw_5_start_card_lets_the_dealer_choose_through_the_page():
    game = frayzy_game(["R7 B3", "Y1 Y2"], discard="DRAW5", phase="choose_target", turn=0, dealer=0)
    body = board_of(game, 0)
    assert 'data-testid="start-draw-five"' in body and 'name="choose_target" value="1"' in body
    assert "The start card is a Draw 5" in body
    response = post_move(login(seat_to_move(game).user), game, {"type": "choose_target", "target": 1}, game.version)
    assert response.status_code == 302
    assert "With the start card, ann made bob draw 5." in board_of(game, 1)


def test_the_score_sheet_counts_each_round_and_the_final_standings_show_the_winner():
    game = frayzy_game(["R5", "R12 B1 W SKIP"], totals=[40, 80])
    post_move(login(seat_to_move(game).user), game, {"type": "discard", "card": "R5"}, game.version)
    assert Deal.objects.get(game=game, number=1).result["penalties"] == [0, 30]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and [s.place for s in seats_of(game)] == [1, 2]
    body = board_of(game, 1)
    assert "Final standings" in body and "40 points" in body and "110 points" in body
    assert "ann went out" in body and "(rule F18)" in body
    standings = body[body.index('aria-label="Final standings"'):]
    standings = standings[:standings.index("</section>")]
    assert f'<a href="{reverse("game_record", args=[game.pk])}" data-testid="standings-record">' in standings
    assert f'<a href="{reverse("game_replay", args=[game.pk])}" data-testid="standings-replay">' in standings


# ----- refusals: clear message, nothing changed ----------------------------------------------------

def test_taking_an_action_card_from_the_discard_pile_is_refused():
    game = frayzy_game(["R7 B12", "Y1 Y2"], discard="Y9 SKIP~1", phase="draw")
    assert_move_refused(game, {"type": "take_discard"}, 422, "discard_closed",
                        "The discard pile is closed while Skip is on top.")


def test_a_second_action_card_in_a_turn_is_refused():
    game = frayzy_game(["R7 DISCARD1 SKIP", "Y1 Y2"])
    post_move(login(seat_to_move(game).user), game, {"type": "play_action", "card": "DISCARD1"}, game.version)
    game.refresh_from_db()
    assert_move_refused(game, {"type": "play_action", "card": "SKIP"}, 422, "one_action_per_turn",
                        "Only one action card may be played in a turn")


@pytest.mark.parametrize("target", [2, 9])
def test_draw_5_at_a_seat_that_does_not_exist_is_refused(target):
    game = frayzy_game(["R7 DRAW5", "Y1 Y2"])
    assert_move_refused(game, {"type": "play_action", "card": "DRAW5", "target": target}, 422, "no_such_seat",
                        "Choose who draws 5: a seat from 0 to 1.")


def test_draw_5_with_a_malformed_seat_is_refused():
    game = frayzy_game(["R7 DRAW5", "Y1 Y2"])
    before = snapshot(game)
    response = login(seat_to_move(game).user).post(reverse("game_move", args=[game.pk]), {
        "version": game.version, "play_card": "DRAW5", "target": "-1"}, headers={"HX-Request": "true"})
    assert response.status_code == 400 and "Choose a player." in response.content.decode()
    assert snapshot(game) == before


def test_a_second_wild_in_a_meld_is_refused():
    game = frayzy_game(["W B3", "Y1 Y2"], melds=[(1, "R9 W~1=R10 R11")])
    assert_move_refused(game, {"type": "lay_off", "meld": 1, "cards": ["W"], "wilds": {"W": "R12"}}, 422,
                        "bad_lay_off", "A meld may hold at most 1 wild, not 2.")


def test_an_action_card_thrown_away_as_a_discard_is_refused():
    game = frayzy_game(["R7 SKIP", "Y1 Y2"])
    assert_move_refused(game, {"type": "discard", "card": "SKIP"}, 422, "play_action_card",
                        "Skip ends your turn by being played")


def test_a_skip_start_card_is_explained_on_every_board():
    game = frayzy_game(["R7 B3", "Y1 Y2", "G1 G2"], players=3, discard="SKIP", phase="draw", turn=2, dealer=0)
    for position in (0, 1, 2):
        assert "The start card is a Skip: bob loses the first turn and cat plays first (rule F4)." in \
            board_of(game, position)


def test_a_start_card_taken_away_is_no_longer_shown_and_a_later_discard_1_is_not_one():
    game = frayzy_game(["R7 B10 DISCARD1 G4", "Y1 Y2"], discard="B7", phase="draw", turn=0, dealer=1)
    mover = login(seat_to_move(game).user)
    post_move(mover, game, {"type": "take_discard"}, game.version)
    game.refresh_from_db()
    post_move(mover, game, {"type": "play_action", "card": "DISCARD1"}, game.version)
    game.refresh_from_db()
    assert load_state(game).deal.discard[0].code == "DISCARD1"
    for position in (0, 1):
        body = board_of(game, position)
        assert 'data-testid="start-card"' not in body and "The start card is a Discard 1" not in body


def test_skip_with_two_players_says_the_player_goes_again():
    game = frayzy_game(["R7 SKIP", "Y1 Y2"])
    post_move(login(seat_to_move(game).user), game, {"type": "play_action", "card": "SKIP"}, game.version)
    assert load_state(game).deal.turn == 0
    assert "ann played Skip: bob is skipped and ann takes another turn." in board_of(game, 1)


@pytest.mark.parametrize("event, text", [
    ({"type": "new_deal", "deal": 2, "dealer": 1, "start_card": "DRAW5~2"},
     "Round 2 begins: the start card is a Draw 5: bob (the dealer) chooses who draws 5 cards."),
    ({"type": "new_deal", "deal": 3, "dealer": 2, "start_card": "DISCARD1"},
     "Round 3 begins: the start card is a Discard 1: cat (the dealer) discards one card on top of it."),
    ({"type": "new_deal", "deal": 4, "dealer": 0, "start_card": "R7"}, "Round 4 begins: bob plays first."),
    ({"type": "draw_five", "seat": 1, "target": 1, "count": 5, "start_card": False}, "bob made themselves draw 5."),
    ({"type": "draw_five", "seat": 0, "target": 2, "count": 3, "start_card": False},
     "ann made cat draw 5 (only 3 left in the stock)."),
    ({"type": "stock_exhausted"}, "The stock is used up: the round ends after this turn."),
])
def test_the_move_log_words_for_frayzy_events(event, text):
    assert describe_event(event, ["ann", "bob", "cat"], "Round") == text


def test_two_copies_of_a_card_offer_one_swap_button():
    """Either copy of Red 10 plays the same swap: one button, not two identical ones."""
    game = frayzy_game(["R10 R10~1 G3 Y5", "Y1 Y2"], melds=[(1, "R9 W=R10 R11")])
    body = board_of(game, 0)
    buttons = re.findall(r'<button type="submit" name="swap" value="([^"]+)"[^>]*>([^<]+)</button>', body)
    assert len(buttons) == 1 and buttons[0][1].startswith("Swap Red 10 for"), buttons
