"""HTTP through the ASGI application: the middleware chain is built for sync mode and entered once
on a thread reused from request to request (``rummy_site.handlers``), and still runs every
middleware."""
import asyncio
import multiprocessing
import threading

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_finished, request_started
from django.db import connections

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


@pytest.mark.django_db(transaction=True)
def test_requests_reuse_one_thread_for_their_signals_view_and_close(monkeypatch):
    threads: list[tuple[str, int]] = []

    def on_signal(signal_name):
        def record(**kwargs):
            threads.append((signal_name, threading.get_ident()))
        return record

    started, finished = on_signal("started"), on_signal("finished")
    request_started.connect(started)
    request_finished.connect(finished)
    get_response = django_asgi_app.get_response

    def recording_get_response(request):
        threads.append(("view", threading.get_ident()))
        return get_response(request)

    monkeypatch.setattr(django_asgi_app, "get_response", recording_get_response)

    async def two_requests_in_turn():
        for _ in range(2):
            communicator = HttpCommunicator(application, "GET", "/accounts/login/",
                                            headers=[(b"host", b"testserver")])
            assert (await communicator.get_response())["status"] == 200
            await communicator.send_input({"type": "http.disconnect"})
            await communicator.wait()
        return threading.get_ident()

    try:
        loop_thread = asyncio.run(two_requests_in_turn())
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)

    assert [name for name, _ in threads] == ["started", "view", "finished"] * 2
    assert len({ident for _, ident in threads}) == 1
    assert loop_thread not in {ident for _, ident in threads}


def login_page_status() -> int:
    communicator = HttpCommunicator(application, "GET", "/accounts/login/", headers=[(b"host", b"testserver")])
    return asyncio.run(communicator.get_response())["status"]


def answer_in_child(answers) -> None:
    answers.put(login_page_status())


@pytest.mark.django_db(transaction=True)
def test_a_process_forked_after_a_request_still_answers():
    """The live test servers and benchmarks fork this process: the idle threads the parent kept
    for its next request do not exist in the child."""
    assert login_page_status() == 200
    assert django_asgi_app._idle_threads
    fork = multiprocessing.get_context("fork")
    answers = fork.Queue()
    connections.close_all()
    child = fork.Process(target=answer_in_child, args=(answers,))
    child.start()
    try:
        assert answers.get(timeout=20) == 200
    finally:
        child.join(5)
        child.kill()
