"""The HTTP side of the ASGI application: Django's ASGI handler with the middleware and the view
run as one synchronous call.

Django's own ``ASGIHandler`` builds its middleware chain for async mode. Every middleware here is
synchronous underneath (``MiddlewareMixin`` runs each ``process_request`` and
``process_response`` through ``sync_to_async``; the site's own middleware and views are
synchronous), so each request crossed between the event loop and the worker thread several
times. ``SyncChainASGIHandler`` builds the chain for sync mode, as under WSGI, and enters it once,
on the same thread-sensitive executor the async chain used: reading the body, the signals, the
disconnect watch and sending the response stay Django's.
"""
from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class SyncChainASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose ``get_response_async`` runs the sync middleware chain in one thread
    hop (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
