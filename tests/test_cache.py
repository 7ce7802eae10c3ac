"""The Redis cache (``rummy_site.cache``) keeps one connection pool per process (Django makes a cache
object per thread and per async context, and each used to open its own connection), leaves an
unreachable Redis alone for a while, and keeps sessions for a bounded time."""
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT

from rummy_site.cache import RETRY_SECONDS, FailOpenRedisCache, ProcessWideRedisCacheClient, SessionCache
from tests.test_faults import free_port


def cache_at(url: str) -> FailOpenRedisCache:
    """A new cache object, as Django makes one for each thread and async context."""
    return FailOpenRedisCache(url, {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}})


def test_cache_objects_of_different_threads_share_one_pool():
    url = "redis://127.0.0.1:6379/14"
    with ThreadPoolExecutor(max_workers=4) as threads:
        pools = list(threads.map(lambda _: cache_at(url)._cache._get_connection_pool(True), range(8)))

    assert len({id(pool) for pool in pools}) == 1


def test_other_options_or_servers_get_their_own_pool():
    first = cache_at("redis://127.0.0.1:6379/14")._cache._get_connection_pool(True)
    other_database = cache_at("redis://127.0.0.1:6379/13")._cache._get_connection_pool(True)
    other_timeout = FailOpenRedisCache("redis://127.0.0.1:6379/14", {"OPTIONS": {"socket_timeout": 2}})

    assert other_database is not first
    assert other_timeout._cache._get_connection_pool(True) is not first


@pytest.mark.skipif(not settings.REDIS_URL, reason="needs a Redis server (set REDIS_URL)")
def test_fifty_requests_in_fresh_threads_open_one_redis_connection():
    url = settings.CACHES["default"]["LOCATION"]
    ProcessWideRedisCacheClient.pools.clear()

    def request(number: int) -> bool:
        return cache_at(url).add(f"test-cache-pool-{number}", 1, timeout=5)

    for number in range(50):
        with ThreadPoolExecutor(max_workers=1) as fresh_thread:
            assert fresh_thread.submit(request, number).result()

    (pool,) = ProcessWideRedisCacheClient.pools.values()
    assert pool._created_connections == 1


def test_the_session_cache_keeps_an_entry_at_most_its_timeout():
    cache = SessionCache("redis://127.0.0.1:6379/14", {"TIMEOUT": 300})

    assert [cache.get_backend_timeout(seconds) for seconds in (1_209_600, 301, 60)] == [300, 300, 60]
    assert cache.get_backend_timeout(DEFAULT_TIMEOUT) == 300


def test_after_a_failed_call_redis_is_left_alone_until_the_retry(monkeypatch):
    cache = cache_at(f"redis://127.0.0.1:{free_port()}/0")
    FailOpenRedisCache.outage.down = False
    tried = []
    original = ProcessWideRedisCacheClient.get
    monkeypatch.setattr(ProcessWideRedisCacheClient, "get",
                        lambda client, *args: tried.append(args) or original(client, *args))
    try:
        answers = [cache.get("key", "absent") for _ in range(3)]
        monkeypatch.setattr(FailOpenRedisCache.outage, "failed_at",
                            FailOpenRedisCache.outage.failed_at - RETRY_SECONDS)
        answers.append(cache.get("key", "absent"))
    finally:
        FailOpenRedisCache.outage.down = False

    assert answers == ["absent"] * 4
    assert len(tried) == 2
