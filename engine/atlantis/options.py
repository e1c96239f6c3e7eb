"""The options of the game, validated by pydantic (imported only when needed: see
``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from . import data as D


class AtlantisOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    sales_per_turn: int = Field(D.SALES_PER_TURN, ge=0, le=5,
                                description="plates a player may sell at the start of a turn")
