"""A table's start (issue 15, item 2): the game screen draws its view once, and its key
line draws the keys that view enables in the first frame (no footer compose after it)."""

from __future__ import annotations

from engine.registry import get_game
from tui.app import AtlantisApp
from tui.common import seats_for

from frame_counting import CountingDriver, settled
from tui.screens.game import GameScreen
from tui.seat import LocalTable
from tui.widgets.key_line import KeyLine


async def test_a_table_starts_with_its_keys_in_the_first_frame_and_one_drawing_of_its_view(monkeypatch):
    drawn: list[int] = []
    painted: list[list[str]] = []
    original_refresh = GameScreen.refresh_view
    original_draw = KeyLine._draw

    def refresh_view(self):
        drawn.append(1)
        return original_refresh(self)

    def draw(self, shown, *a):
        painted.append([k.key for k in shown[0]])
        return original_draw(self, shown, *a)

    monkeypatch.setattr(GameScreen, "refresh_view", refresh_view)
    monkeypatch.setattr(KeyLine, "_draw", draw)
    CountingDriver.frames = 0
    table = LocalTable.new(get_game("pathways"), {}, seats_for("pathways", 2, 1), 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    async with app.run_test(size=(100, 30), headless=False):
        await settled()
        assert CountingDriver.frames == 1
        keys = {k.key for k in app.screen.query_one(KeyLine).drawn_keys()}
        assert {"1", "question_mark", "q"} <= keys  # the game's keys and the shared ones
        assert len(painted) == 1 and set(painted[0]) == keys - {"ctrl+p"}  # drawn once, in the first frame
        assert len(drawn) == 1
        assert app.game_screen.shows_current_view()
        screen = app.game_screen
        assert screen.send(screen.link.legal()[0])  # a move changes the table: drawn again
        await settled()
        assert len(drawn) == 2 and screen.shows_current_view()
