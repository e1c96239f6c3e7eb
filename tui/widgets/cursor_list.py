"""CursorList: what every 1-D cursor widget shares (the choice list, the ship lanes,
the hand): the DataTable model in one dimension.

A reactive ``cursor`` (an entry's index) moved by keys, ``Highlighted`` when it moves
and ``Selected`` on Enter (or a click on the cursor's entry), posted up to the screen,
which decides what they mean.  Entries the subclass reports as disabled
(``entry_enabled``) are skipped by every move and never selected.

A subclass says how many entries there are (``entry_count``), which are enabled, draws
them (reading ``cursor``), turns a click into an index (``click_entry``) and lists its
keys: its own ``BINDINGS`` (with ``inherit_bindings=False``) name the same actions with
the subclass's own binding ids.  The actions are:

    move(delta)   ``delta`` entries on (negative: back), past disabled ones; clamped at
                  the ends, or round the end with ``wrap``
    first, last   the first / last enabled entry
    select        post ``Selected`` for the entry under the cursor

The default keys (a vertical list): Up/k and Down/j move, PageUp/PageDown move 5,
Home/End go to the first/last entry, Enter chooses.

A move repaints through ``cursor_moved`` and posts ``Highlighted`` for the screen.

The switches:

``wrap``             moves go round the ends (a hand of tiles) instead of stopping.
``cursor_optional``  the cursor may be None: no entry is under it (a hand with nothing
                     picked yet); the first move from None goes to the first (forward) or
                     last (back) enabled entry.
``move_selects``     the owner holds the cursor: a move does not move it but posts
                     ``Selected`` for the entry it would reach, and a click posts
                     ``Selected`` at once; the screen then sets ``cursor`` (or refuses).
``enter_selects``    (an attribute) when False, Enter is left to the screen's bindings.

Messages: ``Highlighted(list, index)`` and ``Selected(list, index)`` (a ``Selected``
is also a ``Highlighted``); a subclass gives its own subclasses of both, with names and
attributes that read well at the screen (``ChoiceList.Selected.index``,
``ShipLanes.ShipSelected.ship``), and ``@on(CursorList.Selected)`` catches them all.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


PAGE = 5


class CursorList(Widget, can_focus=True):
    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False, id="list-up"),
        Binding("down,j", "move(1)", "Down", show=False, id="list-down"),
        Binding("pageup", f"move({-PAGE})", "Page up", show=False, id="list-page-up"),
        Binding("pagedown", f"move({PAGE})", "Page down", show=False, id="list-page-down"),
        Binding("home", "first", "First", show=False, id="list-first"),
        Binding("end", "last", "Last", show=False, id="list-last"),
        Binding("enter", "select", "Choose", show=False, id="list-select"),
    ]

    # repaint=False: ``cursor_moved`` repaints (a subclass may repaint only the lines of
    # the old and the new cursor; a reactive repaint would redraw the whole widget).
    cursor: reactive[int | None] = reactive(0, always_update=False, repaint=False)

    wrap: ClassVar[bool] = False
    cursor_optional: ClassVar[bool] = False
    move_selects: ClassVar[bool] = False

    #: When False, Enter is left to the screen's own bindings.
    enter_selects: bool = True

    class Highlighted(Message):
        """The cursor moved to ``index``."""

        def __init__(self, cursor_list: "CursorList", index: int) -> None:
            super().__init__()
            self.cursor_list = cursor_list
            self.index = index

        @property
        def control(self) -> "CursorList":
            return self.cursor_list

    class Selected(Highlighted):
        """Enter (or a click on the cursor's entry) chose ``index``."""

    # --- what a subclass tells ---------------------------------------------------------------
    def entry_count(self) -> int:
        """How many entries there are."""
        raise NotImplementedError

    def entry_enabled(self, index: int) -> bool:
        """Whether the cursor may stop on entry ``index`` (default: every entry)."""
        return True

    def cursor_moved(self) -> None:
        """Redraw after the cursor moved."""
        self.refresh()

    # --- the cursor ------------------------------------------------------------------------------
    def validate_cursor(self, value: int | None) -> int | None:
        n = self.entry_count()
        if value is None or n == 0:
            return None if self.cursor_optional else 0
        return max(0, min(n - 1, value))

    def watch_cursor(self, old: int | None, new: int | None) -> None:
        if new is not None and self.entry_count():
            self.cursor_moved()
            self.post_message(self.Highlighted(self, new))
        else:
            self.cursor_moved()

    def enabled_entries(self) -> list[int]:
        return [i for i in range(self.entry_count()) if self.entry_enabled(i)]

    def target(self, delta: int) -> int | None:
        """Where ``move(delta)`` goes from the cursor: ``delta`` entries on, then on in the
        same direction past disabled entries (back towards the cursor if none is left)."""
        n = self.entry_count()
        enabled = self.enabled_entries()
        if not enabled or delta == 0:
            return None
        if self.cursor is None:
            start = -1 if delta > 0 else (n if not self.wrap else 0)
        else:
            start = self.cursor
        forward = delta > 0
        goal = start + delta
        if self.wrap:
            goal %= n
            order = [(goal + i) % n for i in range(n)] if forward else [(goal - i) % n for i in range(n)]
            return next(i for i in order if self.entry_enabled(i))
        goal = max(0, min(n - 1, goal))
        ahead = [i for i in enabled if (i >= goal if forward else i <= goal)]
        if ahead:
            return min(ahead) if forward else max(ahead)
        behind = [i for i in enabled if (i < goal if forward else i > goal)]
        return max(behind) if forward else min(behind)

    def _go(self, index: int | None) -> None:
        if index is None:
            return
        if self.move_selects:
            self.post_message(self.Selected(self, index))
        else:
            self.cursor = index

    # --- actions ----------------------------------------------------------------------------------
    def action_move(self, delta: int) -> None:
        self._go(self.target(delta))

    def action_first(self) -> None:
        enabled = self.enabled_entries()
        self._go(enabled[0] if enabled else None)

    def action_last(self) -> None:
        enabled = self.enabled_entries()
        self._go(enabled[-1] if enabled else None)

    def action_select(self) -> None:
        index = self.cursor
        if index is not None and 0 <= index < self.entry_count() and self.entry_enabled(index):
            self.post_message(self.Selected(self, index))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select" and not self.enter_selects:
            return False
        return True

    def click_entry(self, index: int) -> None:
        """A click on entry ``index``: choose it if the cursor is already there (or the
        owner holds the cursor), else move the cursor there."""
        if not (0 <= index < self.entry_count()) or not self.entry_enabled(index):
            return
        if self.move_selects or index == self.cursor:
            self.post_message(self.Selected(self, index))
        else:
            self.cursor = index
