"""The event log: plain sentences, newest at the bottom.

Tab (or a click) gives it the focus; then ↑/↓ scroll a line, PageUp/PageDown a page and
Home/End go to the first / the last line (a ScrollView's keys, bound on the log only: the
board keeps its own keys while it has the focus).  A replay's Home/End jump to the first /
the last move unless the log has the focus (tui/screens/replay.py).
"""

from __future__ import annotations

from typing import Sequence

from textual.binding import Binding
from textual.widgets import RichLog

from engine.core import LogLine

#: Rendered (wrapped) lines kept: a whole game's log, reveal included, at a side panel's
#: width (a long End of Atlantis game is ~1500 lines at 27 columns; RichLog's trim drops
#: the oldest, which a replay must still reach with Home).
MAX_LINES = 20_000


def said_once(lines: Sequence[LogLine]) -> list[str]:
    """The log's sentences, a run said once: a ``run`` line that repeats the last line of
    its seat and kind, with only that seat's lines since ("Blue is laying their voting
    cards face down." once for five cards; yours between the cards you laid)."""
    out: list[str] = []
    last: dict[tuple[int | None, str], int] = {}  # (actor, kind) -> its last run line
    stretch = 0  # where the lines of the latest actor began
    for i, line in enumerate(lines):
        if i and line.actor != lines[i - 1].actor:
            stretch = i
        if line.run:
            j = last.get((line.actor, line.kind))
            last[(line.actor, line.kind)] = i
            if j is not None and j >= stretch and lines[j] == line:
                continue
        out.append(line.text)
    return out


class EventLog(RichLog, can_focus=True):
    DEFAULT_CSS = """
    EventLog { background: $surface; scrollbar-size-vertical: 1; }
    EventLog:focus { background-tint: $accent 12%; scrollbar-color: $accent; }
    """
    BINDINGS = [  # (ScrollView's own, spelled out: these are the keys the help promises)
        Binding("up", "scroll_up", "Scroll up", show=False),
        Binding("down", "scroll_down", "Scroll down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "scroll_home", "First line", show=False),
        Binding("end", "scroll_end", "Last line", show=False),
    ]

    def __init__(self, **kwargs):
        super().__init__(wrap=True, markup=False, highlight=False, max_lines=MAX_LINES, min_width=10, **kwargs)
        self._shown: list[str] = []

    def on_mount(self) -> None:
        # Anchored, the log stays on its last line when it gets shorter (a panel above it grew
        # after the new lines were scrolled to), until the reader scrolls it away; RichLog's own
        # scroll-to-end after a write runs once and misses a later change of height.
        self.anchor()

    def set_lines(self, lines: list[str]) -> None:
        """Show exactly these lines, appending when only new ones were added."""
        if lines[: len(self._shown)] == self._shown:
            new = lines[len(self._shown):]
        else:
            self.clear()
            new = lines
        for line in new:
            self.write(line)
        self._shown = list(lines)
