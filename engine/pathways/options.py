"""The options of the game, validated by pydantic (imported only when needed: see
``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PathwaysOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    max_rounds: int = Field(60, ge=5, le=500, description="rounds before the nearest subpod wins")
