"""Pathways' options: ``FIELDS``, plain data (what the menu shows, without pydantic or the
rules), and ``PathwaysOptions``, the frozen dataclass built from it (see ``engine.options``)."""

from __future__ import annotations

from ..options import OptionField, options_class

FIELDS = (
    OptionField("max_rounds", int, 60, "rounds before the nearest subpod wins", low=5, high=500),
)

PathwaysOptions = options_class("PathwaysOptions", __name__, FIELDS)
