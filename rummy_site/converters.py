"""URL converters. Importing this module registers them (once: Python imports a module once).

``<id:name>``: a row id, 1-18 ASCII digits, so every value fits a bigint column. ``<int:>`` takes any
number of digits, and a foreign-key lookup with one past 64 bits fails in the database driver
(SQLite: OverflowError) instead of finding nothing; a longer number here is a 404 like any
unknown path.
"""
from django.urls import register_converter


class RowIdConverter:
    """A row id in a URL: 1-18 digits, given to the view as an int."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowIdConverter, "id")
