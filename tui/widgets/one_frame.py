"""One frame per cursor key (issue 15).

A cursor widget posts a "cursor moved" message; the screen redraws what depends on it
(its side panel, a preview) when the message reaches it, a few task switches later.  Had
the widget repainted its cursor at once, Textual would paint the cursor first and the
rest one frame period later: two frames a key, the second ~17-30 ms after the first.  So
the widget repaints its cursor when the message has been handled by every node up to the
screen (it is about to bubble on to the app, or a handler stopped it): both repaints are
asked for in the same step and go out in one frame.  A message that never gets that far
(its widget unmounted, a screen switched) repaints after ``HOLD_LIMIT`` seconds at most.

On its way up, such a message skips the widgets that would only pass it on to their
parent (no handler for it, Textual's own message handling: the containers between a
board and its screen), as Textual would have passed it through them (their checks and
prevented messages, a stop where the sender is the parent): each of those hops was a
queue, a task switch and a look through the class's handlers, ~0.1 ms a message.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget

HOLD_LIMIT = 0.05  # seconds: the longest a repaint waits for its message


class HeldMessage(Message):
    """A message that runs its ``_then`` callback once it has been handled up to the
    screen (see ``post_then``)."""

    _then: Callable[[], None] | None = None
    _then_app: Any = None

    def _bubble_to(self, widget: Any) -> None:
        if self._then is not None and widget is self._then_app:
            self._then()  # handled by the screen: on to the app
        self._no_default_action = False
        deliver(self, widget)

    def stop(self, stop: bool = True) -> Message:
        result = super().stop(stop)
        if stop and self._then is not None:
            self._then()  # no one above will see it
        return result


_PASSES_ON: dict[tuple[type, type], bool] = {}


def passes_on(node: Any, message: Message) -> bool:
    """Whether ``node`` would do nothing with ``message`` but pass it on to its parent: a
    widget (not a screen) with Textual's own message handling and no handler for it."""
    key = (type(node), type(message))
    known = _PASSES_ON.get(key)
    if known is None:
        cls = type(node)
        name = message.handler_name
        kinds = [kind for kind in type(message).__mro__ if isinstance(kind, type) and issubclass(kind, Message)]
        handles = any(
            klass.__dict__.get(f"_{name}") is not None or klass.__dict__.get(name) is not None
            or any((klass.__dict__.get("_decorated_handlers") or {}).get(kind) for kind in kinds)
            for klass in cls.__mro__)
        known = _PASSES_ON[key] = (
            isinstance(node, Widget) and not isinstance(node, Screen) and not handles
            and cls._on_message is MessagePump._on_message and cls._dispatch_message is MessagePump._dispatch_message
            and cls.post_message is Widget.post_message and cls.check_message_enabled is Widget.check_message_enabled)
    return known


def deliver(message: Message, node: Any) -> bool:
    """Post ``message`` to ``node``, or to the first node above it that may do something
    with it, passing it through those between as Textual would (``post_message``'s checks,
    then ``_on_message``'s bubbling with no handler).  False if it was not posted."""
    while passes_on(node, message):
        if node._closing or node._closed or not node.check_message_enabled(message):
            return False
        message._prevent.update(node._get_prevented_messages())
        parent = node._parent
        if not (message.bubble and parent and not message._stop_propagation):
            return True
        if message._sender is not None and message._sender == parent:
            message.stop()
        if not (node.is_parent_active and node.is_attached):
            return True
        message._no_default_action = False
        node = parent
    return node.post_message(message)


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
    if not deliver(message, widget):
        run()
