"""VictoryTrack: every player's marker on a 60-space track, laps counted.

Generic: it is given (letter, style, points) per player.  The track is drawn as one
row of 60 spaces on a wide widget, or as two rows of 30 (0-29 left to right, then
30-59 right to left below it, as the track runs round the board) on a narrow one.
A space with one marker shows that player's letter; with several, the number of
markers (their letters are in the legend line).  Points of 60 and more go round
again: the legend shows the laps (``↻1``).
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
    COMPONENT_CLASSES = {"victory-track--tick", "victory-track--space", "victory-track--crowd"}

    DEFAULT_CSS = """
    VictoryTrack { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    VictoryTrack > .victory-track--tick { color: #5f7f8f; }
    VictoryTrack > .victory-track--space { color: #5f7f8f; text-style: dim; }
    VictoryTrack > .victory-track--crowd { text-style: bold reverse; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.markers: list[Marker] = []
        self.legend = True

    def show(self, markers: Sequence[Marker]) -> None:
        self.markers = list(markers)
        self.refresh(layout=True)

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
            out.append("\nPoints ")
            for m in self.markers:
                out.append(m.letter, m.style)
                laps = max(0, m.points) // SPACES
                out.append(f"{m.points}" + (f"↻{laps}" if laps else "") + " ")
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
