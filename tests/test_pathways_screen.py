"""The Pathways screen, driven by the keyboard the way a player drives it.

Red (a human, at A1) plays against Blue (a bot).  The keys are worked out from
the legal moves of the dealt hand, so a change to the deal does not break the
tests.  Key presses are few: each is slow.
"""

from __future__ import annotations

from typing import Any

from engine.core import SeatInfo
from engine.pathways import data
from engine.pathways.actions import Place, Step
from engine.pathways.board import EMPTY
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.pathways.screen import PathwaysScreen, is_special, tile_mask
from tui.seat_links import LocalTable
from tui.widgets.tile_board import TileBoard
from textual.widgets import Static
from tui.widgets.turn_line import TurnLine

A1, A3 = 0, 20
ARROWS = ("up", "right", "down", "left")


def red_against_bot(seed: int = 3) -> LocalTable:
    return LocalTable.new(get_game("pathways"), {},
                          [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=seed)


def make_app(table: LocalTable) -> AtlantisApp:
    # bot_delay=0 makes textual.Timer divide by zero when it runs late (textual 8.2.8)
    app = AtlantisApp(table=table, bot_delay=0.001, autosave=False)
    app.animation_level = "none"
    return app


async def until_seat_to_act(pilot, table: LocalTable, seat: int) -> None:
    """Let the bots play (each step waits for a timer) until ``seat`` is to act or the
    game is over; bounded by pause count, generous for a loaded CI machine."""
    for _ in range(600):
        await pilot.pause(0.01)
        if table.match.to_act() == frozenset({seat}) or table.match.result() is not None:
            return
    raise AssertionError("the bot never handed the turn back")


def footer_keys(screen: PathwaysScreen) -> dict[str, str]:
    """Key -> description of every binding the footer shows now."""
    return {key: b.binding.description for key, b in screen.active_bindings.items()
            if b.binding.show and b.enabled}


def arrows(from_cell: int, to_cell: int) -> list[str]:
    (r0, c0), (r1, c1) = divmod(from_cell, data.SIZE), divmod(to_cell, data.SIZE)
    horizontal = ["right"] * (c1 - c0) if c1 > c0 else ["left"] * (c0 - c1)
    vertical = ["down"] * (r1 - r0) if r1 > r0 else ["up"] * (r0 - r1)
    return horizontal + vertical


def placement_keys(table: LocalTable, screen: PathwaysScreen) -> tuple[Place, list[str]]:
    """The shortest key sequence (pick the hand slot, r..., arrows, Enter) for a legal placement."""
    cursor, slots = screen.board.cursor, screen.hand_slots()
    options = []
    for a in table.match.legal(0):
        if type(a) is Place:
            keys = [str(slots.index(a.tile) + 1)] + ["r"] * a.rot + arrows(cursor, a.cell) + ["enter"]
            options.append((len(keys), a.cell, a, keys))
    assert options, "the dealt hand has no path tile to place"
    _, _, action, keys = min(options)
    return action, keys


async def test_a_whole_turn_by_keyboard_places_two_tiles_steps_and_passes_the_turn():
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PathwaysScreen)
        assert screen.board.cursor == A1  # the cursor starts on your own subpod
        assert "Place" not in footer_keys(screen).values()

        # Two path tiles: pick, rotate, move the cursor, Enter.
        for _ in range(2):
            action, keys = placement_keys(table, screen)
            await pilot.press(*keys[:-1])
            assert action.cell in screen.place_cells()
            assert footer_keys(screen)["enter"] == "Place"
            await pilot.press("enter")
            assert table.match.view(0).cells[action.cell] == action.tile
        view = table.match.view(0)
        assert view.phase == "move"
        assert "Move:" in screen.query_one("#turn-line").plain

        # The move part: the cursor jumped to the subpod; step along a path, end the move.
        assert screen.board.cursor == A1
        assert footer_keys(screen)["enter"] == "Step"
        step = next(a for a in table.match.legal(0) if type(a) is Step and a.pod == 0)
        await pilot.press(ARROWS[step.side], "enter")
        target = data.NEIGHBOURS[A1][step.side]
        assert table.match.view(0).pods[0] == target
        assert screen.board.cursor == target
        await pilot.press("e")
        await until_seat_to_act(pilot, table, 0)

        moves = table.match.record.moves
        assert [(m.seat, m.action["k"]) for m in moves[:4]] == [
            (0, "place"), (0, "place"), (0, "step"), (0, "end_move")]
        assert any(m.seat == 1 for m in moves[4:])  # Blue (the bot) played its turn
        assert table.match.view(0).round == 2
        assert "Your turn" in screen.query_one("#turn-line").plain


async def test_an_illegal_placement_shows_the_reason_and_changes_nothing():
    table = red_against_bot()
    hand = table.match.view(0).hand
    path_tile = next(i for i, t in enumerate(hand) if not is_special(t))
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press(str(path_tile + 1), "down", "down")  # over A3: nothing to join there
        assert screen.board.cursor == A3
        assert A3 not in screen.place_cells()
        await pilot.press("enter")
        message = str(screen.query_one("#message").render())
        assert "must join at least one path end" in message
        assert table.match.record.moves == []
        assert table.match.view(0).cells[A3] == EMPTY
        assert table.match.view(0).hand == hand


async def test_turning_a_tile_that_cannot_join_anything_is_refused_by_the_engine():
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")  # the start tile at A1 has no neighbouring path yet
        assert "still join a neighbouring path" in str(app.screen.query_one("#message").render())
        assert table.match.record.moves == []


async def test_keys_that_cannot_be_used_now_are_not_in_the_footer():
    table = red_against_bot()
    hand = table.match.view(0).hand
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = footer_keys(app.screen)
        assert keys.get("1") == "Pick" and keys.get("t") == "Turn placed"
        assert "r" not in keys and "o" not in keys and "enter" not in keys and "e" not in keys
        special = next((i for i, t in enumerate(hand) if is_special(t)), None)
        if special is not None:
            await pilot.press(str(special + 1))  # Enter now plays it; r has nothing to rotate
            keys = footer_keys(app.screen)
            assert keys["enter"] == "Play it" and "r" not in keys
        path = next(i for i, t in enumerate(hand) if not is_special(t))
        await pilot.press(str(path + 1))
        keys = footer_keys(app.screen)
        assert keys["enter"] == "Place" and keys["r"] == "Rotate"


async def test_the_board_uses_a_bigger_cell_on_a_bigger_terminal_and_reads_without_colour():
    for size, cell in (((80, 24), (4, 2)), ((120, 40), (7, 3))):
        app = make_app(red_against_bot())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            board = app.screen.query_one(TileBoard)
            assert (board.cell_w, board.cell_h) == cell
            text = "\n".join(board.render_line(y).text for y in range(board.size.height))
            assert "R" in text and "B" in text  # subpods are letters, not only colours
            assert "CITY" in text or "ATLANTIS" in text
            assert "─" in text and "│" in text  # the arms of the start elbows


def make_through_screen(screen: PathwaysScreen, action) -> None:
    """Make ``action`` with the screen's own controls (cursor, picks, r, t, o, Enter, e)."""
    view = screen.link.view()
    board = screen.board
    kind = type(action).__name__
    if kind == "Place":
        screen.action_pick(screen.hand_slots().index(action.tile))
        target = tile_mask(action.tile, action.rot)
        for _ in range(4):
            if screen.selected_mask() == target:
                break
            screen.action_rotate_hand()
        board.cursor = action.cell
        screen.action_choose()
    elif kind == "Special":
        screen.action_pick(screen.hand_slots().index(action.tile))
        screen.action_choose()
    elif kind == "Remove":
        board.cursor = action.cell
        screen.action_choose()
    elif kind == "Rotate":
        board.cursor = action.cell
        screen._redraw()
        for _ in range(4):
            screen.action_turn_board()
            if screen._preview == (action.cell, action.rot):
                break
        screen.action_choose()
    elif kind == "Step":
        for _ in range(4):
            if screen.active_pod() == action.pod:
                break
            screen.action_other_pod()
        board.cursor = data.NEIGHBOURS[view.pods[action.pod]][action.side]
        screen.action_choose()
    elif kind == "EndPlays":
        screen.action_end_plays()
    else:
        screen.action_end_move()


async def test_every_legal_action_can_be_made_with_the_screen_controls():
    import random

    game = get_game("pathways")
    table = LocalTable.new(game, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot"),
                                      SeatInfo("Green", "bot")], seed=12)
    rnd = random.Random(5)
    seen: set[str] = set()
    app = make_app(table)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        for _ in range(40):
            if table.match.result() is not None:
                break
            if table.match.to_act() != frozenset({0}):
                await until_seat_to_act(pilot, table, 0)
                continue
            legal = screen.link.legal()
            by_kind: dict[str, list] = {}
            for a in legal:
                by_kind.setdefault(type(a).__name__, []).append(a)
            kinds = sorted(by_kind)
            # Prefer what has not been tried yet, then anything.
            fresh = [k for k in kinds if k not in seen] or kinds
            action = rnd.choice(by_kind[rnd.choice(fresh)])
            before = len(table.match.record.moves)
            make_through_screen(screen, action)
            moves = table.match.record.moves
            assert len(moves) == before + 1, (action, str(screen.query_one("#message").render()))
            made = game.codec.decode(moves[before].action)
            assert (type(made), made) == (type(action), action)
            seen.add(type(action).__name__)
            await pilot.pause()
    # (Seed 12 reaches every kind below as the engine stands; found by replaying the same choices.)
    assert {"Place", "Rotate", "Special", "Step", "EndMove"} <= seen


# --- legend, what the others did, keys that are not allowed, hand slots ----------------------
def message(screen) -> str:
    return str(screen.query_one("#message").render())


async def play_red_turn_through_screen(pilot, table: LocalTable, screen: PathwaysScreen) -> Any:
    """Red's whole turn with the screen's controls (so the screen knows Red acted), the
    session drawing each change before the next action, as between two keys; returns
    Red's view as the turn ended (before the bot's turn)."""
    bot = get_game("pathways").make_bot(0, 1)
    while True:
        view = table.match.view(0)
        make_through_screen(screen, bot.choose(view, table.match.legal(0)))
        if table.match.to_act() != frozenset({0}) or table.match.result() is not None:
            return table.match.view(0)
        await pilot.pause()


async def test_the_legend_explains_the_board_at_80x24_and_in_the_help():
    app = make_app(red_against_bot())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        legend = app.screen.query_one("#legend")
        line = str(legend.render())
        for words in ("R", "B", "subpods", "· empty", "+ place or go", "changed"):
            assert words in line, line
        assert legend.region.height == 1 and app.screen.board.cell_h == 2  # the board keeps its rows
    assert "**What the screen shows.**" in get_game("pathways").help_markdown()


async def test_cells_another_seat_changed_are_tinted_recent_until_your_next_action():
    from tui.widgets.seat_styles import recent_style

    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        before = await play_red_turn_through_screen(pilot, table, screen)
        await until_seat_to_act(pilot, table, 0)
        now = table.match.view(0)
        changed = {c for c in range(data.CELLS) if before.cells[c] != now.cells[c]}
        assert changed and changed <= set(screen.board.picture.recent)  # Blue's tiles
        cell = min(changed)
        board = screen.board
        x = board._origin[0] + (cell % data.SIZE) * board.cell_w
        y = board._origin[1] + (cell // data.SIZE) * board.cell_h
        assert cell != board.cursor
        styles = [seg.style for seg in board.render_line(y).crop(x, x + board.cell_w)]
        assert all(s.bgcolor == recent_style().bgcolor for s in styles), styles
        # Red acts again: the tint goes.
        action = next(a for a in table.match.legal(0) if type(a) is Place)
        make_through_screen(screen, action)
        await pilot.pause()  # (the session draws the table once it changed)
        assert set(screen.board.picture.recent) == set()


async def test_a_key_that_is_not_allowed_now_says_why():
    app = make_app(red_against_bot())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")   # nothing picked: nothing to turn
        assert "Pick a path tile first" in message(app.screen)
        await pilot.press("o")   # subpods move later in the turn
        assert "Subpods move after the tile plays" in message(app.screen)
        await pilot.press("shift+right")   # e would be refused before a tile is played
        assert "play your tiles first" in message(app.screen)
        assert "e ends" not in message(app.screen)


def test_the_players_panel_and_the_turn_line_say_what_their_numbers_and_star_mean():
    from dataclasses import replace

    from tui.pathways.words import Turn, players_panel, turn_line

    view = red_against_bot().match.view(0)
    assert "to city" in str(players_panel(view, ["Red", "Blue"]))
    move_other = next(t for t, kind in enumerate(data.TILE_KIND) if kind == "move_other_3")
    with_star = replace(view, hand=(move_other,) + tuple(view.hand[1:]))
    line = str(turn_line(Turn(with_star, ["Red", "Blue"], "play")))
    assert "MOVE 3* moves another player's subpod" in line


async def test_hand_slots_keep_their_numbers_after_a_placement():
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        slots = list(screen.hand_slots())
        placed = next(a for a in table.match.legal(0)
                      if type(a) is Place and slots.index(a.tile) < len(slots) - 1)
        gap = slots.index(placed.tile)
        make_through_screen(screen, placed)
        await pilot.pause()
        after = screen.hand_slots()
        assert after[gap] is None
        assert [t for i, t in enumerate(after) if i != gap] == [t for i, t in enumerate(slots) if i != gap]
        hand_line = screen.hand.render().plain
        assert f"{gap + 2} " in hand_line and f" {gap + 1} -" in hand_line  # numbers stay, a gap shows
        await pilot.press(str(gap + 2))  # the key of the next slot still picks the same tile
        assert screen._selected == slots[gap + 1]
        await pilot.press(str(gap + 1))
        assert f"Slot {gap + 1} is empty" in message(screen)


async def test_a_cursor_key_redraws_only_the_board_lines_of_the_two_cursor_cells():
    app = make_app(red_against_bot())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.board
        before = list(board.drawn_lines)
        row = board._cell_row(board.cursor)
        await pilot.press("right")  # A1 -> B1: the same row of cells
        after = board.drawn_lines
        changed = [y for y in range(len(after)) if after[y] is not before[y]]
        assert changed and set(changed) <= set(range(row, row + board.cell_h))
        # The turn line after the key: only its last paragraph, the cursor's words, changed.
        line = app.screen.query_one("#turn-line", TurnLine)
        paragraphs = [str(p.render()) for p in line.query_children(Static)]
        await pilot.press("right")
        await pilot.pause()
        assert "Cursor C1" in line.plain
        now = [str(p.render()) for p in line.query_children(Static)]
        assert now[:-1] == paragraphs[:-1] and "Cursor C1" in now[-1]


def cell_top_line(board: TileBoard, cell: int) -> str:
    """The characters of ``cell``'s top line (its free corners hold the cursor's glyphs)."""
    ox, oy = board._origin
    r, c = divmod(cell, data.SIZE)
    line = board.render_line(oy + r * board.cell_h).text
    return line[ox + c * board.cell_w: ox + (c + 1) * board.cell_w]


async def test_the_cursor_and_a_picked_tile_that_does_not_fit_read_in_plain_text():
    """Reverse video and red are lost in a plain copy of the screen: the cursor's cell
    also has ▸ ◂ in its top corners, and a picked tile where it does not fit an x (a
    fitting place keeps its +)."""
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.board
        empty = next(c for c in range(data.CELLS) if table.match.view(0).cells[c] == EMPTY and c != board.cursor)
        board.cursor = empty
        await pilot.pause()
        assert cell_top_line(board, empty) == "▸  ◂"
        slot = next(i for i, t in enumerate(app.screen.hand_slots()) if not is_special(t))
        await pilot.press(str(slot + 1))
        await pilot.pause()
        fits = {a.cell for a in table.match.legal(0) if type(a) is Place}
        away = next(c for c in range(data.CELLS) if c not in fits and table.match.view(0).cells[c] == EMPTY)
        board.cursor = away
        await pilot.pause()
        assert board.picture.ghost is not None and not board.picture.ghost.ok
        assert cell_top_line(board, away)[0] == "▸" and cell_top_line(board, away)[-1] == "x"


async def test_a_subpod_in_the_city_is_drawn_inside_its_frame():
    from dataclasses import replace

    from engine.pathways.board import IN_ATLANTIS

    table = red_against_bot()
    table.match.state = replace(table.match.state, pods=(IN_ATLANTIS,) + tuple(table.match.state.pods[1:]))
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen.board
        lines = [board.render_line(y).text for y in range(board.size.height)]
        city = [line for line in lines if "║" in line or "╔" in line or "╚" in line]
        assert not any("R" in line for line in city if "╚" in line or "╔" in line), city
        assert any("R" in line for line in city if "║" in line and "CITY" not in line), city


async def test_on_a_wide_terminal_the_side_panel_takes_the_columns_the_board_leaves_blank():
    for size in ((160, 48), (80, 24)):
        app = make_app(red_against_bot())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.pause()
            board, side = app.screen.board, app.screen.query_one("#side")
            blank = board.size.width - board.drawn_width(board.size)
            if size == (160, 48):
                assert blank <= 2, (board.size, side.size)
            else:                       # 80x24: the legend line keeps its columns
                assert side.outer_size.width == 34


def test_arms_pointing_off_the_board_stop_short_of_the_labels():
    from tui.widgets.tile_board import E, N, S, W, off_board_gaps, tile_picture

    cross = N | E | S | W
    corner = off_board_gaps(tile_picture(cross, 4, 2), cross, 0, 0, 10)
    assert corner == ["    ", " ─┼─"]               # nothing under the column letters, a gap after the row name
    far = off_board_gaps(tile_picture(cross, 7, 3), cross, 9, 9, 10)
    assert far == ["   │   ", "───┼── ", "       "]
    inside = off_board_gaps(tile_picture(cross, 4, 2), cross, 4, 4, 10)
    assert inside == tile_picture(cross, 4, 2)


def test_a_key_out_of_turn_says_whom_the_table_waits_for():
    """(The words module's own ``why_not`` once shadowed the module it read this from.)"""
    from types import SimpleNamespace

    from tui.pathways import words

    assert words.wait_reason(SimpleNamespace(read_only=False, view=None, waiting="Blue")) == \
        "Not your turn: waiting for Blue."
