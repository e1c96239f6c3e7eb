"""What the table shows of a game beyond its rules: its screen entry.

Each game's ``tui/<game>/__init__.py`` exports one ``SCREEN``; the game's manifest
(``engine.manifest.GameManifest.screen``) names that package, and ``screen_entry`` finds
the entry through it.  An entry is plain data: the menu lists every game with its card and
its help paragraph without importing a single screen (``tui.games.screen_class`` imports
one when a table opens).

A card's picture is 3-5 lines of at most ``PICTURE_WIDTH`` characters, drawn with plain
box-drawing and ASCII so that it reads in any terminal and without colour; the pitch and
the help paragraph are in our own words.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from engine.registry import manifest

PICTURE_WIDTH = 24
PITCH_WIDTH = 40


@dataclass(frozen=True)
class ScreenEntry:
    slug: str
    #: ``"module:Class"`` of its screen (a ``tui.screens.game.GameScreen``), imported when a table opens.
    screen: str
    #: The menu's one line (at most ``PITCH_WIDTH`` characters): what you do in this game.
    pitch: str
    #: The menu's small picture of the game.
    picture: tuple[str, ...]
    #: The menu help's paragraph about the game (the ``?`` screen).
    about: str
    #: The named setup (``tui/bundled/setups.json``) of its screenshot; None: no screenshot.
    screenshot: str | None = None


def screen_entry(slug: str) -> ScreenEntry:
    """The screen entry of a registered game (KeyError naming the known games for another)."""
    return importlib.import_module(manifest(slug).screen).SCREEN
