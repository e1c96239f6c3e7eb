"""The options of the game, validated by pydantic (imported only when needed: see
``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from . import data as D


class FindingAtlantisOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    size: int = Field(6, description="ocean map 6 (4 Atlantis spaces) or 8 (6)")
    pirate: bool = Field(False, description="pirate mode: Periscope, Drop Mine")
    monsters: Literal["still", "roaming"] = Field("still", description="sea monsters still or roaming")
    paper: bool = Field(False, description="no automatic notes on the chart")
    assistant: bool = Field(True, description="shade certain cells, warn before a wrong solve")
    max_rounds: int = Field(60, ge=5, le=500, description="rounds before the game ends unsolved")

    @field_validator("size")
    @classmethod
    def _size(cls, v: int) -> int:
        if v not in D.MAP_SIZES:
            raise ValueError("size must be 6 or 8")
        return v
