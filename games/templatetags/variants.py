"""Template access to the variant registry: ``{% load variants %}{% variants as games %}``."""
from django import template

from games.engine.variants import VARIANTS

register = template.Library()


@register.simple_tag
def variants() -> list:
    """Every registered variant class, in registry order (title, help page, lobby note...)."""
    return list(VARIANTS.values())
