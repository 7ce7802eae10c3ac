"""Browser-test fixtures: Debian's chromium driven by Playwright against a live daphne server.

The server is the project's real ASGI application (HTTP and websockets) served by daphne in a forked
process on 127.0.0.1 and a free port, reading and writing the pytest test database; a forked
``db_worker`` process runs the background jobs (computer turns) as in production. Tests that use
``live_server_url`` get ``transactional_db``: what a test writes is committed, so the server sees it,
and the tables are emptied after the test.
"""
import itertools
import multiprocessing
import re
import shutil
import time

import pytest
from django.db import OperationalError, connections
from playwright.sync_api import expect, sync_playwright

from tests.live_servers import close_before_fork, server_url, start_daphne

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
E2E_PASSWORD = "felt-table-4-rummy"


@pytest.fixture(scope="session")
def _daphne_server(django_db_setup, django_db_blocker):
    """Run daphne with the project's ASGI app on 127.0.0.1 for the whole session; yield its URL."""
    with django_db_blocker.unblock():
        # The child is forked: it must not inherit open database connections, and it keeps the
        # unblocked database access it is forked with.
        connections.close_all()
        process = start_daphne()
    yield server_url(process)
    process.terminate()
    process.join(10)


WORKER_POLL_SECONDS = "0.05"


def _run_worker():
    """The forked worker process: django-tasks-db's ``db_worker`` on the test database, as
    production runs it (``manage.py db_worker``), polling often so computer players answer fast."""
    from django.core.management import call_command

    connections.close_all()
    call_command("db_worker", "--queue-name", "*", "--interval", WORKER_POLL_SECONDS,
                 "--no-startup-delay", "--no-reload", verbosity=0)


WORKER_STOP_TIMEOUT_SECONDS = 10


@pytest.fixture
def job_worker(transactional_db, django_db_blocker):
    """A background-job worker process (computer turns, deadlines, e-mails) for one test, forked
    like the server so that it uses the test database.

    It is stopped (SIGTERM: db_worker finishes the job it runs, then exits) before the test's
    tables are emptied, so emptying them never races a job or the worker's polling (a deadlock on
    PostgreSQL); the jobs still queued go with the tables. A test may stop it earlier
    (``terminate()``, ``join()``) when no job may run from then on.
    """
    with django_db_blocker.unblock():
        close_before_fork()
        process = multiprocessing.get_context("fork").Process(target=_run_worker, daemon=True)
        process.start()
    yield process
    process.terminate()
    process.join(WORKER_STOP_TIMEOUT_SECONDS)
    if process.is_alive():
        process.kill()
        process.join(WORKER_STOP_TIMEOUT_SECONDS)
    _wait_for_other_transactions()


OTHER_TRANSACTIONS_WAIT_SECONDS = 10
FLUSH_ATTEMPTS = 3
DEADLOCK_DETECTED = "40P01"
"""PostgreSQL's SQLSTATE for a transaction chosen as a deadlock's victim."""


def _wait_for_other_transactions() -> None:
    """On PostgreSQL, wait (at most ``OTHER_TRANSACTIONS_WAIT_SECONDS``) until no other session on
    the test database is inside a transaction: the server may still be answering a request of a
    page the test has just closed, and its reads would deadlock with the TRUNCATE that empties the
    tables (seen in CI: a board render reading melds)."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + OTHER_TRANSACTIONS_WAIT_SECONDS
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
                           " AND xact_start IS NOT NULL")
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


@pytest.fixture(scope="session", autouse=True)
def _flush_retries_after_a_deadlock():
    """Emptying the tables after a browser test is tried again when PostgreSQL picked it as the
    victim of a deadlock with a server request that began after ``_wait_for_other_transactions``
    (the other transaction then ends, so the next try goes through)."""
    operations = type(connections["default"].ops)
    flush = operations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        for attempt in range(1, FLUSH_ATTEMPTS + 1):
            try:
                return flush(self, sql_list)
            except OperationalError as error:
                if attempt == FLUSH_ATTEMPTS or getattr(error.__cause__, "sqlstate", None) != DEADLOCK_DETECTED:
                    raise
                time.sleep(0.2)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(operations, "execute_sql_flush", execute_sql_flush)
        yield


@pytest.fixture
def live_server_url(_daphne_server, job_worker, transactional_db):
    """URL of the live server (``http://127.0.0.1:<port>``), with committed database access and a
    job worker."""
    return _daphne_server


@pytest.fixture(scope="session")
def browser(_daphne_server):
    """A headless Debian chromium, shared by the session; each test opens its own contexts.

    It depends on the server so that the test database exists and daphne is forked before
    Playwright starts. Playwright's sync API keeps its event loop registered as running in this
    thread, so Django's async-safety check is lifted while the browser is open (the test code
    itself is synchronous; tests/conftest.py runs browser tests last).
    """
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("chromium is not installed (apt-get install chromium; .ci/run installs it)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        playwright = sync_playwright().start()
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()
        playwright.stop()


@pytest.fixture
def browser_context(browser, live_server_url):
    """Open fresh browser contexts (separate cookies) with ``base_url`` set to the live server.

    Call it to get a new context; every context is closed after the test.
    """
    contexts = []

    def open_context():
        context = browser.new_context(base_url=live_server_url)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


def _log_in(page, login, password):
    """Log in through the real login form and wait until the browser has left it."""
    page.goto("/accounts/login/")
    form = page.locator("main form")
    form.locator("input[name=login]").fill(login)
    form.locator("input[name=password]").fill(password)
    form.get_by_role("button", name=re.compile("sign in", re.I)).click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))


@pytest.fixture
def log_in():
    """``log_in(page, username_or_email, password)``: log in through the real login form."""
    return _log_in


@pytest.fixture
def new_user_page(browser_context, django_user_model):
    """Create users and log each in through the login form in a fresh browser context.

    Call ``new_user_page()`` or ``new_user_page("alice")`` to get a logged-in Playwright ``Page``
    (base URL: the live server); every such user's password is ``E2E_PASSWORD``.
    """
    counter = itertools.count(1)

    def make(username=None):
        username = username or f"player{next(counter)}"
        django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password=E2E_PASSWORD
        )
        page = browser_context().new_page()
        _log_in(page, username, E2E_PASSWORD)
        return page

    return make
