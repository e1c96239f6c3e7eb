"""Finding Atlantis's options: ``FIELDS``, plain data (what the menu shows, without
pydantic or the rules), and ``FindingAtlantisOptions``, the frozen dataclass built from it
(see ``engine.options``)."""

from __future__ import annotations

from ..options import OptionField, options_class
from . import data

FIELDS = (
    OptionField("size", int, 6, "ocean map 6 (4 Atlantis spaces) or 8 (6)"),  # (6 or 8: map_size below)
    OptionField("pirate", bool, False, "pirate mode: Periscope, Drop Mine"),
    OptionField("monsters", str, "still", "sea monsters still or roaming", words=("still", "roaming")),
    OptionField("paper", bool, False, "no automatic notes on the chart"),
    OptionField("assistant", bool, True, "shade certain cells, warn before a wrong solve"),
    OptionField("max_rounds", int, 60, "rounds before the game ends unsolved", low=5, high=500),
)


def map_size(value: int) -> int:
    """Only the two map sizes the rules describe."""
    if value not in data.MAP_SIZES:
        raise ValueError("size must be 6 or 8")
    return value


FindingAtlantisOptions = options_class("FindingAtlantisOptions", __name__, FIELDS, {"size": map_size})
