"""GET /healthz reports the database and the channel layer."""
import asyncio

import pytest
from django.db import connections
from django.db.utils import OperationalError

from rummy_site import health


@pytest.mark.django_db
def test_healthz_ok(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "channel_layer": True}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_reports_database_failure(client, monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise OperationalError("database is down")

    # On the class: the check runs on its own thread, with that thread's connection.
    monkeypatch.setattr(type(connections["default"]), "cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": False, "channel_layer": True}


class SilentChannelLayer:
    """A channel layer that accepts messages but never delivers them."""

    async def new_channel(self, prefix="specific."):
        return f"{prefix}health"

    async def send(self, channel, message):
        return None

    async def receive(self, channel):
        await asyncio.Event().wait()


@pytest.mark.django_db
def test_healthz_reports_channel_layer_timeout(client, monkeypatch):
    monkeypatch.setattr(health, "get_channel_layer", SilentChannelLayer)
    monkeypatch.setattr(health, "CHANNEL_LAYER_TIMEOUT_SECONDS", 0.05)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": True, "channel_layer": False}


@pytest.mark.django_db
def test_healthz_reports_missing_channel_layer(client, monkeypatch):
    monkeypatch.setattr(health, "get_channel_layer", lambda: None)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["channel_layer"] is False


def test_healthz_rejects_post(client):
    assert client.post("/healthz").status_code == 405
