"""The key line at the bottom of every screen (tui/widgets/key_line.py): one widget that
draws what Textual's Footer draws, cell for cell, follows the keys enabled, and presses
the key clicked."""

from __future__ import annotations

import pytest
from rich.segment import Segment
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine.registry import get_game
from tui.app import AtlantisApp
from tui.common import seats_for
from tui.seat_links import LocalTable
from tui.widgets.key_line import KeyLine
from tui.theme import ThemedApp


class _Keys(Screen):
    BINDINGS = [
        Binding("1,2,3", "pick", "Pick", key_display="1-3"),
        Binding("t", "turn", "Turn placed"),
        Binding("x", "cross", "Not now"),     # disabled: drawn dim
        Binding("h", "hidden", "Hidden", show=False),
        Binding("u", "undo", "Undo"),
        Binding("question_mark", "help", "Help"),
    ]

    def __init__(self, line: bool, compact: bool, palette: bool) -> None:
        super().__init__()
        self.line, self.compact, self.palette = line, compact, palette

    def compose(self):
        yield Static("board")
        if self.line:
            yield KeyLine(compact=self.compact, show_command_palette=self.palette)
        else:
            yield Footer(compact=self.compact, show_command_palette=self.palette)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "cross" else True


class _App(ThemedApp):
    def __init__(self, screen: _Keys) -> None:
        super().__init__()
        self.first = screen

    def on_mount(self) -> None:
        self.push_screen(self.first)


async def _last_line(line: bool, compact: bool, palette: bool, width: int) -> list[tuple[str, str]]:
    app = _App(_Keys(line, compact, palette))
    async with app.run_test(size=(width, 6)) as pilot:
        for _ in range(4):
            await pilot.pause()
        strip = app.screen._compositor.render_strips()[-1]
        return [(s.text, str(s.style)) for s in Segment.simplify(list(strip))]


@pytest.mark.parametrize("compact,palette,width", [(True, False, 80), (False, False, 100), (True, True, 100),
                                                   (False, True, 120), (False, True, 60)])
async def test_the_key_line_draws_the_cells_and_styles_textuals_footer_draws(compact, palette, width):
    footer = await _last_line(False, compact, palette, width)
    line = await _last_line(True, compact, palette, width)
    if width == 60:
        # too narrow for every key and the palette key: the Footer lets the palette key
        # cover the last keys; the line leaves the palette key out and keeps every key
        assert "palette" in "".join(t for t, _ in footer) and "palette" not in "".join(t for t, _ in line)
        assert "".join(t for t, _ in line).rstrip() == "".join(t for t, _ in await _last_line(False, compact, False, width)).rstrip()
        return
    assert line == footer
    assert any("dim" in style for text, style in line if "Not now" in text)  # (the disabled key is drawn)


def _app(game: str = "pathways") -> AtlantisApp:
    table = LocalTable.new(get_game(game), {}, seats_for(game, 2, 1), 7)
    return AtlantisApp(table=table, autosave=False, manual_bots=True)


async def test_a_change_of_the_enabled_keys_repaints_the_line_and_nothing_is_composed(monkeypatch):
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(5):
            await pilot.pause()
        screen = app.game_screen
        line = screen.query_one(KeyLine)
        assert {"question_mark", "u", "q"} <= {k.key for k in line.drawn_keys()}
        children = list(line.children)
        before = screen.check_action
        screen.check_action = lambda action, parameters: False if action == "undo" else before(action, parameters)
        screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert "u" not in {k.key for k in line.drawn_keys()} and "Undo" not in line.plain()
        screen.check_action = before
        screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert "u" in {k.key for k in line.drawn_keys()} and " Undo" in line.plain()
        assert children == [] == list(line.children)


async def test_a_press_on_a_key_presses_it_a_disabled_one_rings_and_the_pointer_lights_its_key():
    app = _App(_Keys(True, False, True))
    pressed: list[str] = []
    app.first.action_undo = lambda: pressed.append("undo")
    app.first.action_cross = lambda: pressed.append("cross")
    rang: list[int] = []
    app.bell = lambda: rang.append(1)
    async with app.run_test(size=(120, 6)) as pilot:
        for _ in range(3):
            await pilot.pause()
        line = app.screen.query_one(KeyLine)
        spans = {k.key: (a, b) for a, b, k in line.key_spans()}
        plain = line.plain()
        await pilot.click(KeyLine, offset=(spans["u"][0] + 1, 0))
        await pilot.pause()
        assert pressed == ["undo"] and rang == []
        await pilot.click(KeyLine, offset=(spans["x"][0] + 1, 0))
        await pilot.pause()
        assert pressed == ["undo"] and rang == [1]
        await pilot.hover(KeyLine, offset=(spans["t"][0] + 1, 0))
        await pilot.pause()
        lit = [(s.text, s.style) for s in Segment.simplify(list(app.screen._compositor.render_strips()[-1]))]
        assert line.plain() == plain  # (the same cells ...)
        hovered = {t: st.bgcolor for t, st in lit if t.strip() in ("t", "Turn placed")}
        others = {t: st.bgcolor for t, st in lit if t.strip() in ("u", "Undo")}
        assert set(hovered.values()).isdisjoint(others.values())  # (... the key under the pointer lit)
