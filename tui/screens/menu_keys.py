"""The menu's light buttons, and its bottom line of keys (``KeyLine``, the line every
screen shares: tui/widgets/key_line.py).  The menu's keys never change with the focus:
its line shows the screen's own keys only, not its fields'.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static

from ..widgets.key_line import KeyLine

__all__ = ["FormButton", "KeyLine"]


class FormButton(Static, can_focus=True):
    """A one-line button of the menu's form: Enter, Space or a click presses it (posts
    ``FormButton.Pressed``).  Drawn by one Static: Textual's Button brings ~7 KB of CSS
    to parse at start and more to style (issue 15); this one is styled in menu.tcss."""

    BINDINGS = [Binding("enter,space", "press", "Press", show=False)]

    class Pressed(Message):
        def __init__(self, button: FormButton) -> None:
            super().__init__()
            self.button = button

        @property
        def control(self) -> FormButton:
            return self.button

    def __init__(self, label: str, *, id: str, primary: bool = False) -> None:
        super().__init__(f" {label} ", id=id, classes="form-button -primary" if primary else "form-button")

    def action_press(self) -> None:
        self.post_message(self.Pressed(self))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.action_press()
