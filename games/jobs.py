"""Background jobs: computer moves, turn expiry, warnings, e-mails, abandoning, digests.

The jobs are django-tasks tasks stored by django-tasks-db's ``DatabaseBackend`` and run by its
``manage.py db_worker``. Why this library rather than django-q2 (its ORM broker was the other
candidate): django-tasks is the backport of Django 6's own ``django.tasks`` API, so the code moves
to Django's built-in framework without change; the database backend keeps every job as a row
written in the same transaction as the game change that queues it (a job exists exactly when the
change committed; nothing is lost on restart); ``run_after`` gives delayed jobs (deadlines, grace
periods) on SQLite and PostgreSQL; and workers claim rows with ``SELECT ... FOR UPDATE SKIP LOCKED``
on PostgreSQL, so several may run side by side. django-q2 would add a separate cluster process
model, pickled payloads and its own scheduler for what a few delayed rows do here.

Every job carries what it was made for (the game version, or the turn number) and its body
re-checks the rows under the game's row lock: a job that runs twice, late (a worker that was
stopped catches up on start), or after the game moved on does nothing. Enqueue a job inside the
transaction of the change that calls for it.
"""
from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django_tasks import task
from django_tasks_db.compat import normalize_json, task_enqueued
from django_tasks_db.models import DBTaskResult, get_date_max

from . import notices, services, turn_clock


def enqueue_together(calls: list[tuple]) -> None:
    """Queue several jobs with one INSERT: ``calls`` is a list of ``(task, args)``, each task given
    its ``run_after`` with ``.using()``. Writes the rows django-tasks-db's ``enqueue`` would write
    one at a time (a turn queues three), and sends the same ``task_enqueued`` signal for each."""
    rows, backends = [], []
    for job, args in calls:
        backend = job.get_backend()
        backend.validate_task(job)
        backends.append(backend)
        rows.append(DBTaskResult(args_kwargs=normalize_json({"args": args, "kwargs": {}}), priority=job.priority,
                                 task_path=job.module_path, queue_name=job.queue_name,
                                 run_after=job.run_after or get_date_max(), backend_name=backend.alias))
    DBTaskResult.objects.bulk_create(rows)
    for backend, row in zip(backends, rows):
        task_enqueued.send(type(backend), task_result=row.task_result)


@task()
def computer_turn(game_id: int, version: int) -> bool:
    """Play one computer action in ``game_id`` if it is still at ``version`` and the seat to move
    is played by the computer (``services.play_computer_turn``: the bot chooses without holding the
    game row, and its move is dropped if the game moved on meanwhile); queues the next one itself."""
    return services.play_computer_turn(game_id, version)


@task()
def expire_turn(game_id: int, turn_number: int) -> bool:
    """Hand turn ``turn_number`` of ``game_id`` to the computer once its deadline has passed."""
    return turn_clock.expire_turn(game_id, turn_number, timezone.now())


@task()
def warn_turn(game_id: int, turn_number: int) -> bool:
    """E-mail the player of turn ``turn_number`` when 80% of their time has gone."""
    return notices.send_warning_email(game_id, turn_number, timezone.now())


@task()
def email_turn(game_id: int, turn_number: int) -> bool:
    """After the grace period, e-mail the player of turn ``turn_number`` if they are not on the site."""
    return notices.send_turn_email(game_id, turn_number, timezone.now())


@task()
def abandon_paused(game_id: int) -> bool:
    """Abandon ``game_id`` if it has been paused for 14 days."""
    return turn_clock.abandon_if_unresumed(game_id, timezone.now())


@task()
def send_digest(user_id: int, day: str) -> bool:
    """Send ``user_id``'s daily digest for local date ``day`` (ISO ``YYYY-MM-DD``) and queue the next."""
    return notices.send_digest(user_id, dt.date.fromisoformat(day), timezone.now())
