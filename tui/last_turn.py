"""The side panel's "Last turn" lines, read from the log's structured lines.

Which seat did what comes from each ``LogLine``'s actor (never from how a sentence
begins); the seats are summed up in the order they first acted in the log, each in one
summary that names it once and keeps its front whole where rows run short.
"""

from __future__ import annotations

import re
import textwrap
from typing import Sequence

from engine.core import LogLine


def acted_since(lines: Sequence[LogLine], seat: int | None) -> dict[int, list[LogLine]]:
    """The lines of every other seat's actions, by seat, in the order the seats first
    acted (lines that tell of no seat's action, such as whose turn it is, are left out)."""
    by_seat: dict[int, list[LogLine]] = {}
    for line in lines:
        if line.actor is not None and line.actor != seat:
            by_seat.setdefault(line.actor, []).append(line)
    return by_seat


def deed(line: LogLine, name: str) -> str:
    """What the line says its actor did, for a summary that names the actor once:
    "drew a card." from "Blue drew a card."; a line that does not begin with the
    actor's name is kept whole."""
    return line.text.removeprefix(f"{name} ")


def summary(name: str, lines: Sequence[LogLine]) -> str:
    """One sentence for one seat's actions: its first line whole, then each later
    line's deed: "Blue placed a tee at B1; drew 2 tiles." (a run said once)."""
    lines = [line for i, line in enumerate(lines) if not (line.run and line in lines[:i])]
    parts = [lines[0].text.rstrip(".")] + [deed(line, name).rstrip(".") for line in lines[1:]]
    return "; ".join(parts) + "."


def fit_rows(text: str, width: int, row_count: int) -> list[str]:
    """``text`` wrapped at words into at most ``row_count`` rows of ``width``.  What does
    not fit is left off at the end, marked "…": the front says who did what (the tile,
    card or hex played), the end holds the least of it ("drew 2 tiles").  Whole actions
    are left off ("; " or ", then " ends one); the first is always shown whole."""
    rows = textwrap.wrap(text, width) or [""]
    if len(rows) <= row_count:
        return rows
    ends = sorted((m.start() for m in re.finditer(r"; |, then ", text)), reverse=True)
    for end in ends:
        rows = textwrap.wrap(text[: end + 1] + " …", width)
        if len(rows) <= row_count:
            return rows
    # Not even the first action fits: it is shown whole all the same, in more rows.
    return textwrap.wrap(text[: ends[-1] + 1] + " …", width) if ends else rows
