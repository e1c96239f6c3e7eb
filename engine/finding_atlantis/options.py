"""The options of the game: ``FIELDS``, plain data (what the menu shows, without pydantic
or the rules), and ``FindingAtlantisOptions``, the pydantic model built from it on first
use (see ``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from typing import Any

from ..options import OptionField, build_model, model_getattr
from . import data

FIELDS = (
    OptionField("size", int, 6, "ocean map 6 (4 Atlantis spaces) or 8 (6)"),  # (6 or 8: _size below)
    OptionField("pirate", bool, False, "pirate mode: Periscope, Drop Mine"),
    OptionField("monsters", str, "still", "sea monsters still or roaming", words=("still", "roaming")),
    OptionField("paper", bool, False, "no automatic notes on the chart"),
    OptionField("assistant", bool, True, "shade certain cells, warn before a wrong solve"),
    OptionField("max_rounds", int, 60, "rounds before the game ends unsolved", low=5, high=500),
)


def _size(cls: Any, v: int) -> int:
    if v not in data.MAP_SIZES:
        raise ValueError("size must be 6 or 8")
    return v


def _build() -> Any:
    from pydantic import field_validator

    return build_model("FindingAtlantisOptions", __name__, FIELDS,
                       {"_size": field_validator("size")(classmethod(_size))})


__getattr__ = model_getattr(globals(), "FindingAtlantisOptions", _build)
