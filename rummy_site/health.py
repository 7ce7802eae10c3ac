"""Health check for load balancers and monitoring: answers within ``HEALTH_TIMEOUT_SECONDS``
whatever state PostgreSQL and Redis are in (gone, refusing, or accepting and never answering)."""
import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .outages import summary

logger = logging.getLogger(__name__)

HEALTH_TIMEOUT_SECONDS = 1.5
"""Budget for both checks together; a check not done by then counts as failed."""
CHANNEL_LAYER_TIMEOUT_SECONDS = HEALTH_TIMEOUT_SECONDS

# One thread for the database check: a PostgreSQL that never answers holds it (up to the connect
# timeout) while later probes find it busy and report failure at their deadline, so hung probes
# never pile up threads or connections.
_database_checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="healthz-database")


def database_ok():
    """Return True if the default database answers ``SELECT 1`` (on this thread's connection,
    closed afterwards)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception as error:
        logger.warning("Health check: database unavailable: %s", summary(error))
        return False
    finally:
        connection.close()


async def _channel_layer_round_trip(layer):
    """Send a message to a fresh channel on ``layer`` and read it back."""
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "health.ping"})
    message = await asyncio.wait_for(layer.receive(channel), CHANNEL_LAYER_TIMEOUT_SECONDS)
    return message.get("type") == "health.ping"


def channel_layer_ok():
    """Return True if the default channel layer delivers a message within the timeout."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return False
        return async_to_sync(_channel_layer_round_trip)(layer)
    except Exception as error:
        logger.warning("Health check: channel layer unavailable: %s", summary(error))
        return False


def _within(future, deadline: float) -> bool:
    try:
        return future.result(timeout=max(0.0, deadline - time.monotonic()))
    except FutureTimeout:
        logger.warning("Health check: database gave no answer within %s s", HEALTH_TIMEOUT_SECONDS)
        return False


@never_cache
@require_GET
def healthz(request):
    """Report whether the database and the channel layer work: 200 if both do, else 503, within
    ``HEALTH_TIMEOUT_SECONDS`` (the two checks run side by side)."""
    deadline = time.monotonic() + HEALTH_TIMEOUT_SECONDS
    database = _database_checker.submit(database_ok)
    channel_layer = channel_layer_ok()
    checks = {"database": _within(database, deadline), "channel_layer": channel_layer}
    healthy = all(checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)
