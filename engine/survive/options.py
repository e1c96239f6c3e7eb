"""The options of the game: ``FIELDS``, plain data (what the menu shows, without pydantic
or the rules), and ``SurviveOptions``, the pydantic model built from it on first use
(see ``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from ..options import OptionField, build_model, model_getattr

FIELDS = (
    OptionField("memory", bool, True, "explorer values are shown to their owner only while "
                                      "placing them (off: your own values stay visible)"),
)

__getattr__ = model_getattr(globals(), "SurviveOptions",
                            lambda: build_model("SurviveOptions", __name__, FIELDS))
