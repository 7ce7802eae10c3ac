"""Benchmark of the computer players' decision time, not a test.

For every variant, plays ``deals`` deals of expert against strong, of strong against normal and of
normal against easy (``games.engine.bots.tournament.Match``) and prints, per level, the p50, p95,
p99 and worst time of one decision (the bot's ``choose`` call, in milliseconds) and how many
decisions were timed. Budgets (issues 7 and 16): normal p95 <= 20 ms, strong p95 <= 200 ms, expert
p95 <= 300 ms and p99 <= 1 s. It prints figures only and asserts nothing about time. Run::

    nice .venv/bin/python tests/engine/bench_bots.py [deals] [seed]
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from games.engine.bots.tournament import Match  # noqa: E402
from games.engine.variants import VARIANTS  # noqa: E402

DEALS = 40


def percentile(ordered: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``ordered`` falls (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(deals: int, seed: str) -> None:
    """Print one line per variant and level: decisions, p50, p95, p99 and worst milliseconds."""
    for variant in sorted(VARIANTS):
        for levels in (["expert", "strong"], ["strong", "normal"], ["normal", "easy"]):
            match = Match(variant, 2, seed, levels)
            match.play(deals)
            for level in levels:
                times = sorted(match.times[level])
                print(f"{variant:12} {'-'.join(levels):14} {level:7} decisions {len(times):6}  "
                      f"p50 {percentile(times, 0.5):7.3f} ms  p95 {percentile(times, 0.95):7.3f} ms  "
                      f"p99 {percentile(times, 0.99):7.3f} ms  "
                      f"max {times[-1]:8.3f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else DEALS, sys.argv[2] if len(sys.argv) > 2 else "bench")
