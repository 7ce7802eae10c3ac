"""Fixtures and settings shared by the whole test suite."""
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.cache import cache
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

hypothesis_settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")


E2E_DIR = Path(__file__).parent / "e2e"


def pytest_configure(config):
    """Under pytest-xdist (``make test`` runs ``-n auto``), give each worker its own Redis database.

    pytest-django already gives each worker its own test database, so game ids repeat across
    workers; on one Redis database their channel groups would meet, and the cache cleared before
    every test (rate-limit counters) would be cleared under the other worker. Worker ``gwN`` uses
    database N + 1 of the server in REDIS_URL (the cache and the channel layer are built on first
    use, after this hook).
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not (worker and settings.REDIS_URL):
        return
    database = 1 + int(worker.removeprefix("gw"))
    url = urlsplit(settings.REDIS_URL)._replace(path=f"/{database}").geturl()
    settings.CACHES["default"]["LOCATION"] = url
    (host,) = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"]
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"] = [{**host, "address": url}]


def pytest_collection_modifyitems(config, items):
    """Mark tests under tests/e2e ``e2e`` and run them last; skip ``postgres`` tests elsewhere.

    Browser tests go last because Playwright's sync API leaves its event loop registered as running
    in the main thread while the session's browser is open, which async tests and Django's
    async-safety check would otherwise trip over.
    """
    on_postgres = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    skip_postgres = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL=postgres://...)")
    for item in items:
        if item.path.is_relative_to(E2E_DIR):
            item.add_marker(pytest.mark.e2e)
        if not on_postgres and item.get_closest_marker("postgres"):
            item.add_marker(skip_postgres)
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


@pytest.fixture(autouse=True)
def _clear_cache():
    """Start every test with an empty cache, so rate-limit counters never leak between tests."""
    cache.clear()
