"""A plain Textual app showing two costs of Textual's own that a game move pays (the
upstream issue drafts are in docs/upstream/).  Run: ``python -m bench.repro.log_layout``.

1. Appending a line to a ``RichLog`` (or a ``Log``) whose own size is fixed lays out the
   whole screen: ``write`` sets ``virtual_size``, a reactive declared with
   ``layout=True``.  The layout re-arranges and repaints every widget, and the
   ScrollView's scrollbars are refreshed by it, which costs one more frame.
2. A ``Static`` whose new text changes its height lays the screen out twice: once for
   the update, once more because the first layout changes the widget's size and
   ``virtual_size`` (``layout=True``) is set as it does.

Each case is timed from the change to its last frame (no frame for 40 ms after), with
the layouts (``Screen.screen_layout_refresh_signal``) and frames (a driver's flushes)
it took, beside a ``Static.update(..., layout=False)`` of the same panel.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import RichLog, Static

QUIET = 0.04
ROUNDS = 30


class FrameDriver(HeadlessDriver):
    """Renders as for a terminal and keeps the time of every frame."""

    frames: list[float] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        """What the app writes is thrown away: only the time it takes counts."""

    def flush(self) -> None:
        FrameDriver.frames.append(time.monotonic())


class Table(App):
    """A board, and a side panel: a status line, a text that may grow, and a log."""

    CSS = """
    #board { width: 2fr; height: 1fr; }
    #side { width: 1fr; }
    #status { height: auto; }
    #log { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static("\n".join("." * 60 for _ in range(30)), id="board")
            with Vertical(id="side"):
                yield Static("Your move.", id="status")
                yield Static("one line", id="grows")
                yield RichLog(id="log")

    def on_mount(self) -> None:
        self.layouts = 0
        self.screen.screen_layout_refresh_signal.subscribe(self, self.count_layout)

    def count_layout(self, screen: object) -> None:
        self.layouts += 1


async def settle(since: float) -> float:
    frames = FrameDriver.frames
    while True:
        await asyncio.sleep(0.003)
        last = max(frames[-1] if frames else since, since)
        if time.monotonic() - last >= QUIET:
            return last


async def measure() -> dict[str, tuple[float, float, float]]:
    app = Table(driver_class=FrameDriver)
    cases = {
        "Static.update(layout=False), same height": lambda i: app.query_one("#status", Static).update(
            f"Move {i}.", layout=False),
        "RichLog.write of one line (fixed size)": lambda i: app.query_one("#log", RichLog).write(f"{i}. a move"),
        "Static.update, new height": lambda i: app.query_one("#grows", Static).update(
            "one line" if i % 2 else "two\nlines"),
    }
    out = {}
    async with app.run_test(size=(120, 40), headless=False):
        await settle(time.monotonic())
        for name, change in cases.items():
            took, layouts, frames = [], [], []
            for i in range(ROUNDS):
                before_layouts, before_frames = app.layouts, len(FrameDriver.frames)
                started = time.monotonic()
                change(i)
                took.append((await settle(started) - started) * 1e3)
                layouts.append(app.layouts - before_layouts)
                frames.append(len(FrameDriver.frames) - before_frames)
            out[name] = (statistics.median(took), statistics.median(layouts), statistics.median(frames))
    return out


if __name__ == "__main__":
    import textual

    print(f"textual {textual.__version__}, 120x40; median of {ROUNDS}: to the last frame, layouts, frames")
    for name, (ms, layouts, frames) in asyncio.run(measure()).items():
        print(f"  {name:44} {ms:6.1f} ms  {layouts:.0f} layout(s)  {frames:.0f} frame(s)")
