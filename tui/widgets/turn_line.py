"""TurnLine: the side panel's turn line, one ``Static`` per paragraph.

The turn line's paragraphs (whose turn, a hint, the words under the board's cursor)
change one at a time: a cursor key changes only the last.  With a ``Static`` each,
Textual redraws only the paragraph whose text changed.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from .quiet_update import update_quietly


def paragraphs(content: Any) -> list[Any]:
    """``content`` (a rich ``Text`` or a string) cut at its newlines."""
    if isinstance(content, Text):
        return list(content.split("\n", allow_blank=True)) or [Text("")]
    return str(content).split("\n")


class TurnLine(Widget):
    """The turn line: ``update(content)`` as a ``Static``'s; ``content`` is what it shows."""

    DEFAULT_CSS = """
    TurnLine { height: auto; layout: vertical; }
    TurnLine > Static { height: auto; }
    """

    def __init__(self, content: Any = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.content: Any = content

    def compose(self) -> ComposeResult:
        for paragraph in paragraphs(self.content):
            yield Static(paragraph)

    @property
    def plain(self) -> str:
        """The text shown, without styles."""
        return self.content.plain if isinstance(self.content, Text) else str(self.content)

    def update(self, content: Any = "", *, layout: bool = False) -> None:
        """Show ``content``: each paragraph's ``Static`` is updated only if its text
        changed, and the screen laid out again only if its height changed (``layout``: in
        any case).  Another number of paragraphs composes the line anew."""
        self.content = content
        if not self.is_mounted:
            return
        parts = paragraphs(content)
        shown = list(self.query_children(Static))
        if len(shown) != len(parts):
            self.refresh(recompose=True)
            return
        for static, part in zip(shown, parts):
            if static.content == part:
                continue
            if layout:
                static.update(part)
            else:
                update_quietly(static, part)
