"""The event log stays on its last line when it gets shorter after new lines were written
(a panel above it grew), and stays where the reader scrolled it to otherwise."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from tui.widgets.eventlog import EventLog
from tui.theme import ThemedApp


class PanelAndLog(ThemedApp):
    CSS = "Static { height: auto; } EventLog { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield Static("one line", id="panel")
        yield EventLog()


async def test_the_log_stays_on_its_last_line_when_a_panel_above_it_grows():
    app = PanelAndLog()
    async with app.run_test(size=(40, 12)) as pilot:
        log = app.query_one(EventLog)
        log.set_lines([f"Line {i}." for i in range(20)])
        await pilot.pause()
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        app.query_one("#panel", Static).update("three\nlines\nnow")
        await pilot.pause()
        await pilot.pause()
        assert log.size.height == 9 and log.scroll_y == log.max_scroll_y
        await pilot.press("tab", "pageup")  # the reader scrolls up: the log stays there
        await pilot.pause()
        up = log.scroll_y
        assert up < log.max_scroll_y
        app.query_one("#panel", Static).update("one line")
        await pilot.pause()
        assert log.scroll_y == up
