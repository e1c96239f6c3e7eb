"""Update a ``Static`` without laying the screen out again when its size stays.

``Static.update`` asks for a layout of the whole screen every time (its new text might
need another height), and a layout re-arranges and repaints every widget on the screen.
A side panel's Static keeps its width, and mostly its height, from one move to the next:
this repaints only it, and asks for the layout only when its height did change.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Static


def update_quietly(static: Static, content: Any) -> None:
    """Show ``content`` in ``static``; lay the screen out again only if its height changed
    (or when its size cannot be known: not laid out yet, or as wide as its text)."""
    width = static.size.width
    styles = static.styles
    if not width or (styles.width is not None and styles.width.is_auto):
        static.update(content)
        return
    if styles.height is not None and not styles.height.is_auto:
        static.update(content, layout=False)  # (a fixed height: the text never moves anything)
        return
    height = static.size.height
    static.update(content, layout=False)
    if static.get_content_height(static.size, static.screen.size, width) != height:
        static.refresh(layout=True)
