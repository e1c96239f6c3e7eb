"""ShipLanes: ships between the port, the ocean and the Promised Land.

Generic: each ship is given as a label, a capacity, where it is, whether it is an
upgraded tile, and its cubes as (letter, style) pairs; the widget knows no rules.
A ship is named by its letter and name (``B Science Vessel``) and drawn as a box of
its spaces, ``[RRBN···]``, in the port lane or the ocean lane; a full ship is marked
``full`` where its lane has room for the word (every lane starts in the same column),
an upgraded one carries ``+`` after its letter.  ``recent`` ships (changed by another
seat since your last move) are highlighted.  The
Promised Land line lists who has cubes there this turn.  ``compact`` drops the
PORT / OCEAN header (the ocean lane is still drawn as water ``≈``).  Colour is never alone:
every cube is a letter.

A ``CursorList`` (the shared 1-D cursor): a ``cursor`` (a ship) moved with
Up/Down (j/k), Home/End while focused, ``ShipHighlighted`` / ``ShipSelected`` messages
up to the screen, and ``marked`` ships (the target of the choice under the cursor of
the choice list) shown with an arrow.  Colours are component classes (CSS below).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding

from ..widgets.cursor_list import CursorList

EMPTY_SPACE = "·"


@dataclass(frozen=True)
class LaneShip:
    label: str                 # "A+" (the letter; + once upgraded)
    name: str                  # "Ark": the board shows "A Ark" (letter and name)
    capacity: int
    at_sea: bool
    cubes: Sequence[tuple[str, Style]] = ()
    note: str = ""             # an ability reminder (wide terminals)


@dataclass
class LanesPicture:
    ships: Sequence[LaneShip] = ()
    promised: Sequence[tuple[str, Style, int]] = ()   # (name, style, cubes there)
    camp: int = 0
    marked: Sequence[int] = ()
    notes: bool = True
    extra: str = ""
    recent: Sequence[int] = ()   # ships another seat changed since your last move


class ShipLanes(CursorList, inherit_bindings=False):
    COMPONENT_CLASSES = {
        "ship-lanes--header", "ship-lanes--cursor", "ship-lanes--label", "ship-lanes--marked",
        "ship-lanes--full", "ship-lanes--water", "ship-lanes--quay", "ship-lanes--note",
        "ship-lanes--recent",
    }

    DEFAULT_CSS = """
    ShipLanes { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    ShipLanes:focus { background: $boost; }
    """
    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False, id="lanes-up"),
        Binding("down,j", "move(1)", "Down", show=False, id="lanes-down"),
        Binding("home", "first", "First ship", show=False, id="lanes-first"),
        Binding("end", "last", "Last ship", show=False, id="lanes-last"),
        Binding("enter", "select", "Choose ship", show=False, id="lanes-select"),
    ]

    class ShipHighlighted(CursorList.Highlighted):
        """The cursor moved to ``ship``."""

        @property
        def lanes(self) -> "ShipLanes":
            return self.cursor_list  # type: ignore[return-value]

        @property
        def ship(self) -> int:
            return self.index

    class ShipSelected(ShipHighlighted, CursorList.Selected):
        """Enter or a click chose ``ship``."""

    Highlighted = ShipHighlighted
    Selected = ShipSelected

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.picture = LanesPicture()
        self.compact = False  # no PORT / OCEAN header line (small terminals)
        # What was last drawn: a copy of the picture (the screen may change ``picture.notes``
        # in place) with ``compact``, and the height it took.
        self._shown: tuple[LanesPicture, bool] | None = None
        self._shown_height = -1

    def show(self, picture: LanesPicture) -> None:
        """Draw ``picture``: nothing happens when it is what is drawn already; the screen
        is laid out again only when the height changes."""
        self.picture = picture
        key = (replace(picture), self.compact)
        if key == self._shown:
            return
        self._shown = key
        height = self.get_content_height(None, None, 0)
        self.refresh(layout=height != self._shown_height)
        self._shown_height = height

    def entry_count(self) -> int:
        return len(self.picture.ships)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self.click_entry(offset.y - (0 if self.compact else 1))

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.picture.ships) + (1 if self.compact else 2)

    NAME_WIDTH = 18  # "A+ Science Vessel " (the longest letter and name)

    def lane_width(self) -> int:
        """Each lane's width: at most 28, narrower where the ships' notes need the room
        (a note is cut only when the lanes are as narrow as they get)."""
        width = self.size.width or 48
        wide = width - self.NAME_WIDTH - 4 >= 2 * 28 + 17   # room for the header's PROMISED LAND
        right = 17 if wide else 7
        if self.picture.notes:
            right = max([right, *(len(ship.note) + 2 for ship in self.picture.ships if ship.note)])
        return max(11, min(28, (width - self.NAME_WIDTH - 4 - right) // 2))

    def render(self) -> Text:
        pic = self.picture
        lane = self.lane_width()
        part = self.get_component_rich_style
        dim = part("ship-lanes--note", partial=True)
        head = part("ship-lanes--header", partial=True)
        water_style = part("ship-lanes--water", partial=True)
        recent = part("ship-lanes--recent", partial=True)
        width = self.size.width or 48
        out = Text()
        if not self.compact:
            out.append(" " * (self.NAME_WIDTH + 1))
            out.append("PORT".ljust(lane), head)
            out.append("  ")
            out.append("OCEAN".ljust(lane), head)
            room = width - self.NAME_WIDTH - 1 - 2 * lane
            out.append("  → PROMISED LAND" if room >= 17 else " → LAND", head)
        for i, ship in enumerate(pic.ships):
            if i or not self.compact:
                out.append("\n")
            focus = self.has_focus and i == self.cursor
            arrow = "▶" if i in pic.marked else " "
            out.append(arrow, part("ship-lanes--marked", partial=True))
            label_style = part("ship-lanes--cursor" if focus else "ship-lanes--label", partial=True)
            if i in pic.recent:
                label_style += recent
            out.append(f"{ship.label} {ship.name}".ljust(self.NAME_WIDTH - 1), label_style)
            full = len(ship.cubes) >= ship.capacity
            box = Text("[")
            for letter, style in ship.cubes:
                box.append(letter, style)
            box.append(EMPTY_SPACE * max(0, ship.capacity - len(ship.cubes)), dim)
            box.append("]")
            if i in pic.recent:
                box.stylize(recent)
            if full and box.cell_len + len(" full") <= lane:
                # (where the lane has no room for the word, the box without a free space says it)
                box.append(" full", part("ship-lanes--full", partial=True))
            pad = max(0, lane - box.cell_len)
            water = Text("≈" * lane, water_style)
            quay = Text("┄" * lane, part("ship-lanes--quay", partial=True))
            out.append(" ")
            if ship.at_sea:
                out.append_text(quay)
                out.append("  ")
                out.append("≈" * (pad // 2), water_style)
                out.append_text(box)
                out.append("≈" * (pad - pad // 2), water_style)
            else:
                out.append_text(box)
                out.append(" " * pad)
                out.append("  ")
                out.append_text(water)
            if pic.notes and ship.note:
                out.append(f"  {ship.note}", dim)
        out.append("\n")
        roomy = width >= 90
        for tight in (False, True):  # (tight: "R2 B1 · camp 7", so five players fit 80 columns)
            land = Text()
            land.append("Promised Land this turn: " if roomy else "Promised Land: ", head)
            if pic.promised:
                for name, style, count in pic.promised:
                    land.append(name, style)
                    land.append(f" {count}  " if roomy else f"{count} " if tight else f" {count} ")
            else:
                land.append("nobody yet " if roomy else "none yet ", dim)
            land.append(f"· Refugee camp: {pic.camp} neutral refugees left" if roomy
                        else f"· camp {pic.camp}" if tight else f"· Refugee camp {pic.camp}", dim)
            if pic.extra:
                land.append(f" · {pic.extra}", dim)
            if land.cell_len <= width:
                break
        out.append_text(land)
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
