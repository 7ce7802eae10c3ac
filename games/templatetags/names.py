"""``{{ name|breakable }}``: a player's name that a narrow table column may wrap."""
import re

from django import template
from django.utils.html import escape
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
