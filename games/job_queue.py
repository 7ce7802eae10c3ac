"""Queueing several jobs at once, for the change that calls for them."""
from __future__ import annotations

from django_tasks_db.compat import normalize_json, task_enqueued
from django_tasks_db.models import DBTaskResult, get_date_max


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
