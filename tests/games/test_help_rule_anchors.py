"""Every rule a refusal or a page cites can be looked up: each variant's help page has an anchor
``#rule-<id>`` with a visible tag for each rule of its own (its letter: S, W, R or F) cited anywhere
in the code or the templates, and every help page has the shared rules 0.x; a refusal on the board
links its "(rule X)" to that anchor."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine.variants import VARIANTS
from tests.factories import hand_keys, login, make_started_game, make_user, post_move, seat_to_move

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent
RULE_ID = r"(0\.[1-9]|[A-Z][1-9][0-9]?)"
QUOTED = re.compile(rf"[\"']{RULE_ID}(?:-{RULE_ID})?[\"']")
"""A rule id, or a range of them (``"R6-R8"``), as a string of its own: a refusal's rule, a
variant's ``*_rule`` attribute, its meld rules."""
CITED = re.compile(rf"\(rule {RULE_ID}\b")
TEMPLATE_CITED = re.compile(rf"\brule {RULE_ID}\b")


def cited_rules() -> set[str]:
    """The rule ids the site's code and pages cite: quoted ids and "(rule X" in games/ and the
    other apps' Python, "rule X" in templates and scripts."""
    found: set[str] = set()
    for folder in ("games", "accounts", "records", "notices", "moderation"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            found |= {rule for pair in QUOTED.findall(text) for rule in pair if rule} | set(CITED.findall(text))
    for folder, pattern in (("templates", "*.html"), ("static/js", "*.js")):
        for path in (ROOT / folder).rglob(pattern):
            found |= set(TEMPLATE_CITED.findall(path.read_text()))
    return found


def rules_of(variant) -> set[str]:
    """The cited rules a variant's help page must hold: those of its letter (that of its own
    ``players_rule``) and the shared 0.x rules."""
    letter = variant.players_rule.rstrip("0123456789")
    return {rule for rule in cited_rules() if rule.startswith("0.") or rule.rstrip("0123456789") == letter}


def test_the_code_cites_rules_of_every_game():
    letters = {rule.rstrip("0123456789") for rule in cited_rules()}
    assert {variant.players_rule.rstrip("0123456789") for variant in VARIANTS.values()} | {"0."} == letters


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_rule_cited_for_a_game_has_an_anchor_on_its_help_page(name):
    variant = VARIANTS[name]
    page = login(make_user()).get(f"/help/{variant.help_slug}").content.decode()

    missing = sorted(rule for rule in rules_of(variant)
                     if f'<span class="rule-id" id="rule-{rule}">{rule}</span>' not in page)

    assert not missing
    anchors = re.findall(r'id="(rule-[^"]+)"', page)
    assert len(anchors) == len(set(anchors))


def test_a_refusal_links_its_rule_to_the_help_page():
    game = make_started_game(players=2, seed="rule-link")
    swap = {"type": "swap_wild", "meld": 1, "card": "AS"}
    response = post_move(login(seat_to_move(game).user), game, swap, game.version, htmx=True)

    body = response.content.decode()
    rule = game.rules.swap_rule
    assert f'href="/help/{game.rules.help_slug}#rule-{rule}"' in body and f"(rule {rule})</a>" in body


def test_a_refusal_citing_a_range_of_rules_links_to_the_first():
    """Frayzy's meld rules are F9-F11: a refused meld links to F9's tag, which its page has."""
    game = make_started_game(players=2, seed="rule-range", variant="frayzy")
    client = login(seat_to_move(game).user)
    post_move(client, game, {"type": "draw_stock"}, game.version)
    game.refresh_from_db()
    hand = sorted(hand_keys(game, seat_to_move(game)))
    colours = {}
    for key in hand:
        colours.setdefault(key[0], key)
    cards = list(colours.values())[:3]
    response = post_move(client, game, {"type": "lay_meld", "cards": cards}, game.version, htmx=True)

    body = response.content.decode()
    assert response.status_code == 422 and "(rule F9-F11)</a>" in body
    assert f'href="/help/{game.rules.help_slug}#rule-F9"' in body
    assert 'id="rule-F9"' in client.get(f"/help/{game.rules.help_slug}").content.decode()
