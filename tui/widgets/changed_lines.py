"""Repaint only the lines a new picture changed, for the boards that keep their lines.

The boards (``TileBoard``, ``HexGrid`` and its ``SurviveHexBoard``, ``ChartGrid``) draw
with the Line API from a list of strips they build in ``build_lines()`` and keep in
``drawn_lines``.  A new picture used to throw the list away and refresh the whole widget:
after every move the compositor cut, styled and wrote every line of the board, though a
move changes a few cells (Pathways: the whole 86x33 board to the terminal for a
bot's move at 120x40).  ``show_changed`` builds the new lines at once and
asks Textual to repaint only those that differ from the lines on screen.

A widget qualifies when its ``build_lines()`` makes every line at the widget's current size
from its picture and state alone and notes that size in ``_built_size``, and its
``render_line`` builds again when ``drawn_lines`` is None or was built at another size (a
layout after ``show`` can resize the board before its Resize event comes).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from textual.geometry import Region


def changed_rows(old: Sequence[Any], new: Sequence[Any]) -> set[int]:
    """The lines where two drawings differ (a line only one of them has counts)."""
    return {y for y in range(max(len(old), len(new))) if y >= len(old) or y >= len(new) or old[y] != new[y]}


def line_regions(rows: Iterable[int], width: int, height: int) -> list[Region]:
    """Regions ``width`` wide covering ``rows`` (those in 0..height-1), one per run of
    consecutive lines: one refresh request for them all."""
    regions: list[Region] = []
    for y in sorted(rows):
        if not 0 <= y < height:
            continue
        last = regions[-1] if regions else None
        if last is not None and last.bottom == y:
            regions[-1] = Region(0, last.y, width, last.height + 1)
        else:
            regions.append(Region(0, y, width, 1))
    return regions


def show_changed(widget: Any) -> None:
    """The widget's picture changed: repaint the lines that differ, or all of it when
    it has no lines yet, is not laid out or was built at another size."""
    old = widget.drawn_lines
    size = widget.size
    if old is None or not size or not widget.is_mounted or getattr(widget, "_built_size", None) != size:
        widget.drawn_lines = None
        widget.refresh()
        return
    new = widget.build_lines()
    widget.drawn_lines = new
    if len(new) != len(old):
        widget.refresh()
        return
    regions = line_regions(changed_rows(old, new), size.width, len(new))
    if regions:
        widget.refresh(*regions)
