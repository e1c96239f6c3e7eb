"""The options of the game, validated by pydantic (imported only when needed: see
``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from .actions import parse_ships


class EndOfAtlantisOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    family: bool = Field(False, description="family variant: no Senate phase, ties by Faction markers")
    chosen_ships: str = Field("", description="chosen ships, e.g. A+,B,C,D+,E (no upgrades); "
                                               "empty: usual ships")
    revealed_events: bool = Field(False, description="tactical: the top Event card is face up")
    revealed_specials: bool = Field(False, description="tactical: 3 special cards face up to choose from")
    aggressive_neutrals: bool = Field(False, description="neutral refugees push the last player's cube "
                                                         "off full ships")

    @field_validator("chosen_ships")
    @classmethod
    def _ships(cls, value: str) -> str:
        try:
            parse_ships(value)
        except ValueError as exc:  # the sentence alone, without pydantic's "Value error, "
            raise PydanticCustomError("chosen_ships", str(exc)) from None
        return value.replace(" ", "").upper()
