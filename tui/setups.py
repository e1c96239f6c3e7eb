"""Named setups from ``tui/bundled/setups.json`` (data, not code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .bundled import SETUPS_FILE


class Setup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    about: str = ""
    game: str
    players: int = Field(ge=1, le=8)
    bots: int = Field(0, ge=0)
    seed: int
    options: dict[str, Any] = {}
    warmup_actions: int = Field(0, ge=0)


def load_setups(path: Path = SETUPS_FILE) -> dict[str, Setup]:
    """Every named setup; a missing or broken file is an error (it ships with the package)."""
    raw = json.loads(path.read_text())
    return {name: Setup.model_validate(value) for name, value in raw.items()}
