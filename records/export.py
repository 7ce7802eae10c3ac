"""Export a finished game as JSON and verify an export by replaying it through the engine.

The format is documented in ``docs/export-format.md`` (format ``rummy-table-game``, version 1):
variant, table options, game seed, seats with final totals and places, and each deal with its
number, dealer, seed, shuffle commitment, moves and result. ``verify_export`` needs nothing but
the export and the engine, so it works for any variant the engine knows.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.engine.actions import action_from_json
from games.engine.commitment import deal_commitment
from games.engine.errors import IllegalAction
from games.models import Game

from .replay import logged_moves, new_state

FORMAT = "rummy-table-game"
FORMAT_VERSION = 1


class ExportRefused(Exception):
    """The game cannot be exported (it has not finished: its seeds are still secret)."""


def export_game(game: Game) -> dict:
    """The export (a JSON-ready dict) of the finished ``game``: four queries.

    Raises ExportRefused when the game is not finished.
    """
    if game.status != Game.Status.FINISHED:
        raise ExportRefused("Only a finished game can be exported: until then its shuffle seeds are secret.")
    seats = list(game.seats.select_related("user").order_by("position"))
    deals = list(game.deals.order_by("number"))
    moves = logged_moves(game)
    by_deal: dict[int, list[dict]] = {deal.number: [] for deal in deals}
    for move in moves:
        by_deal[move.deal].append({"ply": move.ply, "seat": move.seat, "actor": move.actor, "action": move.action})
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.pk,
        "variant": game.variant,
        "options": game.options,
        "players": game.players,
        "seed": game.seed,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "seats": [{"position": s.position, "name": s.name, "computer": s.is_bot, "total": s.total, "place": s.place}
                  for s in seats],
        "deals": [{"number": d.number, "dealer": d.dealer, "seed": d.seed, "commitment": d.commitment,
                   "result": d.result, "moves": by_deal[d.number]} for d in deals],
    }


@dataclass
class Verification:
    """What ``verify_export`` found.

    Attributes:
        ok: True when the replay reproduced every recorded fact. problems: one sentence per
        mismatch. deals / moves: how many were replayed. commitments: deal numbers whose
        published commitment matched the replayed deal and its revealed seed.
    """

    ok: bool = True
    problems: list[str] = field(default_factory=list)
    deals: int = 0
    moves: int = 0
    commitments: list[int] = field(default_factory=list)

    def fail(self, message: str) -> None:
        """Record a mismatch."""
        self.ok = False
        self.problems.append(message)


def _check_deal_start(state, deal: dict, report: Verification) -> None:
    number = deal["number"]
    if state.deal.number != number:
        report.fail(f"Deal {number}: the replay is at deal {state.deal.number}.")
        return
    if state.deal.seed != deal["seed"]:
        report.fail(f"Deal {number}: the recorded seed is not the seed the game seed derives.")
    if state.deal.dealer != deal.get("dealer", state.deal.dealer):
        report.fail(f"Deal {number}: recorded dealer {deal['dealer']}, replayed {state.deal.dealer}.")
    commitment = deal.get("commitment")
    if commitment:
        if deal_commitment(state.deal) == commitment:
            report.commitments.append(number)
        else:
            report.fail(f"Deal {number}: the shuffle commitment does not match the seed and deck order.")


def verify_export(data: dict) -> Verification:
    """Replay the export ``data`` (docs/export-format.md) through the engine and compare: each
    deal's seed, dealer and commitment, every move's legality, each deal's result, and the final
    totals and places.

    Never raises for bad content: a malformed export or an illegal move is reported as a problem.
    """
    report = Verification()
    if data.get("format") != FORMAT or data.get("format_version") != FORMAT_VERSION:
        report.fail(f"Not a {FORMAT} export, version {FORMAT_VERSION}.")
        return report
    try:
        state = new_state(data["variant"], data.get("options") or {}, data["players"], data["seed"])
        for deal in data["deals"]:
            _check_deal_start(state, deal, report)
            for move in deal["moves"]:
                state, _ = state.apply(move["seat"], action_from_json(move["action"]))
                report.moves += 1
            report.deals += 1
            replayed = state.last_result.to_json() if state.last_result else None
            if deal.get("result") != replayed:
                report.fail(f"Deal {deal['number']}: recorded result {deal.get('result')}, replayed {replayed}.")
    except IllegalAction as error:
        report.fail(f"Move {report.moves + 1} does not replay: {error.message} ({error.code}).")
        return report
    except (KeyError, TypeError, ValueError) as error:
        report.fail(f"The export is malformed: {error!r}.")
        return report
    seats = sorted(data["seats"], key=lambda s: s["position"])
    if not state.finished:
        report.fail("The replayed game did not finish.")
        return report
    if [s["total"] for s in seats] != list(state.totals):
        report.fail(f"Recorded totals {[s['total'] for s in seats]}, replayed {list(state.totals)}.")
    if [s["place"] for s in seats] != list(state.standings()):
        report.fail(f"Recorded places {[s['place'] for s in seats]}, replayed {list(state.standings())}.")
    return report
