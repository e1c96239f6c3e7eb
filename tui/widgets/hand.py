"""Hand: the tiles a player holds, drawn as small pictures, with one selected.

Generic like the board: each item is either a path tile (its open sides, drawn
with the board's own box characters in its current rotation) or a labelled tile
(a short word such as TRADE).  The screen owns the selection: it sets
``selected`` and the widget posts ``Hand.Selected`` when a tile is clicked or
chosen with the arrows while the hand has focus (the number keys live on the
screen, so they work wherever the focus is).

Two sizes: ``compact`` draws one row (3-character pictures), otherwise each
tile is a 5x3 picture under its number and name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from .tile_board import Palette, tile_picture


@dataclass(frozen=True)
class HandItem:
    """One tile in the hand: ``mask`` for a path tile, else ``label`` is shown."""

    mask: int | None
    label: str
    name: str = ""  # caption in the tall layout ("elbow", "special")


class Hand(Widget, can_focus=True):
    DEFAULT_CSS = """
    Hand { height: auto; width: 1fr; padding: 0 1; }
    Hand:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("left,h", "move(-1)", "Previous tile", show=False, id="hand-previous"),
        Binding("right,l", "move(1)", "Next tile", show=False, id="hand-next"),
    ]

    selected: reactive[int | None] = reactive(None)
    compact: reactive[bool] = reactive(True, layout=True)

    class Selected(Message):
        """The player chose the tile at ``index``."""

        def __init__(self, hand: "Hand", index: int) -> None:
            super().__init__()
            self.hand = hand
            self.index = index

        @property
        def control(self) -> "Hand":
            return self.hand

    def __init__(self, *, title: str = "Hand", name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.title = title
        self.items: list[HandItem] = []
        self.note = ""
        self.palette = Palette()
        self._spans: list[tuple[int, int]] = []  # x range of each item, for clicks

    def show(self, items: Sequence[HandItem] | None, selected: int | None, note: str = "") -> None:
        """Draw these tiles (None: a hand we may not see) with ``selected`` marked."""
        self.items = list(items) if items is not None else []
        self.note = note if items is not None or note else "(hidden)"
        self.selected = selected
        self.refresh(layout=True)

    def action_move(self, delta: int) -> None:
        if not self.items:
            return
        start = self.selected if self.selected is not None else (-1 if delta > 0 else 0)
        self.post_message(self.Selected(self, (start + delta) % len(self.items)))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for index, (x0, x1) in enumerate(self._spans):
            if x0 <= offset.x < x1:
                self.post_message(self.Selected(self, index))
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
        pal = self.palette
        h = 1 if self.compact else 3
        w = 3 if self.compact else 5
        title = Style(bold=True)
        number = Style(bold=True, color="#ffd75f")
        lines = [Text() for _ in range(1 if self.compact else 4)]
        pic_row0 = 0 if self.compact else 1
        lines[0].append(f"{self.title} ", title)
        for line in lines[1:]:
            line.append(" " * (len(self.title) + 1))
        self._spans = []
        if not self.items:
            lines[0].append(self.note or "(empty)", Style(dim=True))
            return Text("\n").join(lines)
        for index, item in enumerate(self.items):
            chosen = index == self.selected
            pic = self._picture(item, w, h)
            pic_w = max(len(r) for r in pic)
            if item.mask is not None:
                pic_style = Style(color=pal.path, bgcolor=pal.tile[index % 2], bold=chosen)
            else:
                pic_style = Style(color=pal.block_fg, bold=True)
            if chosen:
                pic_style += Style(reverse=True)
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
                lines[0].append(caption[2:].ljust(col_w - 2), Style(bold=chosen))
                for dy in range(h):
                    row = pic[dy] if dy < len(pic) else ""
                    line = lines[pic_row0 + dy]
                    line.append(" ")
                    line.append(row, pic_style)
                    line.append(" " * (col_w - 1 - len(row)))
            self._spans.append((x0, lines[0].cell_len))
        if self.note:
            lines[0].append(self.note, Style(dim=True))
        return Text("\n").join(lines)
