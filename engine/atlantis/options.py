"""Atlantis's options: ``FIELDS``, plain data (what the menu shows, without pydantic or the
rules), and ``AtlantisOptions``, the frozen dataclass built from it (see ``engine.options``)."""

from __future__ import annotations

from ..options import OptionField, options_class
from . import data

FIELDS = (
    OptionField("sales_per_turn", int, data.SALES_PER_TURN, "plates a player may sell at the start of a turn",
                low=0, high=5),
)

AtlantisOptions = options_class("AtlantisOptions", __name__, FIELDS)
