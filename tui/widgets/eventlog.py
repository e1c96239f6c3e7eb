"""The event log: plain sentences, newest at the bottom.

Tab (or a click) gives it the focus; then ↑/↓ scroll a line, PageUp/PageDown a page and
Home/End go to the first / the last line (a ScrollView's keys, bound on the log only: the
board keeps its own keys while it has the focus).  A replay's Home/End jump to the first /
the last move unless the log has the focus (tui/screens/replay.py).

A Line API widget (a ``ScrollView`` drawing its wrapped lines with ``render_line``): a
move's new lines repaint the log alone.  Its height is given by the screen (not ``auto``)
and its scrollbar is always there, so new lines change nothing else on the screen: the
log takes its new length without asking for a layout of the whole screen (which is what
``RichLog.write`` costs every move).
"""

from __future__ import annotations

from typing import Sequence

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine.core import LogLine

#: The narrowest a sentence is wrapped to (a log squeezed narrower shows the start of each line).
MIN_WIDTH = 10


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


class EventLog(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    EventLog {
        background: $surface; color: $foreground;
        overflow-y: scroll; overflow-x: hidden; scrollbar-size-vertical: 1;
    }
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
        super().__init__(**kwargs)
        self._shown: list[str] = []   # the sentences shown
        self.lines: list[Strip] = []  # the sentences wrapped to ``_wrap_width``
        self._wrap_width = 0          # 0: not wrapped yet (the log's width is not known)

    def on_mount(self) -> None:
        # Anchored, the log stays on its last line when it gets shorter (a panel above it grew
        # after the new lines were scrolled to), until the reader scrolls it away.
        self.anchor()

    def set_lines(self, lines: list[str]) -> None:
        """Show exactly these lines, appending when only new ones were added."""
        if lines[: len(self._shown)] == self._shown:
            new = lines[len(self._shown):]
            if not new:
                return
        else:
            self.lines.clear()
            new = lines
        self._shown = list(lines)
        if not self._wrap_width:
            return  # (wrapped once the log's width is known: ``on_resize``)
        for sentence in new:
            self.lines.extend(self._wrap(sentence, self._wrap_width))
        self._show_length(to_end=True, quietly=True)

    def on_resize(self, event: events.Resize) -> None:
        width = self._width_to_wrap()
        if width != self._wrap_width:
            first, self._wrap_width = not self._wrap_width, width
            at_end = self.scroll_y >= self.max_scroll_y
            self.lines = [strip for sentence in self._shown for strip in self._wrap(sentence, width)]
            self._show_length(to_end=first or at_end, quietly=False)

    def _width_to_wrap(self) -> int:
        return max(self.scrollable_content_region.width, MIN_WIDTH)

    def _wrap(self, sentence: str, width: int) -> list[Strip]:
        text = Text(sentence)
        text.expand_tabs()
        console = self.app.console
        lines = list(Segment.split_lines(console.render(text, console.options.update_width(width))))
        return [Strip(line).adjust_cell_length(width) for line in lines] or [Strip.blank(width)]

    def _show_length(self, to_end: bool, quietly: bool) -> None:
        """Give the log its new length (``to_end``: and scroll to its last line).
        ``quietly``: the log's box and its scrollbars stay as they are, so only the log
        and its scrollbar are drawn again, without a layout of the screen (unless the
        log's height follows its length: then the screen is laid out)."""
        size = Size(self._wrap_width, len(self.lines))
        height = self.styles.height
        if not quietly or height is None or height.is_auto or not self.show_vertical_scrollbar:
            self.virtual_size = size
        else:
            self.set_reactive(EventLog.virtual_size, size)
            self.vertical_scrollbar.window_virtual_size = size.height
        if to_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        style = self.rich_style
        index = scroll_y + y
        if index >= len(self.lines):
            return Strip.blank(width, style)
        return self.lines[index].crop_extend(scroll_x, scroll_x + width, style).apply_style(style)
