"""ChoiceList: the things a player may do now, one per line, with a cursor.

Generic: it is given plain sentences and knows nothing of any game.  Modelled on
``TileBoard`` / Textual's ``DataTable``: a reactive ``cursor`` moved with the arrow
keys (and j/k), ``Highlighted`` when the cursor moves and ``Selected`` on Enter or
a click, posted up to the screen, which decides what they mean.  Drawn with the
Line API: each line is a strip cut to the widget's width, scrolled so the cursor
stays in sight.
"""

from __future__ import annotations

from typing import Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget


class ChoiceList(Widget, can_focus=True):
    DEFAULT_CSS = """
    ChoiceList { height: 1fr; min-height: 3; background: $surface; }
    ChoiceList:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False, id="choices-up"),
        Binding("down,j", "move(1)", "Down", show=False, id="choices-down"),
        Binding("pageup", "move(-5)", "Page up", show=False, id="choices-page-up"),
        Binding("pagedown", "move(5)", "Page down", show=False, id="choices-page-down"),
        Binding("enter", "select", "Choose", id="choices-select"),
    ]

    cursor: reactive[int] = reactive(0, always_update=False)

    class Highlighted(Message):
        def __init__(self, choices: "ChoiceList", index: int) -> None:
            super().__init__()
            self.choices = choices
            self.index = index

        @property
        def control(self) -> "ChoiceList":
            return self.choices

    class Selected(Highlighted):
        """Enter (or a click on the cursor line) chose ``index``."""

    def __init__(self, *, title: str = "", name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.title = title
        self.items: list[str] = []
        self.empty_text = ""
        self._top = 0

    def show(self, items: Sequence[str], keep: int | None = None, empty: str = "") -> None:
        """New items; the cursor stays on ``keep`` if given (else on the same index)."""
        self.items = list(items)
        self.empty_text = empty
        index = self.cursor if keep is None else keep
        self.cursor = max(0, min(len(self.items) - 1, index)) if self.items else 0
        self.refresh()

    def validate_cursor(self, value: int) -> int:
        return max(0, min(len(self.items) - 1, value)) if self.items else 0

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh()
        if self.items:
            self.post_message(self.Highlighted(self, new))

    def action_move(self, delta: int) -> None:
        self.cursor = self.cursor + delta

    def action_select(self) -> None:
        if self.items:
            self.post_message(self.Selected(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self._top + offset.y - (1 if self.title else 0)
        if 0 <= index < len(self.items):
            if index == self.cursor:
                self.action_select()
            else:
                self.cursor = index

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        head = 1 if self.title else 0
        if head and y == 0:
            return Strip([Segment(self.title[:width].ljust(width), base + Style(bold=True))], width)
        rows = max(1, self.size.height - head)
        if self.cursor < self._top:
            self._top = self.cursor
        elif self.cursor >= self._top + rows:
            self._top = self.cursor - rows + 1
        index = self._top + y - head
        if not self.items:
            text = self.empty_text if y == head else ""
            return Strip([Segment(text[:width].ljust(width), base + Style(dim=True))], width)
        if not 0 <= index < len(self.items):
            return Strip.blank(width, base)
        chosen = index == self.cursor
        mark = "▶ " if chosen else "  "
        more = ""
        if y == head and self._top > 0:
            more = " ↑"
        elif y == self.size.height - 1 and index < len(self.items) - 1:
            more = " ↓"
        text = (mark + self.items[index])[: max(0, width - len(more))]
        style = base + (Style(reverse=True, bold=True) if chosen else Style())
        segs = [Segment(text.ljust(width - len(more)), style)]
        if more:
            segs.append(Segment(more, base + Style(dim=True)))
        return Strip(segs, width)
