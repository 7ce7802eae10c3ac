"""How long a websocket may live: every socket of a signed-in user (game page or user socket) joins
a group of its session and one of its user, and is closed through them when the session logs out
or the user becomes inactive (suspended). When the user's password changes or is reset, every
socket of the user is closed with ``CHECK_AGAIN``: the pages reconnect, and the handshake refuses
the sessions the change signed out. A game socket at a private table is also closed when its user
no longer holds a seat there (``games.consumers``).

Closing is an event after commit, best-effort like every event: when the channel layer cannot be
reached the failure is logged, and the logout or the suspension stands.
"""
from __future__ import annotations

import logging

from allauth.account.signals import password_changed, password_reset, password_set
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save
from django.utils.crypto import salted_hmac

logger = logging.getLogger(__name__)

SOCKETS_CLOSE = "sockets.close"
CHECK_AGAIN = 4001
"""Close code of a socket whose session must be checked again: the pages reconnect, as after any
close but 4403, and the handshake checks the session."""


def session_group(session_key: str) -> str:
    """Channel group name of every socket opened with session ``session_key``: a keyed digest, so
    the session key itself (a credential) is never written to the channel layer."""
    return "session-" + salted_hmac("games.socket_lifetime.session_group", session_key).hexdigest()[:32]


def account_group(user_id: int) -> str:
    """Channel group name of every socket of user ``user_id``, game sockets and user sockets."""
    return f"sockets-{user_id}"


def close_sockets(group: str, code: int | None = None) -> None:
    """After commit, close every socket in ``group`` (``{"type": "sockets.close"}``): with 4403,
    which the pages take as "stop reconnecting", or with ``code``."""
    event = {"type": SOCKETS_CLOSE} if code is None else {"type": SOCKETS_CLOSE, "code": code}
    transaction.on_commit(lambda: _send_close(group, event))


def _send_close(group: str, event: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception as error:  # whatever the layer raises (unreachable, timed out, full): the change stands
        logger.warning("could not close the sockets of %s: %s", group, error)


def _session_logged_out(sender, request, user, **kwargs) -> None:
    if user is not None and request.session.session_key:
        close_sockets(session_group(request.session.session_key))


def _user_saved(sender, instance, **kwargs) -> None:
    if not instance.is_active:
        close_sockets(account_group(instance.pk))


def _password_changed(sender, request, user, **kwargs) -> None:
    close_sockets(account_group(user.pk), CHECK_AGAIN)


def connect_signals() -> None:
    """Close sockets on logout (``user_logged_out``), when a user is saved inactive (a suspension,
    ``moderation.services.suspend_user``, or an admin's change), and, to be checked again, when a
    password is changed, set or reset through allauth. Called by ``GamesConfig.ready``."""
    user_logged_out.connect(_session_logged_out, dispatch_uid="games.socket_lifetime.logout")
    for signal in (password_changed, password_set, password_reset):
        signal.connect(_password_changed, dispatch_uid=f"games.socket_lifetime.password.{id(signal)}")
    post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="games.socket_lifetime.inactive")
