"""One light frame per cursor key on the Pathways, Survive and Atlantis boards and in the
choice list (issue 15).

Each board keeps its drawn lines and repaints only the lines of the old and the new
cursor (and, on the route, the info line), with styles kept from the last full draw:
what it then shows must be what a full redraw would show.  The app renders as for a
real terminal and counts its flushes, as ``bench/keys.py`` does."""

from __future__ import annotations

from rich.segment import Segment
from textual.app import App
from textual.strip import Strip

from frame_counting import TERMINAL, CountingDriver, frames_per_key, settled

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat import LocalTable
from tui.widgets.choice_list import ChoiceList


def app_for(slug: str) -> AtlantisApp:
    table = LocalTable.new(get_game(slug), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=7)
    return AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)


async def test_a_cursor_key_on_the_pathways_and_survive_boards_makes_one_frame_drawn_as_in_full():
    # (each sequence ends one step off where it started: the start is at an edge)
    for slug, keys in (("pathways", ["right", "down", "left", "up", "right"]),
                       ("survive", ["right", "down", "left", "up", "left"])):
        app = app_for(slug)
        async with app.run_test(size=(120, 40), headless=False):
            await settled()
            board = app.screen.board
            assert app.focused is board
            start = board.cursor
            assert await frames_per_key(app, keys) == [1] * 5, slug
            assert board.cursor != start
            # the lines kept after the moves are those a full redraw draws
            assert board._strips == board._build(), slug
            if slug == "pathways":  # a picked tile's ghost follows the cursor
                await frames_per_key(app, ["1"])
                assert board.picture.ghost is not None
                assert await frames_per_key(app, ["right", "down", "right"]) == [1, 1, 1]
                assert board.picture.ghost.cell == board.cursor
                assert board._strips == board._build()


async def test_a_cursor_key_on_the_route_makes_one_frame_drawn_as_in_full():
    app = app_for("atlantis")
    async with app.run_test(size=(120, 40), headless=False):
        await settled()
        track = app.screen.track
        assert app.focused is track
        start = track.position
        assert await frames_per_key(app, ["right", "left"]) == [1, 1]
        assert track.position == start
        await frames_per_key(app, ["right", "right", "down"])
        assert track.position != start
        # every line as the whole text with the cursor drawn in it renders it
        base, width = track.rich_style, track.size.width
        for y, line in enumerate(track.render().split("\n", allow_blank=True)):
            full = Strip(Segment.apply_style(list(line.render(TERMINAL)), base))
            assert track.render_line(y) == full.extend_cell_length(width, base).crop(0, width), y


class Choices(App):
    def compose(self):
        yield ChoiceList(title="Choose", id="choices")

    def on_mount(self) -> None:
        self.query_one(ChoiceList).show([f"choice {i}" for i in range(8)])


async def test_a_cursor_move_in_the_choice_list_repaints_only_the_old_and_new_cursor_lines():
    app = Choices()
    async with app.run_test(size=(40, 12)) as pilot:
        choices = app.query_one(ChoiceList)
        choices.focus()
        await pilot.press("down")  # (the first move draws everything once)
        asked: list[tuple] = []
        original = choices.refresh

        def spy(*regions, **kwargs):
            asked.append(regions)
            return original(*regions, **kwargs)

        choices.refresh = spy
        await pilot.press("down")
        await pilot.pause()
        assert choices.cursor == 2
        # one request: the lines of entries 1 and 2 (under the title line)
        assert [[(r.y, r.height) for r in regions] for regions in asked] == [[(2, 1), (3, 1)]]
        lines = [choices.render_line(y).text for y in range(4)]
        assert lines[2].startswith("  choice 1") and lines[3].startswith("▶ choice 2")


async def test_the_split_compositor_sends_the_same_bytes_as_textual_for_far_apart_changes():
    from textual._compositor import Compositor
    from textual.geometry import Region

    from tui.widgets.split_update import SplitCompositor, column_groups

    app = app_for("pathways")
    async with app.run_test(size=(120, 40), headless=False):
        await settled()
        compositor = app.screen._compositor
        assert isinstance(compositor, SplitCompositor)
        # a cursor key's changes: board lines on the left, the turn line on the right,
        # and (the worst case) a line far down on each side
        dirty = [Region(0, 5, 86, 1), Region(0, 6, 86, 1), Region(88, 0, 31, 5), Region(0, 30, 86, 1),
                 Region(90, 35, 10, 2)]
        assert len(column_groups(dirty)) == 2
        sent = []
        for kind in (Compositor, SplitCompositor):  # Textual's own, then the split one
            compositor.__class__ = kind
            compositor._dirty_regions.update(dirty)
            sent.append(compositor.render_partial_update().render_segments(TERMINAL))
        assert sent[0] and sent[1] == sent[0]


async def test_the_split_compositor_leaves_out_only_widgets_hidden_behind_others_and_sends_the_same_bytes():
    import random

    from textual._compositor import Compositor
    from textual.geometry import Region

    from tui.widgets.split_update import SplitCompositor

    app = app_for("finding-atlantis")
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
        rng = random.Random(15)
        cases = [[Region(0, 12, 84, 1), Region(0, 14, 84, 1), Region(86, 0, 33, 4)]]   # a cursor key
        for _ in range(30):   # and changes anywhere on the screen, on both sides
            regions = []
            for _ in range(rng.randrange(2, 5)):
                width, height = rng.randrange(1, 40), rng.randrange(1, 6)
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
                # the cursor key: the chart and the side panel's top, not the panel below
                # them, nor the containers behind the chart; Textual renders them all
                assert {"chart", "turn-line"} <= set(counts[1]), counts[1]
                assert not {"players", "log", "charts", "board-area", "KeyLine"} & set(counts[1]), counts[1]
                assert {"players", "log", "charts", "board-area", "KeyLine"} <= set(counts[0]), counts[0]
