"""Template tags that draw cards: ``{% card c %}``, ``{% card_back %}``."""
from django import template
from django.utils.html import format_html

from games.engine.cards import RED_SUITS, SUIT_NAMES, SUIT_SYMBOLS

register = template.Library()


@register.simple_tag
def card(card, extra_class: str = ""):
    """A face-up card: rank and suit symbol, red or black, with ``data-card`` set to its key."""
    if card.is_joker:
        return format_html('<span class="card card-joker {}" data-card="{}" title="Joker">JK</span>', extra_class, card.key)
    colour = "card-red" if card.suit in RED_SUITS else "card-black"
    return format_html(
        '<span class="card {} {}" data-card="{}" title="{} of {}"><span class="card-rank">{}</span>'
        '<span class="card-suit" aria-hidden="true">{}</span></span>',
        colour, extra_class, card.key, card.rank_name, SUIT_NAMES[card.suit], card.rank_name, SUIT_SYMBOLS[card.suit])


@register.simple_tag
def card_back(extra_class: str = ""):
    """A face-down card."""
    return format_html('<span class="card card-back {}" aria-hidden="true"></span>', extra_class)
