"""The menu's form fields: each game option gets the widget that fits its type (a Switch
for on/off, a Select for a fixed set of words, an Input for numbers and text) with its
help beside it and a line for its error below it.

``option_field`` builds one field from the options model's field info; ``read_value``
reads a widget back as the raw value the options model validates; ``field_errors`` maps
pydantic's complaints to the fields they are about.
"""

from __future__ import annotations

import typing
from typing import Any

from annotated_types import Ge, Le
from pydantic import BaseModel, ValidationError
from textual.containers import Horizontal, Vertical
from textual.validation import Integer
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, Switch


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
    for m in info.metadata:
        if isinstance(m, Ge):
            low = int(m.ge)  # type: ignore[arg-type]
        elif isinstance(m, Le):
            high = int(m.le)  # type: ignore[arg-type]
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
        return Select([(w, w) for w in words], value=str(value) if str(value) in words else words[0],
                      allow_blank=False, id=wid, compact=True)
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
