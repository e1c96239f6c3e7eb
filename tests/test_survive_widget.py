"""The Survive hex board widget alone: it draws what its picture says, readable without
colour, and its cursor and messages are CursorGrid's (App.run_test, a few keys)."""

from __future__ import annotations

from rich.style import Style
from textual.app import ComposeResult

from engine.geometry import HexBoard
from tui.theme import ThemedApp
from tui.survive.hex_board import (
    CREATURE_GLYPH, TERRAIN_GLYPH, HexBoardPicture, HexSpot, SurviveHexBoard,
)

RED, BLUE = Style(bgcolor="red"), Style(bgcolor="blue")
ISLAND = HexBoard.from_rows((4, 5, 8, 7, 8, 5, 4))
BOARD = ISLAND.grown(2)


class BoardApp(ThemedApp):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list = []

    def compose(self) -> ComposeResult:
        yield SurviveHexBoard(BOARD)

    def on_cursor_grid_cell_selected(self, message) -> None:
        self.messages.append(("selected", message.cell))


def picture(targets=(), selected=None) -> HexBoardPicture:
    spots = []
    for h in BOARD.cells:
        if h == (0, 0):
            spots.append(HexSpot("sea", creatures=("serpent",)))
        elif h in ISLAND:
            spots.append(HexSpot(("beach", "forest", "mountain")[h[0] % 3]))
        else:
            spots.append(HexSpot("sea"))
    west = BOARD.index((-1, 0))
    spots[west] = HexSpot("forest", explorers=(("R", RED, 2),))
    spots[BOARD.index(BOARD.cells[0])] = HexSpot("safe")
    spots[1] = HexSpot("sea", creatures=("shark",), boat=(("R", RED), ("B", BLUE)))
    spots[2] = HexSpot("sea", creatures=("whale",))
    return HexBoardPicture(spots=spots, targets=targets, selected=selected)


def text(board: SurviveHexBoard) -> str:
    return "\n".join(board.render_line(y).text for y in range(board.size.height))


async def test_terrain_creatures_boats_and_explorers_are_drawn_as_glyphs_and_letters():
    app = BoardApp()
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(SurviveHexBoard)
        board.show(picture())
        await pilot.pause()
        assert (board.cell_w, board.cell_h) == (6, 3)   # a big terminal: 5x3 characters a hex
        shown = text(board)
        for glyph in (TERRAIN_GLYPH["safe"], TERRAIN_GLYPH["forest"], TERRAIN_GLYPH["mountain"],
                      CREATURE_GLYPH["serpent"], CREATURE_GLYPH["shark"], CREATURE_GLYPH["whale"]):
            assert glyph in shown
        assert "R2" in shown            # two red explorers on one hex
        assert "[RB]" in shown          # a boat with a red and a blue explorer aboard
        assert "serpent" in shown and "can go there" in shown   # the legend


async def test_a_small_board_area_keeps_every_piece_readable_in_three_characters():
    app = BoardApp()
    async with app.run_test(size=(50, 14)) as pilot:
        board = app.query_one(SurviveHexBoard)
        board.show(picture())
        await pilot.pause()
        assert board.cell_w == 4 and board.cell_h == 1
        shown = text(board)
        assert "♣R2" in shown and "Δ[2" in shown   # a shark beside a boat of 2, cut to fit
        assert "serpent" in shown                  # the short legend still fits


async def test_legal_destinations_are_marked_with_a_plus_and_the_cursor_moves_over_hexes():
    app = BoardApp()
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(SurviveHexBoard)
        centre = BOARD.index((0, 0))
        east = BOARD.index((1, 0))
        board.show(picture(targets=[east], selected=centre))
        board.cursor = centre
        board.focus()
        await pilot.pause()
        x2, row = BOARD.positions()[east]
        rows = [board.render_line(board._origin[1] + row * 3 + dy).text for dy in range(3)]
        x = board._origin[0] + x2 * 3
        assert any("+" in r[x:x + 5] for r in rows)
        await pilot.press("right")
        assert board.cursor == east
        await pilot.press("home")                  # north-west of (1, 0) is (1, -1)
        assert board.cursor_cell == (1, -1)
        await pilot.press("enter")
        await pilot.pause()
        assert app.messages == [("selected", BOARD.index((1, -1)))]


async def test_a_click_on_a_hex_moves_the_cursor_there():
    app = BoardApp()
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.query_one(SurviveHexBoard)
        board.show(picture())
        await pilot.pause()
        target = BOARD.index((0, 0))
        x2, row = BOARD.positions()[target]
        ox, oy = board._origin
        assert board.cell_at(ox + x2 * 3 + 1, oy + row * 3 + 1) == target
        await pilot.click(SurviveHexBoard, offset=(ox + x2 * 3 + 1, oy + row * 3 + 1))
        assert board.cursor == target
