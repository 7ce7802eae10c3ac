"""The HTTP side of the ASGI application: Django's ASGI handler with the middleware and the view
run as one synchronous call, on a thread kept from one request to the next.

Django's own ``ASGIHandler`` builds its middleware chain for async mode. Every middleware here is
synchronous underneath (``MiddlewareMixin`` runs each ``process_request`` and
``process_response`` through ``sync_to_async``; the site's own middleware and views are
synchronous), so each request crossed between the event loop and the worker thread several
times. ``SyncChainASGIHandler`` builds the chain for sync mode, as under WSGI, and enters it once.

Django also gives each request a new thread-sensitive context, which starts a new thread and
stops it when the request ends. Here each request's context runs on a thread leased from a pool of
single-thread executors (asgiref's ``ThreadSensitiveContext(executor=...)``), as a WSGI server
reuses its threads: the signals, the middleware, the view and closing the response still share one
thread per request. Reading the body, the disconnect watch and sending the response stay Django's.
A request whose client went away while its view still ran hands back a thread that is still busy:
the next request given that thread starts when the view has finished.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

IDLE_THREADS_KEPT = 32
"""Threads kept for later requests once a burst is over; a thread beyond this stops when its
request ends."""


class SyncChainASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose requests run the sync middleware chain in one thread hop, on threads
    reused from request to request (module docstring); a forked child starts with none. Serves
    only HTTP: other scope types raise ``ValueError`` as in Django."""

    def __init__(self) -> None:
        super().__init__()
        self.load_middleware(is_async=False)
        self._idle_threads: list[ThreadPoolExecutor] = []
        # A forked child has none of the parent's threads: its idle executors would take work
        # and never run it.
        os.register_at_fork(after_in_child=self._idle_threads.clear)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        thread = self._lease_thread()
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            self._return_thread(thread)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    def _lease_thread(self) -> ThreadPoolExecutor:
        if self._idle_threads:
            return self._idle_threads.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-request")

    def _return_thread(self, thread: ThreadPoolExecutor) -> None:
        if len(self._idle_threads) < IDLE_THREADS_KEPT:
            self._idle_threads.append(thread)
        else:
            thread.shutdown(wait=False)
