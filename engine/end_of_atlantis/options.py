"""The options of the game: ``FIELDS``, plain data (what the menu shows, without pydantic
or the rules), and ``EndOfAtlantisOptions``, the pydantic model built from it on first
use (see ``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from typing import Any

from ..options import OptionField, build_model, model_getattr

FIELDS = (
    OptionField("family", bool, False, "family variant: no Senate phase, ties by Faction markers"),
    OptionField("chosen_ships", str, "", "chosen ships, e.g. A+,B,C,D+,E (no upgrades); "
                                         "empty: usual ships"),  # (checked by _ships below)
    OptionField("revealed_events", bool, False, "tactical: the top Event card is face up"),
    OptionField("revealed_specials", bool, False, "tactical: 3 special cards face up to choose from"),
    OptionField("aggressive_neutrals", bool, False, "neutral refugees push the last player's cube "
                                                    "off full ships"),
)


def _ships(cls: Any, value: str) -> str:
    from pydantic_core import PydanticCustomError

    from .actions import parse_ships

    try:
        parse_ships(value)
    except ValueError as exc:  # the sentence alone, without pydantic's "Value error, "
        raise PydanticCustomError("chosen_ships", str(exc)) from None
    return value.replace(" ", "").upper()


def _build() -> Any:
    from pydantic import field_validator

    return build_model("EndOfAtlantisOptions", __name__, FIELDS,
                       {"_ships": field_validator("chosen_ships")(classmethod(_ships))})


__getattr__ = model_getattr(globals(), "EndOfAtlantisOptions", _build)
