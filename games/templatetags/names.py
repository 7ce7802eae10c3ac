"""``{{ name|breakable }}``: a player's name that a narrow table column may wrap; ``short_name``
and ``name_heading``: a name shortened on screen (one line, or two in a heading), read out whole."""
import html
import re
from functools import lru_cache

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

LONG_WORD = 12
"""A word longer than this may break (a user name may be 150 characters, all one word); a shorter
one, as in "alice" or "Computer 3 (strong)", never does."""
PIECE = 4


@register.filter
def breakable(name) -> str:
    """``name`` escaped, with a line-break opportunity (``<wbr>``) every 4 characters of each word
    longer than 12, so a table sizes its column by the short words and never splits them."""
    def split(word: re.Match) -> str:
        text = word.group()
        if len(text) <= LONG_WORD:
            return escape(text)
        return "<wbr>".join(escape(text[i:i + PIECE]) for i in range(0, len(text), PIECE))
    return mark_safe(re.sub(r"\S+", split, str(name)))  # noqa: S308 (every piece escaped above)


def _shortened(css_class: str, name, shown: str) -> str:
    """``shown`` in a span of ``css_class`` titled with the full name, for a name with a word over
    12 characters (a user name has no spaces); any other name is short enough as it is."""
    name = str(name)
    if all(len(word) <= LONG_WORD for word in name.split()):
        return escape(name)
    return format_html('<span class="{}" title="{}">{}</span>', css_class, name, shown)


@register.filter
def short_name(name) -> str:
    """``name`` on one line, ending in an ellipsis where it is too long (site.css ``.name-short``);
    the whole name stays in the text (screen readers) and in the tooltip."""
    return _shortened("name-short", name, str(name))


@register.filter
def name_heading(name) -> str:
    """``name`` for a table heading: wrapped (``breakable``) over two lines at most, with an
    ellipsis after that (site.css ``.name-clamp``); the whole name stays in the text."""
    return _shortened("name-clamp", name, breakable(name))


NAME_SETS = 256
"""How many tables' sets of names ``short_names_in`` keeps its pattern for."""


@lru_cache(maxsize=NAME_SETS)
def _names_shortened(names: tuple[str, ...]) -> tuple[re.Pattern | None, dict[str, str]]:
    """A pattern that finds ``names`` (escaped, the longest first) in escaped text, and each escaped
    name shortened as by ``short_name``; None for no names."""
    found = sorted({escape(name) for name in names}, key=len, reverse=True)
    if not found:
        return None, {}
    return re.compile("|".join(map(re.escape, found))), {name: short_name(html.unescape(name)) for name in found}


@register.filter
def short_names_in(text, names) -> str:
    """``text`` escaped, each name of ``names`` in it shortened as by ``short_name`` (a move log
    line: "<name> drew from the stock"). The names are the table's on every line, so their pattern
    is built once (``NAME_SETS`` tables)."""
    shown = escape(text)
    pattern, shortened = _names_shortened(tuple(names))
    if pattern is None:
        return shown
    return mark_safe(pattern.sub(lambda match: shortened[match.group()], shown))  # noqa: S308 (text and names escaped)
