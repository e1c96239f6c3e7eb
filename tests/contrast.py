"""Text contrast in a screenshot Textual exported as SVG (``App.export_screenshot``).

Rich writes one ``<rect>`` per background run and one ``<text>`` per styled run of a
terminal line, each clipped to that line (``clip-path="url(#...-line-N)"``); a text's
colour is its class's ``fill`` in the SVG's ``<style>``.  ``low_contrast`` pairs every run
that holds a letter or a digit with the background under each of its cells and returns
the runs below WCAG's 4.5:1 for text.  Runs of only box-drawing and other symbols are
drawings, held to WCAG's 3:1 for graphics.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass

TEXT_RATIO = 4.5
GRAPHICS_RATIO = 3.0

_CLASS_FILL = re.compile(r"\.(terminal-\d+-r\d+) \{ fill: (#[0-9a-fA-F]{6})")
_RECT = re.compile(r'<rect fill="(#[0-9a-fA-F]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                   r'height="[\d.]+" shape-rendering="crispEdges"/>')
_TEXT = re.compile(r'<text class="(terminal-\d+-r\d+)" x="([\d.]+)" y="[\d.]+" textLength="([\d.]+)" '
                   r'clip-path="url\(#terminal-\d+-line-(\d+)\)">(.*?)</text>', re.DOTALL)
_LINE_HEIGHT = 24.4
_LINE_TOP = 1.5
_CELL_WIDTH = 12.2


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = []
    for start in (1, 3, 5):
        value = int(colour[start:start + 2], 16) / 255
        channels.append(value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@dataclass(frozen=True)
class Run:
    line: int
    column: int
    text: str
    colour: str
    background: str
    ratio: float

    def __str__(self) -> str:
        return (f"line {self.line} col {self.column} {self.text!r}: {self.colour} on "
                f"{self.background} = {self.ratio:.2f}:1")


def is_text(run: str) -> bool:
    """A run a player reads (a letter or a digit in it), not a drawing."""
    return any(unicodedata.category(char)[0] in "LN" for char in run)


def _cell(offset: str) -> int:
    return round(float(offset) / _CELL_WIDTH)


def runs(svg: str) -> list[Run]:
    """Every visible run of the screenshot, with its colour, the background under it and
    the lowest contrast between the two over its cells."""
    fills = dict(_CLASS_FILL.findall(svg))
    backgrounds: dict[int, list[tuple[int, int, str]]] = {}
    for fill, x, y, width in _RECT.findall(svg):
        line = round((float(y) - _LINE_TOP) / _LINE_HEIGHT)
        backgrounds.setdefault(line, []).append((_cell(x), _cell(x) + _cell(width), fill))
    found = []
    for css_class, x, length, line_text, body in _TEXT.findall(svg):
        text = html.unescape(body).replace("\xa0", " ")
        if not text.strip():
            continue
        line, left = int(line_text), _cell(x)
        right = left + _cell(length)
        colour = fills[css_class]
        under = [fill for start, end, fill in backgrounds.get(line, ()) if start < right and end > left]
        if not under:
            continue
        worst = min(under, key=lambda fill: contrast(colour, fill))
        found.append(Run(line, left, text, colour, worst, contrast(colour, worst)))
    return found


def low_contrast(svg: str) -> list[Run]:
    """The runs below WCAG's minimum: 4.5:1 for text, 3:1 for drawings."""
    return [run for run in runs(svg)
            if run.ratio < (TEXT_RATIO if is_text(run.text) else GRAPHICS_RATIO)]
