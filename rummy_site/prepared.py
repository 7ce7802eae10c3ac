"""Queries built and compiled by Django once per process, then sent again with new values.

Building a QuerySet and compiling it to SQL costs more Python than sending it and reading its rows:
a move request reads the same four shapes of query every time (the seats with their game, the
deals, the cards, the latest moves), and Django would build and compile each of them anew. A
``PreparedQuery`` keeps what the ORM made of the query the first time it runs in a process (its SQL,
its converters and how its rows become model instances) and afterwards only puts the request's
values into the SQL's parameters. The query itself is still written with the ORM, once.
"""
from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, ValuesListIterable, get_related_populators

PLACEHOLDERS: dict[type, Any] = {
    int: -730_251_967,
    dt.datetime: dt.datetime(1901, 2, 3, 4, 5, 6, 789_012, tzinfo=dt.UTC),
}
"""The stand-in compiled into the SQL for a value of each type: values no row holds, found again
among the compiled parameters by equality once adapted for the database (``_adapted``)."""


def _adapted(value, connection):
    """``value`` as the ORM passes it to the database: a datetime through the backend's adapter
    (SQLite stores text), an int as it is."""
    return connection.ops.adapt_datetimefield_value(value) if isinstance(value, dt.datetime) else value


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: dict[str, int]
    klass_info: dict | None
    converters: dict
    models: bool
    init_list: list[str]
    fields: tuple[int, int]
    related: list
    annotations: dict[str, int]


class PreparedQuery:
    """A query written with the ORM, compiled on its first run in a process and reused after.

    ``build`` takes keyword arguments (the query's values, e.g. ``game_id``) and returns a QuerySet
    of model instances (``select_related`` and ``annotate`` allowed) or a ``values_list``.
    ``kinds`` gives each argument's type (``int`` or ``datetime.datetime``); each must reach the
    SQL as exactly one parameter. ``run(**values)`` returns what the QuerySet would: a list of
    instances or of tuples. A query with ``select_for_update`` must run inside a transaction.

    Raises ValueError on the first run when an argument is not found exactly once among the
    compiled parameters (the query cannot be prepared: it would send wrong values).
    """

    def __init__(self, build: Callable[..., QuerySet], **kinds: type):
        self.build, self.kinds = build, kinds
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def run(self, using: str = "default", **values) -> list:
        """The rows of the query for ``values`` (one per argument of ``build``), on ``using``."""
        compiled = self._compiled.get(using) or self._compile(using)
        connection = connections[using]
        params = list(compiled.params)
        for name, slot in compiled.slots.items():
            params[slot] = _adapted(values[name], connection)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if compiled.converters:
            rows = _converted(rows, compiled.converters, connection)
        if not compiled.models:
            return [tuple(row) for row in rows]
        start, end = compiled.fields
        model = compiled.klass_info["model"]
        instances = []
        for row in rows:
            instance = model.from_db(using, compiled.init_list, row[start:end])
            for populator in compiled.related:
                populator.populate(row, instance)
            for name, position in compiled.annotations.items():
                setattr(instance, name, row[position])
            instances.append(instance)
        return instances

    def _compile(self, using: str) -> _Compiled:
        with self._lock:
            if using in self._compiled:
                return self._compiled[using]
            queryset = self.build(**{name: PLACEHOLDERS[kind] for name, kind in self.kinds.items()})
            compiler = queryset.query.get_compiler(using=using)
            sql, params = compiler.as_sql()
            slots = {}
            for name, kind in self.kinds.items():
                placeholder = _adapted(PLACEHOLDERS[kind], connections[using])
                found = [i for i, param in enumerate(params) if _same(param, placeholder)]
                if len(found) != 1:
                    raise ValueError(f"{name} reaches the SQL {len(found)} times, not once: {sql}")
                slots[name] = found[0]
            select = compiler.select
            converters = compiler.get_converters([column[0] for column in select[:compiler.col_count]])
            models = queryset._iterable_class is ModelIterable
            if not models and queryset._iterable_class is not ValuesListIterable:
                raise ValueError("only model instances and values_list rows can be prepared")
            fields = (0, 0)
            init_list, related, annotations = [], [], {}
            if models:
                select_fields = compiler.klass_info["select_fields"]
                fields = (select_fields[0], select_fields[-1] + 1)
                init_list = [column[0].target.attname for column in select[fields[0]:fields[1]]]
                related = get_related_populators(compiler.klass_info, select, using)
                annotations = dict(compiler.annotation_col_map)
            compiled = _Compiled(sql, tuple(params), slots, compiler.klass_info if models else None, converters,
                                 models, init_list, fields, related, annotations)
            self._compiled[using] = compiled
            return compiled


def _same(param, placeholder) -> bool:
    return isinstance(param, type(placeholder)) and not isinstance(param, bool) and param == placeholder


def _converted(rows: list, converters: dict, connection) -> list[list]:
    """``rows`` with each column's database converters applied, as the ORM applies them (e.g. a
    JSONField's text to Python, SQLite's text to datetimes)."""
    converted = []
    for row in map(list, rows):
        for position, (functions, expression) in converters.items():
            value = row[position]
            for function in functions:
                value = function(value, expression, connection)
            row[position] = value
        converted.append(row)
    return converted
