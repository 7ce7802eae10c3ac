# Development entry points: `make run` serves the site with its job worker, `make test` runs the whole test suite.
PYTHON3 ?= python3
VENV := .venv
PYTHON := $(VENV)/bin/python
# Rebuilt (packages reinstalled) whenever a requirements file changes.
VENV_STAMP := $(VENV)/.requirements-installed

.PHONY: run test venv

$(VENV_STAMP): requirements.txt requirements-dev.txt
	test -x $(PYTHON) || $(PYTHON3) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

venv: $(VENV_STAMP)

# The job worker (computer turns, deadlines, e-mail) runs beside the site and stops with it.
run: $(VENV_STAMP)
	$(PYTHON) manage.py migrate
	$(PYTHON) manage.py db_worker --queue-name '*' --interval 0.2 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PYTHON) manage.py runserver 127.0.0.1:8000

# One pytest-xdist worker per CPU: each has its own test database and Redis database (tests/conftest.py).
test: $(VENV_STAMP)
	$(PYTHON) -m pytest -n auto
