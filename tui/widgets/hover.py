"""The part of a widget under the mouse pointer, for widgets that draw several clickable
parts themselves (the key line's keys, the menu's games and buttons)."""

from __future__ import annotations

from typing import Any

from textual import events


class HoverMark:
    """Mixed into a widget: ``_hover`` is the part under the pointer (None: none), as
    ``hover_at`` names it; the widget is drawn again when it changes, and when the pointer
    leaves."""

    _hover: Any = None

    def hover_at(self, event: events.MouseMove) -> Any:
        """The part under the pointer (None: none)."""
        raise NotImplementedError

    def on_mouse_move(self, event: events.MouseMove) -> None:
        at = self.hover_at(event)
        if at != self._hover:
            self._hover = at
            self.refresh()  # type: ignore[attr-defined]

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()  # type: ignore[attr-defined]
