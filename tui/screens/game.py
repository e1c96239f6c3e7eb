"""GameScreen: what every game's screen shares.

A game screen reads its ``SeatLink`` and nothing else.  Subclasses compose their
board in ``compose_board()`` and redraw it in ``refresh_board(view, legal)``; the
side panel (turn line, player panel, event log) and the shared keys come from here.
The app calls ``refresh_view()`` whenever the table changes and ``set_link()``
when the seat at the keyboard changes (behind the curtain).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..commands import Command, bindings
from ..seat import SeatLink
from ..widgets.eventlog import EventLog


# A typed seed or a named setup: someone knew the deal before play began.
PRACTICE_LINE = "practice: seed known"


class GameScreen(Screen):
    """Base class of every game's screen."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #body { height: 1fr; }
    GameScreen #board-area { width: 1fr; height: 100%; }
    GameScreen #side { width: 34; height: 100%; border-left: solid $primary-darken-2; padding: 0 1; }
    GameScreen #turn-line { height: auto; text-style: bold; }
    GameScreen #players { height: auto; margin-top: 1; }
    GameScreen #message { height: auto; color: $warning; }
    GameScreen #practice { height: auto; color: $text-muted; }
    GameScreen EventLog { height: 1fr; margin-top: 1; }
    """

    #: The keys every game shares (DESIGN.md "Screens every game shares").  A game's
    #: screen puts its own commands first and these after them, so the footer shows the
    #: game's keys first: ``COMMAND_TABLE = (*GAME_KEYS, *GameScreen.COMMAND_TABLE)``.
    COMMAND_TABLE: tuple[Command, ...] = (
        Command("help", "question_mark", "Help", "app.help",
                "Show the rules of this game and this list of keys.", key_display="?"),
        Command("undo", "u", "Undo", "undo", "Take back your last move, where the undo rule allows it."),
        Command("save", "s", "Save", "app.save_record", "Save the record of this game."),
        Command("leave", "q", "Leave", "app.leave", "Leave the game (asks first)."),
        Command("focus-next", "tab", "Focus", "app.focus_next",
                "Move the focus between board, hand and log (Shift+Tab: back).", show=False, palette=False),
        Command("focus-prev", "shift+tab", "Focus", "app.focus_previous", show=False),
    )
    BINDINGS = bindings(COMMAND_TABLE)

    #: Below this width the footer drops its padding, so the shared keys stay visible.
    FOOTER_COMPACT_BELOW = 110

    def __init__(self, link: SeatLink, **kwargs: Any):
        super().__init__(**kwargs)
        self.link = link

    # --- layout ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            with Vertical(id="board-area"):
                yield from self.compose_board()
            with Vertical(id="side"):
                yield Static(id="turn-line")
                practice = Static(PRACTICE_LINE, id="practice")
                practice.display = bool(getattr(self.link, "practice", False))
                yield practice
                yield Static(id="message")
                yield Static(id="players")
                yield EventLog(id="log")
        yield Footer()

    def compose_board(self) -> ComposeResult:
        yield from ()

    _ready = False  # set once composed: a LAN update may arrive while the screen is mounting

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls every class's on_resize along the MRO: a game screen's own
        # on_resize adds to this one, it does not replace it.)
        for footer in self.query(Footer):
            footer.compact = event.size.width < self.FOOTER_COMPACT_BELOW

    def on_mount(self) -> None:
        self._ready = True
        # is_mounted turns True only after the Mount handlers have run: draw just after.
        self.call_after_refresh(self.refresh_view)

    # --- the link ------------------------------------------------------------------
    def set_link(self, link: SeatLink) -> None:
        self.link = link
        if self.is_mounted and self._ready:
            self.query_one("#practice", Static).display = bool(getattr(link, "practice", False))
        self.refresh_view()

    def refresh_view(self) -> None:
        if not self.is_mounted or not self._ready:
            return
        view = self.link.view()
        legal = self.link.legal()
        self.refresh_board(view, legal)
        self.query_one("#turn-line", Static).update(self.turn_line(view, legal))
        self.query_one("#players", Static).update(self.players_panel(view))
        self.query_one(EventLog).set_lines(self.link.log())
        self.refresh_bindings()

    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        """Redraw the board, hand and anything game-specific."""

    def turn_line(self, view: Any, legal: list[Any]) -> str:
        waiting = self.link.waiting_for()
        if legal:
            return "Your move."
        return f"Waiting for {waiting}" if waiting else ""

    def players_panel(self, view: Any) -> str:
        return ""

    def say(self, message: str) -> None:
        """Show a one-line message (an illegal move, a refusal) in the side panel."""
        if self.is_mounted:
            self.query_one("#message", Static).update(message)

    def send(self, action: Any) -> bool:
        """Submit an action through the link; show why if it is refused."""
        error = self.link.submit(action)
        if error:
            self.say(error)
            self.app.bell()
            return False
        self.say("")
        return True

    def action_undo(self) -> None:
        error = self.link.undo()
        self.say(error or "Move taken back.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo" and self.link.read_only:
            return None
        return True
