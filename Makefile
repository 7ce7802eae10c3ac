# Development entry points: `make run` serves the site with its job worker, `make test` runs the whole test suite.
PYTHON3 ?= python3
# The port `make run` serves on, at 127.0.0.1.
PORT ?= 8000
VENV := .venv
PYTHON := $(VENV)/bin/python
# Rebuilt (packages reinstalled) whenever a requirements or lock file changes.
VENV_STAMP := $(VENV)/.requirements-installed
# Every package, transitive ones included, is installed at the version its lock file names.
LOCKS := requirements.lock requirements-dev.lock
PIP_COMPILE := CUSTOM_COMPILE_COMMAND='make lock' $(VENV)/bin/pip-compile --quiet --strip-extras --allow-unsafe --no-emit-index-url \
	--no-emit-find-links --annotation-style line

.PHONY: run test venv lock

$(VENV_STAMP): requirements.txt requirements-dev.txt $(LOCKS)
	test -x $(PYTHON) || $(PYTHON3) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt -c requirements-dev.lock
	$(PYTHON) -m pip check
	touch $@

venv: $(VENV_STAMP)

# Regenerate the lock files from requirements*.txt with pip-tools (the version pinned in
# requirements-dev.txt); the development lock is held to the production one.
# Pass e.g. LOCK_ARGS='--upgrade-package redis' to move one package on.
lock:
	test -x $(PYTHON) || $(PYTHON3) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check "$$(grep '^pip-tools==' requirements-dev.txt)"
	$(PIP_COMPILE) $(LOCK_ARGS) -o requirements.lock requirements.txt
	$(PIP_COMPILE) $(LOCK_ARGS) -c requirements.lock -o requirements-dev.lock requirements-dev.txt

# The job worker (computer turns, deadlines, e-mail) runs beside the site and stops with it.
# `make run PORT=8001` serves on another port (127.0.0.1 only); e-mail links follow it unless
# RUMMY_SITE_URL is set.
run: $(VENV_STAMP)
	$(PYTHON) manage.py migrate
	export RUMMY_SITE_URL="$${RUMMY_SITE_URL:-http://127.0.0.1:$(PORT)}"; \
	$(PYTHON) manage.py db_worker --queue-name '*' --interval 0.2 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PYTHON) manage.py runserver 127.0.0.1:$(PORT)

# Ruff first (ruff.toml: lint and import order), then the import contracts (.importlinter:
# dependencies point one way, no cycles), then one
# pytest-xdist worker per CPU: each has its own test database and Redis database (tests/conftest.py).
test: $(VENV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PYTHON) -m pytest -n auto
