"""Survive's options: ``FIELDS``, plain data (what the menu shows, without pydantic or the
rules), and ``SurviveOptions``, the frozen dataclass built from it (see ``engine.options``)."""

from __future__ import annotations

from ..options import OptionField, options_class

FIELDS = (
    OptionField("memory", bool, True, "explorer values are shown to their owner only while "
                                      "placing them (off: your own values stay visible)"),
)

SurviveOptions = options_class("SurviveOptions", __name__, FIELDS)
