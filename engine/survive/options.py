"""The options of the game, validated by pydantic (imported only when needed: see
``engine.options``; the defaults are also in ``rules`` as plain values)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SurviveOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    memory: bool = Field(True, description="explorer values are shown to their owner only while "
                                           "placing them (off: your own values stay visible)")
