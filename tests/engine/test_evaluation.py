"""How much a card helps a hand (``bots.evaluation.card_worth``), the measure both computer levels
discard and take by, on Frustration Rummy contracts (R4) whose runs are long."""
from __future__ import annotations

import pytest

from games.engine.bots.evaluation import card_worth, outlook_for
from games.engine.cards import parse_card
from games.engine.contracts import CONTRACTS
from games.engine.variants.frustration import MELD_RULES


@pytest.mark.parametrize("contract, hand, card, worth", [
    # Contract 14, a set of 3 and a run of 9: five hearts spread over 3-J make most of the run once
    # four wilds fill the gaps (R8), so each counts as much as a card of a made meld.
    (14, "3H 5H 7H 9H JH KS KD 4C", "3H", 20.0),
    (14, "3H 5H 7H 9H JH KS KD 4C", "KS", 6.0),     # a pair toward the set
    (14, "3H 5H 7H 9H JH KS KD 4C", "4C", 0.0),     # no other club, no other 4
    # Contract 11, two runs of 5: 3H and 6H fit one run's five places, 3H and 9H do not.
    (11, "3H 6H 9H KS 4C", "3H", 5.0),
    (11, "3H 6H 9H KS 4C", "6H", 5.0),
    # Contract 2, a run of 4: too short for gaps to pay, so 3H and 6H do not help each other.
    (2, "3H 6H 9H KS 4C", "3H", 0.0),
    # A second copy of a card fills no new place of a run, but pairs toward the set (R6).
    (14, "5H 5H~1 7H", "5H", 11.0),
])
def test_a_long_contract_run_counts_the_naturals_of_its_suit_within_its_reach(contract, hand, card, worth):
    cards = [parse_card(key) for key in hand.split()]
    chosen = next(c for c in cards if c.key == card)
    assert card_worth(chosen, cards, outlook_for(MELD_RULES, None, CONTRACTS[contract])) == worth
