"""The side panel's "Last turn" lines say what the other seats played: the front (the
tile, card or hex) is always shown; only the end may be left off, marked "…"."""

from __future__ import annotations

import pytest

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.screens.game import fit_rows
from tui.seat import LocalTable


def test_a_long_summary_keeps_its_front_and_leaves_off_its_end():
    text = "Blue placed a tee at B1; placed an elbow at B2; moved their subpod to B1; drew 2 tiles."
    rows = fit_rows(text, 31, 2)
    assert rows == ["Blue placed a tee at B1; placed", "an elbow at B2; …"]
    assert all(len(row) <= 31 for row in rows)
    assert fit_rows("Blue passed.", 31, 2) == ["Blue passed."]


@pytest.mark.parametrize("slug", ["pathways", "survive", "atlantis"])
async def test_at_80x24_the_last_turn_shows_the_first_thing_the_other_seat_did_whole(slug):
    game = get_game(slug)
    seats = [SeatInfo("Blue", "bot"), SeatInfo("Red", "human")]
    table = LocalTable.new(game, {}, seats, 3)
    app = AtlantisApp(table=table, autosave=False, bot_delay=0.001)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        shown = ""
        for _ in range(200):
            await pilot.pause(0.02)
            shown = str(app.game_screen.query_one("#last-turn").render())
            if shown:
                break
        assert shown.startswith("Last turn:\n")
        said = " ".join(shown.split("\n")[1:])
        first = next(line for line in app.game_screen.link.log() if line.startswith("Blue "))
        assert said.startswith(first.rstrip(".")), (said, first)
        assert "Blue …" not in said


def test_a_first_action_too_long_for_its_rows_is_still_shown_whole():
    rows = fit_rows("Blue placed explorer #2 on F4; moved a boat.", 17, 2)
    assert " ".join(rows) == "Blue placed explorer #2 on F4; …"
