"""The route track alone, in a small app: the whole route drawn in a serpentine that fits
80 columns, plates readable without colour, double stacks, water, bridges, figures,
destinations, and the cursor driven by the keyboard."""

from __future__ import annotations

from rich.style import Style
from textual import on
from textual.app import App, ComposeResult

from tui.atlantis.route_track import RouteMark, RoutePicture, RouteSpace, RouteTrack
from tui.theme import ThemedApp

RED = Style(color="black", bgcolor="red", bold=True)
BLUE = Style(color="black", bgcolor="blue", bold=True)
LETTERS = "ACJLNPT"
N = 53


def picture() -> RoutePicture:
    """53 spaces: stacks, singles, water at 26-27 (price 3), a bridge at 40, a lost
    first space, a Blue figure on space 5, Red's chosen figure in Atlantis."""
    spaces = []
    for i in range(N):
        colour = i % 7
        spaces.append(RouteSpace("plate", f"{LETTERS[colour]}{1 + i % 6}", colour, stacked=i < 10))
    spaces[0] = RouteSpace("gone")
    spaces[26] = RouteSpace("water", note="3")
    spaces[27] = RouteSpace("water")
    spaces[40] = RouteSpace("bridge")
    spaces[5] = RouteSpace("plate", "L6", 3, True, (("B", BLUE),))
    return RoutePicture(
        spaces=spaces, at_start=[("R", RED)] * 3 + [("B", BLUE)] * 2, chosen=-1, chosen_letter="R",
        marks=[RouteMark(3, "1", "to L4"), RouteMark(12, "2", "to N1"), RouteMark(N, "3", "to the mainland")],
        hand=(0, 0, 4), plates=((2, "J5"),), words={3: "▲1 to L4: play L"},
    )


class TrackApp(ThemedApp):
    def __init__(self) -> None:
        super().__init__()
        self.track = RouteTrack(id="route")
        self.track.show(picture())
        self.selected: list[int] = []
        self.picked: list[int] = []

    def compose(self) -> ComposeResult:
        yield self.track

    @on(RouteTrack.SpaceSelected)
    def _selected(self, event: RouteTrack.SpaceSelected) -> None:
        self.selected.append(event.position)

    @on(RouteTrack.MarkPicked)
    def _picked(self, event: RouteTrack.MarkPicked) -> None:
        self.picked.append(event.index)


def screen_text(app: App) -> list[str]:
    return [str(line) for line in app.track.render().split("\n")]


async def test_the_whole_route_fits_a_50_column_board_in_five_rows_with_both_ends():
    app = TrackApp()
    async with app.run_test(size=(50, 24)) as pilot:
        await pilot.pause()
        lines = screen_text(app)
        assert app.track.per_row() == 11 and app.track.rows() == 5
        assert all(len(line) <= 50 for line in lines)
        assert lines[0].startswith("╭ATLANTIS RRRBB")
        assert any("MAINLAND" in line for line in lines)
        assert app.track.size.height <= 18  # leaves room for the screen's list at 80x24


async def test_every_plate_reads_without_colour_and_stacks_water_and_bridges_are_marked():
    app = TrackApp()
    async with app.run_test(size=(50, 24)) as pilot:
        await pilot.pause()
        text = "\n".join(screen_text(app))
        assert "C2:" in text          # space 1, a stack of two: the ':' marks the plate beneath
        assert "J3 " in text          # space 11 (index 10): a single plate
        assert "≈≈" in text and "══" in text and "·" in text
        assert "▲1" in text and "▲2" in text and "▲3" in text  # the destinations and their keys
        row0, under0 = screen_text(app)[1:3]
        assert under0[row0.index("L6")] == "B"  # Blue's figure stands under its plate


async def test_right_runs_along_the_row_as_drawn_and_turns_onto_the_next_row():
    app = TrackApp()
    async with app.run_test(size=(50, 24)) as pilot:
        track = app.track
        await pilot.pause()
        assert track.position == -1           # Atlantis
        await pilot.press("right")
        assert track.position == 0
        await pilot.press("end")
        assert track.position == N            # the mainland
        await pilot.press("home", "down", "down")
        assert track.position == 21           # row 1 runs right to left: under space 0 is space 21
        await pilot.press("right")
        assert track.position == 20           # ... so Right goes back along the route there
        await pilot.press("up")
        assert track.position == 1            # space 20 is drawn under space 1
        await pilot.press("left")
        assert track.position == 0


async def test_a_digit_picks_a_destination_and_n_enter_choose_the_next_one():
    app = TrackApp()
    async with app.run_test(size=(50, 24)) as pilot:
        await pilot.pause()
        await pilot.press("2")
        assert app.picked == [1]
        await pilot.press("n")
        assert app.track.position == 3
        assert "▲1 to L4" in screen_text(app)[-5] or any("▲1 to L4" in s for s in screen_text(app))
        await pilot.press("n", "enter")
        assert app.selected == [12]
        await pilot.press("N")
        assert app.track.position == 3            # back to the previous destination
        await pilot.press("9")                # no ninth destination: nothing happens
        assert app.picked == [1]


async def test_a_wide_board_draws_tall_cells_with_the_plate_beneath_a_stack():
    app = TrackApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        lines = screen_text(app)
        assert app.track.rows() == 3
        assert "▀▀▀▀" in lines[2]             # the second line of row 0: stacks of two
        assert all(len(line) <= 120 for line in lines)
