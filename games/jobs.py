"""Background jobs: where each lives, and the names of jobs queued before they moved there.

Each job is a django-tasks task defined beside the code that owns its rows: the computer's move
(``services.moves.computer_turn``), turn expiry and abandoning (``turn_clock.expire_turn``,
``turn_clock.abandon_paused``), and the e-mails (``notices.services.warn_turn``,
``notices.services.email_turn``, ``notices.services.send_digest``). A queued job is a row naming
its task by dotted path; jobs queued under the former ``games.jobs.*`` paths still find their task
through the names below.

The jobs are stored by django-tasks-db's ``DatabaseBackend`` and run by its ``manage.py db_worker``.
Why this library rather than django-q2 (its ORM broker was the other candidate): django-tasks is
the backport of Django 6's own ``django.tasks`` API, so the code moves to Django's built-in
framework without change; the database backend keeps every job as a row written in the same
transaction as the game change that queues it (a job exists exactly when the change committed;
nothing is lost on restart); ``run_after`` gives delayed jobs (deadlines, grace periods) on SQLite
and PostgreSQL; and workers claim rows with ``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL,
so several may run side by side. django-q2 would add a separate cluster process model, pickled
payloads and its own scheduler for what a few delayed rows do here.

Every job carries what it was made for (the game version, or the turn number) and its body
re-checks the rows under the game's row lock: a job that runs twice, late (a worker that was
stopped catches up on start), or after the game moved on does nothing. Enqueue a job inside the
transaction of the change that calls for it.
"""
from notices.services import email_turn, send_digest, warn_turn

from .services import computer_turn
from .turn_clock import abandon_paused, expire_turn

__all__ = ["abandon_paused", "computer_turn", "email_turn", "expire_turn", "send_digest", "warn_turn"]
