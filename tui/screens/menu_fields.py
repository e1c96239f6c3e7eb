"""The menu's form fields: each game option gets the widget that fits its type (a Switch
for on/off, a Select for a fixed set of words, an Input for numbers and text) with its
help beside it and a line for its error below it.

``option_field`` builds one field from the options model's field info; ``read_value``
reads a widget back as the raw value the options model validates; ``field_errors`` maps
pydantic's complaints to the fields they are about.

A choice among a few words (players, each seat's human / bot / open, a word option) is a
``CycleSelect``: a ``Select`` drawn on one line that steps through its choices, without
the drop-down list a ``Select`` builds for itself (an OptionList each: the menu's eight
of them cost ~100 ms of its start, issue 15).
"""

from __future__ import annotations

import typing
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.validation import Integer
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, Switch

if typing.TYPE_CHECKING:
    from pydantic import BaseModel


class CycleSelect(Select):
    """A Select on one line (``‹ choice ›``): Space, → or ↓ step to the next choice, ← or
    ↑ to the one before, a click steps on, and a typed letter jumps to the next choice
    whose value starts with it (h, b, o for a seat; a digit for players).  Enter goes on
    to the next field, as everywhere in the menu's form.

    It keeps Select's API (``value``, ``set_options``, ``Changed``) but composes no
    children: no SelectCurrent, no SelectOverlay (whose relayouts and restyles were most
    of the menu's start)."""

    BINDINGS = [
        Binding("space,right,down", "step(1)", "Next choice", show=False),
        Binding("enter", "app.focus_next", "Next field", show=False),
        Binding("left,up", "step(-1)", "Previous choice", show=False),
    ]

    def compose(self):  # type: ignore[override]
        yield from ()

    def _setup_options_renderables(self) -> None:
        """(No drop-down list to fill.)"""

    def _watch_value(self, value: Any) -> None:
        self._value = value
        self.refresh(layout=True)
        if self.is_mounted:
            self.post_message(self.Changed(self, value))

    def _watch_expanded(self, expanded: bool) -> None:
        """(Never expanded.)"""

    def _watch_prompt(self, prompt: str) -> None:
        self.refresh()

    def action_show_overlay(self) -> None:
        self.action_step(1)

    def _index(self) -> int:
        return next((i for i, (_, v) in enumerate(self._options) if v == self.value), 0)

    def action_step(self, delta: int) -> None:
        self.value = self._options[(self._index() + delta) % len(self._options)][1]

    def render(self) -> Text:
        prompt = self._options[self._index()][0] if self._options else ""
        return Text.assemble("‹ ", prompt if isinstance(prompt, Text) else str(prompt), " ›")

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return max((len(str(p)) for p, _ in self._options), default=0) + 4

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return 1

    def _on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.action_step(1)

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if not char or not char.isprintable() or char.isupper():  # H, J: the menu's Host, Join
            return
        n = len(self._options)
        start = self._index()
        for step in range(1, n + 1):
            value = self._options[(start + step) % n][1]
            if str(value).lower().startswith(char):
                event.stop()
                event.prevent_default()
                self.value = value
                return


def field_box(name: str, label: str, widget: Widget, help_text: str, *, extra: Widget | None = None) -> Vertical:
    """``[label] [widget] help`` on one row, and the field's error line under it (hidden
    while empty).  The box has id ``field-NAME``; the error ``error-NAME``."""
    parts: list[Widget] = [Label(label, classes="field-label"), widget]
    if extra is not None:
        parts.append(extra)
    parts.append(Static(help_text, classes="field-help"))
    return Vertical(Horizontal(*parts, classes="field-row"),
                    Static("", id=f"error-{name}", classes="field-error"),
                    id=f"field-{name}", classes="field")


def _bounds(info: Any) -> tuple[int | None, int | None]:
    low = high = None
    for m in info.metadata:  # annotated_types' Ge / Le, read by name (its import costs ~6 ms)
        if getattr(m, "ge", None) is not None:
            low = int(m.ge)
        if getattr(m, "le", None) is not None:
            high = int(m.le)
    return low, high


def option_widget(name: str, info: Any, value: Any) -> Widget:
    """The widget for one option, showing ``value`` (the saved raw value or the default)."""
    wid = f"opt-{name}"
    annotation = info.annotation
    if annotation is bool:
        switch = Switch(bool(value) if not isinstance(value, str) else value.lower() in ("true", "1", "on", "yes"),
                        id=wid, animate=False)
        return switch
    if typing.get_origin(annotation) is typing.Literal:
        words = [str(w) for w in typing.get_args(annotation)]
        return CycleSelect([(w, w) for w in words], value=str(value) if str(value) in words else words[0],
                           allow_blank=False, id=wid)
    if annotation is int:
        low, high = _bounds(info)
        return Input(str(value), id=wid, type="integer", compact=True, max_length=12,
                     validators=[Integer(minimum=low, maximum=high)], valid_empty=False)
    return Input(str(value), id=wid, compact=True, max_length=60)


def option_help(info: Any) -> str:
    text = info.description or ""
    if info.annotation is int:
        low, high = _bounds(info)
        if low is not None and high is not None:
            text += f" ({low}-{high})"
    return text


def option_field(name: str, info: Any, value: Any) -> Vertical:
    widget = option_widget(name, info, value)
    extra = None
    if isinstance(widget, Switch):  # the word beside the slider: readable without colour
        extra = Static("on" if widget.value else "off", id=f"word-{name}", classes="switch-word")
    return field_box(name, name.replace("_", " "), widget, option_help(info), extra=extra)


def read_value(widget: Widget) -> Any:
    if isinstance(widget, Switch):
        return widget.value
    if isinstance(widget, Select):
        return widget.value
    if isinstance(widget, Input):
        return widget.value.strip()
    raise TypeError(type(widget).__name__)


def field_errors(model: type[BaseModel], raw: dict[str, Any]) -> tuple[BaseModel | None, dict[str, str]]:
    """The validated options, or None and one sentence per option that is wrong."""
    from pydantic import ValidationError  # (on Start: the menu's import stays light)

    try:
        return model.model_validate(raw), {}
    except ValidationError as exc:
        errors: dict[str, str] = {}
        for err in exc.errors():
            where = str(err["loc"][0]) if err["loc"] else ""
            message = err["msg"].removeprefix("Value error, ")
            if err["type"].startswith("int_"):
                message = "a whole number, please"
            errors.setdefault(where, message[0].upper() + message[1:] + ("" if message.endswith(".") else "."))
        return None, errors
