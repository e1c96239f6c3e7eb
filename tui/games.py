"""Which screen shows which game (lazy, so the menu starts fast): a screen's module is
imported only when a table of its game opens."""

from __future__ import annotations

from engine.manifest import load

from .screen_entry import screen_entry


def screen_class(slug: str) -> type:
    """The screen class of a registered game, named by its screen entry."""
    return load(screen_entry(slug).screen)
