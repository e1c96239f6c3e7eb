"""The options of the game: ``FIELDS``, plain data (what the menu shows, without pydantic
or the rules), and ``AtlantisOptions``, the pydantic model built from it on first use
(see ``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from ..options import OptionField, build_model, model_getattr
from . import data

FIELDS = (
    OptionField("sales_per_turn", int, data.SALES_PER_TURN, "plates a player may sell at the start of a turn",
                low=0, high=5),
)

__getattr__ = model_getattr(globals(), "AtlantisOptions",
                            lambda: build_model("AtlantisOptions", __name__, FIELDS))
