"""The database constraints that keep a game's rows consistent, checked by writing bad rows directly."""
import pytest
from django.db import IntegrityError, transaction

from games.models import Card, Meld, Move, Seat
from tests.factories import current_deal, make_started_game, make_table, make_user, seats_of

pytestmark = pytest.mark.django_db


def refused(**row):
    """True when inserting a Card with the fields ``row`` raises IntegrityError (in a savepoint)."""
    try:
        with transaction.atomic():
            Card.objects.create(**row)
    except IntegrityError:
        return True
    return False


def test_a_physical_card_has_one_row_per_deal():
    game = make_started_game(players=2, seed="models")
    deal = current_deal(game)
    existing = Card.objects.filter(deal=deal, location=Card.Location.STOCK).first()

    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.create(deal=deal, code=existing.code, copy=existing.copy, location=Card.Location.DISCARD,
                            position=5)
    # A second copy of the same card is a different physical card (multi-deck games).
    Card.objects.create(deal=deal, code=existing.code, copy=1, location=Card.Location.DISCARD, position=5)
    assert Card.objects.filter(deal=deal, code=existing.code).count() == 2


def test_a_card_is_in_exactly_one_place():
    game = make_started_game(players=2, seed="places")
    deal = current_deal(game)
    seat = seats_of(game)[0]
    meld = Meld.objects.create(deal=deal, number=1, kind=Meld.Kind.SET, owner=seat)
    base = {"deal": deal, "copy": 3, "position": 0}

    assert refused(code="AS", location=Card.Location.HAND, **base), "a hand card needs its seat"
    assert refused(code="2S", location=Card.Location.HAND, seat=seat, meld=meld, **base)
    assert refused(code="3S", location=Card.Location.MELD, **base), "a meld card needs its meld"
    assert refused(code="4S", location=Card.Location.MELD, meld=meld, seat=seat, **base)
    assert refused(code="5S", location=Card.Location.STOCK, seat=seat, **base)
    assert refused(code="6S", location=Card.Location.DISCARD, meld=meld, **base)
    assert refused(code="7S", location="floor", **base)

    # The control cases: the same rows, correctly placed, are accepted.
    assert not refused(code="AS", location=Card.Location.HAND, seat=seat, **base)
    assert not refused(code="3S", location=Card.Location.MELD, meld=meld, **base)
    assert not refused(code="5S", location=Card.Location.STOCK, **base)
    assert not refused(code="6S", location=Card.Location.DISCARD, **base)


def test_moving_a_hand_card_without_its_seat_is_refused():
    game = make_started_game(players=2, seed="move-card")
    card = Card.objects.filter(deal=current_deal(game), location=Card.Location.STOCK).first()

    card.location = Card.Location.HAND
    with pytest.raises(IntegrityError), transaction.atomic():
        card.save()


def test_two_moves_with_the_same_ply_are_refused():
    game = make_started_game(players=2, seed="ply")
    seat = seats_of(game)[0]
    Move.objects.create(game=game, ply=7, deal_number=1, seat=seat, actor=Move.Actor.PLAYER,
                        action={"type": "draw_stock"})

    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(game=game, ply=7, deal_number=1, seat=seat, actor=Move.Actor.PLAYER,
                            action={"type": "take_discard"})
    # The same ply in another game is fine.
    other = make_started_game(players=2, seed="ply-2")
    Move.objects.create(game=other, ply=7, deal_number=1, seat=seats_of(other)[0], actor=Move.Actor.PLAYER,
                        action={"type": "draw_stock"})
    assert Move.objects.filter(ply=7).count() == 2


def test_seat_constraints():
    bob, ann = make_user("bob"), make_user("ann")
    game = make_table(bob, players=3)

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, position=0, user=ann)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, position=1, user=bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=game, position=1, user=ann, bot_level=Seat.BotLevel.NORMAL)
    Seat.objects.create(game=game, position=1, user=ann)
    assert [s.user_id for s in seats_of(game)] == [bob.pk, ann.pk]


def test_meld_numbers_are_unique_per_deal():
    game = make_started_game(players=2, seed="meld-numbers")
    deal, seat = current_deal(game), seats_of(game)[0]
    Meld.objects.create(deal=deal, number=1, kind=Meld.Kind.RUN, owner=seat)
    with pytest.raises(IntegrityError), transaction.atomic():
        Meld.objects.create(deal=deal, number=1, kind=Meld.Kind.SET, owner=seat)
