"""What the Finding Atlantis chart draws, built from one seat's view (no widget code).

``chart_picture`` is the seat's own chart: in every space the seat's own result
first (an auto-note, else the assistant's deduction, drawn grey), and beside or
under it the markers that share the space (your submarine, your pencil mark,
other submarines where they were last seen, your mine, a sea monster), so that a
marker never hides a result.  Spaces whose public markers differ from the seat's
``baseline`` view (the view right after its own last action) are tinted
``recent`` and marked ``+``: what the other seats did since.  ``truth_picture`` is the true map of
a finished game (``view.truth``), each space marked right or wrong against what
the seat had on its chart.  The legend lists exactly the symbols drawn.
"""

from __future__ import annotations

from typing import Any, Sequence

from engine.finding_atlantis import data
from engine.finding_atlantis.text import LEGEND, TRUTH_CHAR, chart_char

from ..seat_labels import SEAT_LETTERS
from .chart_grid import ChartCell, ChartPicture

FACT_PART = {"@": "atlantis", "$": "artifact", "T": "trace", "t": "rod", "#": "deep", "^": "seamount",
             "s": "seamount", "x": "notrace", "!": "danger", ".": "empty", "·": "empty"}
SHORT = {symbol: short for symbol, short, _ in LEGEND}
#: Beside a space (and before a player's history) that changed since your last move:
#: the tint is not the only cue (a monochrome terminal, NO_COLOR).
CHANGED = "+"
MARK_WORDS = {"s": "seamount", "#": "deep ocean", "x": "no trace", "T": "trace", "@?": "Atlantis?"}


def mark_cycle(seat: int, players: int) -> list[str]:
    return ["s", "#", "x", "T", "@?"] + [f"{SEAT_LETTERS[o]}?" for o in range(players) if o != seat] + [""]


def _world(n: int, cell: int) -> int:
    r, c = divmod(cell, n)
    return (r + 1) * (n + 2) + c + 1


def deduced_char(know: Any, x: int, cell: int) -> str:
    if cell >= 0:
        if know.atl[cell] == 1:
            return "@"
        if know.trace[cell] == 1:
            return "T"
    if know.sea[x] == 0:
        return "#"
    if cell >= 0 and know.trace[cell] == 0 and know.sea[x] == 1:
        return "^"
    if know.sea[x] == 1:
        return "s"
    if cell >= 0 and know.trace[cell] == 0:
        return "x"
    return ""


def public_marks(view: Any) -> dict[int, list[tuple[str, str]]]:
    """Per map cell, the public markers: other submarines where last seen, monsters."""
    out: dict[int, list[tuple[str, str]]] = {}
    for o, p in enumerate(view.public):
        if o == view.seat:
            continue
        where = p.surfaced if p.surfaced >= 0 else p.start
        if where >= 0 and not p.lost:
            letter = SEAT_LETTERS[o] if not p.trail else SEAT_LETTERS[o].lower()
            out.setdefault(where, []).append((letter, f"seat-{o}"))
    for m in view.monsters:
        out.setdefault(m, []).append(("M", "monster"))
    return out


def changed_cells(view: Any, baseline: Any | None) -> set[int]:
    """Map cells whose public markers (or failed declarations) changed since ``baseline``."""
    if baseline is None or baseline.n != view.n:
        return set()
    now, then = public_marks(view), public_marks(baseline)
    cells = {c for c in set(now) | set(then) if now.get(c) != then.get(c)}
    for _, picks in view.failed[len(baseline.failed):]:
        cells |= set(picks)
    return cells


def chart_picture(view: Any, marks: dict[int, str], know: Any, baseline: Any | None = None) -> ChartPicture:
    n, w = view.n, view.n + 2
    seat = view.seat
    subs = public_marks(view)
    recent = changed_cells(view, baseline)
    picks = set(view.picks)
    cells = []
    for x in range(w * w):
        r, c = divmod(x, w)
        inner = 1 <= r <= n and 1 <= c <= n
        cell = (r - 1) * n + (c - 1) if inner else -1
        f = view.chart[x] if view.chart else 0
        text, part = "", "cell"
        back = ("sea-alt" if (r + c) % 2 else "") if inner else "ring"
        if not view.paper and f and not (not inner and f == data.NOTRACE):
            text = chart_char(f)
            part = FACT_PART.get(text, "cell")
        elif know is not None:
            text = deduced_char(know, x, cell)
            part = "deduced" if text else "cell"
        shaded = know is not None and cell >= 0 and know.certain(cell)
        if shaded:
            back = "shade"
        pieces: list[tuple[str, str]] = []
        if cell >= 0:
            if seat is not None and cell == view.pos:
                pieces.append((SEAT_LETTERS[seat] + "*", f"seat-{seat}"))
            if marks.get(cell):
                pieces.append((marks[cell], "mark"))
            pieces += subs.get(cell, [])
            if cell == view.mine:
                pieces.append(("m", "mine"))
            if cell in recent:
                back = "recent"
                pieces.append((CHANGED, "recent"))
            if cell in picks:
                back = "pick"
                if not text:
                    text, part = "<>", "cell"
                else:
                    pieces.insert(0, ("<>", "pick"))
            if not text and not pieces:
                text, part = "·", "empty"
        cells.append(ChartCell(text, part, tuple(pieces), back, shaded=shaded))
    return ChartPicture(cells=cells, ring=True, corner="N↑", legend=legend_of(cells, view))


def judge(view: Any, marks: dict[int, str], know: Any, cell: int) -> str:
    """"right" if the seat had this space right, "wrong" if its own mark said otherwise,
    "" if it never knew (a game-over verdict: ``view.truth`` is the map)."""
    x = _world(view.n, cell)
    t = view.truth[x]
    mark = marks.get(cell, "")
    ok = {"s": t >= data.SEAMOUNT, "#": t == data.DEEP, "x": t < data.ARTIFACT, "T": t >= data.ARTIFACT,
          "@?": t == data.ATLANTIS}.get(mark)
    if ok is False:
        return "wrong"
    known = (not view.paper and view.chart and view.chart[x]) or ok
    if know is not None and not known:
        known = deduced_char(know, x, cell) != ""
    return "right" if known else ""


def truth_picture(view: Any, marks: dict[int, str], know: Any) -> ChartPicture:
    """The true map, the n x n spaces only (the ring beyond the edge is not part of it:
    the reveal's "Row 1, columns A to F" lines read the same)."""
    n = view.n
    cells = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        text = TRUTH_CHAR[view.truth[_world(n, cell)]]
        part = {"#": "deep", "^": "seamount", "$": "artifact", "@": "atlantis"}.get(text, "cell")
        verdict = judge(view, marks, know, cell)
        pieces = (("✓" if verdict == "right" else "✗", verdict),) if verdict else ()
        cells.append(ChartCell(text, part, pieces, "sea-alt" if (r + c) % 2 else ""))
    return ChartPicture(cells=cells, ring=False, corner="The true map", legend=legend_of(cells, view, you=False),
                        cursor=False)


def legend_of(cells: Sequence[ChartCell], view: Any, you: bool = True) -> list[tuple[str, str, str]]:
    """(symbol, part, words) for every symbol drawn, in the order of ``LEGEND``."""
    names = {}
    seen: dict[str, str] = {}
    deduced = marked = recent = shaded = False
    for cell in cells:
        if cell.part == "deduced":
            deduced = True
        if cell.text:
            seen.setdefault(cell.text, FACT_PART.get(cell.text, cell.part) if cell.part == "deduced" else cell.part)
        for text, part in cell.marks:
            if part == "mark":
                marked = True
            elif part == "recent":
                continue
            elif part.startswith("seat-") and text != SEAT_LETTERS[view.seat or 0] + "*":
                names.setdefault(text, part)
            else:
                seen.setdefault(text, part)
        recent |= cell.back == "recent"
        shaded |= cell.shaded
    out = []
    for symbol, short, _ in LEGEND:
        if symbol == "R*" and you and view.seat is not None and view.pos >= 0:
            out.append((SEAT_LETTERS[view.seat] + "*", f"seat-{view.seat}", short))
        elif symbol in ("B", "b"):
            same = [(text, part) for text, part in sorted(names.items()) if text.isupper() == (symbol == "B")]
            for i, (text, part) in enumerate(same):   # "B C started/surfaced": the words once
                out.append((text, part, short if i == len(same) - 1 else ""))
        elif symbol in seen:
            out.append((symbol, seen[symbol], short))
    if recent:
        out.append((CHANGED, "recent", SHORT[CHANGED]))
    if deduced:
        out.append(("grey", "deduced", "deduced"))
    if shaded:
        out.append(("__", "shade", "certain"))   # underlined, tinted: both
    if marked:
        out.append(("yellow", "mark", "your marks"))
    return out
