"""The table's chat in a game's side panel (LAN and table-server tables; hot-seat has none).

Closed, it is one line: the newest chat line (or how to open it).  ``c`` on the game
screen, or Enter on the focused box, opens it: its last lines and a line to type in;
Enter says the typed line, Esc closes it and gives the keys back to the board.
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

#: Chat lines shown while the box is open (the event log keeps the rest of the panel).
OPEN_LINES = 3
#: The closed box's words when nobody has said anything yet.
EMPTY = "Chat: c to write"


class ChatBox(Vertical, can_focus=True):
    """The chat lines and the line to type in (``Said`` carries what was typed)."""

    DEFAULT_CSS = """
    ChatBox { height: auto; margin-top: 1; }
    ChatBox:focus { background-tint: $accent 12%; }
    ChatBox #chat-lines { height: auto; color: $ink-muted; }
    ChatBox.open #chat-lines { color: $text; }
    ChatBox #chat-input { height: 1; border: none; padding: 0; display: none; }
    ChatBox.open #chat-input { display: block; }
    """
    BINDINGS = [
        Binding("enter", "open", "Chat", show=False),
        Binding("escape", "close", "Close the chat", show=False),
    ]

    class Said(Message):
        """The player typed ``text`` and pressed Enter."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(EMPTY, id="chat-lines", markup=False)
        yield Input(placeholder="say something (Enter sends, Esc closes)", id="chat-input",
                    max_length=200, compact=True)

    @property
    def is_open(self) -> bool:
        return self.has_class("open")

    def show_lines(self, lines: Sequence[str]) -> None:
        """The table's chat now (oldest first)."""
        if list(lines) == self._lines:
            return
        self._lines = list(lines)
        self._draw()

    def _draw(self) -> None:
        static = self.query_one("#chat-lines", Static)
        if self.is_open:
            shown = self._lines[-OPEN_LINES:] or ["Nobody has said anything yet."]
            content: Text | str = "\n".join(shown)
        elif self._lines:
            content = Text(f"Chat (c): {self._lines[-1]}", no_wrap=True, overflow="ellipsis")
        else:
            content = EMPTY
        static.update(content)

    def action_open(self) -> None:
        self.add_class("open")
        self._draw()
        line = self.query_one("#chat-input", Input)
        line.focus()
        # (a full side panel scrolls: once the box is laid out open, its line is brought into sight)
        self.call_after_refresh(line.scroll_visible)

    def action_close(self) -> None:
        self.remove_class("open")
        self._draw()
        if self.screen.focused is not None and self in self.screen.focused.ancestors_with_self:
            self.screen.focus_next()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.Said(event.value))

    def sent(self) -> None:
        """The typed line went out: clear it for the next one."""
        self.query_one("#chat-input", Input).value = ""
