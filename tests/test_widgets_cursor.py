"""The shared cursor widgets, driven by the keyboard in a small app: CursorGrid on a hex
board (the keys of its docstring, holes jumped over, Enter chooses) and CursorList
(a 1-D cursor: disabled entries skipped, Home/End, wrapping, Enter chooses)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Footer

from engine.geometry import HexBoard, hex_spiral
from tui.widgets.cursor_grid import CursorGrid
from tui.widgets.cursor_list import CursorList
from tui.survive.hex_grid import HexCell, HexGrid, HexPicture
from tui.widgets.tile_board import TileBoard
from tui.theme import ThemedApp

# A hexagon of radius 2 (19 hexes) without (1, 0) and (0, 1): two holes east and
# south-east of the centre.
HOLES = {(1, 0), (0, 1)}
BOARD = HexBoard(tuple(h for h in hex_spiral((0, 0), 2) if h not in HOLES))


class GridApp(ThemedApp):
    def __init__(self, grid: CursorGrid) -> None:
        super().__init__()
        self.grid = grid
        self.highlighted: list[tuple[int, int]] = []
        self.selected: list[tuple[int, tuple[int, int]]] = []

    def compose(self) -> ComposeResult:
        yield self.grid
        yield Footer()

    @on(CursorGrid.CellHighlighted)
    def _highlighted(self, event: CursorGrid.CellHighlighted) -> None:
        self.highlighted.append(event.coordinate)

    @on(CursorGrid.CellSelected)
    def _selected(self, event: CursorGrid.CellSelected) -> None:
        self.selected.append((event.cell, event.coordinate))


def hex_app() -> tuple[GridApp, HexGrid]:
    grid = HexGrid(BOARD, id="hexes")
    grid.show(HexPicture([HexCell("·" if h != (0, 0) else "C", "land") for h in BOARD.cells]))
    return GridApp(grid), grid


async def start_at(pilot, grid: HexGrid, hex_) -> None:
    grid.cursor = BOARD.index(hex_)
    await pilot.pause()


async def test_hex_left_and_right_walk_a_row_and_jump_over_a_hole():
    app, grid = hex_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await start_at(pilot, grid, (-2, 0))
        await pilot.press("right")
        assert grid.cursor_cell == (-1, 0)
        await pilot.press("l", "l")
        assert grid.cursor_cell == (2, 0)                  # (0,0), then over the hole (1,0)
        await pilot.press("right")
        assert grid.cursor_cell == (2, 0)                  # the edge: it stays
        await pilot.press("h", "left")
        assert grid.cursor_cell == (-1, 0)


async def test_hex_diagonals_are_the_navigation_cluster_laid_out_like_the_hexes():
    app, grid = hex_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await start_at(pilot, grid, (0, 0))
        await pilot.press("home")
        assert grid.cursor_cell == (0, -1)                 # NW
        await pilot.press("end")
        assert grid.cursor_cell == (-1, 0)                 # SW of (0,-1)
        await pilot.press("pageup")
        assert grid.cursor_cell == (0, -1)                 # NE
        await pilot.press("pagedown")
        assert grid.cursor_cell == (0, 0)                  # SE of (0,-1)
        await pilot.press("pagedown")
        assert grid.cursor_cell == (0, 2)                  # SE over the hole (0,1)


async def test_hex_up_and_down_zig_zag_up_a_column_and_come_back_the_same_way():
    app, grid = hex_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await start_at(pilot, grid, (-1, 1))
        path = []
        for key in ("up", "up", "up"):
            await pilot.press(key)
            path.append(grid.cursor_cell)
        # from x2 = -1: NW (x2 -2) and NE (x2 0) tie, the western one; then back over
        assert path == [(-1, 0), (0, -1), (0, -2)]
        for key in ("down", "down", "down"):
            await pilot.press(key)
        assert grid.cursor_cell == (-1, 1)
        await pilot.press("k")
        assert grid.cursor_cell == (-1, 0)


async def test_hex_up_at_the_top_row_stays_and_a_move_off_the_board_is_refused():
    app, grid = hex_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await start_at(pilot, grid, (0, -2))
        await pilot.press("up", "home", "pageup")
        assert grid.cursor_cell == (0, -2)


async def test_enter_on_a_hex_posts_selected_with_its_index_and_coordinate():
    app, grid = hex_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await start_at(pilot, grid, (0, 0))
        await pilot.press("home", "enter")
        await pilot.pause()
        assert app.selected == [(BOARD.index((0, -1)), (0, -1))]
        assert app.highlighted[-1] == (0, -1)


async def test_a_click_on_a_hex_moves_the_cursor_and_a_second_click_chooses_it():
    app, grid = hex_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await start_at(pilot, grid, (0, 0))
        await pilot.pause()
        x2, y = BOARD.positions()[BOARD.index((-2, 2))]
        ox, oy = grid._origin
        offset = (ox + x2 * grid.cell_w // 2, oy + y * grid.cell_h)
        await pilot.click("#hexes", offset=offset)
        assert grid.cursor_cell == (-2, 2)
        await pilot.click("#hexes", offset=offset)
        await pilot.pause()
        assert app.selected == [(BOARD.index((-2, 2)), (-2, 2))]


async def test_the_footer_shows_the_diagonals_on_a_hex_board_only():
    app, grid = hex_app()
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        assert {"home", "pageup", "end", "pagedown"} <= set(app.screen.active_bindings)
    square = TileBoard(4)
    app = GridApp(square)
    async with app.run_test(size=(60, 12)) as pilot:
        await pilot.pause()
        active = app.screen.active_bindings
        assert "up" in active
        assert not {"home", "pageup", "end", "pagedown"} & {
            key for key, b in active.items() if b.enabled and b.binding.action.startswith("cursor_towards")}
        await pilot.press("home")
        assert square.cursor == 0                           # the key reached nobody


async def test_a_square_board_keeps_its_row_major_index_and_clamps_at_the_edges():
    board = TileBoard(4)
    app = GridApp(board)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("right", "down", "down")
        assert board.cursor == 2 * 4 + 1
        await pilot.press("left", "left", "up", "up", "up")
        assert board.cursor == 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.selected == [(0, (0, 0))]


# --- CursorList ------------------------------------------------------------------------------
class Letters(CursorList):
    """A minimal list: one letter per entry, disabled ones in brackets."""

    def __init__(self, letters: str, disabled: set[int] = frozenset(), **kwargs) -> None:
        super().__init__(**kwargs)
        self.letters = letters
        self.off = set(disabled)

    def entry_count(self) -> int:
        return len(self.letters)

    def entry_enabled(self, index: int) -> bool:
        return index not in self.off

    def render(self) -> Text:
        return Text(" ".join(f"[{c}]" if i in self.off else c for i, c in enumerate(self.letters)))


class WrappingLetters(Letters):
    wrap = True


class ListApp(ThemedApp):
    def __init__(self, widget: CursorList) -> None:
        super().__init__()
        self.widget = widget
        self.highlighted: list[int] = []
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield self.widget

    @on(CursorList.Highlighted)
    def _highlighted(self, event: CursorList.Highlighted) -> None:
        if not isinstance(event, CursorList.Selected):
            self.highlighted.append(event.index)

    @on(CursorList.Selected)
    def _selected(self, event: CursorList.Selected) -> None:
        self.selected.append(event.index)


async def test_a_cursor_list_skips_disabled_entries_both_ways():
    letters = Letters("abcde", disabled={1, 2})
    app = ListApp(letters)
    async with app.run_test(size=(30, 3)) as pilot:
        await pilot.pause()
        assert app.highlighted == [0]                        # where it starts, on mount
        app.highlighted.clear()
        await pilot.press("down")
        assert letters.cursor == 3
        await pilot.press("up")
        assert letters.cursor == 0
        await pilot.press("up")
        assert letters.cursor == 0                           # no wrap by default
        await pilot.pause()
        assert app.highlighted == [3, 0]


async def test_home_and_end_go_to_the_first_and_last_enabled_entries():
    letters = Letters("abcde", disabled={0, 4})
    app = ListApp(letters)
    async with app.run_test(size=(30, 3)) as pilot:
        await pilot.press("end")
        assert letters.cursor == 3
        await pilot.press("home")
        assert letters.cursor == 1


async def test_enter_posts_selected_for_the_entry_under_the_cursor():
    letters = Letters("abc")
    app = ListApp(letters)
    async with app.run_test(size=(30, 3)) as pilot:
        await pilot.press("j", "j", "enter")
        await pilot.pause()
        assert app.selected == [2]


async def test_a_wrapping_list_goes_round_and_a_disabled_cursor_entry_is_not_chosen():
    letters = WrappingLetters("abc", disabled={1})
    app = ListApp(letters)
    async with app.run_test(size=(30, 3)) as pilot:
        await pilot.press("up")
        assert letters.cursor == 2
        await pilot.press("down")
        assert letters.cursor == 0
        letters.cursor = 1                                   # the owner may put it anywhere
        await pilot.press("enter")
        await pilot.pause()
        assert app.selected == []


async def test_a_list_with_every_entry_disabled_does_not_move():
    letters = Letters("ab", disabled={0, 1})
    app = ListApp(letters)
    async with app.run_test(size=(30, 3)) as pilot:
        await pilot.press("down", "end", "enter")
        await pilot.pause()
        assert letters.cursor == 0 and app.selected == []
