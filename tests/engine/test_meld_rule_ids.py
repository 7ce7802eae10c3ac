"""Every game's meld refusals cite the rule that forbids them: a bad set its set rule, a bad run
its run rule (S8; W7 and W8; R6 and R7; F9 and F10), whether laid as a new meld or laid off."""
from __future__ import annotations

import pytest
from builders import build, expect_illegal, frayzy, frustration, lay_meld, lay_off, wild

GAMES = {
    # game: (builder, table set, table run, off-rank card for the set, gap card for the run, a run with a gap)
    "standard": (build, "7C 7D 7H", "4S 5S 6S", "8C", "9S", "4D 5D 8D"),
    "wild": (wild, "7C 7D 7H", "4S 5S 6S", "8C", "9S", "4D 5D 8D"),
    "frustration": (frustration, "7C 7D 7H", "4S 5S 6S 7S", "8C", "10S", "4D 5D 6D 9D"),
    "frayzy": (frayzy, "R7 B7 G7", "Y4 Y5 Y6", "R8", "Y9", "B4 B5 B8"),
}
RULES = {"standard": ("S8", "S8"), "wild": ("W7", "W8"), "frustration": ("R6", "R7"), "frayzy": ("F9", "F10")}


def position(game):
    """The mover (seat 0, in the play phase, with a Frustration contract laid, R11) holds the
    off-rank card, the gap card, a run with a gap and a spare card, over a table with a set and a run."""
    builder, table_set, table_run, off_rank, gap, bad_run = GAMES[game]
    spare = "Y11" if game == "frayzy" else "KC"
    contract = {"laid_down": [True, True]} if game == "frustration" else {}
    return builder([f"{off_rank} {gap} {bad_run} {spare}", "QH QS"], melds=[(1, table_set), (1, table_run)],
                   phase="play", **contract)


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_set_cites_the_set_rule_and_a_bad_run_the_run_rule(game):
    set_rule, run_rule = RULES[game]
    _, _, _, off_rank, gap, bad_run = GAMES[game]
    state = position(game)
    expect_illegal(state, 0, lay_off(1, off_rank), "bad_lay_off", set_rule)
    expect_illegal(state, 0, lay_off(2, gap), "bad_lay_off", run_rule)
    refusal = expect_illegal(state, 0, lay_meld(bad_run), "bad_meld", run_rule)
    assert "gap" in refusal.message or "cannot make a run" in refusal.message
