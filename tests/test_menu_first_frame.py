"""The menu's start renders its screen once and makes only the widgets it shows (issue 15,
item 2): its first layouts go through tui/screens/start_layout.py (no render inside the
app's mount batch, which Textual throws away, nor the second layout widgets given their
first virtual size ask for), the seats the chosen game has no room for and the fields'
error lines are made when first needed.  The screen must be the one Textual's own layout
gives, and the seats made later must keep the kinds the last menu left."""

from __future__ import annotations

import pytest
from textual._compositor import Compositor
from textual.screen import Screen
from textual.widgets import Select, Static

from frame_counting import CountingDriver, settled
from tui.app import AtlantisApp
from tui.screens.menu import MenuScreen, MenuState


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_menu_renders_only_what_it_shows_and_the_screen_textuals_own_layout_gives(monkeypatch, size):
    renders = []
    render_update = Compositor.render_update
    monkeypatch.setattr(Compositor, "render_update",
                        lambda self, *a, **k: renders.append(1) or render_update(self, *a, **k))
    app = AtlantisApp(autosave=False, driver_class=CountingDriver)
    CountingDriver.frames = 0
    async with app.run_test(size=size, headless=False):
        await settled(0)
        assert len(renders) == CountingDriver.frames  # (no render thrown away)
        if size == (120, 40):  # (at 80x24 the game list asks for a second frame, as it did before)
            assert CountingDriver.frames == 1
        menu = app.screen
        assert isinstance(menu, MenuScreen) and menu._started
        started = app.export_screenshot()
        Screen._refresh_layout(menu)  # Textual's own layout (the one the start skipped)
        menu.refresh()
        await settled()
        assert app.export_screenshot() == started


async def test_seats_and_error_lines_are_made_when_first_needed_and_keep_the_last_menus_kinds():
    state = MenuState(game="pathways", players=2, kinds=["bot", "open", "human", "bot", "human"])
    app = AtlantisApp(autosave=False)
    app.menu_state = state  # (the menu the app shows starts from it)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert [s.value for s in menu.query(".seat-kind").results(Select)] == ["bot", "open"]
        assert not menu.query(".field-error")
        menu.query_one("#players", Select).value = 4
        await pilot.pause()
        assert [s.value for s in menu.query(".seat-kind").results(Select) if s.display] == [
            "bot", "open", "human", "bot"]
        menu.query_one("#players", Select).value = 2
        await pilot.pause()
        assert menu._remember().kinds == ["bot", "open", "human", "bot", "human"]
        await pilot.press("ctrl+s")  # an open seat without Host: refused, under Seats
        await pilot.pause()
        errors = {e.id for e in menu.query(".field-error")}
        assert {"error-players", "error-seats", "error-seed"} <= errors
        assert "Host (F2)" in str(menu.query_one("#error-seats", Static).render())
