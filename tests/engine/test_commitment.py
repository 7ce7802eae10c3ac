"""Verifiable shuffles (issue 8): the commitment binds a deal's seed to every card as dealt."""
import hashlib
from dataclasses import replace

import pytest

from games.engine.commitment import commitment_text, deal_commitment, deck_order
from games.engine.state import GameState
from games.engine.variants import VARIANTS, make_variant


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_deck_order_lists_every_card_of_the_deal_once_in_the_committed_order(variant):
    deal = GameState.new(make_variant(variant), 3, "commit").deal
    order = deck_order(deal)
    assert sorted(order) == sorted(c.key for c in deal.all_cards()) and len(set(order)) == len(order)
    hands = [c.key for hand in deal.hands for c in hand]
    assert order[: len(hands)] == hands and order[-1] == deal.stock[-1].key
    text = commitment_text(deal.seed, order)
    assert text.split("\n") == ["rummy-table-deal-v1", deal.seed, " ".join(order)]
    assert deal_commitment(deal) == hashlib.sha256(text.encode()).hexdigest()


def test_the_commitment_changes_with_the_seed_and_with_the_order():
    deal = GameState.new(make_variant("standard"), 2, "commit").deal
    other_seed = replace(deal, seed="0" * 64)
    swapped = replace(deal, stock=deal.stock[:-2] + [deal.stock[-1], deal.stock[-2]])
    assert len({deal_commitment(deal), deal_commitment(other_seed), deal_commitment(swapped)}) == 3
