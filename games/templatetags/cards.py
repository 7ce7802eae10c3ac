"""Template tags that draw cards: ``{% card c %}``, ``{% card_back %}``."""
from django import template
from django.utils.html import format_html

from games.engine.cards import RED_SUITS, SUIT_NAMES, SUIT_SYMBOLS
from games.engine.melds import show_code

register = template.Library()


@register.simple_tag
def card(card, extra_class: str = "", wild: bool = False, stands_for: str = ""):
    """A face-up card, red or black: rank and suit in the corner (readable where cards overlap)
    and a large suit symbol, with ``data-card`` set to its key.

    ``wild`` adds a visible "wild" marker (W3, R5; a joker always has it); ``stands_for`` (a wild on the table, 0.3) adds
    what it stands for, e.g. ``=9♣``, and ``data-stands-for``.
    """
    if card.is_joker:
        stands = format_html('<span class="card-stands" data-stands-for="{}">={}</span>', stands_for,
                             show_code(stands_for)) if stands_for else ""
        return format_html('<span class="card card-joker card-wild {}" data-card="{}" title="Joker, wild{}">JK'
                           '<span class="card-wild-mark">wild</span>{}</span>', extra_class, card.key,
                           f", standing for {show_code(stands_for)}" if stands_for else "", stands)
    colour = "card-red" if card.suit in RED_SUITS else "card-black"
    title = f"{card.rank_name} of {SUIT_NAMES[card.suit]}"
    marks = ""
    if wild or stands_for:
        extra_class = f"{extra_class} card-wild"
        title += ", wild"
        marks = format_html('<span class="card-wild-mark">wild</span>{}', format_html(
            '<span class="card-stands" data-stands-for="{}">={}</span>', stands_for, show_code(stands_for))
            if stands_for else "")
        if stands_for:
            title += f", standing for {show_code(stands_for)}"
    symbol = SUIT_SYMBOLS[card.suit]
    return format_html(
        '<span class="card {} {}" data-card="{}" title="{}"><span class="card-index">{}{}</span>'
        '<span class="card-suit" aria-hidden="true">{}</span>{}</span>',
        colour, extra_class, card.key, title, card.rank_name, symbol, symbol, marks)


@register.simple_tag
def card_back(extra_class: str = ""):
    """A face-down card."""
    return format_html('<span class="card card-back {}" aria-hidden="true"></span>', extra_class)
