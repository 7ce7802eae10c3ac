"""The registry of playable variants, by name.

Each variant module holds one frozen dataclass (its table options) that subclasses
``variants.base.Variant`` and supplies the turn rules that differ from the shared steps.
"""
from __future__ import annotations

from ..errors import IllegalAction
from .frayzy import Frayzy
from .frustration import FrustrationRummy
from .standard import StandardRummy
from .wild import WildRummy

VARIANTS = {StandardRummy.name: StandardRummy, WildRummy.name: WildRummy, FrustrationRummy.name: FrustrationRummy,
            Frayzy.name: Frayzy}


def make_variant(name: str, options: dict | None = None):
    """Build the variant ``name`` with its table ``options`` (a JSON object of option fields).

    Raises:
        IllegalAction("bad_options"): unknown variant or option.
    """
    if name not in VARIANTS:
        raise IllegalAction("bad_options", f"Unknown variant {name!r}.")
    try:
        return VARIANTS[name](**(options or {}))
    except TypeError as error:
        raise IllegalAction("bad_options", f"Unknown table option: {error}") from None
