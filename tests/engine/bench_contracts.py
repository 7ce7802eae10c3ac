"""Benchmark of the contract search (``games.engine.contracts.find_contract``), not a test.

Deals 10,000 random hands of 13-16 cards from the 108-card Frustration deck (R1) for each of the
hardest contracts, 6 (4 sets of 3), 9 (3 runs of 4) and 14 (1 set of 3 + 1 run of 9), times each
search and prints the p50, p95 and worst time and how many hands could lay the contract. It prints
figures only and asserts nothing about time. Run::

    .venv/bin/python tests/engine/bench_contracts.py [hands] [seed]
"""
from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from games.engine.cards import standard_deck  # noqa: E402
from games.engine.contracts import contract_text, find_contract  # noqa: E402
from games.engine.variants.frustration import MELD_RULES  # noqa: E402

HARDEST = (6, 9, 14)
HANDS = 10_000


def percentile(ordered: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``ordered`` falls (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(hands: int = HANDS, seed: str = "bench") -> None:
    deck = standard_deck(decks=2, jokers=4)
    for number in HARDEST:
        rng = random.Random(f"{seed}:{number}")
        times, found = [], 0
        for _ in range(hands):
            hand = rng.sample(deck, rng.randint(13, 16))
            started = time.perf_counter()
            found += find_contract(hand, number, MELD_RULES) is not None
            times.append(time.perf_counter() - started)
        times.sort()
        print(f"contract {number:2} ({contract_text(number)}): {hands} hands, {found} can lay it; "
              f"p50 {percentile(times, .5) * 1e3:.3f} ms, p95 {percentile(times, .95) * 1e3:.3f} ms, "
              f"max {times[-1] * 1e3:.3f} ms")


if __name__ == "__main__":
    main(*(int(a) if i == 0 else a for i, a in enumerate(sys.argv[1:])))
