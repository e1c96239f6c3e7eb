"""Textual's handler look-ups, remembered (issue 15: start time).

Two look-ups Textual (8.2.8, pinned) repeats are a good part of its cost of delivering
messages at a start (the menu's: ~800 messages, ~110 handlers met for the first time):

* ``textual._callback._count_parameters``: how many arguments a handler takes, by
  ``inspect.signature``, once per function (Textual keeps the count on it).  For a plain
  Python function the count is in its code object; ``fast_count_parameters`` reads it
  there and leaves everything else (a wrapper with ``__wrapped__`` or ``__signature__``,
  a builtin, a callable object) to ``inspect.signature``.
* ``MessagePump._get_dispatch_methods``: a message's handlers, found by walking the
  receiver's class MRO for every message (each class's ``__dict__`` asked for the
  ``on_...``/``_on_...`` method and for its decorated handlers).  What the walk finds
  depends only on the receiver's class, the message's class and the method name, so
  ``dispatch_methods`` keeps the walk as a plan per (class, message class, name) and runs
  it: the same handlers in the same order, bound to the receiver, stopping where
  ``prevent_default()`` stops Textual's walk, and a decorated handler's selectors
  matched against each message as Textual matches them.

The plans rely on handler methods not being added to or replaced on a class once its
instances get messages (nothing here does: instance attributes were never handlers).
Each class holds its own plans (in its ``__dict__``), so a class made in a test goes with
its plans.
"""

from __future__ import annotations

import inspect
from types import FunctionType
from typing import Any, Callable, Iterable

from textual import _callback
from textual._on import OnNoWidget
from textual.css.match import match
from textual.message import Message
from textual.message_pump import MessagePump

_ORIGINAL_COUNT = _callback._count_parameters
_ORIGINAL_DISPATCH = MessagePump._get_dispatch_methods
_VARARGS, _VARKEYWORDS = inspect.CO_VARARGS, inspect.CO_VARKEYWORDS
_installed = False
#: what makes ``inspect.signature`` look past a function's own code
_SIGNATURE_ATTRIBUTES = frozenset({"__wrapped__", "__signature__", "_partialmethod", "__text_signature__"})


def fast_count_parameters(func: Callable) -> int:
    """``len(inspect.signature(func).parameters)``, from the code object of a plain function."""
    if type(func) is FunctionType and not _SIGNATURE_ATTRIBUTES.intersection(func.__dict__):
        code = func.__code__
        flags = code.co_flags
        return (code.co_argcount + code.co_kwonlyargcount
                + (1 if flags & _VARARGS else 0) + (1 if flags & _VARKEYWORDS else 0))
    return _ORIGINAL_COUNT(func)


Plan = tuple[tuple[type, tuple[tuple[Callable, Any], ...]], ...]
#: where a receiver class keeps its plans, {(message class, method name): plan}, in its own
#: ``__dict__`` (a plan names the class: held by it, they go together)
PLANS = "_atlantis_dispatch_plans"


def plan(pump_class: type, message_class: type, method_name: str) -> Plan:
    """Textual's walk as data: for each class of the receiver's MRO, ``(cls, handlers)``,
    its decorated handlers for the message's classes (``(function, selectors)``) and then
    its naming-convention method (``(function, None)``), in the order Textual tries them.
    ``prevent_default`` is checked before each class, as Textual checks it."""
    message_mro = [t for t in message_class.__mro__ if issubclass(t, Message)]
    steps = []
    for cls in pump_class.__mro__:
        handlers: list[tuple[Callable, Any]] = []
        decorated = cls.__dict__.get("_decorated_handlers")
        if decorated:
            for message_type in message_mro:
                handlers.extend(decorated.get(message_type, []))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and not getattr(method, "_textual_on", None):
            handlers.append((method, None))
        steps.append((cls, tuple(handlers)))
    while steps and not steps[-1][1]:  # (nothing to find past the last class with a handler)
        steps.pop()
    return tuple(steps)


def dispatch_methods(self: MessagePump, method_name: str, message: Message) -> Iterable[tuple[type, Callable]]:
    """``MessagePump._get_dispatch_methods`` from a kept plan (same results, same order)."""
    pump_class = type(self)
    plans = pump_class.__dict__.get(PLANS)
    if plans is None:
        plans = {}
        setattr(pump_class, PLANS, plans)
    key = (type(message), method_name)
    steps = plans.get(key)
    if steps is None:
        steps = plans[key] = plan(pump_class, type(message), method_name)
    dispatched: set[Callable] = set()
    for cls, handlers in steps:
        if message._no_default_action:
            break
        for method, selectors in handlers:
            if selectors is None:  # the naming convention's method
                yield cls, method.__get__(self, cls)
            elif method in dispatched:
                continue
            elif not selectors:
                yield cls, method.__get__(self, cls)
                dispatched.add(method)
            elif message._sender:
                for attribute, selector in selectors.items():
                    node = getattr(message, attribute)
                    if node is None:
                        break
                    from textual.widget import Widget

                    if not isinstance(node, Widget):
                        raise OnNoWidget(f"on decorator can't match against {attribute!r} as it is not a widget.")
                    if not match(selector, node):
                        break
                else:
                    yield cls, method.__get__(self, cls)
                    dispatched.add(method)


def install() -> None:
    """Put both in place of Textual's (once per process)."""
    global _installed
    if _installed:
        return
    _installed = True
    _callback._count_parameters = fast_count_parameters
    MessagePump._get_dispatch_methods = dispatch_methods
