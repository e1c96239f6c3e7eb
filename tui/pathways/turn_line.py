"""The turn line after a cursor key, without measuring it when that is safe (issue 15)."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static


def show_turn_line(screen: Any, text: Text) -> None:
    """The turn line after a cursor key: repainted, laid out again only when its height
    changes (a layout costs a second frame a key)."""
    shown = getattr(screen, "_shown", None)  # GameScreen._show's record of what is shown
    before = shown.get("#turn-line") if shown is not None else None
    if before == text:
        return
    line = screen.query_one("#turn-line", Static)
    height = line.size.height
    line.update(text, layout=False)
    if shown is not None:
        shown["#turn-line"] = text
    if not same_height(before, text, line.content_size.width) and \
            line.get_content_height(line.size, screen.size, line.size.width) != height:
        line.refresh(layout=True)


def same_height(before: Text | None, text: Text, width: int) -> bool:
    """Whether ``text`` surely wraps to as many lines as ``before`` at ``width`` without
    measuring it (a measure costs ~0.2 ms): only the last line differs, and both fit."""
    if not isinstance(before, Text) or width <= 0:
        return False
    head, _, tail = before.plain.rpartition("\n")
    new_head, _, new_tail = text.plain.rpartition("\n")
    return head == new_head and cell_len(tail) <= width and cell_len(new_tail) <= width
