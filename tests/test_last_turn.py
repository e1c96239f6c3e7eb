"""The side panel's "Last turn" lines say what the other seats played: the front (the
tile, card or hex) is always shown; only the end may be left off, marked "…"."""

from __future__ import annotations

import pytest

from engine.core import LogLine, SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.last_turn import fit_rows, summary
from tui.seat_links import LocalTable


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
        first = next(line.text for line in app.game_screen.link.log() if line.actor == 0)  # Blue's first
        assert said.startswith(first.rstrip(".")), (said, first)
        assert "Blue …" not in said


def test_a_first_action_too_long_for_its_rows_is_still_shown_whole():
    rows = fit_rows("Blue placed explorer #2 on F4; moved a boat.", 17, 2)
    assert " ".join(rows) == "Blue placed explorer #2 on F4; …"


def test_the_seats_are_summed_up_in_the_order_they_acted_in_the_log():
    from engine.core import LogLine
    from tui.last_turn import acted_since, summary

    log = [LogLine(2, "faction_pass", "Green passed."), LogLine(None, "turn", "Blue to play."),
           LogLine(1, "faction", "Blue took Basileus for 1."), LogLine(0, "faction", "You took Archont free."),
           LogLine(2, "drew", "Green drew a special card.")]
    by_seat = acted_since(log, 0)
    assert list(by_seat) == [2, 1]   # Green acted first: Green's line comes first, then Blue's
    assert summary("Green", by_seat[2]) == "Green passed; drew a special card."
    assert [line.kind for line in by_seat[1]] == ["faction"]   # whose turn it is is no one's action


async def test_the_last_turn_panel_lists_the_seats_in_the_order_they_acted():
    from engine.core import LogLine

    seats = [SeatInfo("Red", "human"), SeatInfo("Blue", "bot"), SeatInfo("Green", "bot")]
    app = AtlantisApp(table=LocalTable.new(get_game("pathways"), {}, seats, 3), autosave=False, manual_bots=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        told = screen.link.log()   # (what Red had seen when the table opened)
        later = [LogLine(2, "placed", "Green placed a tee at C3."), LogLine(None, "turn", "Blue to play."),
                 LogLine(1, "placed", "Blue placed an elbow at B2."), LogLine(2, "drew", "Green drew 2 tiles.")]
        shown = screen.last_turn(told + later)
        assert shown.startswith("Last turn:\n")
        assert shown.replace("\n", " ") == ("Last turn: Green placed a tee at C3; drew 2 tiles."
                                            " Blue placed an elbow at B2.")


def test_a_run_is_told_once_in_a_seats_summary():
    laid = LogLine(1, "ordered", "Blue is laying their voting cards face down.", run=True)
    drew = LogLine(1, "drew", "Blue drew 5 Politics cards.")
    assert summary("Blue", [laid, laid, laid, drew]) == ("Blue is laying their voting cards face down; "
                                                         "drew 5 Politics cards.")
