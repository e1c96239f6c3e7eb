"""What a move repaints: only the board lines and the choice-list lines it changed, and
the terminal then shows what a whole repaint would (issue 15: a bot's move wrote every
line of the board, ~12 KB at 120x40 on Pathways, ~20 KB on Survive;
``tui/widgets/changed_lines.py``, the boards' cell-by-cell painting, ``ChoiceList.show``).

The bytes the app sends are played on a small terminal model (cursor moves, styles and
characters), move after move; then every widget draws its lines anew and the whole
screen is played on a blank model: the two must hold the same characters in the same
styles.  The boards painted cell by cell are checked against a whole build, and End of
Atlantis's Statics that a move leaves alike are not updated."""

from __future__ import annotations

import re

import pytest
from frame_counting import CountingDriver, next_move, settled
from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat import LocalTable
from tui.theme import ThemedApp

SIZE = (120, 40)
_CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


class RecordingDriver(CountingDriver):
    """Renders every frame as for a real terminal, counts them and keeps what it writes."""

    out: list[str] = []

    def write(self, data: str) -> None:
        RecordingDriver.out.append(data)


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


def board_lines(driver_out: list[str], region) -> set[int]:
    """The rows of the screen ``region`` that the output moved the cursor into."""
    rows = set()
    for chunk in driver_out:
        for match in _CSI.finditer(chunk):
            params, final = match.groups()
            if final == "H" and params:
                row, col = (int(p) - 1 for p in (params.split(";") + ["1"])[:2])
                if region.y <= row < region.bottom and region.x <= col < region.right:
                    rows.add(row)
    return rows


@pytest.mark.parametrize("slug, board_id", [("pathways", "#board"), ("survive", "#board"),
                                            ("finding-atlantis", "#chart"), ("atlantis", "#route"),
                                            ("end-of-atlantis", None)])
async def test_a_bots_move_repaints_only_changed_board_lines_and_the_screen_stays_true(slug, board_id):
    """(Atlantis's route track repaints its changed lines too, over more moves; Atlantis and
    End of Atlantis: the choice list its changed lines alone, and the screen stays true.)"""
    game = get_game(slug)
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot") for i in range(1, min(4, game.max_players))]
    table = LocalTable.new(game, {}, seats, 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=RecordingDriver)
    RecordingDriver.out = []
    grid: dict = {}
    async with app.run_test(size=SIZE, headless=False):
        await settled()
        board = app.screen.query_one(board_id or "#choices")
        region = board.region
        few, counted = 0, []
        for _ in range(30 if slug == "atlantis" else 12):
            if table.match.result() is not None:
                break
            bot = table.bot_to_act() is not None and table.human_to_act() is None
            for chunk in RecordingDriver.out:
                play(grid, chunk)
            RecordingDriver.out = []
            before = CountingDriver.frames
            next_move(table)
            await settled(before)
            rows = board_lines(RecordingDriver.out, region)
            if bot and 1 < len(rows) < region.height // 2:  # (one row: another widget's edge)
                few += 1
            counted.append((bot, len(rows)))
        for chunk in RecordingDriver.out:
            play(grid, chunk)
        RecordingDriver.out = []
        # the whole screen drawn again from every widget's lines made anew, on a blank
        # terminal (a widget's refresh() forgets the lines Textual kept of it)
        before = CountingDriver.frames
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
        # bot moves that changed the board wrote less than half its lines (a whole repaint:
        # every line, each move)
        assert few >= 1 or not board_id, counted


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

    from tui.widgets.hex_board import SurviveHexBoard

    game = get_game("survive")
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot") for i in range(1, 4)]
    table = LocalTable.new(game, {}, seats, 7)
    pictures = []
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    async with app.run_test(size=SIZE, headless=False):  # (the screen makes the pictures)
        await settled()
        shape = app.screen.board.board
        for _ in range(40):
            if table.match.result() is not None:
                break
            before = CountingDriver.frames
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


async def test_end_of_atlantis_keeps_its_legend_head_last_vote_and_your_screen_when_a_move_leaves_them_alike():
    """A bot's move that does not change the legend (or the head line, or the last vote)
    does not update it: no layout and no drawing of its lines (it was 15 lines a move)."""
    game = get_game("end-of-atlantis")
    seats = [SeatInfo("You", "human")] + [SeatInfo(f"Bot {i}", "bot") for i in range(1, 4)]
    table = LocalTable.new(game, {}, seats, 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    async with app.run_test(size=SIZE, headless=False):
        await settled()
        screen = app.screen
        legend = screen.query_one("#legend")
        shown = legend.content
        updates = []
        for wid in ("#legend", "#eoa-head", "#last-vote"):
            widget = screen.query_one(wid)
            original = widget.update
            widget.update = lambda *a, wid=wid, original=original, **k: (updates.append(wid), original(*a, **k))
        heads = []
        for _ in range(6):
            heads.append(str(screen.query_one("#eoa-head").content))
            before = CountingDriver.frames
            next_move(table)
            await settled(before)
        assert legend.content is shown and "#legend" not in updates
        assert updates.count("#eoa-head") <= len(set(heads))
        # your own screen (tokens, hand) is drawn again only when the bots' moves change it
        me, drawn, seen = screen.query_one("#me"), [], []
        render = me.render
        me.render = lambda: (drawn.append(1), render())[1]
        for _ in range(6):
            if table.human_to_act() is not None or table.match.result() is not None:
                break
            seen.append((me.tokens, tuple(me.hand), tuple(me.specials), me.pending))
            before = CountingDriver.frames
            next_move(table)
            await settled(before)
        seen.append((me.tokens, tuple(me.hand), tuple(me.specials), me.pending))
        assert len(seen) >= 3 and len(drawn) <= len(set(seen)) - 1, (seen, drawn)
