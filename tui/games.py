"""Which screen shows which game (lazy, so the menu starts fast)."""

from __future__ import annotations

import importlib

SCREENS = {
    "pathways": "tui.pathways.screen:PathwaysScreen",
    "finding-atlantis": "tui.finding_atlantis.screen:FindingAtlantisScreen",
    "end-of-atlantis": "tui.end_of_atlantis.screen:EndOfAtlantisScreen",
    "survive": "tui.survive.screen:SurviveScreen",
    "atlantis": "tui.atlantis.screen:AtlantisScreen",
}


def screen_class(slug: str):
    module, _, name = SCREENS[slug].partition(":")
    return getattr(importlib.import_module(module), name)
