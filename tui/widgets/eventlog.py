"""The event log: plain sentences, newest at the bottom."""

from __future__ import annotations

from textual.widgets import RichLog


class EventLog(RichLog):
    DEFAULT_CSS = """
    EventLog { background: $surface; scrollbar-size-vertical: 1; }
    """

    def __init__(self, **kwargs):
        super().__init__(wrap=True, markup=False, highlight=False, max_lines=500, min_width=10, **kwargs)
        self._shown: list[str] = []
        self.can_focus = True

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
