"""One frame per cursor key (issue 15).

A cursor widget posts a "cursor moved" message; the screen redraws what depends on it
(its side panel, a preview) when the message reaches it, a few task switches later.  Had
the widget repainted its cursor at once, Textual would paint the cursor first and the
rest one frame period later: two frames a key, the second ~17-30 ms after the first.  So
the widget repaints its cursor when the message has been handled by every node up to the
screen (it is about to bubble on to the app, or a handler stopped it): both repaints are
asked for in the same step and go out in one frame.  A message that never gets that far
(its widget unmounted, a screen switched) repaints after ``HOLD_LIMIT`` seconds at most.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from textual.message import Message

HOLD_LIMIT = 0.05  # seconds: the longest a repaint waits for its message


class HeldMessage(Message):
    """A message that runs its ``_then`` callback once it has been handled up to the
    screen (see ``post_then``)."""

    _then: Callable[[], None] | None = None
    _then_app: Any = None

    def _bubble_to(self, widget: Any) -> None:
        if self._then is not None and widget is self._then_app:
            self._then()  # handled by the screen: on to the app
        super()._bubble_to(widget)

    def stop(self, stop: bool = True) -> Message:
        result = super().stop(stop)
        if stop and self._then is not None:
            self._then()  # no one above will see it
        return result


def post_then(widget: Any, message: HeldMessage, then: Callable[[], None]) -> None:
    """Post ``message`` from ``widget``; call ``then`` once it was handled up to the screen
    (at once when the widget is not running in an app)."""
    try:
        app = widget.app
        loop = asyncio.get_running_loop()
    except Exception:  # (no app or no loop: nothing will handle it later)
        app = loop = None
    if loop is None or not widget.is_mounted or not getattr(app, "_running", False):
        then()
        widget.post_message(message)
        return
    done = False

    def run() -> None:
        nonlocal done
        if done:
            return
        done = True
        message._then = None
        handle.cancel()
        if widget.is_mounted:
            then()

    handle = loop.call_later(HOLD_LIMIT, run)
    message._then, message._then_app = run, app
    if not widget.post_message(message):
        run()
