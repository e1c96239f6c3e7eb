"""ShipLanes: ships between the port, the ocean and the Promised Land.

Generic: each ship is given as a label, a capacity, where it is, whether it is an
upgraded tile, and its cubes as (letter, style) pairs; the widget knows no rules.
A ship is drawn as a box of its spaces, ``[RRBN···]``, in the port lane or the ocean
lane; a full ship is marked ``■``, an upgraded one carries ``+`` in its label.  The
Promised Land line lists who has cubes there this turn.  ``compact`` drops the
PORT / OCEAN header (the ocean lane is still drawn as water ``≈``).  Colour is never alone:
every cube is a letter.

Like ``TileBoard``: a ``cursor`` (a ship) moved with up/down while focused,
``ShipHighlighted`` / ``ShipSelected`` messages up to the screen, and ``marked``
ships (the target of the choice under the cursor of the choice list) shown with
an arrow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

EMPTY_SPACE = "·"


@dataclass(frozen=True)
class LaneShip:
    label: str                 # "A+"
    name: str                  # "Ark"
    capacity: int
    at_sea: bool
    cubes: Sequence[tuple[str, Style]] = ()
    note: str = ""             # a short ability reminder


@dataclass
class LanesPicture:
    ships: Sequence[LaneShip] = ()
    promised: Sequence[tuple[str, Style, int]] = ()   # (letter, style, cubes there)
    camp: int = 0
    marked: Sequence[int] = ()
    notes: bool = True
    extra: str = ""


class ShipLanes(Widget, can_focus=True):
    DEFAULT_CSS = """
    ShipLanes { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    ShipLanes:focus { background: $boost; }
    """
    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False, id="lanes-up"),
        Binding("down,j", "cursor(1)", "Down", show=False, id="lanes-down"),
        Binding("enter", "select", "Choose ship", show=False, id="lanes-select"),
    ]

    cursor: reactive[int] = reactive(0, always_update=False)

    class ShipHighlighted(Message):
        def __init__(self, lanes: "ShipLanes", ship: int) -> None:
            super().__init__()
            self.lanes = lanes
            self.ship = ship

        @property
        def control(self) -> "ShipLanes":
            return self.lanes

    class ShipSelected(ShipHighlighted):
        """Enter or a click chose ``ship``."""

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.picture = LanesPicture()
        self.compact = False  # no PORT / OCEAN header line (small terminals)

    def show(self, picture: LanesPicture) -> None:
        self.picture = picture
        self.refresh(layout=True)

    def validate_cursor(self, value: int) -> int:
        n = len(self.picture.ships)
        return max(0, min(n - 1, value)) if n else 0

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh()
        self.post_message(self.ShipHighlighted(self, new))

    def action_cursor(self, delta: int) -> None:
        self.cursor = self.cursor + delta

    def action_select(self) -> None:
        if self.picture.ships:
            self.post_message(self.ShipSelected(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        ship = offset.y - (0 if self.compact else 1)
        if 0 <= ship < len(self.picture.ships):
            if ship == self.cursor:
                self.action_select()
            else:
                self.cursor = ship

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.picture.ships) + (1 if self.compact else 2)

    def lane_width(self) -> int:
        width = self.size.width or 48
        return max(11, min(24, (width - 15) // 2))

    def render(self) -> Text:
        pic = self.picture
        lane = self.lane_width()
        dim = Style(dim=True)
        head = Style(bold=True)
        out = Text()
        if not self.compact:
            out.append("      ")
            out.append("PORT".ljust(lane), head)
            out.append("  ")
            out.append("OCEAN".ljust(lane), head)
            room = (self.size.width or 48) - 8 - 2 * lane
            out.append("  → PROMISED LAND" if room >= 17 else "  →LAND", head)
        for i, ship in enumerate(pic.ships):
            if i or not self.compact:
                out.append("\n")
            focus = self.has_focus and i == self.cursor
            arrow = "▶" if i in pic.marked else " "
            out.append(arrow, Style(bold=True, color="#8dff9d"))
            label_style = Style(bold=True, reverse=focus)
            out.append(f"{ship.label:<2}{ship.capacity:>2}", label_style)
            full = len(ship.cubes) >= ship.capacity
            out.append("■" if full else " ", Style(bold=True, color="#ff7b7b"))
            box = Text("[")
            for letter, style in ship.cubes:
                box.append(letter, style)
            box.append(EMPTY_SPACE * max(0, ship.capacity - len(ship.cubes)), dim)
            box.append("]")
            pad = max(0, lane - box.cell_len)
            water = Text("≈" * lane, Style(color="#31576e"))
            quay = Text("┄" * lane, Style(color="#5c5c5c"))
            if ship.at_sea:
                out.append_text(quay)
                out.append("  ")
                out.append("≈" * (pad // 2), Style(color="#31576e"))
                out.append_text(box)
                out.append("≈" * (pad - pad // 2), Style(color="#31576e"))
            else:
                out.append_text(box)
                out.append(" " * pad)
                out.append("  ")
                out.append_text(water)
            if pic.notes and ship.note:
                out.append(f"  {ship.note}", dim)
        out.append("\n")
        out.append("Promised Land: ", head)
        if pic.promised:
            for letter, style, count in pic.promised:
                out.append(letter, style)
                out.append(f"{count} ")
        else:
            out.append("nobody yet ", dim)
        out.append(f"· camp {pic.camp}", dim)
        if pic.extra:
            out.append(f" · {pic.extra}", dim)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
