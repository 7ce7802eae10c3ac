"""Template tags that draw cards: ``{% card c %}``, ``{% card_back %}``."""
from django import template
from django.utils.html import format_html

from games.engine.cards import COLOUR_NAMES, DISCARD1, DRAW5, FRAYZY_WILD, RED_SUITS, SKIP, SUIT_NAMES, SUIT_SYMBOLS
from games.engine.melds import show, show_code

register = template.Library()

COLOUR_SHAPES = {"R": "\u25cf", "B": "\u25a0", "G": "\u25b2", "Y": "\u25c6"}
"""Frayzy colours also have a shape (red circle, blue square, green triangle, yellow diamond), and the
colour is written on the card, so a player need not tell colours apart (F1)."""
ACTION_SYMBOLS = {SKIP: "\u2298", DRAW5: "+5", DISCARD1: "\u22121"}


def _stands(stands_for: str):
    return format_html('<span class="card-stands" data-stands-for="{}">={}</span>', stands_for,
                       show_code(stands_for)) if stands_for else ""


def frayzy_card(card, extra_class: str = "", stands_for: str = ""):
    """A Frayzy card (F1): a coloured number shows its number, its colour written out and its
    colour's shape; the Wild is marked wild (with what it stands for on the table, 0.3); an action
    card shows its name and a symbol."""
    if card.is_coloured:
        colour = COLOUR_NAMES[card.suit]
        return format_html(
            '<span class="card card-frayzy card-colour-{} {}" data-card="{}" title="{}"><span class="card-index">{}'
            '<span class="card-colour-name">{}</span></span><span class="card-suit" aria-hidden="true">{}</span></span>',
            colour, extra_class, card.key, show(card), card.rank_name, colour, COLOUR_SHAPES[card.suit])
    if card.code == FRAYZY_WILD:
        title = f"Wild, standing for {show_code(stands_for)}" if stands_for else "Wild"
        return format_html('<span class="card card-frayzy card-frayzy-wild card-wild {}" data-card="{}" title="{}">'
                           '<span class="card-index">W</span><span class="card-wild-mark">wild</span>'
                           '<span class="card-suit" aria-hidden="true">\u2605</span>{}</span>',
                           extra_class, card.key, title, _stands(stands_for))
    return format_html('<span class="card card-frayzy card-action {}" data-card="{}" title="{}, action card">'
                       '<span class="card-index card-action-name">{}</span>'
                       '<span class="card-suit" aria-hidden="true">{}</span></span>',
                       extra_class, card.key, show(card), show(card), ACTION_SYMBOLS[card.code])


@register.simple_tag
def card(card, extra_class: str = "", wild: bool = False, stands_for: str = ""):
    """A face-up card, red or black: rank and suit in the corner (readable where cards overlap)
    and a large suit symbol, with ``data-card`` set to its key.

    ``wild`` adds a visible "wild" marker (W3, R5; a joker always has it); ``stands_for`` (a wild on the table, 0.3) adds
    what it stands for, e.g. ``=9♣``, and ``data-stands-for``. Frayzy's cards: see ``frayzy_card``.
    """
    if card.is_coloured or card.is_action or card.code == FRAYZY_WILD:
        return frayzy_card(card, extra_class, stands_for)
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
