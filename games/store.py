"""The only translator between game rows and the rules engine.

``load_state`` rebuilds a GameState from the rows of a game's current deal; ``save_state`` writes
back only the rows an applied action changed (card places, new melds, the deal, seat totals), so
the number of queries per move does not grow with the length of the game.
"""
from __future__ import annotations

from copy import copy as shallow_copy
from dataclasses import dataclass, field

from django.utils import timezone

from rummy_site.prepared import PreparedQuery

from .engine.cards import Card as EngineCard
from .engine.cards import parse_card
from .engine.commitment import deal_commitment
from .engine.melds import MeldShape
from .engine.state import DealState, GameState, HandResult, Phase, TableMeld
from .engine.variants.base import Variant
from .models import Card, Deal, Game, Meld, Seat

CARD_PLACE_FIELDS = ["location", "position", "seat", "meld", "stands_for"]
"""The Card fields that say where a card is (what a move may change)."""

Place = tuple[str, int, int | None, int | None, str]
"""Where a card is: (location, position, seat position or None, meld number or None, what a wild in
a meld stands for or ""). Cards in a hand all have position 0: the engine keeps hands sorted, so
only piles and melds need an order."""


@dataclass
class LoadedGame:
    """A game's rows as loaded for one request.

    Attributes:
        game: the Game row. seats: its seats by position. deal: the current (latest) deal.
        last_result: the result of the latest finished hand, as stored on its Deal row.
        results: every finished hand's result JSON, in deal order (the score sheet).
        card_ids / meld_rows: the current deal's Card primary keys by (code, copy) and Meld rows
            by number, filled by ``load_state`` and reused by ``save_state``.
        away: user ids of the seated people with a declared absence not over yet, and
            waiting_elsewhere: for each seated person, how many other games wait on them; both
            None when not loaded with the seats (the turn clock and the badges then ask).
        changed_seat_fields: the Seat fields changed on ``seats`` in memory and not yet written:
            a move's seat changes (totals, deadlines, places) go in one UPDATE (``save_seats``).
    """

    game: Game
    seats: list[Seat]
    deal: Deal | None
    last_result: HandResult | None
    results: list[dict] = field(default_factory=list)
    card_ids: dict[tuple[str, int], int] = field(default_factory=dict)
    meld_rows: dict[int, Meld] = field(default_factory=dict)
    away: frozenset[int] | None = None
    waiting_elsewhere: dict[int, int] | None = None
    changed_seat_fields: set[str] = field(default_factory=set)


DEALS = PreparedQuery(lambda game_id: Deal.objects.filter(game_id=game_id).order_by("number"), game_id=int)
"""A game's deals by number."""
PLACED_CARDS = PreparedQuery(
    lambda deal_id: Card.objects.filter(deal_id=deal_id).order_by("position").values_list(
        "pk", "code", "copy", "location", "seat_id", "stands_for",
        "meld_id", "meld__number", "meld__kind", "meld__owner_id", "meld__is_contract"),
    deal_id=int)
"""A deal's cards by position, each with its meld's number, kind, owner and contract flag."""


def load_rows(game: Game, seats: list[Seat] | None = None) -> LoadedGame:
    """Fetch every deal of ``game`` (one query) and, unless ``seats`` (by position, with users)
    are given, its seats (one more)."""
    if seats is None:
        seats = list(game.seats.select_related("user").order_by("position"))
    deals = DEALS.run(game_id=game.pk)
    for deal in deals:
        deal.game = game
    results = [deal.result for deal in deals if deal.result]
    return LoadedGame(game, seats, deals[-1] if deals else None,
                      HandResult.from_json(results[-1]) if results else None, results)


def load_state(rows: LoadedGame) -> GameState:
    """Rebuild the engine state of ``rows.game`` from its rows: one query, the current deal's cards
    with their melds.

    Raises ValueError when the game has not been dealt yet.
    """
    game, deal = rows.game, rows.deal
    if deal is None:
        raise ValueError(f"game {game.pk} has no deal")
    position_of_seat = {seat.pk: seat.position for seat in rows.seats}
    hands: list[list[EngineCard]] = [[] for _ in rows.seats]
    stock: list[EngineCard] = []
    discard: list[EngineCard] = []
    meld_cards: dict[int, list[EngineCard]] = {}
    meld_wilds: dict[int, list[tuple[EngineCard, str]]] = {}
    melds: dict[int, Meld] = {}
    placed = PLACED_CARDS.run(deal_id=deal.pk)
    for pk, code, copy, location, seat_id, stands_for, meld_id, number, kind, owner_id, is_contract in placed:
        rows.card_ids[(code, copy)] = pk
        card = EngineCard(code, copy)
        if location == Card.Location.HAND:
            hands[position_of_seat[seat_id]].append(card)
        elif location == Card.Location.STOCK:
            stock.append(card)
        elif location == Card.Location.DISCARD:
            discard.append(card)
        else:
            if number not in melds:
                melds[number] = Meld(pk=meld_id, deal=deal, number=number, kind=kind, owner_id=owner_id,
                                     is_contract=is_contract)
                meld_cards[number], meld_wilds[number] = [], []
            meld_cards[number].append(card)
            if stands_for:
                meld_wilds[number].append((card, stands_for))
    rows.meld_rows = dict(sorted(melds.items()))
    for hand in hands:
        hand.sort()
    table = [TableMeld(meld.number, position_of_seat[meld.owner_id],
                       MeldShape(meld.kind, tuple(meld_cards[meld.number]), tuple(meld_wilds[meld.number])),
                       meld.is_contract)
             for meld in rows.meld_rows.values()]
    variant = game.rules
    deal_state = DealState(
        number=deal.number, dealer=deal.dealer, seed=deal.seed, hands=hands, stock=stock, discard=discard,
        melds=table, turn=deal.turn, phase=Phase(deal.phase),
        taken_discard=parse_card(deal.taken_discard) if deal.taken_discard else None,
        rebuilds=deal.rebuilds, stalemate=deal.stalemate, played_this_turn=deal.played_this_turn,
        played_before=list(deal.played_before), next_meld_id=deal.next_meld_number,
        **variant.deal_state_fields(deal.variant_state),
    )
    return GameState(
        variant=variant, players=game.players, seed=game.seed,
        totals=[seat.total for seat in rows.seats], deal=deal_state, last_result=rows.last_result,
        finished=game.status == Game.Status.FINISHED, streaks=[seat.streak for seat in rows.seats],
    )


def _places(deal: DealState) -> dict[EngineCard, Place]:
    places: dict[EngineCard, Place] = {}
    for seat, hand in enumerate(deal.hands):
        places.update({card: (Card.Location.HAND, 0, seat, None, "") for card in hand})
    places.update({card: (Card.Location.STOCK, i, None, None, "") for i, card in enumerate(deal.stock)})
    places.update({card: (Card.Location.DISCARD, i, None, None, "") for i, card in enumerate(deal.discard)})
    for meld in deal.melds:
        places.update({card: (Card.Location.MELD, i, None, meld.id, meld.shape.stands_for(card))
                       for i, card in enumerate(meld.shape.cards)})
    return places


def _new_deal_row(rows: LoadedGame, deal: DealState) -> Deal:
    row = Deal(game=rows.game, number=deal.number, dealer=deal.dealer, seed=deal.seed,
               commitment=deal_commitment(deal))
    _copy_deal_fields(row, deal, rows.game.rules)
    return row


def _new_card_rows(rows: LoadedGame, row: Deal, deal: DealState) -> list[Card]:
    seat_rows = rows.seats
    return [Card(deal=row, code=card.code, copy=card.copy, location=location, position=position,
                 seat=seat_rows[seat] if seat is not None else None)
            for card, (location, position, seat, _, _) in _places(deal).items()]


def _dealt(rows: LoadedGame, row: Deal, cards: list[Card]) -> None:
    rows.deal = row
    rows.card_ids = {(card.code, card.copy): card.pk for card in cards}
    rows.meld_rows = {}


def create_deal(rows: LoadedGame, deal: DealState) -> Deal:
    """Insert the Deal row (with its shuffle commitment) and one Card row per physical card for a
    freshly dealt ``deal``."""
    row = _new_deal_row(rows, deal)
    row.save()
    _dealt(rows, row, Card.objects.bulk_create(_new_card_rows(rows, row, deal)))
    return row


def _copy_deal_fields(row: Deal, deal: DealState, variant: Variant) -> None:
    row.turn = deal.turn
    row.phase = deal.phase.value
    row.taken_discard = deal.taken_discard.key if deal.taken_discard else ""
    row.rebuilds = deal.rebuilds
    row.stalemate = deal.stalemate
    row.played_this_turn = deal.played_this_turn
    row.played_before = list(deal.played_before)
    row.next_meld_number = deal.next_meld_id
    row.variant_state = variant.deal_state_json(deal)


DEAL_PLAY_FIELDS = ["turn", "phase", "taken_discard", "rebuilds", "stalemate", "played_this_turn",
                    "played_before", "next_meld_number", "variant_state", "result", "ended_at"]
"""The Deal fields play changes (``_copy_deal_fields``, and the result when the hand ends)."""


def _changed_cards(rows: LoadedGame, before: DealState, after: DealState) -> list[Card]:
    """Insert the melds ``after`` has and ``before`` had not (one INSERT), and return the Card rows
    whose place changed, unsaved, each with its primary key, code and copy."""
    deal_row = rows.deal
    old_places, new_places = _places(before), _places(after)
    known_melds = {meld.id for meld in before.melds}
    new_melds = [Meld(deal=deal_row, number=meld.id, kind=meld.shape.kind, owner=rows.seats[meld.owner],
                      is_contract=meld.contract)
                 for meld in after.melds if meld.id not in known_melds]
    Meld.objects.bulk_create(new_melds)
    rows.meld_rows.update({meld.number: meld for meld in new_melds})
    changed = []
    for card, place in new_places.items():
        if old_places[card] == place:
            continue
        location, position, seat, meld, stands_for = place
        changed.append(Card(pk=rows.card_ids[(card.code, card.copy)], deal=deal_row, code=card.code,
                            copy=card.copy, location=location, position=position,
                            seat=rows.seats[seat] if seat is not None else None,
                            meld=rows.meld_rows[meld] if meld is not None else None, stands_for=stands_for))
    return changed


def _end_deal_fields(rows: LoadedGame, variant: Variant, after: DealState, result: HandResult | None) -> Deal:
    deal_row = rows.deal
    _copy_deal_fields(deal_row, after, variant)
    if result is not None:
        deal_row.result = result.to_json()
        deal_row.ended_at = timezone.now()
    return deal_row


def _write_cards(cards: list[Card]) -> None:
    """Insert ``cards`` and write the place of those already there, in one statement: INSERT ...
    ON CONFLICT (deal, code, copy) DO UPDATE of ``CARD_PLACE_FIELDS`` (cheaper to build than
    ``bulk_update``'s CASE per field and card; docs/serving.md). Card rows are never deleted, so
    an existing card is only ever updated."""
    for card in cards:
        card.pk = None
    if cards:
        Card.objects.bulk_create(cards, update_conflicts=True, unique_fields=["deal", "code", "copy"],
                                 update_fields=CARD_PLACE_FIELDS)


def _save_deal(rows: LoadedGame, variant: Variant, before: DealState, after: DealState,
               result: HandResult | None) -> None:
    """Write what changed between two positions of the same deal: new melds, card places, the deal row."""
    _write_cards(_changed_cards(rows, before, after))
    _end_deal_fields(rows, variant, after, result).save()


def _save_deal_and_deal_next(rows: LoadedGame, variant: Variant, before: DealState, ended: DealState,
                             result: HandResult, next_deal: DealState) -> None:
    """Write the end of the current deal (``before`` to ``ended``) and insert ``next_deal`` in three
    statements: the new melds; the ended Deal row with the next one (INSERT ... ON CONFLICT (game,
    number) DO UPDATE: the ended row exists, so only its play fields are written); the ended deal's
    changed cards with the next deal's cards (ON CONFLICT (deal, code, copy) DO UPDATE, likewise)."""
    changed = _changed_cards(rows, before, ended)
    ended_row = shallow_copy(_end_deal_fields(rows, variant, ended, result))
    ended_row.pk = None
    next_row = _new_deal_row(rows, next_deal)
    Deal.objects.bulk_create([ended_row, next_row], update_conflicts=True, unique_fields=["game", "number"],
                             update_fields=DEAL_PLAY_FIELDS)
    dealt = _new_card_rows(rows, next_row, next_deal)
    _write_cards(dealt + changed)
    _dealt(rows, next_row, dealt)


def write_seats(seats: list[Seat], fields: list[str], rows: LoadedGame | None = None) -> None:
    """Write ``fields`` of ``seats``, changed in memory: with ``rows`` (the ``LoadedGame`` of a
    move, whose seats they are) later, in the move's one UPDATE of its seats (``save_seats``); else
    now, in one UPDATE (none when ``seats`` is empty)."""
    if rows is None:
        Seat.objects.bulk_update(seats, fields)
    elif seats:
        rows.changed_seat_fields.update(fields)


def set_totals(rows: LoadedGame, state: GameState) -> None:
    """Give each seat its total (points, or Frustration's contract, R4) and streak (W14) from
    ``state``, in memory; ``save_seats`` writes them."""
    for seat, total, streak in zip(rows.seats, state.totals, state.streaks):
        seat.total, seat.streak = total, streak
    write_seats(rows.seats, ["total", "streak"], rows)


def save_seats(rows: LoadedGame) -> None:
    """Write ``rows.changed_seat_fields`` of every seat in one statement (none when nothing
    changed): INSERT ... ON CONFLICT (game, position) DO UPDATE of those fields, cheaper to build
    than ``bulk_update``'s CASE. The caller holds the game row's lock, under which every seat of
    ``rows`` exists (seats are deleted only from a waiting table, under the same lock), so each
    one is only ever updated."""
    if rows.changed_seat_fields:
        Seat.objects.bulk_create(rows.seats, update_conflicts=True, unique_fields=["game", "position"],
                                 update_fields=sorted(rows.changed_seat_fields))
        rows.changed_seat_fields.clear()


def save_state(rows: LoadedGame, before: GameState, after: GameState) -> None:
    """Write the rows that changed from ``before`` to ``after`` (one applied action).

    When the action ended a hand, the ended deal's final position and result are stored, the
    seats' totals and streaks (W14) are set for ``save_seats``, and the next deal (if any) is
    inserted.
    """
    ended = after.ended_deal
    if ended is not None:
        ended_row = rows.deal
        if after.deal is ended:
            _save_deal(rows, after.variant, before.deal, ended, after.last_result)
        else:
            _save_deal_and_deal_next(rows, after.variant, before.deal, ended, after.last_result, after.deal)
        set_totals(rows, after)
        rows.last_result = after.last_result
        rows.results.append(ended_row.result)
    else:
        _save_deal(rows, after.variant, before.deal, after.deal, None)
