"""Textual's handler look-ups, remembered (tui/handler_cache.py): the same parameter counts
as inspect.signature, the same handlers in the same order as Textual's MRO walk."""

from __future__ import annotations

import functools
import inspect

import pytest
from textual import on
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Button, Input, Static

from tui import handler_cache


def plain(a, b): ...
def starred(a, *args, k=1, **kw): ...
def positional_only(a, /, b, *, c): ...
def nothing(): ...


@functools.wraps(plain)
def wrapped(*args, **kwargs): ...


class Holder:
    def method(self, event): ...
    @staticmethod
    def static(x): ...
    @classmethod
    def klass(cls, x, y): ...
    def __call__(self, x): ...


@pytest.mark.parametrize("func", [
    plain, starred, positional_only, nothing, wrapped, lambda: 0, lambda x, *y: 0,
    Holder.method, Holder().method.__func__, Holder.static, Holder().klass, Holder(),
    functools.partial(plain, 1), len, print,
])
def test_parameter_counts_are_those_inspect_signature_gives(func):
    assert handler_cache.fast_count_parameters(func) == len(inspect.signature(func).parameters)


class Ping(Message):
    pass


class LoudPing(Ping):
    pass


class Base(Static):
    def on_ping(self, message: Ping) -> None: ...
    def _on_mount(self) -> None: ...


class Middle(Base):
    @on(Ping)
    def decorated(self, message: Ping) -> None: ...
    @on(Button.Pressed, "#go")
    def go_pressed(self, message: Button.Pressed) -> None: ...
    @on(Button.Pressed, "#other")
    def other_pressed(self, message: Button.Pressed) -> None: ...


class Leaf(Middle):
    def on_ping(self, message: Ping) -> None: ...
    def on_button_pressed(self, message: Button.Pressed) -> None: ...
    def on_input_changed(self, message: Input.Changed) -> None: ...


def pressed(button: Button) -> Button.Pressed:
    message = Button.Pressed(button)
    message._sender = button  # (as when the button posts it)
    return message


def walk(method, pump, name, message, stop_after=None):
    """What a dispatch finds, as (class, function) pairs; ``stop_after``: prevent_default
    once that many were found (as a handler calling it would, mid-walk)."""
    found = []
    for cls, bound in method(pump, name, message):
        found.append((cls, bound.__func__))
        if stop_after is not None and len(found) == stop_after:
            message.prevent_default()
    return found


async def test_the_handlers_found_are_textuals_in_textuals_order():
    class Host(App):
        def compose(self) -> ComposeResult:
            yield Leaf(id="leaf")
            yield Button("go", id="go")
            yield Button("other", id="other")

    app = Host()
    async with app.run_test():
        leaf = app.query_one(Leaf)
        go, other = app.query_one("#go", Button), app.query_one("#other", Button)
        cases = [("on_ping", lambda: Ping()), ("on_loud_ping", lambda: LoudPing()),
                 ("on_mount", lambda: __import__("textual.events", fromlist=["Mount"]).Mount()),
                 ("on_button_pressed", lambda: pressed(go)),
                 ("on_button_pressed", lambda: pressed(other)),
                 ("on_input_changed", lambda: Input.Changed(Input(), "x")),
                 ("on_unheard_of", lambda: Ping())]
        for pump in (leaf, app, app.screen):
            for name, make in cases:
                for stop in (None, 1, 2):
                    ours = walk(handler_cache.dispatch_methods, pump, name, make(), stop)
                    theirs = walk(handler_cache._ORIGINAL_DISPATCH, pump, name, make(), stop)
                    assert ours == theirs, (type(pump).__name__, name, stop)
                    # and again: from the kept plan this time
                    assert walk(handler_cache.dispatch_methods, pump, name, make(), stop) == theirs
        found = walk(handler_cache.dispatch_methods, leaf, "on_button_pressed", pressed(go))
        assert [f.__name__ for _, f in found] == ["on_button_pressed", "go_pressed"]


async def test_a_classs_plans_are_held_by_the_class_itself():
    handler_cache.install()  # (as tui.app does)

    class Host(App):
        def compose(self) -> ComposeResult:
            yield Static("x")

    async with Host().run_test():
        pass
    # (no registry outside the class keeps it: a class made and dropped goes with its plans)
    assert handler_cache.PLANS in Host.__dict__ and not hasattr(handler_cache, "_plans")
