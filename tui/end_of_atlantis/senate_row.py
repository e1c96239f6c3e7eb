"""SenateRow: the seven Faction spaces (holder, +1, the markers standing on each)
and the Senate pool with the Senate order.

Generic: a Faction is a short name, the (letter, style) of its holder or None, a
+1 flag and the markers on its space; the pool is (letter, style, tokens) per
player in Senate order.  Letters carry the colour, so it reads in monochrome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual.widget import Widget


@dataclass(frozen=True)
class FactionSpace:
    short: str                 # the full name; cut to the cell (a legend explains the cut)
    holder: tuple[str, Style] | None
    plus1: bool
    markers: Sequence[tuple[str, Style]] = ()


class SenateRow(Widget):
    COMPONENT_CLASSES = {"senate-row--plus-one", "senate-row--recent"}

    DEFAULT_CSS = """
    SenateRow { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.factions: list[FactionSpace] = []
        self.pool: list[tuple[str, Style, int]] = []
        self.pool_note = ""
        self.recent: frozenset[int] = frozenset()       # Factions changed by others
        self.recent_pool: frozenset[int] = frozenset()  # pool entries (by index) changed
        self._shown: tuple | None = None                # what is drawn (not drawn again while it stays the same)

    def show(self, factions: Sequence[FactionSpace], pool: Sequence[tuple[str, Style, int]],
             note: str = "", recent: Sequence[int] = (), recent_pool: Sequence[int] = ()) -> None:
        self.factions = list(factions)
        self.pool = list(pool)
        self.pool_note = note
        self.recent = frozenset(recent)
        self.recent_pool = frozenset(recent_pool)
        # the same again costs nothing; the height never changes (no layout after the first)
        key = (tuple(self.factions), tuple(self.pool), note, self.recent, self.recent_pool)
        if key == self._shown:
            return
        self.refresh(layout=self._shown is None)
        self._shown = key

    def get_content_height(self, container, viewport, width: int) -> int:
        return 3

    def render(self) -> Text:
        width = self.size.width or 49
        cell = max(6, min(16, width // max(1, len(self.factions))))
        top, mid = Text(), Text()
        dim = Style(dim=True)
        recent = self.get_component_rich_style("senate-row--recent", partial=True)
        for i, f in enumerate(self.factions):
            name = f.short if len(f.short) <= cell - 1 else f.short[:4]
            top.append(name.ljust(cell - 1), Style(bold=True) + (recent if i in self.recent else Style()))
            top.append(" ")
            used = 0
            if f.holder is not None:
                mid.append(f.holder[0], f.holder[1] + (recent if i in self.recent else Style()))
                used += 1
            else:
                mid.append("–", dim)
                used += 1
            if f.plus1:
                mid.append("+1", self.get_component_rich_style("senate-row--plus-one", partial=True))
                used += 2
            if f.markers:
                mid.append("^", dim)
                used += 1
                for letter, style in f.markers[: max(0, cell - used - 1)]:
                    mid.append(letter.lower(), style)
                    used += 1
            mid.append(" " * max(1, cell - used))
        out = Text()
        out.append_text(top)
        out.append("\n")
        out.append_text(mid)
        out.append("\nSenate pool, highest first: " if width >= 60 else "\nSenate ", Style(bold=True))
        for i, (letter, style, n) in enumerate(self.pool):
            out.append(letter, style + (recent if i in self.recent_pool else Style()))
            out.append(f" {n}", recent if i in self.recent_pool else Style())
            out.append("  " if width >= 60 else " ")
        if self.pool_note:
            out.append(self.pool_note, dim)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
