"""What a move repaints on a real terminal: the boards and choice lists that repaint only
the lines a move changed (``tui/widgets/changed_lines.py``, the boards' cell-by-cell
painting, ``ChoiceList.show``) leave the terminal showing what a whole repaint would.

The bytes the app sends are played on a small terminal model (cursor moves, styles and
characters), move after move; then every widget draws its lines anew and the whole
screen is played on a blank model: the two must hold the same characters in the same
styles.  The boards painted cell by cell are checked against a whole build."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual.drivers.headless_driver import HeadlessDriver

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat_links import LocalTable
from tui.theme import ThemedApp

SIZE = (120, 40)
_CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


class RecordingDriver(HeadlessDriver):
    """Renders every frame as for a real terminal (not headless) and keeps what it writes;
    its flushes (one a frame) tell when the screen has settled."""

    out: list[str] = []
    flushes = 0

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        RecordingDriver.out.append(data)

    def flush(self) -> None:
        RecordingDriver.flushes += 1


async def settled(since: int | None = None) -> None:
    """Wait for a frame after ``since`` flushes (if given), then for 80 ms without one."""
    for _ in range(500):
        if since is None or RecordingDriver.flushes > since:
            break
        await asyncio.sleep(0.01)
    while True:
        before = RecordingDriver.flushes
        await asyncio.sleep(0.08)
        if RecordingDriver.flushes == before:
            return


def next_move(table: LocalTable) -> None:
    """The table's next move: a bot's, or else the human's last legal action (nothing
    moves unless told: ``manual_bots``)."""
    if table.bot_to_act() is not None:
        table.step_bot()
        return
    seat = table.human_to_act()
    table.match.act(seat, table.game.legal(table.match.view(seat))[-1])
    table._changed()


def play(grid: dict[tuple[int, int], tuple[str, str]], data: str) -> None:
    """Apply terminal output to ``grid`` ((row, column) -> (style codes, character))."""
    row = col = 0
    style = ""
    at = 0
    for match in _CSI.finditer(data + "\x1b[0Z"):   # (a final no-op sequence: the tail's text)
        for ch in data[at:match.start()]:
            if ch == "\n":
                row, col = row + 1, 0
            elif ch == "\r":
                col = 0
            elif ch >= " ":
                grid[row, col] = (style, ch)
                col += 1
        at = match.end()
        params, final = match.groups()
        if final == "H":
            parts = (params or "1;1").split(";")
            row, col = int(parts[0]) - 1, int(parts[1] if len(parts) > 1 else 1) - 1
        elif final == "m":
            style = "" if params in ("", "0") else (style + ";" + params if style else params)


@pytest.mark.parametrize("slug, board_id", [("pathways", "#board"), ("survive", "#board"),
                                            ("finding-atlantis", "#chart"), ("atlantis", "#route"),
                                            ("end-of-atlantis", None)])
async def test_after_bots_moves_the_terminal_shows_what_a_whole_repaint_would(slug, board_id):
    """(Atlantis over more moves: its route track repaints its changed lines too; End of
    Atlantis: its choice list.)"""
    game = get_game(slug)
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot") for i in range(1, min(4, game.max_players))]
    table = LocalTable.new(game, {}, seats, 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=RecordingDriver)
    RecordingDriver.out = []
    grid: dict = {}
    async with app.run_test(size=SIZE, headless=False):
        await settled()
        board = app.screen.query_one(board_id or "#choices")
        for _ in range(30 if slug == "atlantis" else 12):
            if table.match.result() is not None:
                break
            for chunk in RecordingDriver.out:
                play(grid, chunk)
            RecordingDriver.out = []
            before = RecordingDriver.flushes
            next_move(table)
            await settled(before)
        for chunk in RecordingDriver.out:
            play(grid, chunk)
        RecordingDriver.out = []
        # the whole screen drawn again from every widget's lines made anew, on a blank
        # terminal (a widget's refresh() forgets the lines Textual kept of it)
        before = RecordingDriver.flushes
        if board_id and hasattr(board, "drawn_lines") and not isinstance(board.drawn_lines, dict):
            board.drawn_lines = None
        for widget in app.screen.walk_children(with_self=True):
            widget.refresh()
        app.refresh()
        await settled(before)
        whole: dict = {}
        for chunk in RecordingDriver.out:
            play(whole, chunk)
        assert len(whole) == SIZE[0] * SIZE[1]
        wrong = sorted(k for k in whole if grid.get(k) != whole[k])
        assert not wrong, f"{len(wrong)} cells differ, first {wrong[:5]}: {[(grid.get(k), whole[k]) for k in wrong[:3]]}"


async def test_the_tile_board_painted_cell_by_cell_matches_a_whole_build():
    """A new picture that changes a few cells repaints those cells over the last build
    (``TileBoard._changed_cells``); after each of many random changes (tiles, markers,
    targets, the recent tint, the ghost; now and then many at once or the block's cells,
    which build the board again) the board's lines are those of a whole new build."""
    import random

    from rich.style import Style
    from textual.containers import Horizontal

    from tui.widgets.tile_board import Block, BoardPicture, Ghost, TileBoard

    class Two(ThemedApp):  # one board shown every picture in turn, the other building each anew
        CSS = "Horizontal { height: 1fr; }"

        def compose(self):
            with Horizontal():
                yield TileBoard(10, id="board")
                yield TileBoard(10, id="fresh")

    rng = random.Random(15)
    block = Block((44, 45, 54, 55), ("ATLANTIS", "@"))
    styles = [Style(color="red", bold=True), Style(color="blue")]

    def changed(pic: BoardPicture) -> BoardPicture:
        tiles, markers = list(pic.tiles), dict(pic.markers)
        targets, recent, ghost = set(pic.targets), set(pic.recent), pic.ghost
        for _ in range(rng.choice([1, 1, 2, 3, 40])):
            cell = rng.randrange(100)
            what = rng.randrange(5)
            if what == 0:
                tiles[cell] = rng.choice([None, 1, 5, 10, 15, 7])
            elif what == 1:
                markers[cell] = tuple((rng.choice("RBGY"), rng.choice(styles)) for _ in range(rng.randrange(0, 3)))
            elif what == 2:
                targets ^= {cell}
            elif what == 3:
                recent ^= {cell}
            else:
                ghost = rng.choice([None, Ghost(cell, rng.choice([3, 5, 15]), rng.random() < 0.5)])
        return BoardPicture(tiles=tiles, blocks=[block], markers=markers, targets=sorted(targets),
                            ghost=ghost, recent=sorted(recent))

    app = Two()
    async with app.run_test(size=(180, 36)) as pilot:
        board, fresh = app.query_one("#board", TileBoard), app.query_one("#fresh", TileBoard)
        pic = BoardPicture(tiles=[None] * 100, blocks=[block])
        board.show(pic)
        await pilot.pause()
        assert board.drawn_lines is not None
        painted = 0
        for step in range(300):
            pic = changed(pic)
            kept = board.drawn_lines
            board.show(pic)
            painted += board.drawn_lines is kept   # (the same list, cells painted over it)
            if board.drawn_lines is None:
                board.render_line(0)
            fresh.picture = pic
            assert board.size == fresh.size and board.drawn_lines == fresh.build_lines(), f"step {step}"
            if step % 50 == 0:
                await pilot.pause()
        assert painted > 150


async def test_the_survive_board_painted_hex_by_hex_matches_a_whole_build():
    """As the tile board: a Survive board shown the pictures of a played game in turn,
    with random targets, tint and selection besides, holds after each the lines of a
    whole new build (``SurviveHexBoard._changed_hexes``)."""
    import random
    from dataclasses import replace

    from textual.containers import Horizontal

    from tui.survive.hex_board import SurviveHexBoard

    game = get_game("survive")
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot") for i in range(1, 4)]
    table = LocalTable.new(game, {}, seats, 7)
    pictures = []
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=RecordingDriver)
    async with app.run_test(size=SIZE, headless=False):  # (the screen makes the pictures)
        await settled()
        shape = app.screen.board.board
        for _ in range(40):
            if table.match.result() is not None:
                break
            before = RecordingDriver.flushes
            next_move(table)
            await settled(before)
            pictures.append(app.screen.board.picture)
    rng = random.Random(15)

    class Two(ThemedApp):
        CSS = "Horizontal { height: 1fr; }"

        def compose(self):
            with Horizontal():
                yield SurviveHexBoard(shape, id="board")
                yield SurviveHexBoard(shape, id="fresh")

    two = Two()
    async with two.run_test(size=(172, 40)) as pilot:
        board, fresh = two.query_one("#board", SurviveHexBoard), two.query_one("#fresh", SurviveHexBoard)
        board.show(pictures[0])
        await pilot.pause()
        assert board.drawn_lines is not None
        painted = 0
        for step, pic in enumerate(pictures * 3):
            count = len(pic.spots)
            pic = replace(pic, targets=rng.sample(range(count), rng.choice([0, 0, 2, 5])),
                          recent=rng.sample(range(count), rng.choice([0, 1, 3])),
                          selected=rng.choice([None, rng.randrange(count)]))
            kept = board.drawn_lines
            board.show(pic)
            painted += board.drawn_lines is kept
            if board.drawn_lines is None:
                board.render_line(0)
            fresh.picture = pic
            assert board.size == fresh.size and board.drawn_lines == fresh.build_lines(), f"step {step}"
        assert painted > len(pictures)
