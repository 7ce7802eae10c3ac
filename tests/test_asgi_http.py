"""HTTP through the ASGI application: the middleware chain is built for sync mode and entered once
(``rummy_site.handlers``), and still runs every middleware."""
import asyncio

import pytest
from channels.testing import HttpCommunicator

from rummy_site.asgi import application, django_asgi_app


def test_the_middleware_chain_is_built_for_sync_mode():
    assert not asyncio.iscoroutinefunction(django_asgi_app._middleware_chain)


@pytest.mark.django_db(transaction=True)
def test_a_page_through_the_asgi_application_passes_every_middleware():
    communicator = HttpCommunicator(application, "GET", "/accounts/login/", headers=[(b"host", b"testserver")])

    response = asyncio.run(communicator.get_response())

    assert response["status"] == 200
    headers = {name.lower(): value for name, value in response["headers"]}
    assert b"content-security-policy" in headers  # CSPMiddleware
    assert headers[b"x-frame-options"] == b"DENY"  # XFrameOptionsMiddleware
    assert b"csrftoken" in headers[b"set-cookie"]  # CsrfViewMiddleware
    assert b"csrfmiddlewaretoken" in response["body"]


@pytest.mark.django_db(transaction=True)
def test_a_nul_in_the_path_is_refused_through_the_asgi_application():
    communicator = HttpCommunicator(application, "GET", "/players/%00/", headers=[(b"host", b"testserver")])

    response = asyncio.run(communicator.get_response())

    assert response["status"] == 400
