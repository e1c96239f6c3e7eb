"""The Survive screen, driven by the keyboard the way a player drives it.

Red (a human) plays against Blue (a bot).  One setup placement is made by keys; the
rest of the setup goes through the table (it is the same Enter on a + forty times), then
a whole turn is played by keys: select a piece, send it to a + hex, end the moves,
remove a tile, roll the die, move the creature.  Keys are worked out from the legal
moves, so a change to the deal does not break the test; presses are few (each is slow).
"""

from __future__ import annotations

from engine.core import SeatInfo
from engine.geometry import hex_distance
from engine.registry import get_game
from engine.survive import data
from engine.survive.actions import Board, CreatureStep, EndCreature, Sail, Sink, Swim, Walk
from textual.widgets import Static

from tui.app import AtlantisApp
from tui.seat_links import LocalTable
from engine.survive.text import BACK_NAMES
from tui.survive.screen import SurviveScreen
from tui.survive import words as survive_words
from tui.survive.shared import SHORT_BACK, Piece

STEP_KEYS = {"right": "E", "left": "W", "home": "NW", "pageup": "NE", "end": "SW", "pagedown": "SE"}


SEED_WITH_A_CREATURE_MOVE = 3   # Red rolls a creature that can move on its first turn


def red_against_bot(seed: int = 3) -> LocalTable:
    return LocalTable.new(get_game("survive"), {},
                          [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=seed)


def make_app(table: LocalTable) -> AtlantisApp:
    app = AtlantisApp(table=table, bot_delay=0.001, autosave=False)
    app.animation_level = "none"
    return app


def keys_to(start: int, goal: int) -> list[str]:
    """The hex keys that walk the cursor from ``start`` to ``goal`` (one hex a key)."""
    out, here = [], data.BOARD.cells[start]
    target = data.BOARD.cells[goal]
    while here != target:
        key, nxt = min(((k, data.BOARD.neighbour(here, d)) for k, d in STEP_KEYS.items()
                        if data.BOARD.neighbour(here, d) is not None),
                       key=lambda kn: hex_distance(kn[1], target))
        out.append(key)
        here = nxt
    return out


async def until_seat_to_act(pilot, table: LocalTable, seat: int) -> None:
    for _ in range(600):
        await pilot.pause(0.01)
        if table.match.to_act() == frozenset({seat}) or table.match.result() is not None:
            return
    raise AssertionError("the bot never handed the turn back")


def footer_keys(screen) -> dict[str, str]:
    return {key: b.binding.description for key, b in screen.active_bindings.items()
            if b.binding.show and b.enabled}


def step_line(screen) -> str:
    return screen.query_one("#step-line").plain


def after_setup(seed: int) -> LocalTable:
    """The whole setup played through the table (Red takes the first legal placement)."""
    table = red_against_bot(seed)
    while table.match.view(0).phase in ("place_explorer", "place_boat"):
        if 0 in table.match.to_act():
            table.match.act(0, table.match.legal(0)[0])
        else:
            table.step_bot()
    return table


async def test_a_setup_placement_by_keyboard_puts_the_picked_value_on_a_plus_hex():
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SurviveScreen)
        assert "Setup: explorer of value ★" in step_line(screen)
        assert footer_keys(screen)["enter"] == "Place"
        # the hand row holds the values to place: ★1×3 ★2×2 ★3×2 ★4 ★5 ★6; 5 picks ★5
        await pilot.press("5")
        assert screen._value == 5
        spot = min(screen.targets(), key=lambda h: hex_distance(data.BOARD.cells[h], data.BOARD.cells[screen.board.cursor]))
        await pilot.press(*keys_to(screen.board.cursor, spot), "enter")
        first = table.match.record.moves[0]
        assert first.seat == 0 and first.action["k"] == "place_explorer" and first.action["hex"] == spot
        assert table.match.view(0).values[first.action["explorer"]] == 5


async def test_a_whole_turn_by_keyboard_moves_removes_a_tile_rolls_and_moves_the_creature():
    table = after_setup(SEED_WITH_A_CREATURE_MOVE)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_seat_to_act(pilot, table, 0)
        await pilot.pause()
        screen = app.screen
        view = table.match.view(0)
        assert view.phase == "move"
        assert "Step 2 of 4: move (3 points left)" in step_line(screen)

        # Step 2: n selects a piece that can move; walk it to a + hex; e ends the moves.
        await pilot.press("n")
        assert screen._piece is not None
        goal = next(h for h, m in screen.targets().items() if type(m.action) in (Walk, Board, Swim, Sail))
        await pilot.press(*keys_to(screen.board.cursor, goal))
        assert footer_keys(screen)["enter"] == "Go"
        await pilot.press("enter")
        assert "2 points left" in step_line(screen)
        assert footer_keys(screen)["e"] == "End moves"
        await pilot.press("e")

        # Step 3: remove a tile marked +.
        assert table.match.view(0).phase == "sink"
        assert "Step 3 of 4: remove a beach tile" in step_line(screen)
        sinkable = [data.LAND_HEX_INDEX[a.tile] for a in table.match.legal(0) if type(a) is Sink]
        near = min(sinkable, key=lambda h: hex_distance(data.BOARD.cells[h], data.BOARD.cells[screen.board.cursor]))
        await pilot.press(*keys_to(screen.board.cursor, near), "enter")
        assert table.match.record.moves[-1].action["k"] == "sink"
        await until_seat_to_act(pilot, table, 0)   # a shark that came up may ask Blue

        # Step 4: roll, then move the creature the die names (if one can move).
        if table.match.view(0).phase == "roll":
            assert footer_keys(screen)["r"] == "Roll"
            rolled = len(table.match.record.moves)
            await pilot.press("r")
            assert table.match.record.moves[rolled].action["k"] == "roll"
        for _ in range(4):
            view = table.match.view(0)
            if view.phase != "creature" or view.turn != 0:
                break
            assert "Step 4 of 4: move a" in step_line(screen) and "Die:" in step_line(screen)
            legal = table.match.legal(0)
            if not any(type(a) is CreatureStep for a in legal):
                assert EndCreature() in legal
                await pilot.press("e")
                break
            if screen._piece is None:
                await pilot.press("n")
            step = next(h for h, m in screen.targets().items())
            await pilot.press(*keys_to(screen.board.cursor, step), "enter")
            if table.match.view(0).phase == "creature" and EndCreature() in table.match.legal(0):
                await pilot.press("e")
            await until_seat_to_act(pilot, table, 0)

        await until_seat_to_act(pilot, table, 0)
        kinds = [m.action["k"] for m in table.match.record.moves if m.seat == 0]
        assert kinds[-4:] == ["end_moves", "sink", "roll", "creature_step"]   # seed 3: the die moved one
        view = table.match.view(0)
        assert view.round == 2 or view.phase == "over"
        assert any(m.seat == 1 and m.action["k"] == "sink" for m in table.match.record.moves)


async def test_enter_on_a_hex_that_is_not_a_target_says_why_and_sends_nothing():
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        sea = data.SERPENT_START_INDEX[1]
        await pilot.press(*keys_to(screen.board.cursor, sea), "enter")
        assert "empty land hex" in str(screen.query_one("#message").render())
        assert table.match.record.moves == []


async def test_the_screen_fits_80x24_with_the_legend_and_uses_160x48_for_bigger_hexes():
    for size, cell in (((80, 24), (4, 1)), ((160, 48), (6, 3))):
        app = make_app(red_against_bot())
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            board = app.screen.board
            assert (board.cell_w, board.cell_h) == cell
            assert board.legend_rows >= 1
            assert board.size.width >= 30 * cell[0] // 2


def until_red_must_answer(seed: int) -> LocalTable:
    """Bots play both seats (through the table) until Red is asked to answer an attack."""
    table = red_against_bot(seed)
    game = table.game
    red = game.make_bot(0, seed)
    while table.match.result() is None:
        view = table.match.view(0)
        if 0 in table.match.to_act():
            if view.phase == "respond" and view.turn != 0:
                return table
            table.match.act(0, red.choose(view, game.legal(view)))
        else:
            table.step_bot()
    raise AssertionError("Red was never attacked on Blue's turn")


async def test_the_defensive_tile_window_names_the_attack_and_plays_a_repellent_by_keys():
    table = until_red_must_answer(18)         # seed 18: a shark attacks Red holding a shark repellent
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "Attack! Shark at" in step_line(screen)
        assert footer_keys(screen)["e"] == "No defence"
        hand = [t.back for t in table.match.view(0).hand]
        await pilot.press(str(hand.index("shark_repellent") + 1))
        assert footer_keys(screen)["enter"] == "Play tile"
        await pilot.press("enter")
        assert any(m.seat == 0 and m.action["k"] == "defend" for m in table.match.record.moves)


async def test_hot_seat_setup_passes_the_keyboard_behind_the_curtain():
    from tui.screens.dialogs import CurtainScreen

    table = LocalTable.new(get_game("survive"), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "human")],
                           seed=3)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if isinstance(app.screen, CurtainScreen):       # Red's turn first: Red lifts it
            await pilot.press("enter")
            await pilot.pause()
        screen = app.screen
        spot = next(iter(screen.targets()))
        screen.board.cursor = spot
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)   # Blue must not see Red's values
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.link.seat == 1
        assert "Setup: explorer of value ★" in step_line(screen)


async def test_a_replay_shows_the_board_and_refuses_moves():
    from tui.seat_links import ReplaySeat

    table = until_red_must_answer(5)
    app = AtlantisApp(replay=ReplaySeat(table.game, table.match.record), autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SurviveScreen)
        assert "Attack!" in step_line(screen)
        await pilot.press("enter")
        assert "replay" in str(screen.query_one("#message").render())


async def test_below_80x24_the_screen_asks_for_a_bigger_terminal():
    app = make_app(red_against_bot())
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        # (the shared GameScreen notice: the game's screen entry only gives its min_size)
        shown = [str(w.render()) for w in app.screen.query(Static) if w.display and w.parent is app.screen]
        assert any("Survive: Escape from Atlantis needs a screen of at least 80×24" in text for text in shown), shown
        assert not app.screen.query_one("#body").display


# --- legend, what the others did, keys that are not allowed ----------------------------------
def board_text(board) -> str:
    return "\n".join(board.render_line(y).text for y in range(board.size.height))


async def test_the_legend_under_the_island_names_every_symbol_and_the_side_panel_columns():
    app = make_app(red_against_bot())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = board_text(app.screen.board)
        for words in ("sea", "beach", "forest", "mountain", "safe", "serpent", "shark", "whale",
                      "boat", "2 of R", "go", "changed"):
            assert words in text, words
        assert "⌂ saved" in str(app.screen.query_one("#players").render())


async def test_hexes_another_seat_changed_are_tinted_recent_until_your_next_action():
    from tui.widgets.seat_styles import recent_style

    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.send(table.match.legal(0)[0])  # Red places an explorer; then Blue does
        app.session.draw()
        await until_seat_to_act(pilot, table, 0)
        blue = next(h for h in table.match.view(0).explorer_hex[10:20] if h >= 0)
        assert blue in screen.board.picture.recent
        x, y = screen.board._hex_at[blue]
        left, top = screen.board._box[:2]
        line = screen.board.render_line(top + y).crop(left + x, left + x + 2)
        assert any(seg.style.bgcolor == recent_style().bgcolor for seg in line), list(line)
        screen.send(table.match.legal(0)[0])
        app.session.draw()
        assert blue not in screen.board.picture.recent


async def test_a_key_that_is_not_allowed_now_says_why():
    app = make_app(red_against_bot())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")   # during setup: no die to roll
        assert "the die is rolled in step 4" in str(app.screen.query_one("#message").render())


async def test_at_160x48_the_side_panel_names_every_players_explorers_in_full_words_and_tiles_in_full():
    from tui.screenshots import mid_game_table
    table = mid_game_table("survive", 3, 4, 60)   # Red holds a tile, explorers are lost and afloat
    app = make_app(table)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = app.screen
        board, side = screen.board, screen.query_one("#side")
        assert (board.cell_w, board.cell_h) == (6, 3) and side.size.width >= 56
        players = str(screen.query_one("#players").render())
        for heading in ("On land", "In sea", "In boat", "Saved", "Lost", "Tiles"):
            assert heading in players, heading
        rows = [line for line in players.splitlines() if any(n in line for n in ("Red", "Blue", "Green", "Yellow"))]
        assert len(rows) == 4 and max(len(r) for r in rows) <= side.content_size.width
        labels = [label for label, _ in screen.hand_items()]
        assert labels and all(label in BACK_NAMES.values() for label in labels)
    small = make_app(mid_game_table("survive", 3, 4, 60))
    async with small.run_test(size=(80, 24)) as pilot:   # the short words at 80x24
        await pilot.pause()
        assert "⌂ saved" in str(small.screen.query_one("#players").render())
        assert [label for label, _ in small.screen.hand_items()] == [SHORT_BACK[t.back] for t in
                                                                       small.screen._view.hand]


async def test_revised_an_explorer_on_land_steps_into_the_sea_by_keys_and_is_a_swimmer_after():
    table = after_setup(SEED_WITH_A_CREATURE_MOVE)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_seat_to_act(pilot, table, 0)
        await pilot.pause()
        screen = app.screen
        view = table.match.view(0)
        # a Red explorer alone on a land hex, next to open sea with no boat and no creature
        e, sea = next((e, a.to) for a in table.match.legal(0) if type(a) is Swim
                      for e in [a.explorer] if a.to not in view.boat_hex
                      and view.explorer_hex.count(view.explorer_hex[e]) == 1)
        await pilot.press(*keys_to(screen.board.cursor, view.explorer_hex[e]), "enter")
        assert "your explorer (on land)" in str(screen.query_one("#message").render())
        assert type(screen.targets()[sea].action) is Swim
        await pilot.press(*keys_to(screen.board.cursor, sea), "enter")
        assert table.match.record.moves[-1].action["k"] == "swim"
        after = table.match.view(0)
        assert after.explorer_hex[e] == sea and e in after.swum
        assert screen._piece is None       # its one sea hex is used: nothing left to send it to
        assert survive_words.piece_name(screen._view, Piece("explorer", e)) == "your explorer (swimming, swam this turn)"
