"""The options of the game: ``FIELDS``, plain data (what the menu shows, without pydantic
or the rules), and ``PathwaysOptions``, the pydantic model built from it on first use
(see ``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from ..options import OptionField, build_model, model_getattr

FIELDS = (
    OptionField("max_rounds", int, 60, "rounds before the nearest subpod wins", low=5, high=500),
)

__getattr__ = model_getattr(globals(), "PathwaysOptions",
                            lambda: build_model("PathwaysOptions", __name__, FIELDS))
