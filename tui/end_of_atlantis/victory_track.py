"""VictoryTrack: every player's marker on a 60-space track, laps counted.

Generic: it is given (letter, style, points) per player.  The track is drawn as one
row of 60 spaces on a wide widget, or as two rows of 30 (0-29 left to right, then
30-59 right to left below it, as the track runs round the board) on a narrow one.
A space with one marker shows that player's letter; with several, the number of
markers (their letters are in the legend line).  Points of 60 and more go round
again: the points line shows the lap (``lap 2``) next to the real total.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

SPACES = 60


@dataclass(frozen=True)
class Marker:
    letter: str
    style: Style
    points: int


class VictoryTrack(Widget):
    COMPONENT_CLASSES = {"victory-track--tick", "victory-track--space", "victory-track--crowd",
                         "victory-track--recent"}

    DEFAULT_CSS = """
    VictoryTrack { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.markers: list[Marker] = []
        self.legend = True
        self.names: list[str] = []          # shown in the points line when there is room
        self.recent: frozenset[int] = frozenset()
        self._shown: tuple | None = None   # what is drawn (not drawn again while it stays the same)

    def show(self, markers: Sequence[Marker], names: Sequence[str] = (), recent: Sequence[int] = ()) -> None:
        self.markers = list(markers)
        self.names = list(names)
        self.recent = frozenset(recent)
        # the same again costs nothing; a layout only when the legend line comes or goes
        # (a new width lays the screen out anyway)
        key = (tuple(self.markers), tuple(self.names), self.recent, self.legend)
        if key == self._shown:
            return
        self.refresh(layout=self._shown is None or self._shown[-1] != self.legend)
        self._shown = key

    def wide(self) -> bool:
        return (self.size.width or 0) >= SPACES + 6

    def get_content_height(self, container, viewport, width: int) -> int:
        return (1 if width >= SPACES + 6 else 2) + (1 if self.legend else 0)

    def _cell(self, space: int) -> tuple[str, Style]:
        here = [m for m in self.markers if max(0, m.points) % SPACES == space]
        if len(here) == 1:
            return here[0].letter, here[0].style
        part = self.get_component_rich_style
        if here:
            return str(len(here)), part("victory-track--crowd", partial=True)
        tick = space % 10 == 0
        return ("┼" if tick else ":" if space % 5 == 0 else "·"), part(
            "victory-track--tick" if tick else "victory-track--space", partial=True)

    def render(self) -> Text:
        out = Text()
        label = Style(dim=True)
        if self.wide():
            out.append(" 0 ", label)
            for space in range(SPACES):
                out.append(*self._cell(space))
            out.append(" 59", label)
        else:
            out.append(" 0▸", label)
            for space in range(30):
                out.append(*self._cell(space))
            out.append("▸29\n", label)
            out.append("59◂", label)
            for space in range(59, 29, -1):
                out.append(*self._cell(space))
            out.append("◂30", label)
        if self.legend:
            out.append("\nVictory points: ")
            recent = self.get_component_rich_style("victory-track--recent", partial=True)
            for i, m in enumerate(self.markers):
                mark = recent if i in self.recent else Style()
                out.append(m.letter, m.style + mark)
                name = f" {self.names[i]}" if i < len(self.names) and self.wide() else ""
                laps = max(0, m.points) // SPACES
                out.append(f"{name} {m.points}" + (f" (lap {laps + 1})" if laps else ""), mark)
                out.append("  ")
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
