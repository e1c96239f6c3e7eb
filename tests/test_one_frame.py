"""One frame per cursor key (issue 15): a cursor widget repaints its cursor only once the
screen has handled the "cursor moved" message, so both redraws go out in one frame; a
handler that stops the message does not leave the cursor unpainted."""

from __future__ import annotations

from textual import on
from textual.app import App, ComposeResult
from textual.screen import Screen

from tui.widgets.cursor_list import CursorList


class Numbers(CursorList):
    def __init__(self, order: list[str]) -> None:
        super().__init__()
        self.order = order

    def entry_count(self) -> int:
        return 5

    def cursor_moved(self) -> None:
        self.order.append(f"repaint {self.cursor}")
        super().cursor_moved()

    def render(self) -> str:
        return " ".join("[x]" if i == self.cursor else str(i) for i in range(5))


class Board(Screen):
    def __init__(self, stop: bool) -> None:
        super().__init__()
        self.order: list[str] = []
        self.stop = stop

    def compose(self) -> ComposeResult:
        yield Numbers(self.order)

    def on_mount(self) -> None:
        self.query_one(Numbers).focus()

    @on(CursorList.Highlighted)
    def _moved(self, event: CursorList.Highlighted) -> None:
        self.order.append(f"screen {event.index}")
        if self.stop:
            event.stop()


class OneScreen(App):
    def __init__(self, stop: bool = False) -> None:
        super().__init__()
        self.board = Board(stop)

    def on_mount(self) -> None:
        self.push_screen(self.board)


async def test_the_cursor_is_repainted_after_the_screen_handled_the_move():
    app = OneScreen()
    async with app.run_test(size=(30, 5)) as pilot:
        await pilot.pause()
        app.board.order.clear()
        await pilot.press("down", "down", "up")
        assert app.board.order == ["screen 1", "repaint 1", "screen 2", "repaint 2", "screen 1", "repaint 1"]


async def test_a_handler_that_stops_the_move_still_gets_the_cursor_repainted():
    app = OneScreen(stop=True)
    async with app.run_test(size=(30, 5)) as pilot:
        await pilot.pause()
        app.board.order.clear()
        await pilot.press("end")
        assert app.board.order == ["screen 4", "repaint 4"]
        assert "[x]" in str(app.board.query_one(Numbers).render()).split()[-1]


def test_a_widget_not_running_in_an_app_repaints_at_once():
    order: list[str] = []
    numbers = Numbers(order)
    numbers.cursor = 3  # (the first access also runs the watcher for the initial 0)
    assert order[-1] == "repaint 3"
