"""Survive's players panel at 80x24: a heading row, then one line a player (name and its
three numbers together), nothing wrapped onto a second line; mid-game and at the end."""

from __future__ import annotations

import contextlib
import re

import pytest

from tui.app import AtlantisApp
from tui.screenshots import mid_game_table

NAMES = ("Red", "Blue", "Green", "Yellow")


@contextlib.asynccontextmanager
async def _at_80x24(table):
    """The players panel of ``table``'s screen at 80x24: the panel, its lines as shown on
    the screen, and the lines it meant to show."""
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.game_screen.query_one("#players")
        shown = [panel.render_line(y).text.rstrip() for y in range(panel.size.height)]
        meant = [line.rstrip() for line in str(panel.render()).splitlines()]
        yield panel, shown, meant


@pytest.mark.parametrize("actions", [60, 100_000], ids=["mid-game", "game-over"])
async def test_at_80x24_every_players_panel_row_fits_on_one_line(actions):
    table = mid_game_table("survive", 3, 4, actions)
    over = table.match.result() is not None
    assert over == (actions > 60)
    async with _at_80x24(table) as (panel, shown, meant):
        assert shown[:len(meant)] == meant and not any(shown[len(meant):]), "\n".join(shown)
        assert max(map(len, meant)) <= panel.content_size.width
        heading = ["in", "⌂", "★" if over else "t"]
        assert meant[0].split() == ["who", *heading]
        for seat, name in enumerate(NAMES):
            row = re.fullmatch(rf"[▶ ]?{'RBGY'[seat]} {name} +(\d+) +(\d+) +(\d+)", meant[1 + seat])
            assert row, meant[1 + seat]
            view = table.match.view(0)
            in_play = sum(1 for h in view.explorer_hex[seat * 10:(seat + 1) * 10] if h >= 0)
            assert int(row[1]) == in_play


async def test_at_80x24_a_name_too_long_for_its_row_is_whole_with_its_numbers_under_the_headings():
    from engine.core import SeatInfo
    from engine.registry import get_game
    from tui.seat_links import LocalTable

    table = LocalTable.new(get_game("survive"), {}, [SeatInfo("Red", "human"), SeatInfo("Greenbeard", "bot")],
                           seed=1)
    async with _at_80x24(table) as (panel, shown, meant):
        assert shown[:len(meant)] == meant, "\n".join(shown)
        assert re.fullmatch(r"[▶ ]?R Red +\d+ +\d+ +\d+", meant[1]), meant
        assert re.fullmatch(r" ?B Greenbeard", meant[2]), meant
        numbers = re.fullmatch(r" +(\d+) +(\d+) +(\d+)", meant[3])
        assert numbers, meant
        assert [m.end() for m in re.finditer(r"\d+", meant[3])] == [m.end() for m in re.finditer(r"\d+", meant[1])]
