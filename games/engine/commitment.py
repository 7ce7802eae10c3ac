"""Verifiable shuffles: the SHA-256 commitment a deal publishes when it is dealt (issue 8).

When a deal is dealt the players are shown ``deal_commitment(deal)``; when it ends its seed is
revealed, and anyone can rebuild the deal from the seed with the engine and check that the hash
matches (``games.engine`` deals only from the seed, rule 0.6, so the seed fixes every card).

The committed text is ``"rummy-table-deal-v1\\n<seed>\\n<deck order>"`` in UTF-8, where the deck
order is every card of the deal as dealt, by notation key (``"10H"``, ``"10H~1"`` for a second copy)
separated by single spaces: seat 0's hand, seat 1's hand, ... (each hand sorted as the engine keeps
it), then the discard pile bottom to top, then the stock bottom to top (its last card is the
next one drawn). It depends on no variant, so every variant's deals are committed the same way.
"""
from __future__ import annotations

import hashlib

from .state import DealState

COMMITMENT_PREFIX = "rummy-table-deal-v1"


def deck_order(deal: DealState) -> list[str]:
    """The keys of every card of a freshly dealt ``deal``, in the committed order (module docstring)."""
    cards = [card for hand in deal.hands for card in hand] + list(deal.discard) + list(deal.stock)
    return [card.key for card in cards]


def commitment_text(seed: str, order: list[str]) -> str:
    """The text whose SHA-256 is the commitment: prefix, seed and deck order on three lines."""
    return f"{COMMITMENT_PREFIX}\n{seed}\n{' '.join(order)}"


def sha256_hex(text: str) -> str:
    """SHA-256 of ``text`` (UTF-8) as 64 hex digits."""
    return hashlib.sha256(text.encode()).hexdigest()


def deal_commitment(deal: DealState) -> str:
    """SHA-256 (64 hex digits) of ``commitment_text(deal.seed, deck_order(deal))``; ``deal`` must be
    the position as dealt, before any move."""
    return sha256_hex(commitment_text(deal.seed, deck_order(deal)))
