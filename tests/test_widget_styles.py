"""Widget colours live in CSS (COMPONENT_CLASSES with DEFAULT_CSS, and seats.tcss for the
seat colours), not in Python (DESIGN.md, "What the first three games taught")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rich.style import Style

from tui.widgets.seats import SEAT_CLASSES, SEAT_CSS, seat_style

WIDGETS = Path(__file__).resolve().parents[1] / "tui" / "widgets"
COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|rgb\(")


def colours_outside_css(path: Path) -> list[tuple[int, str]]:
    """String constants that look like colours, except in a DEFAULT_CSS assignment."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_css = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "DEFAULT_CSS" for t in node.targets):
            in_css |= {id(n) for n in ast.walk(node.value)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and COLOUR.search(node.value) and id(node) not in in_css]


def test_no_widget_writes_a_colour_in_python():
    found = {p.name: colours_outside_css(p) for p in sorted(WIDGETS.glob("*.py"))}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_every_component_class_a_widget_declares_is_styled_in_its_css():
    import importlib
    import inspect

    from textual.widget import Widget

    for path in sorted(WIDGETS.glob("*.py")):
        module = importlib.import_module(f"tui.widgets.{path.stem}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Widget) and cls.__module__ == module.__name__:
                for name in cls.__dict__.get("COMPONENT_CLASSES", ()):
                    assert f".{name} " in cls.DEFAULT_CSS, (cls.__name__, name)


def test_seat_colours_are_read_from_the_one_tcss_in_seat_order():
    assert [line.split()[0] for line in SEAT_CSS.splitlines() if line.startswith(".seat--")] == \
        ["." + name for name in SEAT_CLASSES]
    expected = ("#ff5f57", "#5c9dff", "#4cd964", "#ffd60a", "#bf5af2", "#9a9a9a")
    for index, colour in enumerate(expected):
        assert seat_style(index) == Style(color="#000000", bgcolor=colour, bold=True)
