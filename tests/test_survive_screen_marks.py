"""Survive at 80x24 and 160x48 read without colour: every hex the legal moves name as a
target carries a ``+`` in the board's text (a full hex too, in its frame), and the
cursor shows in text as well as in reverse video."""

from __future__ import annotations

import pytest

from engine.survive import data
from engine.survive.actions import Board, EndMoves, NoTile, Sink

from tui.survive.shared import Piece

from test_survive_screen import after_setup, make_app, step_line, until_red_must_answer


def until_red_removes_a_tile(seed: int):
    """Red's first step 3, reached through the table (no tile, no moves)."""
    table = after_setup(seed)
    match = table.match
    while not (0 in match.to_act() and match.view(0).phase == "sink"):
        if 0 in match.to_act():
            legal = match.legal(0)
            ends = [a for a in legal if type(a) in (NoTile, EndMoves)]
            match.act(0, ends[0] if ends else legal[0])
        else:
            table.step_bot()
    return table


def text_by_hex(board) -> dict[int, str]:
    """The characters the board draws for each hex, its frame (the gap east of it) included."""
    out: dict[int, str] = {}
    for y in range(board.size.height):
        line = board.render_line(y).text
        for x, char in enumerate(line):
            cell = board.cell_at(x, y)
            if cell is not None:
                out[cell] = out.get(cell, "") + char
    return out


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_every_tile_legal_to_remove_is_marked_plus_in_text_even_under_explorers(size):
    table = until_red_removes_a_tile(3)       # seed 3: 9 of the 13 removable beaches hold explorers
    view = table.match.view(0)
    targets = {data.LAND_HEX_INDEX[a.tile] for a in table.match.legal(0) if isinstance(a, Sink)}
    assert any(h in view.explorer_hex for h in targets)
    app = make_app(table)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.screen.board
        drawn = text_by_hex(board)
        for h in range(data.HEXES):
            assert ("+" in drawn.get(h, "")) == (h in targets), (data.HEX_NAMES[h], drawn.get(h))


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_cursor_is_framed_in_text_and_moves_with_the_arrow_keys(size):
    app = make_app(after_setup(3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.screen.board
        for key in ("right", "down", "left", "up"):
            await pilot.press(key)
            await pilot.pause()
            framed = [(x, y) for y in range(board.size.height)
                      for x, char in enumerate(board.render_line(y).text) if char in "▸◂"]
            assert framed, key
            # and in colour: the marks are bold in the cursor-mark colour, the hex reversed
            marks = [seg.style for y in {y for _, y in framed} for seg in board.render_line(y)
                     if seg.text.strip() and set(seg.text.strip()) <= set("▸◂")]
            assert marks and all(style.bold and style.color is not None for style in marks), key
            # each mark stands in the cursor hex or in a gap column beside it
            assert all(board.cursor in (board.cell_at(x - 1, y), board.cell_at(x, y), board.cell_at(x + 1, y))
                       for x, y in framed), key


async def test_selecting_a_boat_names_it_with_its_brackets():
    table = after_setup(1)                    # seed 1: Red may board a boat and sail it in step 2
    match = table.match
    while 0 not in match.to_act():
        table.step_bot()
    if match.view(0).phase == "tile":
        match.act(0, next(a for a in match.legal(0) if isinstance(a, NoTile)))
    match.act(0, next(a for a in match.legal(0) if isinstance(a, Board)))   # R aboard: "boat [R]"
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.phase() == "move", (screen.phase(), match.view(0).phase)
        boat = Piece("boat", match.view(0).explorer_boat[0])
        assert boat in screen.movable()
        screen.board.cursor = screen.where(boat)
        await pilot.pause()
        while screen._piece != boat:
            await pilot.press("enter")
        message = str(screen.query_one("#message").render())
        assert "Selected boat [R]" in message, message


async def test_the_attack_prompt_fits_the_step_line_at_80x24():
    table = until_red_must_answer(18)         # seed 18: a shark attacks Red's swimmers
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = app.screen.query_one("#step-line")
        prompt = step_line(app.screen).split("\n")[0]
        assert prompt.startswith("Attack! Shark at ") and prompt.endswith("repel it (1-9) or e"), prompt
        assert len(prompt) <= line.content_size.width, (prompt, line.content_size.width)


@pytest.mark.parametrize("there, back", [("up", "down"), ("down", "up"), ("left", "right"), ("right", "left")])
async def test_an_arrow_key_and_its_opposite_come_back_to_the_same_hex(there, back):
    app = make_app(after_setup(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.board
        astray = []
        for h in range(data.HEXES):
            board.cursor = h
            board.action_cursor(*{"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[there])
            if board.cursor == h:
                continue          # the edge of the board: the key did nothing
            board.action_cursor(*{"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[back])
            if board.cursor != h:
                astray.append((data.HEX_NAMES[h], data.HEX_NAMES[board.cursor]))
        assert not astray


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_every_hex_name_the_log_uses_can_be_read_off_the_board(size):
    """Row letters west of the rows, and each hex's place in its row over the board (one
    line for rows A, C, E ..., one for B, D, F ...): "H4" is found without moving the cursor."""
    app = make_app(after_setup(3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.screen.board
        lines = [board.render_line(y).text for y in range(board.size.height)]
        headers = [line for line in lines if line.split()[:3] == ["1", "2", "3"]]
        assert len(headers) == 2, lines
        cells = [[board.cell_at(x, y) for x in range(len(line))] for y, line in enumerate(lines)]
        for h, name in enumerate(data.HEX_NAMES):
            letter, place = name[0], name[1:]
            row = "ABCDEFGHIJKLM".index(letter)
            on_lines = [y for y, line_cells in enumerate(cells) if h in line_cells]
            labelled = [y for y in on_lines if lines[y][:2].strip() == letter]
            assert labelled, name
            xs = [x for x, cell in enumerate(cells[labelled[0]]) if cell == h]
            assert headers[row % 2][min(xs):max(xs) + 1].strip() == place, (name, size)
        assert "Cursor: " + data.HEX_NAMES[board.cursor] in step_line(app.screen)


async def test_a_full_target_on_the_east_edge_where_the_gap_is_cut_is_marked_inside():
    from dataclasses import replace
    from rich.style import Style

    app = make_app(after_setup(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.board
        east = max(range(data.HEXES), key=lambda h: data.BOARD.positions()[h][0])   # the widest rows' last hex
        spots = list(board.picture.spots)
        spots[east] = replace(spots[east], boat=(("R", Style()), ("B", Style())))  # "[RB]": full
        board.show(replace(board.picture, spots=spots, targets=(east,)))
        await pilot.pause()
        assert "+" in text_by_hex(board)[east]


async def test_at_160x48_a_creature_alone_on_the_sea_is_drawn_on_its_rows_lettered_line():
    table = after_setup(3)
    view = table.match.view(0)
    app = make_app(table)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        board = app.screen.board
        lines = [board.render_line(y).text for y in range(board.size.height)]
        for c, h in enumerate(view.creature_hex):
            if h < 0 or h in view.explorer_hex or h in view.boat_hex or data.CREATURE_KIND[c] != "serpent":
                continue
            ys = [y for y, line in enumerate(lines) for x, char in enumerate(line)
                  if char == "§" and board.cell_at(x, y) == h]
            assert ys and all(lines[y][:2].strip() == data.HEX_NAMES[h][0] for y in ys), data.HEX_NAMES[h]
