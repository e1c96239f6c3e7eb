"""A click on a board (``CursorGrid.on_click``, shared by every board): on a cell it moves
the cursor there, on the cursor's cell it chooses that cell as Enter does.  Played on two
games' real screens, a square board (Pathways) and a hex board (Survive)."""

from __future__ import annotations

import pytest

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat_links import LocalTable
from tui.widgets.cursor_grid import CursorGrid


def a_spot_of_another_cell(board: CursorGrid) -> tuple[tuple[int, int], int]:
    """Widget coordinates of a cell other than the cursor's, and that cell."""
    gutter = board.styles.gutter
    for y in range(board.content_size.height):
        for x in range(board.content_size.width):
            cell = board.cell_at(x, y)
            if cell is not None and cell != board.cursor:
                return (x + gutter.left, y + gutter.top), cell
    raise AssertionError("no cell drawn but the cursor's")


@pytest.mark.parametrize("slug", ["pathways", "survive"])
async def test_a_click_moves_the_cursor_to_the_cell_and_a_second_click_chooses_it(slug):
    game = get_game(slug)
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot") for i in range(1, game.min_players)]
    app = AtlantisApp(table=LocalTable.new(game, {}, seats, 7), autosave=False, manual_bots=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        board = screen.query_one("#board", CursorGrid)
        chosen: list[int] = []
        screen.choose_at = chosen.append  # (what the screen then does with the cell is its own test's)
        offset, cell = a_spot_of_another_cell(board)
        await pilot.click(board, offset=offset)
        await pilot.pause()
        assert board.cursor == cell and chosen == []
        await pilot.click(board, offset=offset)
        await pilot.pause()
        assert chosen == [cell]
