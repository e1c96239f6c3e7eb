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
    #: The smallest screen (columns, rows) its board is drawn in; below it the game screen
    #: says how big a screen the game needs instead (``GameScreen``).  80x24 fits a phone
    #: held sideways in a browser (``tui/web/page.html``).
    min_size: tuple[int, int] = (80, 24)


def size_notice(what: str, min_size: tuple[int, int], size: tuple[int, int]) -> str:
    """What a screen shows instead of itself on a screen smaller than ``min_size``
    (columns, rows): how big a screen ``what`` needs, for a terminal and for a phone's
    browser alike ("": it fits)."""
    (min_w, min_h), (w, h) = min_size, size
    if w >= min_w and h >= min_h:
        return ""
    return (f"{what} needs a screen of at least {min_w}×{min_h} (this one is {w}×{h}).\n"
            "Make the terminal bigger; on a phone, turn it sideways or zoom out.")


def screen_entry(slug: str) -> ScreenEntry:
    """The screen entry of a registered game (KeyError naming the known games for another)."""
    return importlib.import_module(manifest(slug).screen).SCREEN
