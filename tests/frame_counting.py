"""Counting frames: a headless driver that renders as for a real terminal and counts its
flushes (one per frame), as ``bench/keys.py`` does; the tests of what a move repaints use it."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console
from textual import events
from textual.app import App
from textual.drivers.headless_driver import HeadlessDriver

#: What the tests render terminal output with: a truecolor terminal.  Not ``app.console``,
#: whose colour system comes from $TERM (16 colours under TERM=xterm or no TERM): rich and
#: Textual keep a style's first escape codes on the style, shared across the process, so a
#: 16-colour rendering here would change what later tests (the demo round trip) see.
TERMINAL = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", legacy_windows=False)

QUIET = 0.08  # seconds without a frame: the screen has settled (a second frame came ~30 ms late)


class CountingDriver(HeadlessDriver):
    """Renders every frame (not headless) and counts the flushes instead of writing."""

    frames = 0

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        pass

    def flush(self) -> None:
        CountingDriver.frames += 1


async def settled(since: int | None = None) -> None:
    """Wait for the first frame after ``since`` frames (if given), then for quiet."""
    for _ in range(500):
        if since is None or CountingDriver.frames > since:
            break
        await asyncio.sleep(0.01)
    while True:
        before = CountingDriver.frames
        await asyncio.sleep(QUIET)
        if CountingDriver.frames == before:
            return


async def frames_per_key(app: App, keys: list[str]) -> list[int]:
    out = []
    for key in keys:  # (the screen has settled before each key)
        before = CountingDriver.frames
        app._driver.send_message(events.Key(key, None))
        await settled(before)
        out.append(CountingDriver.frames - before)
    return out


def next_move(table) -> None:
    """The table's next move: a bot's, or else your last legal action (a ``LocalTable``
    with ``manual_bots``: nothing moves unless told)."""
    if table.bot_to_act() is not None:
        table.step_bot()
        return
    seat = table.human_to_act()
    table.match.act(seat, table.game.legal(table.match.view(seat))[-1])
    table._changed()
