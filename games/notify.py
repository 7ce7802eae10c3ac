"""Events sent after commit: a small "game changed, version N" message to the game's group.

No card ever travels through a channel group (design: "Services, transactions, events").
"""
from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

GAME_CHANGED = "game.changed"


def game_group(game_id: int) -> str:
    """Channel group name of everyone watching game ``game_id``."""
    return f"game-{game_id}"


def game_changed(game_id: int, version: int) -> None:
    """Tell every open page of game ``game_id`` that it is now at ``version``.

    Sends ``{"type": "game.changed", "game": id, "version": n}``; call only after commit.
    """
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(game_group(game_id), {"type": GAME_CHANGED, "game": game_id, "version": version})
