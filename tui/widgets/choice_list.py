"""ChoiceList: the things a player may do now, one per line, with a cursor.

Generic: it is given plain sentences and knows nothing of any game.  A ``CursorList``
(the shared 1-D cursor): Up/Down (and j/k), PageUp/PageDown, Home/End move the cursor,
``Highlighted`` when it moves and ``Selected`` on Enter or a click, posted up to the
screen, which decides what they mean (``NothingToChoose`` when Enter finds the list
empty, so the screen can say why).  Entries given as ``disabled`` are drawn dim and
skipped.  Drawn with the Line API: each line is a strip cut to the widget's width,
scrolled so the cursor stays in sight.  Its looks are component classes (CSS below).
"""

from __future__ import annotations

from typing import Collection, Sequence

from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from .changed_lines import changed_rows, line_regions
from .cursor_list import PAGE, CursorList


class ChoiceList(CursorList, inherit_bindings=False):
    COMPONENT_CLASSES = {
        "choice-list--title", "choice-list--cursor", "choice-list--disabled", "choice-list--note",
    }

    DEFAULT_CSS = """
    ChoiceList { height: 1fr; min-height: 3; background: $surface; }
    ChoiceList:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False, id="choices-up"),
        Binding("down,j", "move(1)", "Down", show=False, id="choices-down"),
        Binding("pageup", f"move({-PAGE})", "Page up", show=False, id="choices-page-up"),
        Binding("pagedown", f"move({PAGE})", "Page down", show=False, id="choices-page-down"),
        Binding("home", "first", "First", show=False, id="choices-first"),
        Binding("end", "last", "Last", show=False, id="choices-last"),
        Binding("enter", "select", "Choose", id="choices-select"),
    ]

    class Highlighted(CursorList.Highlighted):
        """The cursor moved to the choice ``index``."""

        @property
        def choices(self) -> "ChoiceList":
            return self.cursor_list  # type: ignore[return-value]

    class Selected(Highlighted, CursorList.Selected):
        """Enter (or a click on the cursor line) chose ``index``."""

    class NothingToChoose(Message):
        """Enter with no choice in the list (the screen says why)."""

        def __init__(self, choices: "ChoiceList") -> None:
            super().__init__()
            self.choices = choices

    def action_select(self) -> None:
        if not self.items:
            self.post_message(self.NothingToChoose(self))
            return
        super().action_select()

    def __init__(self, *, title: str = "", name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.title = title
        self.items: list[str] = []
        # (not ``disabled``: that is Textual's reactive, whose every set restyles the widget)
        self.disabled_items: frozenset[int] = frozenset()
        self.empty_text = ""
        self._top = 0
        self._painted: int | None = None  # the cursor line drawn last (None: repaint all)

    def show(self, items: Sequence[str], keep: int | None = None, empty: str = "",
             disabled: Collection[int] = ()) -> None:
        """New items; the cursor stays on ``keep`` if given (else on the same index).
        ``disabled`` items are drawn dim and the cursor skips them.  The same list again
        draws nothing (another seat's move leaves yours alike: no whole list a move)."""
        items, disabled = list(items), frozenset(disabled)
        index = self.cursor if keep is None else keep
        cursor = max(0, min(len(items) - 1, index)) if items else 0
        if (items == self.items and disabled == self.disabled_items and empty == self.empty_text
                and cursor == self.cursor):
            return
        drawn = self._row_keys() if self.is_mounted and self.size else None
        self.items, self.disabled_items, self.empty_text = items, disabled, empty
        self.cursor = cursor
        if drawn is None:
            self._painted = None
            self.refresh()
            return
        # only the lines whose words, mark or look changed (a new "Waiting for ..." is one)
        changed = changed_rows(drawn, self._row_keys())
        self._painted = cursor
        if changed:
            self.refresh(*line_regions(changed, self.size.width, self.size.height))

    def _row_keys(self) -> list[tuple]:
        """What each line of the widget shows, as ``render_line`` would draw it now (its
        scrolling worked out the same way, without moving it)."""
        height = self.size.height
        head = 1 if self.title else 0
        rows = max(1, height - head)
        top = self._top
        if self.cursor < top:
            top = self.cursor
        elif self.cursor >= top + rows:
            top = self.cursor - rows + 1
        out: list[tuple] = [("title", self.title)] if head else []
        for y in range(head, height):
            if not self.items:
                out.append(("empty", self.empty_text if y == head else ""))
                continue
            index = top + y - head
            if not 0 <= index < len(self.items):
                out.append(())
                continue
            more = (y == head and top > 0) or (y == height - 1 and index < len(self.items) - 1)
            out.append((self.items[index], index == self.cursor, index in self.disabled_items, more, y == head))
        return out

    def cursor_moved(self) -> None:
        # Only the old and the new cursor line change, unless the list scrolls (a whole-widget
        # repaint a key is slow).
        old, new = self._painted, self.cursor
        self._painted = new
        head = 1 if self.title else 0
        rows = max(1, self.size.height - head)
        if old is None or not self.items or new is None or not self._top <= new < self._top + rows:
            self.refresh()
            return
        width = self.size.width
        regions = [Region(0, head + i - self._top, width, 1) for i in sorted({old, new})
                   if self._top <= i < self._top + rows]
        if regions:
            self.refresh(*regions)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._painted = None

    def entry_count(self) -> int:
        return len(self.items)

    def entry_enabled(self, index: int) -> bool:
        return index not in self.disabled_items

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self.click_entry(self._top + offset.y - (1 if self.title else 0))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        part = self.get_component_rich_style
        head = 1 if self.title else 0
        if head and y == 0:
            return Strip([Segment(self.title[:width].ljust(width), base + part("choice-list--title", partial=True))],
                         width)
        rows = max(1, self.size.height - head)
        if self.cursor < self._top:
            self._top = self.cursor
        elif self.cursor >= self._top + rows:
            self._top = self.cursor - rows + 1
        index = self._top + y - head
        note = base + part("choice-list--note", partial=True)
        if not self.items:
            text = self.empty_text if y == head else ""
            return Strip([Segment(text[:width].ljust(width), note)], width)
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
        style = base
        if index in self.disabled_items:
            style += part("choice-list--disabled", partial=True)
        if chosen:
            style += part("choice-list--cursor", partial=True)
        segs = [Segment(text.ljust(width - len(more)), style)]
        if more:
            segs.append(Segment(more, note))
        return Strip(segs, width)
