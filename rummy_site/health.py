"""Health check for load balancers and monitoring."""
import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)

CHANNEL_LAYER_TIMEOUT_SECONDS = 2.0


def database_ok():
    """Return True if the default database answers ``SELECT 1``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        logger.exception("Health check: database unavailable")
        return False


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
    except Exception:
        logger.exception("Health check: channel layer unavailable")
        return False


@never_cache
@require_GET
def healthz(request):
    """Report whether the database and the channel layer work: 200 if both do, else 503."""
    checks = {"database": database_ok(), "channel_layer": channel_layer_ok()}
    healthy = all(checks.values())
    return JsonResponse({"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503)
