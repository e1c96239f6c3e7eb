"""The menu's buttons (one widget), and its bottom line of keys (``KeyLine``, the line every
screen shares: tui/widgets/key_line.py).  The menu's keys never change with the focus:
its line shows the screen's own keys only, not its fields'.
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.geometry import Size
from textual.widget import Widget

from ..widgets.hover import HoverMark
from ..widgets.key_line import KeyLine

__all__ = ["FormButtons", "KeyLine"]


class FormButtons(HoverMark, Widget, can_focus=True):
    """The menu's one-line buttons (Start, Host on LAN, Join LAN), one widget drawing
    them all: Tab and Shift+Tab step from one button to the next as from field to field
    (on to the next field past the last; Shift+Tab into the row lands on the last one),
    Left and Right too; Enter, Space or a click presses the button shown focused (posts
    ``FormButtons.Pressed`` with its id).  One widget, not a row of four: each widget slows
    a menu's start.  Styled in menu.tcss by its component
    classes (a button, the primary one, the focused one, the one under the mouse)."""

    BINDINGS = [Binding("enter,space", "press", "Press", show=False),
                Binding("left", "step(-1)", "Back", show=False), Binding("right", "step(1)", "Next", show=False)]
    COMPONENT_CLASSES = {"form-buttons--button", "form-buttons--primary", "form-buttons--focused",
                         "form-buttons--hover", "form-buttons--primary-hover"}
    GAP = 2  # columns between two buttons

    class Pressed(Message):
        def __init__(self, buttons: FormButtons, button: str) -> None:
            super().__init__()
            self.buttons, self.button = buttons, button  # (the button's id)

        @property
        def control(self) -> FormButtons:
            return self.buttons

    def __init__(self, buttons: Sequence[tuple[str, str]], *, primary: str, id: str) -> None:
        """``buttons``: (id, label) of each, in order; ``primary``: the id drawn as the main one."""
        super().__init__(id=id)
        self._buttons = [(bid, f" {label} ") for bid, label in buttons]
        self._primary = primary
        self.current = 0  # the button Enter presses (drawn focused while the row has the focus)
        self._hover: int | None = None

    @property
    def current_id(self) -> str:
        return self._buttons[self.current][0]

    def _spans(self) -> list[tuple[int, int]]:
        spans, x = [], 0
        for _, label in self._buttons:
            spans.append((x, x + len(label)))
            x += len(label) + self.GAP
        return spans

    def _at(self, x: int) -> int | None:
        return next((i for i, (a, b) in enumerate(self._spans()) if a <= x < b), None)

    def _show(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.refresh()

    def action_press(self) -> None:
        self.post_message(self.Pressed(self, self.current_id))

    def action_step(self, delta: int) -> None:
        self._show(max(0, min(len(self._buttons) - 1, self.current + delta)))

    def on_focus(self, event: events.Focus) -> None:
        backwards = getattr(self.screen, "last_key", "") == "shift+tab"
        self._show(len(self._buttons) - 1 if backwards else 0)
        self.refresh()

    def on_blur(self, event: events.Blur) -> None:
        self.refresh()

    def on_key(self, event: events.Key) -> None:
        step = 1 if event.key == "tab" else -1 if event.key == "shift+tab" else 0
        if step and 0 <= self.current + step < len(self._buttons):  # (past the ends: the next field)
            event.stop()
            event.prevent_default()
            self._show(self.current + step)

    def on_click(self, event: events.Click) -> None:
        index = self._at(event.x - self.gutter.left)
        if index is not None:
            event.stop()
            self._show(index)
            self.focus()
            self.action_press()

    def hover_at(self, event: events.MouseMove) -> int | None:
        return self._at(event.x - self.gutter.left)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._spans()[-1][1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1

    def render(self) -> Text:
        style = self.get_component_rich_style
        out = Text(no_wrap=True, end="")
        for index, (bid, label) in enumerate(self._buttons):
            if index:
                out.append(" " * self.GAP)
            primary = bid == self._primary
            look = style("form-buttons--primary" if primary else "form-buttons--button")
            if index == self._hover:
                look += style("form-buttons--primary-hover" if primary else "form-buttons--hover", partial=True)
            if index == self.current and self.has_focus:
                look += style("form-buttons--focused", partial=True)
            out.append(label, look)
        return out
