"""Django's Redis cache, failing open: while Redis is unreachable the cache behaves as an empty one
that keeps nothing, so the rate limits built on it (django-ratelimit in the move view, allauth's
log-in limits) let requests through instead of answering 500, and sessions are read from the
database. README "Faults" says so. Its connection pools are the process's, not each cache object's."""
from __future__ import annotations

import logging
import threading

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis import ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .outages import Outage

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
_NO_ANSWER = object()


class ProcessWideRedisCacheClient(RedisCacheClient):
    """Django's ``RedisCacheClient`` with one connection pool per server URL and options for the
    whole process.

    Django makes a cache object, and with it a client and its pools, per thread and per async
    context, so under ASGI every request opened its own Redis connection (Django ticket #35651).
    redis-py's pools are thread-safe and reset themselves after a fork."""

    pools: dict[tuple[str, str], ConnectionPool] = {}
    """``(url, options)`` to its ``redis.ConnectionPool``, shared by every client of the process."""
    _pools_lock = threading.Lock()

    def _get_connection_pool(self, write):
        url = self._servers[self._get_connection_pool_index(write)]
        key = (url, repr(sorted(self._pool_options.items())))
        pool = self.pools.get(key)
        if pool is None:
            with self._pools_lock:
                pool = self.pools.get(key)
                if pool is None:
                    pool = self.pools[key] = self._pool_class.from_url(url, **self._pool_options)
        return pool


RETRY_SECONDS = 5.0
"""After a call finds Redis unreachable, the cache answers as an empty one for this long without
trying Redis (seconds): a Redis that hangs delays one call by the socket timeout, not every call."""


class FailOpenRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose calls, when Redis cannot be reached,
    answer as an empty cache that stores nothing: ``add`` True (the key was absent), ``get`` the
    default, ``incr`` ValueError (no such key), writes and deletes do nothing. The outage is logged
    once (``rummy_site.outages.Outage``), and Redis is tried again ``RETRY_SECONDS`` after the last
    failed call."""

    outage = Outage(logger, "Redis cache", "rate limits are not enforced and sessions are read from the database",
                    retry_after=RETRY_SECONDS)
    """Shared by the cache objects of every thread and alias, so an outage is logged once per process."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ProcessWideRedisCacheClient

    def _unless_down(self, fallback, call, *args, **kwargs):
        if self.outage.resting():
            return fallback
        try:
            result = call(*args, **kwargs)
        except UNREACHABLE as error:
            self.outage.failed(error)
            return fallback
        self.outage.answered()
        return result

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._unless_down(True, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._unless_down(default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._unless_down(None, super().set, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._unless_down(False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._unless_down(False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._unless_down({}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._unless_down(False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        value = self._unless_down(_NO_ANSWER, super().incr, key, delta, version)
        if value is _NO_ANSWER:
            raise ValueError(f"Key {key!r} not found: the cache is unreachable.")
        return value

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._unless_down([], super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._unless_down(None, super().delete_many, keys, version)

    def clear(self):
        return self._unless_down(False, super().clear)


class SessionCache(FailOpenRedisCache):
    """``FailOpenRedisCache`` whose entries live at most the alias's ``TIMEOUT`` (seconds), whatever
    timeout the caller asks for: the cache of Django's ``cached_db`` sessions, which would keep a
    session as long as its cookie. A log-out while Redis is unreachable deletes the session's row
    but cannot delete its cached copy; that copy then lives at most ``TIMEOUT`` more seconds."""

    def get_backend_timeout(self, timeout=DEFAULT_TIMEOUT):
        if timeout is DEFAULT_TIMEOUT or timeout is None:
            return super().get_backend_timeout(DEFAULT_TIMEOUT)
        return super().get_backend_timeout(min(timeout, self.default_timeout))
