"""What the record and replay pages show, built from rows and the replayed engine state.

Perspective (issue 8): while a game is in play a player sees the replay through their own seat's
``player_view`` only (a spectator through the spectator's view), and never past the latest move;
once the game is finished every hand and the stock are face up. Deal seeds are shown only for
deals that have ended; the commitment of every deal is shown from the moment it is dealt.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from django.core.cache import cache

from games.engine.cards import Card, parse_card, sort_by_suit
from games.engine.commitment import commitment_text, deck_order, sha256_hex
from games.engine.melds import MeldRules
from games.engine.state import DealState, GameState
from games.models import Card as CardRow
from games.models import Deal, Game, Seat
from games.presenters import move_log_lines

from .replay import LoggedMove, replay, replay_log

REPLAYED_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class DealRecord:
    """One deal on the record page: its commitment; once ended, its seed, the committed text and
    whether SHA-256 of that text (the deal rebuilt from the seed by the engine) equals the
    commitment published when it was dealt."""

    number: int
    commitment: str
    ended: bool
    seed: str = ""
    committed_text: str = ""
    matches: bool = False


@dataclass(frozen=True)
class ReplayedFacts:
    """From one pass over the log: each deal's ``(seed, committed text)`` as the engine deals it
    again, and the card of each stock draw by step (``ReplayLog.drawn``)."""

    deals: dict[int, tuple[str, str]]
    drawn: dict[int, str]


def replayed_facts(game: Game, moves: list[LoggedMove]) -> ReplayedFacts:
    """ReplayedFacts of ``game``; cached for finished games, whose log no longer changes. The
    caller decides what may be shown: seeds of ended deals, draws only once the game is over."""
    key = f"records:replayed:{game.pk}:{len(moves)}"
    facts = cache.get(key) if game.status == Game.Status.FINISHED else None
    if facts is None:
        log = replay_log(game, moves)
        facts = ReplayedFacts({number: (deal.seed, commitment_text(deal.seed, deck_order(deal)))
                               for number, deal in log.dealt.items()}, log.drawn)
        if game.status == Game.Status.FINISHED:
            cache.set(key, facts, REPLAYED_CACHE_SECONDS)
    return facts


def deal_records(deals: list[Deal], facts: ReplayedFacts | None, game_over: bool) -> list[DealRecord]:
    """The deals with their commitments; an ended deal, and every deal once the game is over
    (``game_over``: a game aborted, abandoned or voided mid-deal leaves its deal unended), also
    with its revealed seed, checked against the deal the engine dealt again from the log
    (``facts``, needed once any seed is shown). A deal in play shows only its commitment."""
    records = []
    for deal in deals:
        if (deal.ended_at is None and not game_over) or facts is None:
            records.append(DealRecord(deal.number, deal.commitment, False))
            continue
        seed, text = facts.deals.get(deal.number, ("", ""))
        matches = seed == deal.seed and sha256_hex(text) == deal.commitment
        records.append(DealRecord(deal.number, deal.commitment, True, deal.seed, text, matches))
    return records


@dataclass(frozen=True)
class SeatFrame:
    """A seat at one step of the replay: ``hand`` (sorted by suit), each card with whether it is wild
    in the deal (W3, R5, F11), is None when the viewer may not see it."""

    position: int
    name: str
    hand: tuple[tuple[Card, bool], ...] | None
    hand_size: int
    total: int
    is_turn: bool
    is_viewer: bool


@dataclass(frozen=True)
class MeldFrame:
    """A meld on the table: owner name, and per card ``(card, what a wild stands for or "")``."""

    owner: str
    cards: tuple[tuple[Card, str], ...]


@dataclass(frozen=True)
class ReplayFrame:
    """One step of the replay as a viewer may see it.

    Attributes:
        step / last_step: moves applied (0 = as dealt) and the last step this viewer may reach.
        face_up: the game is finished and everything is shown. move_words: the move of this step
        as the table's move log writes it (``move_log_lines``; empty at step 0).
        discard: the discard pile bottom to top when face up, else only its top card.
        stock: the stock top first when face up, else empty (only ``stock_size`` is shown).
        deal_starts: ``(deal number, step)`` of each deal's first move this viewer may reach.
    """

    step: int
    last_step: int
    face_up: bool
    deal_number: int
    seats: list[SeatFrame]
    melds: list[MeldFrame]
    discard: list[tuple[Card, bool]]
    discard_size: int
    stock: list[tuple[Card, bool]]
    stock_size: int
    move_words: tuple[str, ...]
    deal_starts: tuple[tuple[int, int], ...] = ()

    @property
    def names(self) -> list[str]:
        """The seats' names, in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def previous(self) -> int | None:
        """The step before, or None at the start."""
        return self.step - 1 if self.step > 0 else None

    @property
    def next(self) -> int | None:
        """The step after, or None at the last step this viewer may see."""
        return self.step + 1 if self.step < self.last_step else None


def _melds(deal, names: list[str]) -> list[MeldFrame]:
    return [MeldFrame(names[m.owner], tuple((c, m.shape.stands_for(c)) for c in m.shape.cards)) for m in deal.melds]


def _marked(rules: MeldRules, cards) -> list[tuple[Card, bool]]:
    """``cards`` each with whether it is wild under the deal's meld ``rules``."""
    return [(card, rules.is_wild(card)) for card in cards]


def _face_up_frame(state: GameState, deal: DealState, names: list[str]) -> dict:
    rules = state.variant.meld_rules_for(deal)
    return {"deal_number": deal.number, "melds": _melds(deal, names), "discard": _marked(rules, deal.discard),
            "discard_size": len(deal.discard), "stock": _marked(rules, reversed(deal.stock)),
            "stock_size": len(deal.stock),
            "seats": [SeatFrame(s, name, tuple(_marked(rules, sort_by_suit(deal.hands[s]))), len(deal.hands[s]),
                                state.totals[s], s == deal.turn and not state.finished, False)
                      for s, name in enumerate(names)]}


def _player_frame(state: GameState, viewer: int | None, names: list[str]) -> dict:
    view = state.player_view(viewer)
    rules = state.variant.meld_rules_for(view)
    return {"deal_number": view.deal_number, "melds": _melds(view, names),
            "discard": _marked(rules, [view.discard_top] if view.discard_top else []),
            "discard_size": view.discard_size, "stock": [], "stock_size": view.stock_size,
            "seats": [SeatFrame(s, name, tuple(_marked(rules, sort_by_suit(list(view.hand))))
                                if s == viewer else None, view.hand_sizes[s], view.totals[s],
                                s == view.turn, s == viewer) for s, name in enumerate(names)]}


def replay_frame(game: Game, seats: list[Seat], viewer: Seat | None, moves: list[LoggedMove], step: int) -> ReplayFrame:
    """Step ``step`` (clamped to 0..number of moves) of ``game`` as ``viewer`` may see it (module
    docstring): the whole table face up once the game is finished, otherwise ``viewer``'s own
    ``player_view`` (None: a spectator's)."""
    step = max(0, min(step, len(moves)))
    names = [seat.name for seat in seats]
    state, ended = replay(game, moves, step)
    face_up = game.status == Game.Status.FINISHED
    if face_up:
        shown = _face_up_frame(state, ended or state.deal, names)
    else:
        shown = _player_frame(state, viewer.position if viewer else None, names)
    move = moves[step - 1] if step else None
    words: tuple[str, ...] = ()
    if move is not None:
        shown["deal_number"] = move.deal  # a deal's last move shows the next deal, but belongs to its own
        if face_up and move.action.get("type") == "draw_stock":
            # Face up, a stock draw names its card; in play it never does.
            drawn = replay(game, moves, step - 1)[0].deal.stock[-1].key
            move = replace(move, events=[{**event, "card": drawn} if event.get("type") == "draw_stock" else event
                                         for event in move.events])
        words = tuple(move_log_lines(move, seats[move.seat], names, game.rules.deal_word))
    starts: dict[int, int] = {}
    for logged in moves:
        starts.setdefault(logged.deal, logged.step)
    return ReplayFrame(step=step, last_step=len(moves), face_up=face_up, move_words=words,
                       deal_starts=tuple(starts.items()), **shown)



@dataclass(frozen=True)
class SummaryLine:
    """One seat in an end-of-deal summary: the cards it was left holding (sorted by suit), each
    with whether it was wild in that deal (W3, R5, F11), the points the deal gave it, its running
    total after the deal; in Frustration Rummy the contract it played, whether it laid it down and
    whether it advanced (R15)."""

    name: str
    went_out: bool
    left: tuple[tuple[Card, bool], ...]
    points: int
    total: int
    contract: int = 0
    laid_down: bool = False
    advanced: bool = False


@dataclass(frozen=True)
class DealSummary:
    """How one finished deal ended (S11-S16, W12-W14, R15, F16-F17): what the game calls a deal and
    its number, the ending in words, what the points column counts, and a line per seat."""

    word: str
    number: int
    ending: str
    points_word: str
    has_contracts: bool
    lines: list[SummaryLine]


def _ending(no_winner: str, result: dict, names: list[str]) -> str:
    winner = result["winner"]
    if winner is None:
        return no_winner
    notes = [note for flag, note in (("rummy", "went rummy, penalties doubled"), ("streak_bonus", "streak bonus"))
             if result.get(flag)]
    return f"{names[winner]} went out" + (f" ({', '.join(notes)})." if notes else ".")


def deal_summary(game: Game, seats: list[Seat], deal: Deal, results: list[dict]) -> DealSummary:
    """The summary of ``deal`` (ended: ``deal.result`` set) from its result, the results of the deals
    up to it (for the running totals) and the cards left in each hand (one query). Once a deal has
    ended its seed is published and every hand is shown and scored, so its leftover hands are public.

    Raises ValueError for a deal that has not ended."""
    result = deal.result
    if result is None:
        raise ValueError(f"deal {deal.number} of game {game.pk} has not ended")
    left: dict[int, list[Card]] = {seat.position: [] for seat in seats}
    rows = (CardRow.objects.filter(deal=deal, location=CardRow.Location.HAND)
            .values_list("seat__position", "code", "copy"))
    for position, code, copy in rows:
        left[position].append(Card(parse_card(code).code, copy))
    rules = game.rules
    meld_rules = rules.meld_rules_for_stored(deal.variant_state)
    lines = []
    for seat in seats:
        position = seat.position
        points = result["penalties"][position]
        hand = tuple(_marked(meld_rules, sort_by_suit(left[position])))
        if rules.has_contracts:
            # The contract the seat played: its contract now less every advance from this round on (R15).
            contract = seat.total - sum(r["penalties"][position] for r in results if r["deal"] >= deal.number)
            lines.append(SummaryLine(seat.name, result["winner"] == position, hand, points, contract + points,
                                     contract, bool(result["laid_down"][position]), points > 0))
        else:
            total = sum(r["penalties"][position] for r in results if r["deal"] <= deal.number)
            lines.append(SummaryLine(seat.name, result["winner"] == position, hand, points, total))
    return DealSummary(rules.deal_word, deal.number, _ending(rules.no_winner_sentence, result, [s.name for s in seats]),
                       rules.score_label, rules.has_contracts, lines)
