"""Computer players, one chooser per variant: ``chooser(variant_name)(view, rng) -> action``."""
from __future__ import annotations

from . import contract, simple

CHOOSERS = {"frustration": contract.choose, "frayzy": simple.choose}


def chooser(variant: str):
    """The choose function for ``variant``: the contract player for Frustration Rummy, the simple one
    (which also plays Frayzy's action cards) for the others."""
    return CHOOSERS.get(variant, simple.choose)
