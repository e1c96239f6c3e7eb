"""Hand: the tiles a player holds, drawn as small pictures, with one selected.

Generic like the board: each item is either a path tile (its open sides, drawn
with the board's own box characters in its current rotation) or a labelled tile
(a short word such as TRADE).  A ``CursorList`` whose owner holds the cursor
(``move_selects``): the screen sets ``selected`` (the cursor; None when nothing is
picked) and the widget posts ``Hand.Selected`` when a tile is clicked or chosen with
Left/Right (h/l, going round the ends) or Home/End while the hand has focus (the number
keys live on the screen, so they work wherever the focus is; so does Enter, which the
screen names in its footer).  Colours are component classes (CSS below).

Two sizes: ``compact`` draws one row (3-character pictures), otherwise each
tile is a 5x3 picture under its number and name.

A slot may be empty (``None`` among the items): a tile played from the middle of the
hand leaves a gap, so the tiles after it keep their numbers until new ones are drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive

from .cursor_list import CursorList
from .tile_board import tile_picture


@dataclass(frozen=True)
class HandItem:
    """One tile in the hand: ``mask`` for a path tile, else ``label`` is shown."""

    mask: int | None
    label: str
    name: str = ""  # caption in the tall layout ("elbow", "special")


class Hand(CursorList, inherit_bindings=False):
    COMPONENT_CLASSES = {
        "hand--title", "hand--number", "hand--tile", "hand--tile-alt", "hand--label-tile",
        "hand--chosen", "hand--cursor", "hand--note",
    }

    DEFAULT_CSS = """
    Hand { height: auto; width: 1fr; padding: 0 1; }
    Hand:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("left,h", "move(-1)", "Previous tile", show=False, id="hand-previous"),
        Binding("right,l", "move(1)", "Next tile", show=False, id="hand-next"),
        Binding("home", "first", "First tile", show=False, id="hand-first"),
        Binding("end", "last", "Last tile", show=False, id="hand-last"),
    ]

    cursor: reactive[int | None] = reactive(None, always_update=False)
    compact: reactive[bool] = reactive(True, layout=True)

    wrap = True
    cursor_optional = True
    move_selects = True
    enter_selects = False

    class Selected(CursorList.Selected):
        """The player chose the tile at ``index``."""

        @property
        def hand(self) -> "Hand":
            return self.cursor_list  # type: ignore[return-value]

    def __init__(self, *, title: str = "Hand", name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.title = title
        self.items: list[HandItem | None] = []
        self.note = ""
        self._spans: list[tuple[int, int]] = []  # x range of each item, for clicks
        self._shown: tuple | None = None  # (title, items, note) drawn last

    @property
    def selected(self) -> int | None:
        """The picked tile: the cursor (the screen's to set)."""
        return self.cursor

    @selected.setter
    def selected(self, index: int | None) -> None:
        self.cursor = index

    def show(self, items: Sequence[HandItem | None] | None, selected: int | None, note: str = "") -> None:
        """Draw these tiles (None: a hand we may not see; a None item: an empty slot)
        with ``selected`` marked.  The height depends only on ``compact`` (whose change
        lays out again by itself), so new tiles only repaint."""
        note = note if items is not None or note else "(hidden)"
        items = list(items) if items is not None else []
        shown = (self.title, items, note)
        if shown == self._shown and selected == self.selected:
            return
        self._shown = shown
        self.items = items
        self.note = note
        self.selected = selected
        self.refresh()

    def entry_count(self) -> int:
        return len(self.items)

    def entry_enabled(self, index: int) -> bool:
        return self.items[index] is not None

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for index, (x0, x1) in enumerate(self._spans):
            if x0 <= offset.x < x1:
                self.click_entry(index)
                return

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1 if self.compact else 4

    # --- drawing ------------------------------------------------------------------------
    def _picture(self, item: HandItem, w: int, h: int) -> list[str]:
        if item.mask is not None:
            return tile_picture(item.mask, w, h)
        if h == 1:
            return [item.label]
        width = len(item.label) + 2
        rows = ["╭" + "─" * width + "╮", "│ " + item.label + " │", "╰" + "─" * width + "╯"]
        return rows[:h]

    def render(self) -> Text:
        part = self.get_component_rich_style
        h = 1 if self.compact else 3
        w = 3 if self.compact else 5
        title = part("hand--title", partial=True)
        number = part("hand--number", partial=True)
        lines = [Text() for _ in range(1 if self.compact else 4)]
        pic_row0 = 0 if self.compact else 1
        lines[0].append(f"{self.title} ", title)
        for line in lines[1:]:
            line.append(" " * (len(self.title) + 1))
        self._spans = []
        if not self.items:
            lines[0].append(self.note or "(empty)", part("hand--note", partial=True))
            return Text("\n").join(lines)
        for index, item in enumerate(self.items):
            chosen = index == self.selected
            if item is None:  # an empty slot keeps its place (and the numbers after it)
                x0 = lines[0].cell_len
                gap = part("hand--note", partial=True)
                if self.compact:
                    lines[0].append(f" {index + 1} ", gap)
                    lines[0].append("-" * w + "  ", gap)
                else:
                    caption = f" {index + 1} played"
                    lines[0].append(caption.ljust(len(caption) + 2), gap)
                    for dy in range(h):
                        lines[pic_row0 + dy].append(" " * (len(caption) + 2))
                self._spans.append((x0, lines[0].cell_len))
                continue
            pic = self._picture(item, w, h)
            pic_w = max(len(r) for r in pic)
            if item.mask is not None:
                pic_style = part("hand--tile-alt" if index % 2 else "hand--tile", partial=True)
                if chosen:
                    pic_style += part("hand--chosen", partial=True)
            else:
                pic_style = part("hand--label-tile", partial=True)
            if chosen:
                pic_style += part("hand--cursor", partial=True)
            x0 = lines[0].cell_len
            if self.compact:
                lines[0].append(("▸" if chosen else " ") + str(index + 1), number)
                lines[0].append(" ")
                lines[0].append(pic[0], pic_style)
                lines[0].append("  ")
            else:
                caption = ("▸" if chosen else " ") + f"{index + 1} {item.name}"
                col_w = max(pic_w, len(caption)) + 2
                lines[0].append(caption[:2], number)
                lines[0].append(caption[2:].ljust(col_w - 2), part("hand--chosen", partial=True) if chosen else Style())
                for dy in range(h):
                    row = pic[dy] if dy < len(pic) else ""
                    line = lines[pic_row0 + dy]
                    line.append(" ")
                    line.append(row, pic_style)
                    line.append(" " * (col_w - 1 - len(row)))
            self._spans.append((x0, lines[0].cell_len))
        if self.note:
            lines[0].append(self.note, part("hand--note", partial=True))
        return Text("\n").join(lines)
