"""HTMX pages and fragments. Thin: each view parses the request, calls one service, renders.

A request with ``HX-Request`` gets the board fragment, any other the whole page (``Vary: HX-Request``
is set by ``vary_on_headers``). Every state change is a POST with the CSRF token; a move also
carries the game version it was made against.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_ratelimit.core import is_ratelimited

from notices import services as notices

from . import services, turn_clock
from .direct_play import saved_order
from .engine.variants import VARIANTS
from .errors import Refusal
from .forms import (
    ComputerPlayerForm,
    NewTableForm,
    chosen_meld,
    contract_choices,
    contract_stands,
    move_kind,
    move_payload,
    move_version,
)
from .models import Game
from .presenters import RefusedForm, board_context

HAND_SORTS = ("suit", "rank")
HAND_ORDERS = "hand_orders"
"""Session key: ``{game id: [card key, ...]}``, the hand orders the viewer arranged."""
HAND_ORDER_GAMES = 20
"""The most games whose arranged hand order the session keeps (the latest arranged)."""
RECENT_FINISHED_GAMES = 10
REFUSED_MOVE = "refused_move"
"""Session key: the latest move refused without JavaScript, ``{"game", "status", "code", "message",
"rule", "form"}`` (``form``: its play form's fields, url-encoded), shown once by the game page."""
RATE_LIMITED = 429
STOPPED = (Game.Status.ABORTED, Game.Status.VOIDED, Game.Status.ABANDONED)
"""Games that stopped before their end: the table says so, not whose turn it was."""


def _hand_sort(request: HttpRequest, game_id: int) -> tuple[str, tuple[str, ...]]:
    """The viewer's hand sort, ``?sort=suit|rank``, and the order they arranged the hand of game
    ``game_id`` in by hand, both remembered in the session; choosing a sort drops the arranged order."""
    chosen = request.GET.get("sort")
    orders = request.session.get(HAND_ORDERS, {})
    if chosen in HAND_SORTS:
        request.session["hand_sort"] = chosen
        if orders.pop(str(game_id), None) is not None:
            request.session[HAND_ORDERS] = orders
    return request.session.get("hand_sort", "suit"), tuple(orders.get(str(game_id), ()))


def _board_response(request: HttpRequest, game_id: int, *, status: int = 200, error: Refusal | None = None,
                    form: RefusedForm | None = None) -> HttpResponse:
    try:
        board = services.access_board(request.user, game_id)
    except Refusal as refusal:
        # A refused request at a table the user may not see: say why the request was refused. A
        # refusal kept from an earlier request (shown with 200) gives way to why the table is hidden.
        shown = error if error is not None and error.status == status else refusal
        return render(request, "games/refused.html", {"refusal": shown}, status=shown.status)
    return _render_board(request, game_id, board, status=status, error=error, form=form)


def _render_board(request: HttpRequest, game_id: int, board: services.Board, *, status: int = 200,
                  error: Refusal | None = None, form: RefusedForm | None = None) -> HttpResponse:
    """The board fragment (htmx) or the whole game page for ``board``, the viewer's board of game
    ``game_id``; a player of a finished game also sees the tables the others opened to play again,
    and whether playing again brings computer players (those that played from the start)."""
    hand_sort, hand_order = _hand_sort(request, game_id)
    context = board_context(board, hand_sort, error, form, hand_order)
    context["stopped"] = board.game.status in STOPPED
    if board.game.status == Game.Status.FINISHED and board.seat is not None:
        context["tables_again"] = services.tables_played_again(board.game, request.user)
        context["computer_seats"] = any(seat.is_bot and seat.former_user_id is None for seat in board.seats)
    template = "games/_board.html" if request.htmx else "games/game.html"
    return render(request, template, context, status=status)


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: open public tables, the user's own games, and the form to open a table."""
    return _lobby_page(request, NewTableForm())


def _lobby_page(request: HttpRequest, form: NewTableForm, status: int = 200) -> HttpResponse:
    my_games, finished_games = [], Game.objects.none()
    if request.user.is_authenticated:
        mine = Game.objects.for_user(request.user).prefetch_related("seats__user")
        my_games = list(mine.not_over())
        finished_games = mine.filter(status=Game.Status.FINISHED).order_by("-finished_at")[:RECENT_FINISHED_GAMES]
    open_tables = Game.objects.open_public().prefetch_related("seats__user")[:50]
    return render(request, "games/lobby.html", {"form": form, "my_games": my_games,
                                                "seated_at": {game.pk for game in my_games},
                                                "finished_games": finished_games, "open_tables": open_tables},
                  status=status)


@login_required
@require_POST
def game_new(request: HttpRequest) -> HttpResponse:
    """Open a new table from the lobby form and go to its page; a refused form (or too many
    tables waiting, ``services.create_table``) shows the lobby again with the reason."""
    form = NewTableForm(request.POST)
    if not form.is_valid():
        return _lobby_page(request, form, status=400)
    try:
        game = services.create_table(request.user, **form.table_arguments())
    except Refusal as refusal:
        form.add_error(None, refusal.message)
        return _lobby_page(request, form, status=refusal.status)
    return redirect(game)


@login_required
@require_safe
@vary_on_headers("HX-Request")
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game's page: waiting room, table in play, or final standings; after a move refused without
    JavaScript (``_refused_move``), with that refusal and the cards its form had ticked, once."""
    error, form = _kept_refusal(request, game_id)
    return _board_response(request, game_id, error=error, form=form)


@login_required
@require_safe
@vary_on_headers("HX-Request")
def game_board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board fragment for the viewer (re-fetched after every ``game.changed`` event)."""
    return _board_response(request, game_id)


def _after_change(request: HttpRequest, game_id: int) -> HttpResponse:
    if request.htmx:
        return _board_response(request, game_id)
    return redirect("game_detail", game_id=game_id)


def _to_lobby(request: HttpRequest) -> HttpResponse:
    """Back to the lobby: a redirect, or for htmx an ``HX-Redirect`` (the board is gone)."""
    response = redirect("lobby")
    if request.htmx:
        response = HttpResponse(status=204, headers={"HX-Redirect": response.url})
    return response


def _refused(request: HttpRequest, game_id: int, refusal: Refusal, form: RefusedForm | None = None) -> HttpResponse:
    return _board_response(request, game_id, status=refusal.status, error=refusal, form=form)


def _refused_form(post) -> RefusedForm:
    """What the refused play form carried (see ``RefusedForm``)."""
    return RefusedForm(frozenset(post.getlist("cards")), chosen_meld(post), contract_choices(post),
                       contract_stands(post))


def _refused_move(request: HttpRequest, game_id: int, refusal: Refusal, keep_form: bool = True) -> HttpResponse:
    """A refused move (or Play again, posted from the game page too): for htmx the board with the
    refusal and its status (400/403/409/422/429);
    without JavaScript a redirect (303, Post/Redirect/Get) to the game page, which shows the
    refusal (``REFUSED_MOVE``): the address stays the game's, and reloading it does not post the
    move again. With ``keep_form`` the board keeps what the play form carried for the retry. A move
    at a game that does not exist gets its 404 at once: there is no game page to go back to."""
    if request.htmx or refusal.status == 404:
        return _refused(request, game_id, refusal, _refused_form(request.POST) if keep_form else None)
    fields = request.POST.copy() if keep_form else QueryDict(mutable=True)
    fields.pop("csrfmiddlewaretoken", None)
    request.session[REFUSED_MOVE] = {"game": game_id, "status": refusal.status, "code": refusal.code,
                                     "message": refusal.message, "rule": refusal.rule, "form": fields.urlencode()}
    response = redirect("game_detail", game_id=game_id)
    response.status_code = 303
    return response


def _kept_refusal(request: HttpRequest, game_id: int) -> tuple[Refusal | None, RefusedForm | None]:
    """The refusal ``_refused_move`` kept for game ``game_id`` and its form, taken out of the
    session (a refusal kept for another game is dropped); ``(None, None)`` without one."""
    kept = request.session.pop(REFUSED_MOVE, None)
    if not kept or kept["game"] != game_id:
        return None, None
    refusal = Refusal(kept["status"], kept["code"], kept["message"], kept["rule"])
    return refusal, _refused_form(QueryDict(kept["form"]))


def _move_form(request: HttpRequest, game_id: int) -> tuple[int, dict]:
    """The play form's version and action. A malformed action is refused only after the seat, the
    game's status and the version are checked (``services.check_move``), as for any other move: a
    page drawn at an older version gets the fresh board (409), and a move the game does not have
    its refusal, whatever its form carried."""
    version = move_version(request.POST)
    try:
        return version, move_payload(request.POST)
    except Refusal:
        services.check_move(request.user, game_id, version, move_kind(request.POST))
        raise


@login_required
@require_POST
@vary_on_headers("HX-Request")
def game_move(request: HttpRequest, game_id: int) -> HttpResponse:
    """Apply one move from the play form. For htmx: the board, or on refusal the board with the
    refusal (409 with the fresh board when stale, 400/403/422/429); without JavaScript a redirect to
    the game page either way (``_refused_move``)."""
    if is_ratelimited(request, group="games.move", key="user", rate=settings.RUMMY_MOVE_RATE, increment=True):
        return _refused_move(request, game_id, Refusal(RATE_LIMITED, "rate_limited", "Too many moves; wait a moment."),
                             keep_form=False)
    try:
        version, payload = _move_form(request, game_id)
        board = services.submit_play(request.user, game_id, version, payload)
    except Refusal as refusal:
        return _refused_move(request, game_id, refusal)
    if request.htmx:
        return _render_board(request, game_id, board)
    return redirect("game_detail", game_id=game_id)


@login_required
@require_POST
def game_hand_order(request: HttpRequest, game_id: int) -> HttpResponse:
    """Remember the order the viewer arranged their hand of game ``game_id`` in (``cards``: card keys,
    repeated), in the session: 204. Only the viewer's own page reads it; a key that is not a card of
    the hand is ignored when the hand is drawn."""
    orders = request.session.get(HAND_ORDERS, {})
    orders.pop(str(game_id), None)
    orders[str(game_id)] = saved_order(request.POST.getlist("cards"))
    request.session[HAND_ORDERS] = dict(list(orders.items())[-HAND_ORDER_GAMES:])
    return HttpResponse(status=204)


def _table_action(request: HttpRequest, game_id: int, action, *args) -> HttpResponse:
    try:
        action(request.user, game_id, *args)
    except Refusal as refusal:
        return _refused(request, game_id, refusal)
    return _after_change(request, game_id)


@login_required
@require_POST
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    """Take a free seat at an open table (a private one needs its invite code)."""
    return _table_action(request, game_id, services.join_table, request.POST.get("code", ""))


@login_required
@require_POST
def game_add_computer(request: HttpRequest, game_id: int) -> HttpResponse:
    """Give the next empty seat to a computer player of the chosen level (table creator only)."""
    level = ComputerPlayerForm(request.POST).chosen_level()
    return _table_action(request, game_id, services.add_computer_player, level)


@login_required
@require_POST
def game_free_seat(request: HttpRequest, game_id: int, position: int) -> HttpResponse:
    """Leave an open table (back to the lobby), or (creator) free another seat."""
    try:
        leaving = services.remove_seat(request.user, game_id, position)
    except Refusal as refusal:
        return _refused(request, game_id, refusal)
    if not leaving:
        return _after_change(request, game_id)
    return _to_lobby(request)


@login_required
@require_POST
def game_close(request: HttpRequest, game_id: int) -> HttpResponse:
    """Close an open table (its creator): back to the lobby."""
    try:
        services.close_table(request.user, game_id)
    except Refusal as refusal:
        return _refused(request, game_id, refusal)
    return _to_lobby(request)


@login_required
@require_POST
def game_again(request: HttpRequest, game_id: int) -> HttpResponse:
    """"Play again" under a finished game's standings: go to a new table like it
    (``services.play_again``), started at once when only computers played with the user. A player's
    refusal (409: too many tables waiting, not finished) goes back to the game page, which shows it
    once; a stranger gets the 403 or 404 at once."""
    try:
        game = services.play_again(request.user, game_id)
    except Refusal as refusal:
        if refusal.status == 409:
            return _refused_move(request, game_id, refusal, keep_form=False)
        return _refused(request, game_id, refusal)
    return redirect(game)


@login_required
@require_POST
def game_start(request: HttpRequest, game_id: int) -> HttpResponse:
    """Deal the first hand (table creator, every seat filled)."""
    return _table_action(request, game_id, services.start_game)


@login_required
@require_safe
def game_version(request: HttpRequest, game_id: int) -> HttpResponse:
    """``{"version": n}`` of a game the user may watch: a tab that becomes visible again compares it
    with its board's and re-fetches when behind. 404/403 as the board."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return JsonResponse({"error": "no_such_game"}, status=404)
    if not services.can_watch(request.user, game, list(game.seats.all())):
        return JsonResponse({"error": "not_seated"}, status=403)
    return JsonResponse({"version": game.version})


@login_required
@require_POST
def game_reclaim(request: HttpRequest, game_id: int) -> HttpResponse:
    """"Take my seat back": the owner of a seat on autopilot plays it again (a paused game resumes)."""
    return _table_action(request, game_id, lambda user, pk: turn_clock.take_seat_back(user, pk, timezone.now()))


@login_required
@require_safe
@vary_on_headers("HX-Request")
def my_games(request: HttpRequest) -> HttpResponse:
    """"My games": the user's games in play, their turns first, least time left first. An htmx
    request (a ``games.waiting`` event) gets the list alone."""
    lines = notices.my_games(request.user, timezone.now())
    template = "games/_my_games.html" if request.htmx else "games/my_games.html"
    return render(request, template, {"lines": lines, "waiting": sum(line.your_turn for line in lines)})


@login_required
@require_safe
def join_by_code(request: HttpRequest, code: str) -> HttpResponse:
    """An invite link: shows the private table with a Join button, or why it cannot be joined
    (``services.join_refusal``)."""
    game = Game.objects.filter(invite_code=code).first()
    if game is None:
        return render(request, "games/refused.html",
                      {"refusal": Refusal(404, "no_such_game", "That invite link is not valid.")}, status=404)
    seats = list(game.seats.select_related("user"))
    return render(request, "games/invite.html", {"game": game, "seats": seats,
                                                 "seated_users": [seat.user for seat in seats if seat.user_id],
                                                 "closed": services.join_refusal(game, seats, request.user)})


@require_safe
def help_page(request: HttpRequest, slug: str) -> HttpResponse:
    """How to play one of the games on this site, in our own words: the help page of the variant
    whose ``help_slug`` is ``slug``. Raises Http404 for any other slug."""
    variant = next((v for v in VARIANTS.values() if v.help_slug == slug), None)
    if variant is None:
        raise Http404("No such game.")
    return render(request, variant.help_template)
