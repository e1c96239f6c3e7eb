"""Colours live in CSS (COMPONENT_CLASSES styled in ``tui/components.tcss``) and come
from theme variables: Textual's own (``$primary``, ``$error``...) and the dark and light
values of ``tui/theme.py`` (the seats, the boards, the inks).  No colour is written in
Python anywhere else (DESIGN.md, "What the first three games taught")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.style import Style
from textual.theme import BUILTIN_THEMES

from tui.theme import COLOURS, COMPONENTS_TCSS, ThemedApp, theme_colours
from tui.widgets.seat_styles import SEAT_CLASSES, SEAT_CSS, recent_style, seat_style

TUI = Path(__file__).resolve().parents[1] / "tui"
WIDGETS = TUI / "widgets"
COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b(?![\w-])|rgb\(")
VARIABLE = re.compile(r"\$([a-z][a-z0-9-]*)")
#: The one module that writes colours: the theme variables' values.
PALETTE = TUI / "theme.py"


def sources() -> list[Path]:
    return sorted(path for path in [*TUI.rglob("*.py"), *TUI.rglob("*.tcss")] if path != PALETTE)


def test_no_colour_is_written_outside_the_theme_variables():
    found = {str(path.relative_to(TUI)): [line_no for line_no, line in enumerate(path.read_text().splitlines(), 1)
                                          if COLOUR.search(line)]
             for path in sources()}
    assert {name: lines for name, lines in found.items() if lines} == {}


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
def test_every_variable_the_css_uses_has_a_value_in_the_theme(theme):
    app = ThemedApp()
    app.theme = theme
    known = set(app.get_css_variables())
    used = {name: str(path.relative_to(TUI)) for path in sources()
            for name in VARIABLE.findall(path.read_text()) if path.suffix == ".tcss" or "CSS" in path.read_text()}
    python_names = {"ARGCOMPLETE"}  # (a $ in a shell word, not CSS)
    assert {name: where for name, where in used.items() if name not in known and name not in python_names} == {}


def test_the_theme_variables_have_a_dark_and_a_light_value_and_a_theme_may_override_them():
    assert set(theme_colours(dark=True)) == set(theme_colours(dark=False)) == set(COLOURS)
    assert BUILTIN_THEMES["textual-light"].dark is False
    app = ThemedApp()
    app.theme = "textual-light"
    assert app.get_css_variables()["recent"] == COLOURS["recent"][1]


def test_every_component_class_of_a_widget_or_game_screen_is_styled_in_components_tcss():
    import importlib
    import inspect

    from textual.widget import Widget

    styled = COMPONENTS_TCSS.read_text()
    import pkgutil

    from engine.registry import MANIFESTS

    modules = [f"tui.widgets.{path.stem}" for path in sorted(WIDGETS.glob("*.py"))]
    for info in MANIFESTS.values():  # each game's own screen and widgets
        package = importlib.import_module(info.screen)
        modules += [m.name for m in pkgutil.iter_modules(package.__path__, f"{info.screen}.")]
    declared = 0
    for module_name in modules:
        module = importlib.import_module(module_name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Widget) and cls.__module__ == module.__name__:
                for name in cls.__dict__.get("COMPONENT_CLASSES", ()):
                    declared += 1
                    assert f"{cls.__name__} > .{name} " in styled, (cls.__name__, name)
                    assert f".{name} " not in cls.DEFAULT_CSS, (cls.__name__, name)  # (one place)
    assert declared > 100


def test_seat_colours_are_read_from_the_one_tcss_in_seat_order():
    assert [line.split()[0] for line in SEAT_CSS.splitlines() if line.startswith(".seat--")] == \
        ["." + name for name in SEAT_CLASSES]
    for dark in (True, False):
        variables = theme_colours(dark)
        for index, name in enumerate(("red", "blue", "green", "yellow", "purple", "grey")):
            assert seat_style(index, variables) == Style(color=variables["seat-ink"],
                                                         bgcolor=variables[f"seat-{name}"], bold=True)
        assert recent_style(variables).bgcolor == Style(bgcolor=variables["recent"]).bgcolor


@pytest.mark.parametrize("dark", [True, False], ids=["dark", "light"])
def test_every_ink_written_on_a_ground_reads_on_it(dark):
    """Each rule of components.tcss and seats.tcss that sets both an ink and a ground
    (a board's sea, a tile, a terrain, a card, the recent tint) keeps text at 4.5:1
    ("faint" inks draw dots and frames, not words)."""
    from contrast import contrast

    app = ThemedApp()
    app.theme = "textual-dark" if dark else "textual-light"
    values = app.get_css_variables()
    pair = re.compile(r"\{ color: \$([a-z-]+); background: \$([a-z-]+);")
    checked = 0
    for text in (COMPONENTS_TCSS.read_text(), SEAT_CSS):
        for ink, ground in pair.findall(text):
            if "faint" in ink or not values[ground].startswith("#"):  # (a transparent ground: the widget's)
                continue
            checked += 1
            ratio = contrast(values[ink][:7].lower(), values[ground][:7].lower())
            assert ratio >= 4.5, (ink, ground, round(ratio, 2))
    assert checked > 20
