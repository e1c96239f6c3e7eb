"""Seat colours from ``seats.tcss``, the one place they are used as classes.

``SEAT_CLASSES`` names the CSS class of each seat colour in seat order; ``seat_style(i)``
is the rich ``Style`` of seat colour ``i``, read from the same file with Textual's CSS
parser, for code that builds rich ``Text`` (pictures handed to widgets, side panels) and
so cannot ask a mounted widget for a component style.  ``SEAT_CSS`` is the file's text,
for a widget or app that styles seat marks by class.

The colours are theme variables (``tui.theme``): a caller that has an app passes its
``theme_variables``; without them the dark theme's values are used (the seat colours
are the same in every theme of ``tui.theme``; the ``recent`` tint is not).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Mapping

from rich.style import Style
from rich.text import Span, Text
from textual.css.stylesheet import Stylesheet

from ..theme import theme_colours

SEATS_TCSS = Path(__file__).with_name("seats.tcss")
SEAT_CSS = SEATS_TCSS.read_text(encoding="utf-8")
SEAT_CLASSES = ("seat--red", "seat--blue", "seat--green", "seat--yellow", "seat--purple", "seat--grey")


#: The tint of what the other seats did since your last move (``GameScreen.baseline_view``).
RECENT_CLASS = "recent"


#: The theme variables ``seats.tcss`` uses.
SEAT_VARIABLES = ("seat-red", "seat-blue", "seat-green", "seat-yellow", "seat-purple", "seat-grey", "seat-ink",
                  "recent", "recent-ink")


def _styles_by_class(variables: Mapping[str, str] | None) -> dict[str, Style]:
    given = theme_colours(dark=True) if variables is None else variables
    return _parsed(tuple((name, given[name]) for name in SEAT_VARIABLES))


@lru_cache(maxsize=4)
def _parsed(values: tuple[tuple[str, str], ...]) -> dict[str, Style]:
    sheet = Stylesheet(variables=dict(values))
    sheet.add_source(SEAT_CSS, read_from=(str(SEATS_TCSS), ""))
    sheet.parse()
    by_class: dict[str, Style] = {}
    for rule in sheet.rules:
        styles = rule.styles
        style = Style(color=styles.color.rich_color if styles.has_rule("color") else None,
                      bgcolor=styles.background.rich_color if styles.has_rule("background") else None)
        if styles.has_rule("text_style"):
            style += Style.parse(str(styles.text_style))
        for selector in rule.selector_set:
            by_class[selector.css.lstrip(".")] = style
    return by_class


def seat_styles(variables: Mapping[str, str] | None = None) -> tuple[Style, ...]:
    """The style of every seat colour, in ``SEAT_CLASSES`` order."""
    by_class = _styles_by_class(variables)
    return tuple(by_class[name] for name in SEAT_CLASSES)


def recent_style(variables: Mapping[str, str] | None = None) -> Style:
    """The ``recent`` tint as a rich ``Style`` (add it to a cell's own style: ``style +
    recent_style(self.app.theme_variables)``)."""
    return _styles_by_class(variables)[RECENT_CLASS]


def seat_style(index: int, variables: Mapping[str, str] | None = None) -> Style:
    """The style of seat colour ``index`` (0 red, 1 blue, 2 green, 3 yellow, 4 purple, 5 grey)."""
    return seat_styles(variables)[index]


def themed(style: Style, variables: Mapping[str, str] | None) -> Style:
    """``style`` with a seat colour of the default theme swapped for the same seat's
    colour in the theme of ``variables`` (an app's ``theme_variables``): pictures and
    side-panel words are built without an app (``seat_style(i)``), then drawn in the app's
    theme, a custom theme's own seat colours included."""
    if variables is None or style.bgcolor is None:
        return style
    for default, wanted in zip(seat_styles(None), seat_styles(variables)):
        if default is not wanted and style.bgcolor == default.bgcolor and style.color == default.color:
            return style + Style(color=wanted.color, bgcolor=wanted.bgcolor)
    return style


def in_theme(text: Text, variables: Mapping[str, str] | None) -> Text:
    """A copy of ``text`` whose seat chips (``themed``) are in the theme of ``variables``."""
    if variables is None or not any(isinstance(span.style, Style) and span.style.bgcolor for span in text.spans):
        return text
    out = text.copy()
    out.spans = [Span(span.start, span.end, themed(span.style, variables)) if isinstance(span.style, Style)
                 else span for span in text.spans]
    return out
