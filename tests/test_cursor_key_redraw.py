"""What a cursor key redraws, and that it is what Textual would draw (issue 15, item 1).

The split compositor renders only the widgets that fill a piece of a changed line no
widget in front of them fills: on Survive the step line above the board and the board's
cursor lines, not the containers behind them between.  The bytes it sends must be
Textual's own.  And a cursor message skips the containers that only pass it on, as
Textual would have passed it through them: a container that listens still hears it, a
prevented message still goes nowhere."""

from __future__ import annotations

import random

from textual import on
from textual.app import App
from textual.containers import Horizontal, Vertical
from textual.strip import Strip

from frame_counting import TERMINAL, CountingDriver, frames_per_key, settled

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat import LocalTable
from tui.widgets.cursor_grid import CursorGrid
from tui.widgets.one_frame import passes_on


async def test_the_split_compositor_sends_textuals_bytes_for_survives_step_line_and_board_lines_alone():
    from textual._compositor import Compositor
    from textual.geometry import Region

    from tui.widgets.split_update import SplitCompositor

    table = LocalTable.new(get_game("survive"), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    async with app.run_test(size=(120, 40), headless=False):
        await settled()
        compositor = app.screen._compositor
        assert isinstance(compositor, SplitCompositor)
        rendered: list[str] = []
        for widget in compositor.visible_widgets:   # count what each way renders
            original = widget.render_lines

            def spy(crop, widget=widget, original=original):
                rendered.append(widget.id or type(widget).__name__)
                return original(crop)
            widget.render_lines = spy
        board, step = app.screen.board.region, app.screen.query_one("#step-line").region
        # a cursor key: the step line's second line, and two board lines far below it
        cases = [[Region(step.x, step.y + 1, step.width, 1), Region(board.x, board.y + 16, board.width, 1),
                  Region(board.x, board.y + 17, board.width, 1)]]
        rng = random.Random(15)
        for _ in range(40):   # and changes anywhere, one to four, over and between widgets
            regions = []
            for _ in range(rng.randrange(1, 5)):
                width, height = rng.randrange(1, 60), rng.randrange(1, 6)
                regions.append(Region(rng.randrange(0, 121 - width), rng.randrange(0, 41 - height), width, height))
            cases.append(regions)
        for i, dirty in enumerate(cases):
            sent, counts = [], []
            for kind in (Compositor, SplitCompositor):
                compositor.__class__ = kind
                rendered.clear()
                compositor._dirty_regions.update(dirty)
                update = compositor.render_partial_update()
                sent.append(update.render_segments(TERMINAL) if update is not None else "")
                counts.append(list(rendered))
            assert sent[1] == sent[0], dirty
            if i == 0:
                assert sorted(counts[1]) == ["board", "step-line"], counts[1]
                assert {"board-area", "body"} <= set(counts[0]), counts[0]


class Grid(CursorGrid):
    def side(self) -> int:
        return 3

    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.size.width)

    moved = 0

    def cursor_moved(self) -> None:
        self.moved += 1


class Listening(Vertical):
    @on(CursorGrid.CellHighlighted)
    def _heard(self, event: CursorGrid.CellHighlighted) -> None:
        self.app.heard.append(("container", event.cell))


class Host(App):
    def __init__(self) -> None:
        super().__init__(driver_class=CountingDriver)
        self.heard: list[tuple[str, int]] = []

    def compose(self):
        with Listening(id="listening"):
            with Horizontal(id="plain"):
                yield Grid(id="grid")

    @on(CursorGrid.CellHighlighted)
    def _heard(self, event: CursorGrid.CellHighlighted) -> None:
        self.heard.append(("app", event.cell))


async def test_a_cursor_message_skips_only_containers_that_pass_it_on_and_is_heard_as_before():
    app = Host()
    async with app.run_test(size=(40, 10), headless=False):
        await settled()
        grid = app.query_one(Grid)
        grid.focus()
        message = CursorGrid.CellHighlighted(grid, 0)
        assert passes_on(app.query_one("#plain"), message) and passes_on(grid, message)
        assert not passes_on(app.query_one("#listening"), message) and not passes_on(app.screen, message)
        app.heard.clear()
        moved = grid.moved
        await frames_per_key(app, ["right", "down"])
        assert app.heard == [("container", 1), ("app", 1), ("container", 4), ("app", 4)]
        assert grid.moved == moved + 2
        with grid.prevent(CursorGrid.CellHighlighted):   # a prevented move: heard by no one, drawn at once
            grid.cursor = 5
        await settled()
        assert app.heard[4:] == [] and grid.moved == moved + 3


class TwoLines(App):
    CSS = "Static { height: auto; width: 33; }"

    def compose(self):
        from textual.widgets import Static

        from tui.widgets.turn_line import TurnLine

        yield Static(id="static")
        yield TurnLine(id="turn")


async def test_the_turn_line_draws_a_cursor_coming_back_to_a_cell_as_a_static_does_and_keeps_few_paragraphs():
    from rich.style import Style
    from rich.text import Text

    from tui.widgets.turn_line import KEEP

    app = TwoLines()
    async with app.run_test(size=(80, 30)) as pilot:
        static, turn = app.query_one("#static"), app.query_one("#turn")

        def drawn(widget) -> list:
            return [[(seg.text, seg.style) for seg in strip] for strip in widget.render_lines(widget.size.region)]

        head = Text("Your turn: 2 actions left.\n", style=Style(italic=True))
        head.append("1-9 play a card", Style(bold=True))
        cells = [f"Cursor {c}{r}: " for c in "ABCDEF" for r in range(1, 7)]
        rng = random.Random(15)
        for i in range(3 * KEEP):   # back and forth over a few cells, and on to new ones
            cell = cells[i % 4] if i % 3 else rng.choice(cells)
            text = head.copy()
            text.append("\n" + cell, Style(dim=True))
            text.append("certain" if i % 2 else "x" * (i % 40), Style(color="#ff0000") if i % 5 else None)
            for widget in (static, turn):
                widget.update(text, layout=False)
            await pilot.pause()
            assert drawn(turn) == drawn(static), text.plain
            assert len(turn._kept) <= KEEP
        turn.styles.color = "#00ff00"   # a new style: nothing kept is drawn with the old one
        static.styles.color = "#00ff00"
        await pilot.pause()
        turn.update(text, layout=False)
        static.update(text, layout=False)
        await pilot.pause()
        assert drawn(turn) == drawn(static)
