"""RouteTrack: a route of coloured plates from a start (Atlantis) to a goal (the
mainland), drawn as a serpentine of rows so the whole route fits a small terminal.

Generic like the other boards: it is given a ``RoutePicture`` (a fresh one on every
change) and knows no rules.  Each space is a plate (a colour index, its label such as
``A3`` -- the colour's letter and the value, so the route reads without colour -- and
whether a second plate lies under it, drawn ``A3:``), water ``≈≈`` (the price of
crossing the gap written under its first space), a bridge ``══``, or a lost end
(``·``).  Figures stand under their plate as their seat's letter; the chosen figure is
underlined.  Destinations (``RouteMark``) are drawn ``▲1`` under their space; their
cards and water are listed by the screen and told in the info line when the cursor is
on one.  Below the route: the info line, the viewer's cards and plates as colour
chips, and a one-line legend.

A ``CursorList`` (the shared 1-D cursor) over the route positions: entry 0 is the
start, entries 1..N the spaces, entry N+1 the goal.  The widget speaks in *positions*
(-1 the start, 0..N-1 the spaces, N the goal), as the engine does.  Keys while focused:
Left/Right (h/l) go along the row as drawn, Up/Down (k/j) to the row above/below,
Home/End to the start/goal, ``n`` / ``N`` to the next / previous destination, Enter
chooses, digits pick a destination by its number.  Messages: ``SpaceHighlighted``,
``SpaceSelected`` (``position``) and ``MarkPicked`` (``index`` in ``marks``).

Colours are component classes (CSS below): ``route-track--colour-0`` .. ``-6`` are
the plate and card colours, in the order of the picture's colour indices.
"""

from __future__ import annotations

from math import ceil
from typing import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip

from ..widgets.changed_lines import changed_rows, line_regions
from ..widgets.cursor_list import CursorList
from .route_legend import BIG_WIDTH, COLOURS, RouteLegend
from .route_picture import RouteMark, RoutePicture, RouteSpace
from ..widgets.seat_styles import recent_style

SMALL_CELL = 4     # "A3: " -- label, stack mark, gap
BIG_CELL = 6       # " A3:  " on a wide terminal


class RouteTrack(RouteLegend, CursorList, inherit_bindings=False):
    COMPONENT_CLASSES = {
        "route-track--colour-0", "route-track--colour-1", "route-track--colour-2",
        "route-track--colour-3", "route-track--colour-4", "route-track--colour-5",
        "route-track--colour-6", "route-track--water", "route-track--bridge",
        "route-track--gone", "route-track--path", "route-track--end", "route-track--cursor",
        "route-track--mark", "route-track--chosen", "route-track--note",
        "route-track--head", "route-track--under",
    }

    DEFAULT_CSS = """
    RouteTrack { height: auto; width: 1fr; text-wrap: nowrap; text-overflow: clip; }
    RouteTrack:focus { background: $boost; }
    """

    BINDINGS = [
        Binding("left,h", "step(-1)", "Left", show=False, id="route-left"),
        Binding("right,l", "step(1)", "Right", show=False, id="route-right"),
        Binding("up,k", "row(-1)", "Row up", show=False, id="route-up"),
        Binding("down,j", "row(1)", "Row down", show=False, id="route-down"),
        Binding("home", "first", "Atlantis", show=False, id="route-first"),
        Binding("end", "last", "Mainland", show=False, id="route-last"),
        Binding("n", "next_mark(1)", "Next destination", show=False, id="route-next-mark"),
        Binding("N", "next_mark(-1)", "Previous destination", show=False, id="route-previous-mark"),
        Binding("enter", "select", "Choose", show=False, id="route-select"),
        *[Binding(str(d), f"pick({d - 1})", "Choose", show=d == 1, key_display="1-9" if d == 1 else None,
                  id=f"route-pick-{d}") for d in range(1, 10)],
    ]

    class SpaceHighlighted(CursorList.Highlighted):
        """The cursor moved to ``position`` (-1 the start, N the goal)."""

        @property
        def track(self) -> "RouteTrack":
            return self.cursor_list  # type: ignore[return-value]

        @property
        def position(self) -> int:
            return self.index - 1

    class SpaceSelected(SpaceHighlighted, CursorList.Selected):
        """Enter or a click chose ``position``."""

    Highlighted = SpaceHighlighted
    Selected = SpaceSelected

    class MarkPicked(Message):
        """A digit picked destination ``index`` (of the picture's ``marks``)."""

        def __init__(self, track: "RouteTrack", index: int) -> None:
            super().__init__()
            self.track = track
            self.index = index

        @property
        def control(self) -> "RouteTrack":
            return self.track

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.picture = RoutePicture()
        self._cells: dict[int, tuple[int, int, int]] = {}  # entry -> (line, x0, x1)
        # The lines drawn last (for what they were drawn) and each line's strip: a cursor
        # key changes two or three lines, and only those are converted again.
        self._lines_key: tuple = ()
        self._lines: list[Text] = []
        self.drawn_lines: dict[int, tuple[Text, Strip]] = {}
        # The lines are drawn without the cursor; a cursor move restyles only its entry's
        # span (``_spans``: entry -> (line, start, end) in characters) and the info line
        # (``_info_y``), with the styles read at the last full draw.
        self._spans: dict[int, tuple[int, int, int]] = {}
        self._info_y = -1
        self._base: Style | None = None
        self._cursor_style = self._note_style = Style()
        self._painted: int | None = None   # the entry the cursor was drawn on
        self._drawing: int | None = None   # the entry render() draws the cursor on

    # --- the picture and the cursor ---------------------------------------------------------
    def show(self, picture: RoutePicture) -> None:
        """Draw a new picture; lay out again only when its height changes."""
        if picture == self.picture:
            return
        if not self.is_mounted:  # (no styles yet to measure with)
            self.picture = picture
            self.refresh(layout=True)
            return
        width = self.size.width or 48
        height = self.get_content_height(self.size, self.size, width)
        cursor, note = self.cursor, self._note_style
        drawn = self._base is not None and bool(self._lines)
        info = self._info_line(cursor, note) if drawn else None  # (the old picture's words)
        self.picture = picture
        if self.get_content_height(self.size, self.size, width) != height:
            self.refresh(layout=True)
            return
        if not drawn or self._lines_key[2:] != (width,) or not self.size:
            self.refresh()
            return
        # The same height: only the changed lines are drawn again, the info line
        # and the cursor's as they change with the words or the cursor's entry.
        lines, spans, info_y = self._lines, dict(self._spans), self._info_y
        self._lines_key = (id(picture), picture, width)
        self._lines = new = self._render_text(None).split("\n", allow_blank=True)
        changed = changed_rows(lines, new)
        if info_y != self._info_y or info != self._info_line(cursor, note):
            changed |= {info_y, self._info_y}
        if spans.get(cursor) != self._spans.get(cursor):  # (the cursor's entry moved)
            changed |= {span[0] for span in (spans.get(cursor), self._spans.get(cursor)) if span}
        regions = line_regions(changed, width, len(new))
        if regions:
            self.refresh(*regions)

    def cursor_moved(self) -> None:
        """Repaint only the old and the new cursor entry's lines and the info line."""
        old, new = self._painted, self.cursor
        if self._base is None or old is None or new is None or not self._lines:
            self.refresh()
            return
        width = self.size.width
        lines = {self._info_y} | {self._spans[e][0] for e in (old, new) if e in self._spans}
        self._painted = new
        self.refresh(*[Region(0, y, width, 1) for y in sorted(lines) if 0 <= y < len(self._lines)])

    def notify_style_update(self) -> None:
        # new CSS (focus, a theme): the styles kept from the last draw are the old ones
        super().notify_style_update()
        self._base = None
        self.drawn_lines.clear()

    @property
    def position(self) -> int:
        """The cursor as a route position."""
        return (self.cursor or 0) - 1

    @position.setter
    def position(self, value: int) -> None:
        self.cursor = value + 1

    def entry_count(self) -> int:
        return len(self.picture.spaces) + 2

    # --- geometry -------------------------------------------------------------------------
    def cell_width(self, width: int | None = None) -> int:
        width = width if width is not None else (self.size.width or 48)
        return BIG_CELL if width >= BIG_WIDTH else SMALL_CELL

    def per_row(self, width: int | None = None) -> int:
        """Spaces per row: as many as fit, then evened out over the rows needed."""
        width = width if width is not None else (self.size.width or 48)
        n = max(1, len(self.picture.spaces))
        fit = max(3, (width - 2) // self.cell_width(width))
        rows = ceil(n / fit)
        return ceil(n / rows)

    def rows(self, width: int | None = None) -> int:
        return ceil(max(1, len(self.picture.spaces)) / self.per_row(width))

    def place(self, space: int, width: int | None = None) -> tuple[int, int]:
        """(row, column as drawn) of a space: even rows run right, odd rows left."""
        per = self.per_row(width)
        row, col = divmod(space, per)
        return row, (col if row % 2 == 0 else per - 1 - col)

    def space_at(self, row: int, col: int) -> int | None:
        per = self.per_row()
        if not 0 <= col < per or row < 0:
            return None
        space = row * per + (col if row % 2 == 0 else per - 1 - col)
        return space if space < len(self.picture.spaces) else None

    def big(self) -> bool:
        return self.cell_width() == BIG_CELL

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        pic = self.picture
        rows = self.rows(width)
        gap = 1 if width >= BIG_WIDTH else 0
        return 2 + rows * (3 * gap + 2 * (1 - gap) + gap) - gap + 1 + len(self._hand_lines(width)) + \
            (self._legend_lines(width) if pic.legend else 0)

    # --- keys --------------------------------------------------------------------------------
    def action_step(self, dx: int) -> None:
        """Left/Right as drawn: along even rows forward, along odd rows backward; off a
        row's end onto the next row (the serpentine turns)."""
        pos = self.position
        n = len(self.picture.spaces)
        if pos < 0 or pos >= n:
            # from the start or the goal, Right/Left step onto the route's near end
            if pos < 0 and dx > 0:
                self.position = 0
            elif pos >= n:
                row = self.rows() - 1
                self.position = n - 1 if (dx < 0) == (row % 2 == 0) else pos
            return
        row, _ = self.place(pos)
        forward = dx > 0 if row % 2 == 0 else dx < 0
        self.position = max(-1, min(n, pos + (1 if forward else -1)))

    def action_row(self, dy: int) -> None:
        pos = self.position
        n = len(self.picture.spaces)
        if pos < 0:
            if dy > 0:
                self.position = 0
            return
        if pos >= n:
            if dy < 0:
                self.position = n - 1
            return
        row, col = self.place(pos)
        target = self.space_at(row + dy, col)
        if target is not None:
            self.position = target
        elif row + dy < 0:
            self.position = -1
        elif row + dy >= self.rows():
            self.position = n
        else:  # the short last row: go to its nearest space
            self.position = n - 1

    def action_next_mark(self, delta: int) -> None:
        marks = sorted(m.position for m in self.picture.marks)
        if not marks:
            return
        pos = self.position
        ahead = [m for m in marks if (m > pos if delta > 0 else m < pos)]
        self.position = (min(ahead) if delta > 0 else max(ahead)) if ahead else \
            (marks[0] if delta > 0 else marks[-1])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A digit with no destination of that number is left to the screen's bindings.
        if action == "pick":
            return bool(parameters) and int(parameters[0]) < len(self.picture.marks)  # type: ignore[arg-type]
        return super().check_action(action, parameters)

    def action_pick(self, index: int) -> None:
        if 0 <= index < len(self.picture.marks):
            self.post_message(self.MarkPicked(self, index))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for entry, (line, x0, x1) in self._cells.items():
            if line == offset.y and x0 <= offset.x < x1:
                self.click_entry(entry)
                return

    # --- drawing ---------------------------------------------------------------------------------
    def _part(self, name: str) -> Style:
        return self.get_component_rich_style(f"route-track--{name}", partial=True)

    def colour_style(self, colour: int) -> Style:
        return self._part(f"colour-{colour}") if 0 <= colour < COLOURS else Style()

    def render(self) -> Text:
        """The whole widget as one text, the cursor drawn."""
        return self._render_text(self.cursor)

    def _render_text(self, cursor: int | None) -> Text:
        """The whole widget, the cursor drawn on entry ``cursor`` (None: nowhere)."""
        self._drawing = cursor
        pic = self.picture
        width = self.size.width or 48
        cw = self.cell_width(width)
        per = self.per_row(width)
        nrows = self.rows(width)
        big = cw == BIG_CELL
        n = len(pic.spaces)
        path = self._part("path")
        cursor_style = self._part("cursor")
        mark_style = self._part("mark")
        marks = {m.position: m for m in pic.marks}
        focused_cursor = cursor
        self._cells = {}
        self._spans = {}
        lines: list[Text] = []

        # The start: "╭ ATLANTIS  R R R B B B"
        head = Text()
        head.append("╭", path)
        x0 = head.cell_len
        head.append(f"{pic.start_name}", self._part("end") + (cursor_style if focused_cursor == 0 else Style()))
        self._cells[0] = (0, x0, head.cell_len)
        self._spans[0] = (0, len(head) - len(pic.start_name), len(head))
        head.append(" ")
        self._figures(head, pic.at_start, pic.chosen == -1, pic.chosen_letter)
        if -1 in marks:
            head.append(f" ▲{marks[-1].key}", mark_style)
        lines.append(head)

        for row in range(nrows):
            top, bottom = Text(), Text()
            mid = Text() if big else None
            even = row % 2 == 0
            last = row == nrows - 1
            # left margin
            top.append("╰" if even else "╭", path)
            for line in (bottom, mid) if mid is not None else (bottom,):
                line.append(" " if even else "│", path)
            line_top = len(lines)
            for col in range(per):
                space = self.space_at(row, col)
                if space is None:
                    top.append("─" * cw, path)
                    bottom.append(" " * cw)
                    if mid is not None:
                        mid.append(" " * cw)
                    continue
                x, at = top.cell_len, len(top)
                start, end = self._cell(top, bottom, space, pic.spaces[space], cw, marks, pic, mid)
                self._cells[space + 1] = (line_top, x, x + cw - 1)
                self._spans[space + 1] = (line_top, at + start, at + end)
            # right margin
            top.append("╮" if even else "╯", path)
            for line in (bottom, mid) if mid is not None else (bottom,):
                line.append("│" if even else " ", path)
            lines += [top, mid, bottom] if mid is not None else [top, bottom]
            if big and not last:
                gapline = Text(" " * (per * cw + 1))
                gapline.append("│" if even else " ", path)
                if not even:
                    gapline = Text()
                    gapline.append("│", path)
                    gapline.append(" " * (per * cw + 1))
                lines.append(gapline)

        # The goal, on the side where the last row ends.
        goal = Text()
        end_right = (nrows - 1) % 2 == 0
        body = Text()
        gx = 0
        body_name = Text(pic.goal_name, self._part("end") + (cursor_style if focused_cursor == n + 1 else Style()))
        goal_figs = Text()
        self._figures(goal_figs, pic.at_goal, False, "")
        if n in marks:
            goal_figs.append(f" ▲{marks[n].key}", mark_style)
        if end_right:
            body.append_text(goal_figs)
            body.append(" ")
            gx, at = body.cell_len, len(body)
            body.append_text(body_name)
            body.append(" ◀─", path)
            total = per * cw + 2
            goal.append(" " * max(0, total - body.cell_len - 1))
            gx, at = gx + goal.cell_len, at + len(goal)
            goal.append_text(body)
            goal.append("╯", path)
        else:
            goal.append("╰─▶ ", path)
            gx, at = goal.cell_len, len(goal)
            goal.append_text(body_name)
            goal.append(" ")
            goal.append_text(goal_figs)
        self._cells[n + 1] = (len(lines), gx, gx + len(pic.goal_name))
        self._spans[n + 1] = (len(lines), at, at + len(body_name))
        lines.append(goal)

        # The info line: what the cursor is on.
        self._info_y = len(lines)
        lines.append(self._info_line(cursor, self._part("note")))
        lines += self._hand_lines(width)
        if pic.legend:
            lines += self._legend(width)
        out = Text("\n").join(lines)
        out.no_wrap = True
        out.overflow = "crop"
        return out

    def _info_line(self, cursor: int | None, note: Style) -> Text:
        """The info line: what entry ``cursor`` is (its style a span, as once joined)."""
        words = self.picture.words.get((cursor or 0) - 1, "") if cursor is not None else ""
        line = Text(words)
        if words:
            line.stylize(note, 0, len(words))
        return line

    def render_line(self, y: int) -> Strip:
        """The Line API: line ``y`` of ``render()``, converted only when it changed."""
        width = self.size.width
        key = (id(self.picture), self.picture, width)
        if key != self._lines_key or self._base is None:
            self._base = self.rich_style
            self._cursor_style, self._note_style = self._part("cursor"), self._part("note")
            self._lines_key = key
            self._lines = self._render_text(None).split("\n", allow_blank=True)
        base = self._base
        if not 0 <= y < len(self._lines):
            return Strip.blank(width, base)
        self._painted = cursor = self.cursor
        line = self._lines[y]
        if y == self._info_y:
            line = self._info_line(cursor, self._note_style)
        else:
            span = self._spans.get(cursor) if cursor is not None else None
            if span is not None and span[0] == y:
                line = line.copy()
                line.stylize(self._cursor_style, span[1], span[2])
        kept = self.drawn_lines.get(y)
        if kept is not None and kept[0] == line and kept[1].cell_length == width:
            return kept[1]
        segments = list(line.render(self.app.console))
        strip = Strip(Segment.apply_style(segments, base)).extend_cell_length(width, base).crop(0, width)
        self.drawn_lines[y] = (line, strip)
        return strip

    def _figures(self, out: Text, figures: Sequence[tuple[str, Style]], chosen_here: bool, chosen_letter: str) -> None:
        marked = False
        for letter, style in figures:
            if chosen_here and not marked and letter == chosen_letter:
                out.append(letter, style + self._part("chosen"))
                marked = True
            else:
                out.append(letter, style)

    def _cell(self, top: Text, bottom: Text, space: int, sp: RouteSpace, cw: int,
              marks: dict[int, RouteMark], pic: RoutePicture, mid: Text | None = None) -> tuple[int, int]:
        """Draw space ``space``; the span of its top line (from where it began) that the
        cursor reverses."""
        big = cw == BIG_CELL
        pad = " " if big else ""
        cursor = self._drawing == space + 1
        extra = self._part("cursor") if cursor else Style()
        # Changed by another seat since your move: the tint around the space (a plate
        # keeps its own colour, which means something).
        recent = recent_style(self.app.theme_variables) if space in pic.recent else Style()
        at = len(top)
        if sp.kind == "plate":
            label = sp.label[:2].ljust(2)
            face = self.colour_style(sp.colour) + extra
            top.append(f" {label} " if big else label, face)
            top.append(":" if sp.stacked else " ", self._part("head") + recent + extra)
            span = (0, len(top) - at)
            top.append(" " * (cw - (5 if big else 3)), recent)
        elif sp.kind == "water":
            top.append(pad)
            top.append("≈" * (cw - 2 - 2 * len(pad)), self._part("water") + recent + extra)
            span = (len(pad), len(top) - at)
            top.append(" " * (2 + len(pad)))
        elif sp.kind == "bridge":
            top.append(pad)
            top.append("═" * (cw - 2 - 2 * len(pad)), self._part("bridge") + recent + extra)
            span = (len(pad), len(top) - at)
            top.append(" " * (2 + len(pad)))
        else:
            top.append(pad)
            top.append("·".ljust(cw - 1 - len(pad)), self._part("gone") + extra)
            span = (len(pad), len(top) - at)
            top.append(" ")
        if mid is not None:  # the tall cell's second line: the plate beneath a stack
            if sp.kind == "plate" and sp.stacked:
                mid.append("▀▀▀▀", self._part("under"))
                mid.append(" " * (cw - 4))
            elif sp.kind == "water":
                mid.append(" ≈≈", self._part("water"))
                mid.append(" " * (cw - 3))
            else:
                mid.append(" " * cw)
        # under the space: a figure, a destination, or a gap's price
        under = Text(pad)
        if sp.figures:
            self._figures(under, sp.figures, pic.chosen == space, pic.chosen_letter)
        elif space in marks:
            under.append(f"▲{marks[space].key}", self._part("mark"))
        elif sp.note:
            under.append(sp.note, self._part("water"))
        under.truncate(cw, pad=True)
        if space in pic.recent:
            under.stylize(recent, 0, cw - 1)
        bottom.append_text(under)
        return span

    def _hand_lines(self, width: int) -> list[Text]:
        """The viewer's cards and plates: one line when both fit, else one each."""
        pic = self.picture
        out = []
        if pic.hand or pic.hand_note:
            out.append(self._chips("Cards", [(c, pic.letters[c]) for c in pic.hand], pic.hand_note))
        if pic.plates:
            plates = self._chips("Plates", list(pic.plates), "")
            if out and out[0].cell_len + 2 + plates.cell_len <= width:
                out[0].append("  ")
                out[0].append_text(plates)
            else:
                out.append(plates)
        return out

    def _chips(self, title: str, chips: Sequence[tuple[int, str]], note: str) -> Text:
        out = Text()
        out.append(f"{title} ", self._part("head"))
        for colour, label in chips:
            out.append(label, self.colour_style(colour))
            out.append(" ")
        if note:
            out.append(note, self._part("note"))
        return out
