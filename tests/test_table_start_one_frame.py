"""A table's start paints once (issue 15, item 2): the first frame is the settled screen.

Every game's table used to start with three frames: the layout that showed the first
view asked for a second one (each widget given its first virtual size), and the event
log's scrollbar for a repaint of its own.  Now the start lays out and paints once
(tui/screens/start_layout.py).  The screen must be the one Textual's own layout and a
fresh drawing of the view give: after the start has settled, both are run again and
the screen must not change (this is what found Survive's step line leaving out the hex
name the board's row letters show, at 160x48)."""

from __future__ import annotations

import pytest
from textual.screen import Screen

from engine.registry import get_game
from frame_counting import CountingDriver, settled
from tui.app import AtlantisApp
from tui.common import seats_for
from tui.seat import LocalTable

GAMES = ["pathways", "finding-atlantis", "end-of-atlantis", "survive", "atlantis"]


def _text(app: AtlantisApp) -> str:
    return app.export_screenshot()


@pytest.mark.parametrize("slug,size", [(g, (80, 24)) for g in GAMES] + [("survive", (160, 48))])
async def test_a_table_starts_in_one_frame_and_shows_what_a_fresh_layout_and_drawing_show(slug, size):
    table = LocalTable.new(get_game(slug), {}, seats_for(slug, 2, 1), 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    CountingDriver.frames = 0
    async with app.run_test(size=size, headless=False):
        await settled(0)
        assert CountingDriver.frames == 1
        screen = app.game_screen
        assert screen is app.screen and screen._drawn
        started = _text(app)
        # Textual's own layout (the one the start skipped) and the view drawn again
        Screen._refresh_layout(screen)
        screen.refresh_view()
        screen.refresh()
        await settled()
        assert _text(app) == started
