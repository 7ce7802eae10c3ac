"""A computer player's memory of the public events of the deal in progress.

A bot sees only its own PlayerView; what it may also know is what everybody at the table saw: the
discard pile's cards (each discard is shown, a stock rebuild hides them again, rule 0.6), which
cards each seat took from the discard pile, and which top discards a seat refused by drawing from
the stock instead. ``Memory.observe`` reads the event dicts that ``GameState.apply`` returns (the
same public events every seat is sent; a card drawn from the stock is never named). Memory never
holds a state, a hand or the stock.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..state import PlayerView


@dataclass
class Memory:
    """Public knowledge of one deal.

    Attributes:
        deal: the deal number remembered (a new deal clears the rest).
        pile: the discard pile as card codes, top last, as far as it was seen since the last rebuild.
        taken: seat -> codes that seat took from the discard pile this deal.
        refused: seat -> codes that were the top discard when that seat drew from the stock.
        discarded: seat -> card keys (a second copy is ``7H~1``) that seat discarded since the deal
            began or the stock was last rebuilt (0.6: those cards are in the stock again).
    """

    deal: int = 0
    pile: list[str] = field(default_factory=list)
    taken: dict[int, list[str]] = field(default_factory=dict)
    refused: dict[int, list[str]] = field(default_factory=dict)
    discarded: dict[int, list[str]] = field(default_factory=dict)

    @classmethod
    def replay(cls, deal: int, events: list[dict]) -> Memory:
        """The memory of deal number ``deal`` rebuilt from its public events, oldest first."""
        memory = cls(deal=deal)
        memory.observe(events)
        return memory

    def sync(self, view: PlayerView) -> None:
        """Start afresh on a new deal, and note the turned-up card the events do not name."""
        if view.deal_number != self.deal:
            self.clear(view.deal_number)
        top = view.discard_top.code if view.discard_top else None
        if top and (not self.pile or self.pile[-1] != top):
            self.pile.append(top)

    def clear(self, deal: int) -> None:
        """Forget everything: deal number ``deal`` begins."""
        self.deal, self.pile, self.taken, self.refused, self.discarded = deal, [], {}, {}, {}

    def observe(self, events: list[dict]) -> None:
        """Remember what ``events`` (from ``GameState.apply``) show: discards, takes, refusals, rebuilds.

        Events of a new deal (``new_deal``) clear the memory."""
        for event in events:
            kind = event["type"]
            if kind == "draw_stock" and self.pile:
                self.refused.setdefault(event["seat"], []).append(self.pile[-1])
            elif kind == "take_discard":
                self.taken.setdefault(event["seat"], []).append(event["card"].partition("~")[0])
                if self.pile:
                    self.pile.pop()
            elif kind == "discard":
                self.pile.append(event["card"].partition("~")[0])
                self.discarded.setdefault(event["seat"], []).append(event["card"])
            elif kind == "stock_rebuilt":
                self.pile = self.pile[-1:]
                self.discarded = {}
            elif kind == "new_deal":
                self.clear(event["deal"])

    def gone(self) -> Counter:
        """Codes seen in the discard pile and not taken back: out of play for now."""
        return Counter(self.pile)
