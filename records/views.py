"""Game record, replay and export pages. Thin: authorize through ``games.services.access_board``
(``access_deals`` where no board is shown; the same rule as the game page: a seated player, or
anyone signed in at a public table), build with ``records.presenters``, render."""
from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from games import services
from games.errors import Refusal
from games.models import Game
from games.presenters import board_context, mover_name

from .chart import score_chart
from .export import ExportRefused, export_game
from .notation import move_lines
from .presenters import deal_records, deal_summary, replay_frame, replayed_facts
from .replay import logged_moves


def _refused(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    return render(request, "games/refused.html", {"refusal": refusal}, status=refusal.status)


STEP_DIGITS = 6
"""Digits read from ``?step=``; a longer number is past any game's last move."""


def _step(request: HttpRequest, default: int) -> int:
    """The replay step asked for by ``?step=``, a whole number with an optional minus sign, for
    ``replay_frame`` to clamp to the game's moves (past the end: the last move; below 0: the start);
    ``default`` when absent or not a number."""
    text = request.GET.get("step", "")
    digits = text.removeprefix("-")
    if not (digits.isascii() and digits.isdigit()):
        return default
    step = int(digits) if len(digits) <= STEP_DIGITS else 10**STEP_DIGITS
    return -step if text.startswith("-") else step


@login_required
@require_safe
def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game's record: players and standings, score sheet and chart (Frustration: the contract
    board), each deal's shuffle commitment (and, once it ended, its seed checked), the move list
    in card notation and the replay viewer."""
    try:
        board = services.access_board(request.user, game_id)
    except Refusal as refusal:
        return _refused(request, refusal)
    context = board_context(board, "suit")
    game = board.game
    moves = logged_moves(game)
    deals = list(game.deals.order_by("number"))
    facts = replayed_facts(game, moves) if game.is_over or any(deal.ended_at for deal in deals) else None
    face_up = game.status == Game.Status.FINISHED
    context.update({
        "deal_records": deal_records(deals, facts, game.is_over),
        "move_lines": [(line, mover_name(board.seats[line.seat], line.actor))
                       for line in move_lines(moves, facts.drawn if facts and face_up else None)],
        "chart": (score_chart(context["names"], board.results)
                  if board.results and not game.rules.has_contracts else None),
        "frame": replay_frame(game, board.seats, board.seat, moves, _step(request, len(moves))) if board.view else None,
        "spectator": board.seat is None,
        "chart_title": f"Running totals after each {game.rules.deal_word.lower()}",
        "title": f"Record of {game}",
    })
    return render(request, "records/record.html", context)


@login_required
@require_safe
@vary_on_headers("HX-Request")
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """One step of the replay (``?step=N``): the fragment for HTMX, else the record page's frame
    alone in a page. While the game is in play the viewer sees their own seat only, up to now."""
    try:
        board = services.access_board(request.user, game_id)
    except Refusal as refusal:
        return _refused(request, refusal)
    if board.view is None:
        return _refused(request, Refusal(409, "not_started", "This game has not been dealt yet."))
    moves = logged_moves(board.game)
    frame = replay_frame(board.game, board.seats, board.seat, moves, _step(request, 0))
    context = {"game": board.game, "frame": frame, "title": f"Replay of {board.game}", "spectator": board.seat is None,
               "deal_word": board.game.rules.deal_word}
    template = "records/_replay.html" if request.htmx else "records/replay.html"
    return render(request, template, context)


@login_required
@require_safe
def game_export(request: HttpRequest, game_id: int) -> HttpResponse:
    """The finished game as JSON (docs/export-format.md), as a download; 409 while in play."""
    try:
        board = services.access_board(request.user, game_id)
        data = export_game(board.game)
    except Refusal as refusal:
        return _refused(request, refusal)
    except ExportRefused as refused:
        return _refused(request, Refusal(409, "not_finished", str(refused)))
    response = HttpResponse(json.dumps(data, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="rummy-table-game-{game_id}.json"'
    return response


@login_required
@require_safe
@vary_on_headers("HX-Request")
def game_deal_summary(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """How deal ``number`` ended: who went out, what each player was left holding and its points,
    the running totals (Frustration: who advanced). The fragment for HTMX (the table shows it when
    the next deal starts), else a page that links to the ended deals before and after it. 404 for
    no such deal, 409 while it is being played."""
    try:
        game, seats, deals = services.access_deals(request.user, game_id)
    except Refusal as refusal:
        return _refused(request, refusal)
    deal = next((row for row in deals if row.number == number), None)
    if deal is None:
        return _refused(request, Refusal(404, "no_such_deal", "This game has no such deal."))
    if deal.result is None:
        return _refused(request, Refusal(409, "deal_in_play", "This deal is still being played."))
    summary = deal_summary(game, seats, deal, [row.result for row in deals if row.result])
    ended = {row.number for row in deals if row.result is not None}
    context = {"game": game, "summary": summary,
               "earlier": number - 1 if number - 1 in ended else None,
               "later": number + 1 if number + 1 in ended else None,
               "title": f"{game}: how {summary.word.lower()} {number} ended"}
    template = "records/_deal_summary.html" if request.htmx else "records/deal_summary.html"
    return render(request, template, context)
