"""Setup for the games tests: database connections opened by sync code that async tests ran."""
import pytest
from asgiref.sync import sync_to_async
from django.db import connections


@pytest.fixture
async def close_thread_connections():
    """After an async test, stop the websocket consumers it left running
    (``tests.games.sockets.stop_open_sockets``) and close the database connections of the thread
    that ran its sync code (``sync_to_async``), so that no connection outlives the test database."""
    from tests.games.sockets import stop_open_sockets

    yield
    await stop_open_sockets()
    await sync_to_async(connections.close_all)()
