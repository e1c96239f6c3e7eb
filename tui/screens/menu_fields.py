"""The menu's form fields: each game option gets the widget that fits its type (a Switch
for on/off, a CycleSelect for a fixed set of words, an Input for numbers and text) with its
help beside it and a line for its error below it.

``option_field`` builds one field from a row of the game's option table (plain data,
``engine.options.OptionField``: no pydantic at the menu's start); ``read_value``
reads a widget back as the raw value the options model validates; ``field_errors`` maps
pydantic's complaints to the fields they are about.

A choice among a few words (players, each seat's human / bot / open, a word option) is a
``CycleSelect``: one line that steps through its choices, with no drop-down list.
"""

from __future__ import annotations

import textwrap
import typing
from typing import Any, Iterable

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.validation import Integer
from textual.widget import Widget
from textual.widgets import Input, Static, Switch

if typing.TYPE_CHECKING:
    from pydantic import BaseModel

    from engine.options import OptionField


class CycleSelect(Widget, can_focus=True):
    """A choice among a few words on one line (``‹ choice ›``): Space, → or ↓ step to the
    next choice, ← or ↑ to the one before, a click steps on, and a typed letter jumps to
    the next choice whose value starts with it (h, b, o for a seat; a digit for players).
    Enter goes on to the next field, as everywhere in the menu's form.

    ``options`` are ``(prompt, value)`` pairs, as a ``Select``'s; ``value`` is the chosen
    one, and each change posts ``Changed``."""

    DEFAULT_CSS = "CycleSelect { width: auto; height: 1; color: $foreground; background: transparent; }"
    BINDINGS = [
        Binding("space,right,down", "step(1)", "Next choice", show=False),
        Binding("enter", "app.focus_next", "Next field", show=False),
        Binding("left,up", "step(-1)", "Previous choice", show=False),
    ]

    value: reactive[Any] = reactive(None, init=False)

    class Changed(Message):
        """The choice changed to ``value``."""

        def __init__(self, select: CycleSelect, value: Any) -> None:
            super().__init__()
            self.select = select
            self.value = value

        @property
        def control(self) -> CycleSelect:
            return self.select

    def __init__(self, options: Iterable[tuple[Any, Any]], value: Any = None, *,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.options: list[tuple[Any, Any]] = list(options)
        self.set_reactive(CycleSelect.value, self._known(value))

    def _known(self, value: Any) -> Any:
        """``value`` if it is one of the choices, else the first choice."""
        values = [v for _, v in self.options]
        return value if value in values else (values[0] if values else None)

    def set_options(self, options: Iterable[tuple[Any, Any]]) -> None:
        """New choices, the first one chosen quietly (set ``value`` after); the width may change."""
        self.options = list(options)
        self.set_reactive(CycleSelect.value, self._known(None))
        self.refresh(layout=True)

    def validate_value(self, value: Any) -> Any:
        return self._known(value)

    def watch_value(self, value: Any) -> None:
        self.refresh()  # (its width is its widest choice's: the layout stays)
        if self.is_mounted:
            self.post_message(self.Changed(self, value))

    def _index(self) -> int:
        return next((i for i, (_, v) in enumerate(self.options) if v == self.value), 0)

    def action_step(self, delta: int) -> None:
        if self.options:
            self.value = self.options[(self._index() + delta) % len(self.options)][1]

    def render(self) -> Text:
        prompt = self.options[self._index()][0] if self.options else ""
        return Text.assemble("‹ ", prompt if isinstance(prompt, Text) else str(prompt), " ›")

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return max((len(str(p)) for p, _ in self.options), default=0) + 4

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return 1

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.focus()
        self.action_step(1)

    def on_key(self, event: events.Key) -> None:
        char = event.character
        if not char or not char.isprintable() or char.isupper():  # H, J: the menu's Host, Join
            return
        n = len(self.options)
        start = self._index()
        for step in range(1, n + 1):
            value = self.options[(start + step) % n][1]
            if str(value).lower().startswith(char):
                event.stop()
                event.prevent_default()
                self.value = value
                return


class FieldBox(Vertical):
    """One field of the form: its label, drawn by the box itself in the first 16 columns
    (reversed while the field has the focus), then the widget (placed past the label by
    its margin), [a word beside it], the help; and later the field's error line under
    them (``error_lines``).  The label is no widget of its own: each widget slows the
    menu's start."""

    LABEL = Style(bold=True, reverse=True)  # (the label of the field with the focus)
    LABEL_WIDTH = 15  # (and a blank column before the widget)

    def __init__(self, *children: Widget, label: str, id: str, classes: str) -> None:
        super().__init__(*children, id=id, classes=classes)
        self.label = label
        self._lines = textwrap.wrap(label, self.LABEL_WIDTH, break_on_hyphens=False) or [""]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As high as its row (and error line), or as its label if that wraps to more lines."""
        return max(super().get_content_height(container, viewport, width), len(self._lines))

    def render(self) -> Text:
        style = self.LABEL if self.has_focus_within else ""
        return Text("\n").join(Text(line, style=style) for line in self._lines)


def field_box(name: str, label: str, widget: Widget, help_text: str | None, *,
              extra: Widget | None = None) -> FieldBox:
    """``label [widget] help`` on one row (the label drawn by the box, the rest laid out
    side by side in it: no row container), and later the field's error line
    under it (``error_lines``, docked at the box's bottom).
    The box has id ``field-NAME``; ``help_text`` None: no help beside the widget."""
    widget.add_class("field-widget")
    parts: list[Widget] = [widget]
    if extra is not None:
        parts.append(extra)
    if help_text is not None:
        parts.append(Static(help_text, classes="field-help"))
    return FieldBox(*parts, label=label, id=f"field-{name}",
                    classes="field -with-extra" if extra is not None else "field")


def error_lines(form: Widget) -> None:
    """Give every field box of ``form`` that has none its error line (``error-NAME``, hidden
    while empty), last in the box.  Made when the form is first checked, not with the
    form: until then no field has an error, and a widget each costs start time."""
    for box in form.query(".field"):
        if not box.query_children(".field-error"):
            name = (box.id or "").removeprefix("field-")
            box.mount(Static("", id=f"error-{name}", classes="field-error"))


def option_widget(spec: OptionField, value: Any) -> Widget:
    """The widget for one option, showing ``value`` (the saved raw value or the default)."""
    wid = f"opt-{spec.name}"
    if spec.kind is bool:
        switch = Switch(bool(value) if not isinstance(value, str) else value.lower() in ("true", "1", "on", "yes"),
                        id=wid, animate=False)
        return switch
    if spec.words:
        words = [str(w) for w in spec.words]
        return CycleSelect([(w, w) for w in words], value=str(value) if str(value) in words else words[0], id=wid)
    if spec.kind is int:
        return Input(str(value), id=wid, type="integer", compact=True, max_length=12,
                     validators=[Integer(minimum=spec.low, maximum=spec.high)], valid_empty=False)
    return Input(str(value), id=wid, compact=True, max_length=60)


def option_help(spec: OptionField) -> str:
    text = spec.help
    if spec.kind is int and spec.low is not None and spec.high is not None:
        text += f" ({spec.low}-{spec.high})"
    return text


def option_field(spec: OptionField, value: Any) -> Vertical:
    """The field of one option (a row of the game's ``FIELDS``, ``engine.options``)."""
    widget = option_widget(spec, value)
    extra = None
    if isinstance(widget, Switch):  # the word beside the slider: readable without colour
        extra = Static("on" if widget.value else "off", id=f"word-{spec.name}", classes="switch-word")
    return field_box(spec.name, spec.name.replace("_", " "), widget, option_help(spec), extra=extra)


def read_value(widget: Widget) -> Any:
    if isinstance(widget, Switch):
        return widget.value
    if isinstance(widget, CycleSelect):
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
