"""``{% options choices chosen %}``: the options of a select, one per ``presenters.Choice``."""
from django import template
from django.utils.html import format_html_join

register = template.Library()


@register.simple_tag
def options(choices, chosen: str = "") -> str:
    """An ``<option>`` per choice, its value and label, the one whose value is ``chosen`` selected."""
    return format_html_join("", '<option value="{}"{}>{}</option>',
                            ((choice.value, " selected" if choice.value == chosen else "", choice.label)
                             for choice in choices))
