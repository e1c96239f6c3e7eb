"""The menu's bottom line of keys (what Textual's Footer shows there, drawn by one
widget) and its light buttons.

The Footer builds a widget per key and rebuilds them all whenever the focus moves (at
the menu's start: once its bindings are known, then again for each focus change), which
cost the menu a frame and ~20 ms of its start (issue 15).  The menu's keys never change
with the focus (its fields' own keys are not shown), so one line drawn once does.  A
click on a key presses it, as on the Footer.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Static


class KeyLine(Static):
    """``^S Start  F2 Host on LAN ... ^p palette`` on the screen's last line."""

    COMPONENT_CLASSES = {"keyline--key", "keyline--label"}
    DEFAULT_CSS = """
    KeyLine { dock: bottom; height: 1; width: 1fr; color: $footer-foreground; background: $footer-background; }
    KeyLine > .keyline--key { color: $footer-key-foreground; background: $footer-key-background; text-style: bold; }
    KeyLine > .keyline--label { color: $footer-description-foreground; background: $footer-description-background; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._spans: list[tuple[int, int, str]] = []  # (start, end, key) of each shown key

    def _shown(self) -> tuple[list[Binding], Binding | None]:
        """The screen's own shown keys (as remapped by a keymap), and the palette's."""
        screen, app = self.screen, self.app
        active = screen.active_bindings
        own = [b.binding for b in active.values() if b.binding.show and b.node is screen]
        palette = active.get(app.COMMAND_PALETTE_BINDING) if app.ENABLE_COMMAND_PALETTE else None
        return own, palette.binding if palette is not None else None

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keyline--key")
        label_style = self.get_component_rich_style("keyline--label")
        text = Text(no_wrap=True, overflow="crop")
        spans = []
        own, palette = self._shown()
        for binding in own:
            start = len(text)
            text.append(f" {self.app.get_key_display(binding)} ", key_style)
            text.append(f"{binding.description} ", label_style)
            spans.append((start, len(text), binding.key.split(",")[0]))
        if palette is not None:
            tail = Text.assemble((f" {self.app.get_key_display(palette)} ", key_style),
                                 (f"{palette.description.lower()} ", label_style))
            gap = self.size.width - len(text) - len(tail)
            if gap >= 1:
                text.append(" " * gap)
                spans.append((len(text), len(text) + len(tail), palette.key))
                text.append_text(tail)
        self._spans = spans
        return text

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(key)
                return

    def on_resize(self, event: events.Resize) -> None:
        self.refresh()  # the palette key stays at the right edge


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
