"""The Finding Atlantis screen through AtlantisApp, driven by the keyboard:
captain choice, the hidden first move, a card with a direction, a Jelly Rod
axis, auto-notes on the chart, a pencil mark, declaring from the chart, paper
mode, and the hot-seat curtain between two humans.  Few keys: each is slow."""

from __future__ import annotations

from engine.core import SeatInfo
from engine.finding_atlantis import data
from engine.components import put
from engine.core import replace
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.finding_atlantis.screen import FindingAtlantisScreen
from tui.screens.dialogs import CurtainScreen
from tui.seat_links import LocalTable
from tui.finding_atlantis.chart_grid import ChartGrid

from fa_helpers import cell, on_map

GAME = get_game("finding-atlantis")


def red_against_ubot(options=None, seed: int = 3) -> LocalTable:
    return LocalTable.new(GAME, options or {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=seed)


def make_app(table: LocalTable) -> AtlantisApp:
    app = AtlantisApp(table=table, bot_delay=0.001, autosave=False)
    app.animation_level = "none"
    return app


async def until(pilot, cond) -> None:
    for _ in range(600):  # bots step on timers: generous for a loaded machine
        await pilot.pause(0.01)
        if cond():
            return
    raise AssertionError("the table never got there")


async def test_captain_first_move_and_cards_from_the_keyboard():
    table = red_against_ubot()
    app = make_app(table)
    async with app.run_test(size=(100, 32)) as pilot:
        m = table.match
        await until(pilot, lambda: m.to_act() == frozenset({0}) and isinstance(app.screen, FindingAtlantisScreen))
        screen = app.screen
        assert m.state.phase == "captain"
        keep = m.state.offers[0][1]
        await pilot.press("2")
        await until(pilot, lambda: m.state.captain[0] == keep)
        await until(pilot, lambda: m.state.phase == "first_move" and m.to_act() == frozenset({0})
                    or m.state.phase == "play")
        if m.state.phase == "first_move":
            before = m.state.pos[0]
            await pilot.press("5")  # south
            await until(pilot, lambda: m.state.phase == "play" or m.to_act() != frozenset({0}))
        await until(pilot, lambda: m.to_act() == frozenset({0}) and m.state.phase == "play")
        # put Red somewhere known on a known map, then play Sonar (card 1) and a Jelly Rod N-S
        m.state = replace(on_map(m.state), pos=put(m.state.pos, 0, cell(6, "C2")))
        app.session.draw()
        await pilot.press("1")
        await until(pilot, lambda: m.state.actions_left == 1)
        w = 8
        assert m.state.charts[0][0 * w + 3] != 0  # C1's north neighbour (ring) noted
        await pilot.press("2", "1")  # Jelly Rod, axis 1 = north-south
        await until(pilot, lambda: m.state.actions_left == 0)
        assert m.to_act() == frozenset({0})  # the turn waits for e
        assert m.state.charts[0][(2 + 1) * w + 2 + 1] & data.TRACE  # C3 is Atlantis: a trace
        chart = screen.query_one(ChartGrid)
        c3 = (3 * w) + 3
        assert chart.picture.cells[c3].text == "T"


async def test_marks_paper_mode_and_declaring_from_the_chart():
    table = red_against_ubot({"paper": True})
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        m = table.match
        state = m.state
        while state.phase != "play":
            from engine.finding_atlantis.actions import ChooseCaptain, FirstMove

            a = ChooseCaptain(state.offers[state.turn][0]) if state.phase == "captain" else FirstMove(0)
            state, _ = GAME.apply(state, state.turn, a)
        state = replace(on_map(state), turn=0, actions_left=2, pos=put(state.pos, 0, cell(6, "D4")))
        m.state = state
        await until(pilot, lambda: isinstance(app.screen, FindingAtlantisScreen))
        screen = app.screen
        app.session.draw()
        await pilot.pause()
        chart = screen.query_one(ChartGrid)
        assert chart.cursor == cell(6, "D4")
        await pilot.press("3")  # Explore: Atlantis
        await until(pilot, lambda: m.state.may_declare[0])
        # paper: the result is not drawn on the chart, only in the log
        assert chart.picture.cells[(4 * 8) + 4].text == ""  # nothing noted under you...
        assert chart.picture.cells[(4 * 8) + 4].marks[0][0] == "R*"  # ...and you, beside it
        assert chart.picture.cells[(3 * 8) + 3].text == "·"
        await pilot.press("up", "left", "m")  # C3: pencil mark "seamount"
        assert screen.marks[cell(6, "C3")] == "s"
        await pilot.press("m", "m", "m", "m")  # -> Atlantis?
        assert screen.marks[cell(6, "C3")] == "@?"
        for key_cell in ("C3", "D3", "D4", "E5"):
            chart.cursor = cell(6, key_cell)
            await pilot.press("x")
        await until(pilot, lambda: len(m.state.picks[0]) == 4)
        await pilot.press("D")
        assert "D again" in str(screen.query_one("#message").render())
        await pilot.press("D")
        await until(pilot, lambda: m.result() is not None)
        assert m.result().winners == (0,)


async def test_the_assistant_shades_certain_cells_and_warns_before_a_wrong_declaration():
    table = red_against_ubot()
    app = make_app(table)
    async with app.run_test(size=(100, 32)) as pilot:
        m = table.match
        state = m.state
        from engine.finding_atlantis.actions import ChooseCaptain, Explore, FirstMove, JellyRod

        while state.phase != "play":
            a = ChooseCaptain(state.offers[state.turn][0]) if state.phase == "captain" else FirstMove(0)
            state, _ = GAME.apply(state, state.turn, a)
        state = replace(on_map(state), turn=0, actions_left=2, pos=put(state.pos, 0, cell(6, "C2")),
                    hands=put(state.hands, 0, state.hands[0]))
        state, _ = GAME.apply(state, 0, JellyRod(0))
        state = replace(state, pos=put(state.pos, 0, cell(6, "D4")), actions_left=2, turn=0,
                    hands=put(state.hands, 0, ("explore", "surface")))
        m.state = state
        await until(pilot, lambda: isinstance(app.screen, FindingAtlantisScreen))
        screen = app.screen
        app.session.draw()
        await pilot.press("3")  # Explore (cards keep their numbers)
        await until(pilot, lambda: m.state.may_declare[0])
        chart = screen.query_one(ChartGrid)
        assert chart.picture.cells[(4 * 8) + 4].shaded  # D4: explored, Atlantis: certain
        assert not chart.picture.cells[(1 * 8) + 3].shaded  # C1: no trace, but deep or seamount?
        for c in ("C1", "D3", "D4", "E5"):
            chart.cursor = cell(6, c)
            await pilot.press("x")
        await until(pilot, lambda: len(m.state.picks[0]) == 4)
        await pilot.press("D")
        assert "Careful" in str(screen.query_one("#message").render())
        await pilot.press("escape")
        assert m.result() is None


async def test_hot_seat_curtain_between_two_humans():
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "human")], 5)
    app = make_app(table)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        await pilot.press("enter")
        await pilot.pause()
        first = table.match.state.turn
        assert app.game_screen.link.seat == first
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
