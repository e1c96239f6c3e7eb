"""How every area of the bench prints its figures: one table of rows, each a figure beside
its reference, their ratio, its goal and whether the goal is met; and the few readings
(percentiles, a process's CPU and memory) the areas share."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Row:
    """One figure.  ``reference`` is in the figure's own unit (the ratio is figure over
    reference); ``met`` is None where there is no goal, or where the figure is missing."""

    figure: str
    value: float | None
    unit: str = ""
    reference: float | None = None
    reference_name: str = ""
    goal: str = ""
    met: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.reference:
            return None
        return self.value / self.reference


def number(value: float | None, unit: str = "") -> str:
    """A figure as a reader wants it: thousands separated, a few significant digits."""
    if value is None or value != value:
        return "n/a"
    if abs(value) >= 1000:
        text = f"{value:,.0f}"
    elif abs(value) >= 100:
        text = f"{value:.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text} {unit}".rstrip()


def print_table(title: str, rows: list[Row], note: str = "") -> None:
    """The area's title, a note on how it was measured, then its rows in aligned columns."""
    cells = [("figure", "value", "reference", "ratio", "goal", "verdict")]
    for row in rows:
        reference = (f"{number(row.reference, row.unit)} {row.reference_name}".strip()
                     if row.reference is not None else row.reference_name or "-")
        ratio = f"{row.ratio:.2f}x" if row.ratio is not None else "-"
        verdict = "-" if row.met is None else "ok" if row.met else "MISS"
        cells.append((row.figure, number(row.value, row.unit), reference, ratio, row.goal or "-", verdict))
    widths = [max(len(line[i]) for line in cells) for i in range(6)]
    print(f"\n{title}")
    if note:
        print(f"  ({note})")
    for k, line in enumerate(cells):
        print("  " + "  ".join(cell.ljust(w) if i in (0, 2, 4) else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(line, widths))).rstrip())
        if k == 0:
            print("  " + "  ".join("-" * w for w in widths))


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def cpu_seconds(pid: int) -> float:
    """CPU seconds a process has run (``/proc/PID/schedstat``: nanoseconds)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def uss_mib(pid: int) -> float:
    """The memory only this process holds (Private_Clean + Private_Dirty), in MiB."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    except OSError:
        return 0.0
    return total / 1024


def load() -> str:
    """The machine's load average beside its CPUs: a busy machine reads every figure slower."""
    try:
        return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    except OSError:
        return f"{os.cpu_count()} CPUs"
