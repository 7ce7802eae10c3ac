"""Setup for the games tests: database connections opened by sync code that async tests ran."""
import pytest
from asgiref.sync import sync_to_async
from django.db import connections


@pytest.fixture
async def close_thread_connections():
    """After an async test, close the database connections of the thread that ran its sync code
    (``sync_to_async``), so that no connection outlives the test database."""
    yield
    await sync_to_async(connections.close_all)()
