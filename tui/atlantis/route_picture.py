"""What a ``RouteTrack`` draws: the route's spaces, the chosen figure's destinations and
the rest of a ``RoutePicture`` (the screen builds a fresh one on every change)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from rich.style import Style


@dataclass(frozen=True)
class RouteSpace:
    """One space: ``kind`` is "plate", "water", "bridge" or "gone" (a lost end)."""

    kind: str
    label: str = ""                 # "A3" for a plate
    colour: int = -1                # colour index of a plate (0-6)
    stacked: bool = False           # a second plate lies under this one
    figures: tuple[tuple[str, Style], ...] = ()   # (letter, style) of figures on it
    note: str = ""                  # under a water space: the gap's price ("4")


@dataclass(frozen=True)
class RouteMark:
    """A destination of the chosen figure: where, its key, and in words its cards and
    water (for the info line)."""

    position: int
    key: str
    words: str = ""


@dataclass
class RoutePicture:
    spaces: Sequence[RouteSpace] = ()
    start_name: str = "ATLANTIS"
    goal_name: str = "MAINLAND"
    at_start: Sequence[tuple[str, Style]] = ()    # figures still at the start
    at_goal: Sequence[tuple[str, Style]] = ()     # figures that reached the goal
    chosen: int | None = None                     # position of the chosen figure
    chosen_letter: str = ""                       # its letter (several share the start)
    marks: Sequence[RouteMark] = ()
    recent: frozenset[int] = frozenset()          # spaces the other seats changed since your move
    hand: Sequence[int] = ()                      # the viewer's cards: colour indices
    hand_note: str = ""                           # "(hidden)" for a spectator
    plates: Sequence[tuple[int, str]] = ()        # the viewer's plates: (colour, label)
    letters: str = "ACJLNPT"                      # colour index -> letter (the legend)
    colour_names: Sequence[str] = ()              # colour index -> name (the long legend)
    legend: bool = True
    legend_rows: int = 3                          # at most this many legend lines (1: compact)
    legend_more: str = ""                         # said when items were left out ("g: more")
    words: dict[int, str] = field(default_factory=dict)  # position -> what the info line says
