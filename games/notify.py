"""Events sent after commit: a small "game changed, version N" message to the game's group, and
the number of games waiting on a user to that user's group.

No card ever travels through a channel group (design: "Services, transactions, events").
Sending is best-effort: the change is already committed, so a channel layer that cannot be reached
(Redis down) loses the event and nothing else. Pages catch up by comparing versions (their socket
is down too, so they poll ``/games/<id>/version``); the outage is logged once per process, not per
event (``rummy_site.outages.Outage``).
"""
from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from rummy_site.outages import Outage

logger = logging.getLogger(__name__)

GAME_CHANGED = "game.changed"
GAMES_WAITING = "games.waiting"

channel_layer_outage = Outage(logger, "Channel layer", "events after commit are dropped")


def game_group(game_id: int) -> str:
    """Channel group name of everyone watching game ``game_id``."""
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    """Channel group name of every open page of user ``user_id`` (any page of the site)."""
    return f"user-{user_id}"


def _send(group: str, event: dict) -> None:
    """Send ``event`` to ``group`` if the layer can take it; never raises (module docstring)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception as error:  # any failure of the layer: the event is best-effort
        channel_layer_outage.failed(error)
    else:
        channel_layer_outage.answered()


def games_waiting(user_id: int, count: int, your_turn_in=None) -> None:
    """Tell every open page of ``user_id`` how many games wait on them, and, with ``your_turn_in``
    (a Game), that it just became their turn there. Best-effort (module docstring).

    Sends ``{"type": "games.waiting", "count": n, "game": id or None, "name": "Standard Rummy #12",
    "url": "/games/12/"}``; call only after commit.
    """
    event = {"type": GAMES_WAITING, "count": count, "game": None, "name": "", "url": ""}
    if your_turn_in is not None:
        event.update(game=your_turn_in.pk, name=str(your_turn_in), url=your_turn_in.get_absolute_url())
    _send(user_group(user_id), event)


def game_changed(game_id: int, version: int) -> None:
    """Tell every open page of game ``game_id`` that it is now at ``version``.

    Sends ``{"type": "game.changed", "game": id, "version": n}``; call only after commit.
    Best-effort (module docstring).
    """
    _send(game_group(game_id), {"type": GAME_CHANGED, "game": game_id, "version": version})
