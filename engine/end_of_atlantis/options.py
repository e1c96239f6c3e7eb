"""End of Atlantis's options: ``FIELDS``, plain data (what the menu shows, without
pydantic or the rules), and ``EndOfAtlantisOptions``, the frozen dataclass built from it
(see ``engine.options``)."""

from __future__ import annotations

from ..options import OptionField, options_class
from .actions import parse_ships

FIELDS = (
    OptionField("family", bool, False, "family variant: no Senate phase, ties by Faction markers"),
    OptionField("chosen_ships", str, "", "chosen ships, e.g. A+,B,C,D+,E (no upgrades); "
                                         "empty: usual ships"),  # (checked by chosen_ships below)
    OptionField("revealed_events", bool, False, "tactical: the top Event card is face up"),
    OptionField("revealed_specials", bool, False, "tactical: 3 special cards face up to choose from"),
    OptionField("aggressive_neutrals", bool, False, "neutral refugees push the last player's cube "
                                                    "off full ships"),
)


def chosen_ships(value: str) -> str:
    """A list of ships the rules allow, written the one way (``parse_ships`` says why not)."""
    parse_ships(value)
    return value.replace(" ", "").upper()


EndOfAtlantisOptions = options_class("EndOfAtlantisOptions", __name__, FIELDS, {"chosen_ships": chosen_ships})
