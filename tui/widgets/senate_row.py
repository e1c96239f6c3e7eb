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
    short: str
    holder: tuple[str, Style] | None
    plus1: bool
    markers: Sequence[tuple[str, Style]] = ()


class SenateRow(Widget):
    COMPONENT_CLASSES = {"senate-row--plus-one"}

    DEFAULT_CSS = """
    SenateRow { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    SenateRow > .senate-row--plus-one { color: #ffd75f; text-style: bold; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.factions: list[FactionSpace] = []
        self.pool: list[tuple[str, Style, int]] = []
        self.pool_note = ""

    def show(self, factions: Sequence[FactionSpace], pool: Sequence[tuple[str, Style, int]],
             note: str = "") -> None:
        self.factions = list(factions)
        self.pool = list(pool)
        self.pool_note = note
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 3

    def render(self) -> Text:
        width = self.size.width or 49
        cell = max(6, min(12, width // max(1, len(self.factions))))
        top, mid = Text(), Text()
        dim = Style(dim=True)
        for f in self.factions:
            name = f.short[: cell - 1]
            top.append(name.ljust(cell - 1), Style(bold=True))
            top.append(" ")
            used = 0
            if f.holder is not None:
                mid.append(f.holder[0], f.holder[1])
                used += 1
            else:
                mid.append("-", dim)
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
        out.append("\nSenate ", Style(bold=True))
        if any(n for _, _, n in self.pool) or self.pool:
            for letter, style, n in self.pool:
                out.append(letter, style)
                out.append(f"{n} ")
        if self.pool_note:
            out.append(self.pool_note, dim)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
