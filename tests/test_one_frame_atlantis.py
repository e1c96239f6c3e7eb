"""One frame per cursor key in the Finding Atlantis and End of Atlantis screens (issue 15).

The app runs with a headless driver that renders as for a real terminal and counts its
flushes (one per frame), as ``bench/keys.py`` does; a cursor key must cause exactly one.
(Before: two, the second from a layout that made the event log's scroll bar repaint.)
The chart repaints only its old and new cursor cells: what it then shows must be what a
full redraw would show."""

from __future__ import annotations

from frame_counting import CountingDriver, frames_per_key, settled

from engine.core import SeatInfo
from engine.finding_atlantis.text import cell_name
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat import LocalTable


def table_for(slug: str) -> LocalTable:
    return LocalTable.new(get_game(slug), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=7)


async def test_a_cursor_key_on_the_finding_atlantis_chart_makes_one_frame():
    table = table_for("finding-atlantis")
    match = table.match
    # on to the game proper (captains kept, hidden first moves made), Red to play
    for _ in range(20):
        if match.state.phase == "play" and match.to_act() == frozenset({0}):
            break
        if table.bot_to_act() is not None:
            table.step_bot()
        else:
            view = match.view(0)
            match.act(0, table.game.legal(view)[0])
    assert match.state.phase == "play" and match.to_act() == frozenset({0})
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    async with app.run_test(size=(120, 40), headless=False):
        await settled()
        screen = app.screen
        chart = screen.chart
        assert app.focused is chart
        line = screen.query_one("#turn-line")
        start = chart.cursor
        assert await frames_per_key(app, ["right", "down", "left", "up"]) == [1, 1, 1, 1]
        assert chart.cursor == start
        await frames_per_key(app, ["right"])
        assert chart.cursor != start
        assert f"Cursor {cell_name(screen._view.n, chart.cursor)}" in str(line.content)
        # the lines kept after the moves are those a full redraw draws
        assert chart._strips == chart._build()


async def test_a_cursor_key_in_the_end_of_atlantis_choices_makes_one_frame():
    table = table_for("end-of-atlantis")
    for _ in range(20):
        if table.bot_to_act() is None:
            break
        table.step_bot()
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    async with app.run_test(size=(120, 40), headless=False):
        await settled()
        choices = app.screen.choices
        assert app.focused is choices and len(app.screen._legal) >= 2
        assert await frames_per_key(app, ["down", "up", "down"]) == [1, 1, 1]


async def test_a_table_start_draws_the_end_of_atlantis_board_once_and_its_keys_in_one_widget(monkeypatch):
    # (the start sends two Resizes of the same size; and Textual's Footer made a widget per
    # key, restyled twice at each compose: the key line is one widget, styled once)
    from textual.app import App as TextualApp

    from tui.end_of_atlantis.screen import EndOfAtlantisScreen
    from tui.widgets.key_line import KeyLine

    drawn, restyled = [], []
    board, restyle = EndOfAtlantisScreen.refresh_board, TextualApp.update_styles
    monkeypatch.setattr(EndOfAtlantisScreen, "refresh_board", lambda self, *a: (drawn.append(1), board(self, *a)))
    monkeypatch.setattr(TextualApp, "update_styles",
                        lambda self, node, *a, **k: (restyled.append(node), restyle(self, node, *a, **k))[1])
    app = AtlantisApp(table=table_for("end-of-atlantis"), autosave=False, manual_bots=True,
                      driver_class=CountingDriver)
    async with app.run_test(size=(120, 40), headless=False):
        await settled()
        assert len(drawn) == 1
        line = app.screen.query_one(KeyLine)
        assert line.drawn_keys()   # (the line shows its keys)
        assert not app.screen.query("FooterKey") and not [node for node in restyled if isinstance(node, KeyLine)]
        assert str(app.screen.query_one("#choices").render_line(0).text).strip()
