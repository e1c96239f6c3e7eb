"""The event log: Tab reaches it in a replay, and with the focus its keys scroll it (the
start of a long log included); without the focus the keys stay the board's and the replay's."""

from __future__ import annotations

from textual.app import ComposeResult

from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat_links import ReplaySeat
from tui.selfplay import play_one
from tui.widgets.eventlog import EventLog
from tui.theme import ThemedApp


def pathways_replay() -> ReplaySeat:
    match = play_one("pathways", 2, 2, max_actions=60)
    return ReplaySeat(get_game("pathways"), match.record)


async def test_in_a_replay_tab_reaches_the_log_and_its_keys_scroll_it_not_the_replay():
    app = AtlantisApp(replay=pathways_replay())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("end")  # the last move: the whole log, reveal at its end
        screen, link = app.screen, app.screen.link
        last = link.index
        log = screen.query_one(EventLog)
        assert log.max_scroll_y > log.size.height > 0 and log.scroll_y == log.max_scroll_y
        await pilot.press("pageup")  # the board has the focus: the log stays where it is
        assert log.scroll_y == log.max_scroll_y
        for _ in range(len(screen.focus_chain)):
            if app.focused is log:
                break
            await pilot.press("tab")
        assert app.focused is log
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y - log.scrollable_content_region.height
        await pilot.press("home")
        await pilot.pause()
        assert log.scroll_y == 0 and link.index == last  # the log's start, not the replay's
        await pilot.press("down", "end")
        await pilot.pause()
        assert log.scroll_y == log.max_scroll_y and link.index == last
        screen.focus_next()
        await pilot.press("home")  # the focus elsewhere: Home is the replay's again
        assert link.index == 0


class OneLog(ThemedApp):
    def compose(self) -> ComposeResult:
        yield EventLog()


async def test_a_long_log_keeps_its_first_line():
    app = OneLog()
    async with app.run_test(size=(30, 10)) as pilot:
        log = app.query_one(EventLog)
        lines = [f"Line {i}: someone did something long enough to wrap twice here." for i in range(400)]
        log.set_lines(lines)
        await pilot.pause()
        assert len(log.lines) > 750  # (RichLog kept 500)
        assert log.lines[0].text.startswith("Line 0:")


def test_a_run_is_said_once_and_other_repeated_lines_stay():
    from engine.core import LogLine
    from tui.widgets.eventlog import said_once

    laid = LogLine(1, "ordered", "Blue is laying their voting cards face down.", run=True)
    mine = LogLine(1, "my_order", "You laid Ships in place 1.")
    threw = LogLine(1, "bumped", "Blue threw a Red cube off ship A Ark.")
    other = LogLine(2, "ordered", "Green is laying their voting cards face down.", run=True)
    assert said_once([laid, laid, mine, laid, threw, threw, other, laid, laid]) == [
        laid.text, mine.text, threw.text, threw.text, other.text, laid.text]
