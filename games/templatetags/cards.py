"""Template tags that draw cards: ``{% card c %}``, ``{% meld_cards panel.cards %}``, ``{% card_back %}``."""
from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games.engine.cards import COLOUR_NAMES, COLOUR_WILD, DISCARD1, DRAW5, RED_SUITS, SKIP, SUIT_SYMBOLS
from games.engine.melds import show, show_code, stands_apart
from games.presenters import card_name, face_name

register = template.Library()

COLOUR_SHAPES = {"R": "\u25cf", "B": "\u25a0", "G": "\u25b2", "Y": "\u25c6"}
"""Frayzy colours also have a shape (red circle, blue square, green triangle, yellow diamond), and the
colour is written on the card, so a player need not tell colours apart (F1)."""
ACTION_SYMBOLS = {SKIP: "\u2298", DRAW5: "+5", DISCARD1: "\u22121"}


def _stands(stands_for: str):
    return format_html('<span class="card-stands" data-stands-for="{}">={}</span>', stands_for,
                       show_code(stands_for)) if stands_for else ""


def _read_as(name: str, decorative: bool):
    """How assistive technology meets a face: an image named ``name``, or nothing when the face is
    ``decorative`` (a control beside it already says which card it is)."""
    return mark_safe('aria-hidden="true"') if decorative else format_html('role="img" aria-label="{}"', name)


def coloured_card(card, extra_class: str = "", stands_for: str = "", decorative: bool = False):
    """A Frayzy card (F1): a coloured number shows its number, its colour written out and its
    colour's shape, the three in its corner too, so they stay readable where cards overlap; the
    Wild is marked wild (with what it stands for on the table, 0.3); an action card shows its
    name and a symbol. ``decorative``: see ``card``."""
    if card.is_coloured:
        colour = COLOUR_NAMES[card.suit]
        return format_html(
            '<span class="card card-frayzy card-colour-{} {}" data-card="{}" {} '
            'title="{}"><span class="card-index"><span class="card-rank">{}'
            '<span class="card-shape" aria-hidden="true">{}</span></span>'
            '<span class="card-colour-name">{}</span></span>'
            '<span class="card-suit" aria-hidden="true">{}</span></span>',
            colour, extra_class, card.key, _read_as(card_name(card), decorative), show(card), card.rank_name,
            COLOUR_SHAPES[card.suit],
            colour, COLOUR_SHAPES[card.suit])
    if card.code == COLOUR_WILD:
        name = card_name(card, stands_for=stands_for)
        return format_html(
            '<span class="card card-frayzy card-frayzy-wild card-wild {}" data-card="{}" '
            '{} title="{}"><span class="card-index">W</span><span class="card-wild-mark">wild</span>'
            '<span class="card-suit" aria-hidden="true">\u2605</span>{}</span>',
            extra_class, card.key, _read_as(name, decorative), name, _stands(stands_for))
    return format_html(
        '<span class="card card-frayzy card-action {}" data-card="{}" {}'
        ' title="{}, action card"><span class="card-index card-action-name">{}</span>'
        '<span class="card-suit" aria-hidden="true">{}</span></span>',
        extra_class, card.key, _read_as(face_name(card), decorative), show(card), show(card),
        ACTION_SYMBOLS[card.code])


CARD_FACES = 4096
"""How many card faces ``card`` keeps drawn: more than a two-deck game shows in its marks and sizes."""


@register.simple_tag
@lru_cache(maxsize=CARD_FACES)
def card(card, extra_class: str = "", wild: bool = False, stands_for: str = "", decorative: bool = False):
    """A face-up card, red or black: rank over suit in the corner (readable where cards overlap)
    and a large suit symbol, with ``data-card`` set to its key.

    ``wild`` adds a visible "wild" marker (W3, R5; a joker always has it); ``stands_for`` (a wild on
    the table, 0.3) adds what it stands for, e.g. ``=9♣``, and ``data-stands-for``. Frayzy's
    cards: see ``coloured_card``. A ``decorative`` face is hidden from assistive technology, for a
    card whose control (a hand's checkbox) is named after it already. A face depends on these
    arguments alone, so each is drawn once and kept (``CARD_FACES`` of them). A wild that stands
    for itself on the table (a set of 2s only, W9, R8) is drawn as the plain card (``stands_apart``).
    """
    stands_for = stands_apart(card, stands_for)
    if card.is_coloured or card.is_action or card.code == COLOUR_WILD:
        return coloured_card(card, extra_class, stands_for, decorative)
    name = card_name(card, wild, stands_for)
    if card.is_joker:
        return format_html(
            '<span class="card card-joker card-wild {}" data-card="{}" {} title="{}">'
            '<span class="card-index">JK</span><span class="card-wild-mark">wild</span>{}</span>',
            extra_class, card.key, _read_as(name, decorative), name, _stands(stands_for))
    colour = "card-red" if card.suit in RED_SUITS else "card-black"
    marks = ""
    if wild or stands_for:
        extra_class = f"{extra_class} card-wild"
        marks = format_html('<span class="card-wild-mark">wild</span>{}', _stands(stands_for))
    symbol = SUIT_SYMBOLS[card.suit]
    return format_html(
        '<span class="card {} {}" data-card="{}" {} title="{}"><span class="card-index">{}'
        '<span class="card-index-suit">{}</span></span><span class="card-suit" aria-hidden="true">{}</span>{}</span>',
        colour, extra_class, card.key, _read_as(name, decorative), name, card.rank_name, symbol, symbol, marks)


@register.simple_tag
def meld_cards(cards) -> str:
    """The cards of a meld on the table (``presenters.TableCard``), each wild with what it stands
    for (0.3), drawn by ``card`` one after the other."""
    return mark_safe("".join(card(c.card, "", False, c.stands_for) for c in cards))  # noqa: S308 (faces escaped)


@register.simple_tag
def card_back(extra_class: str = ""):
    """A face-down card."""
    return format_html('<span class="card card-back {}" aria-hidden="true"></span>', extra_class)
