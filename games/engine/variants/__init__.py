"""The registry of playable variants, by name."""
from __future__ import annotations

from ..errors import IllegalAction
from .standard import StandardRummy

VARIANTS = {StandardRummy.name: StandardRummy}


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
