"""End of Atlantis's ship lanes: every ship's lane starts in the same column whatever its
box holds (a full ship's mark never pushes its lane sideways)."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.app import App, ComposeResult

from tui.end_of_atlantis.ship_lanes import LanesPicture, LaneShip, ShipLanes


class LanesApp(App):
    def compose(self) -> ComposeResult:
        yield ShipLanes(id="lanes")


def ships(at_sea: bool) -> list[LaneShip]:
    cube = ("B", Style()), ("G", Style())
    return [LaneShip("A", "Ark", 5, at_sea, cubes=[cube[0], cube[0], cube[1], cube[1], cube[1]]),
            LaneShip("B", "Science Vessel", 5, at_sea, cubes=[cube[0]]),
            LaneShip("C", "Galleon", 6, at_sea, cubes=[cube[1]] * 6),
            LaneShip("D", "Airship", 3, at_sea)]


@pytest.mark.parametrize("width", [46, 60, 100])
@pytest.mark.parametrize("at_sea", [False, True])
async def test_a_full_ships_mark_never_shifts_its_lane(width, at_sea):
    app = LanesApp()
    async with app.run_test(size=(width, 10)) as pilot:
        lanes = app.query_one(ShipLanes)
        lanes.styles.width = width
        lanes.show(LanesPicture(ships=ships(at_sea), notes=False))
        await pilot.pause()
        rows = str(lanes.render()).split("\n")[1:5]
        # where the ocean lane (or, at sea, the quay's end) is: the same column on every row
        ends = {row.rindex("≈") if not at_sea else row.rindex("┄") for row in rows}
        assert len(ends) == 1, rows
        assert all(len(row) <= width for row in rows)
        assert "full" in rows[0] or "]" in rows[0]


async def test_the_ships_notes_are_whole_where_the_lanes_can_make_room():
    note = "upgraded: flies from port to the Promised Land"
    app = LanesApp()
    async with app.run_test(size=(112, 10)) as pilot:
        lanes = app.query_one(ShipLanes)
        picture = ships(False)
        picture[3] = LaneShip("D+", "Airship", 3, False, note=note)
        lanes.show(LanesPicture(ships=picture, notes=True))
        await pilot.pause()
        rows = str(lanes.render()).split("\n")
        assert any(row.rstrip().endswith(note) and len(row) <= 112 for row in rows), rows
