"""The game-over screen every game shares: the result, every score, where the points came
from and every secret revealed (the game's ``reveal()`` lines, through
``link.final_reveal()``), and what to do next: Rematch, Back to menu, Save, Quit.

It answers with the choice's name ("rematch", "menu", "save", "board", "quit"); the app
(or LAN play) decides what each means.  ``choices`` says which are offered (a LAN client
has no rematch to offer: the host decides).
"""

from __future__ import annotations

from typing import Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

#: choice -> (key, button label); the order is the order of the buttons.
CHOICES: dict[str, tuple[str, str]] = {
    "rematch": ("r", "Rematch"),
    "menu": ("m", "Back to menu"),
    "save": ("s", "Save"),
    "board": ("escape", "Board"),
    "quit": ("q", "Quit"),
}
KEY_SHOWN = {"escape": "Esc"}


class GameOverScreen(ModalScreen[str]):
    """The result, what was hidden, and what to do next."""

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen.-beside { align: left middle; }
    GameOverScreen.-beside > Vertical { margin-left: 1; }
    GameOverScreen > Vertical { width: 96%; max-width: 100; height: auto; max-height: 94%;
        border: double $success; background: $surface; padding: 0 1; }
    GameOverScreen #result { height: auto; }
    GameOverScreen #reveal { height: auto; margin-top: 1; }
    GameOverScreen #reveal-title { text-style: bold; }
    GameOverScreen #choices { height: auto; margin-top: 1; }
    GameOverScreen #choices Button { min-width: 8; height: 1; border: none; margin-right: 1; }
    """
    # A key typed ahead (Enter after the last move) must not start a rematch: no button
    # has the focus at first; the arrows scroll the reveal.
    AUTO_FOCUS = "#reveal"
    BINDINGS = [
        Binding("r", "choose('rematch')", "Rematch", id="over-rematch"),
        Binding("m", "choose('menu')", "Back to menu", id="over-menu"),
        Binding("s", "choose('save')", "Save", id="over-save"),
        Binding("escape", "choose('board')", "Board", id="over-board"),
        Binding("q", "choose('quit')", "Quit", id="over-quit"),
    ]

    def __init__(self, text: str, reveal: Sequence[str] = (),
                 choices: Sequence[str] = ("menu", "save", "board", "quit")):
        super().__init__()
        self.text = text
        self.reveal = list(reveal)
        self.choices = tuple(c for c in CHOICES if c in choices)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.text, id="result", markup=True)
            if self.reveal:
                with VerticalScroll(id="reveal"):
                    yield Static("Where the points came from, and what was hidden", id="reveal-title")
                    yield Static("\n".join(self.reveal), markup=False, id="reveal-lines")
            with Horizontal(id="choices"):
                for choice in self.choices:
                    key, label = CHOICES[choice]
                    yield Button(f"{KEY_SHOWN.get(key, key)} {label}", id=f"choice-{choice}", compact=True)
        yield Footer()

    #: Where the board beside the game's side panel is at least this wide, the box stands
    #: over the board, left, and the side panel stays whole: no line of it cut in the middle.
    BESIDE_FROM = 70

    def on_mount(self) -> None:
        self._fit(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """The reveal scrolls in the rows the result, the buttons and the frame leave."""
        room = self._room_beside()
        self.set_class(bool(room), "-beside")
        for box in self.query("GameOverScreen > Vertical"):
            box.styles.max_width = min(100, room) if room else 100
        for reveal in self.query("#reveal"):
            used = self.text.count("\n") + 1 + 9  # result, margins, buttons, frame, footer
            reveal.styles.max_height = max(3, height - used)

    def _room_beside(self) -> int:
        """The columns left of the side panel of the screen under this one (0: too few,
        or no side panel)."""
        if len(self.app.screen_stack) < 2:
            return 0
        sides = self.app.screen_stack[-2].query("#side")
        if not sides or not sides.first().region:
            return 0
        room = sides.first().region.x - 1
        return room if room >= self.BESIDE_FROM else 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return bool(parameters) and parameters[0] in self.choices
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "").removeprefix("choice-"))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
