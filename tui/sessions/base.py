"""What every way of playing shares: a ``Session`` owns the seat links of one table,
knows who sits at the keyboard, and is the one that tells the game screen to draw.

A key sends an action through the screen's link and nothing else; the table (a local
match, a LAN host, a client's connection, a record being replayed) tells the session
it changed, and the session draws the view of the seat at the keyboard
(``Session.draw``).  The app composes a session and its screens: it starts one
(``AtlantisApp.begin``), ends it (``AtlantisApp.end_session``), and hands it the
shared keys (save, leave) that mean something different for each way of playing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine.core import Game

    from ..screens.game import GameScreen
    from ..seat_links import SeatLink


class Stage(Protocol):
    """What a session uses of the app (``tui.app.AtlantisApp``): its screens, its
    notices and timers, and the way to the next session or out."""

    session: Session | None
    menu_home: bool   # the app began at the menu: leaving a game goes back to it
    sub_title: str
    screen_stack: list[Screen[Any]]
    trust: Any        # how a LAN client checks a host's certificate
    thinker: Any      # where this keyboard's slow (hard) bots decide (``netplay.thinking.Thinker``)
    player_name: str
    lan_interfaces: list[str] | None

    @property
    def screen(self) -> Screen[Any]: ...
    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...
    def pop_screen(self) -> Any: ...
    def notify(self, message: str, **kwargs: Any) -> None: ...
    def bell(self) -> None: ...
    def call_later(self, callback: Callable[..., Any], *args: Any) -> bool: ...
    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Any: ...
    def set_interval(self, interval: float, callback: Callable[[], Any]) -> Any: ...
    def run_worker(self, work: Any, *, exit_on_error: bool = True) -> Any: ...
    def exit(self) -> None: ...
    def begin(self, session: Session) -> None: ...
    def end_session(self) -> Session | None: ...
    def leave_game(self) -> None: ...
    def back_to_menu(self) -> None: ...
    def show_menu(self) -> None: ...


def thinking_text(name: str, seconds: float) -> str:
    """"Blue is thinking… 3s" (no seconds in its first second: a quick bot just moves)."""
    return f"{name} is thinking…" + (f" {int(seconds)}s" if seconds >= 1 else "")


class Session:
    """One way of playing a table at this keyboard (subclasses: hot-seat, hosted, remote,
    replay)."""

    #: The game screen, once there is one (a remote seat gets it with its first view).
    screen: GameScreen | None = None
    #: The link of the seat at the keyboard (what the screen sends through and shows).
    link: SeatLink | None = None
    #: Where this table's record is saved (None: nowhere yet).
    save_path: Path | None = None
    #: A local or hosted table (``tui.seat_links.LocalTable``, ``HostedTable``); None for the others.
    table: Any = None

    def __init__(self, app: Stage):
        self.app = app

    # --- the bots thinking ---------------------------------------------------------------
    #: The seconds tick in the side panel while a bot thinks (False: the bots move only
    #: when told to, as in a demo's replay: no clock).
    ticking = True
    _ticker: Any = None

    def bots_thinking(self) -> dict[int, float]:
        """The seats whose bot is deciding now, and for how many seconds it has been."""
        return {}

    def show_thinking(self) -> None:
        """The side panel's line "Blue is thinking… 3s" while bots think (its seconds
        tick), nothing once none does."""
        thinking = self.bots_thinking()
        if self.screen is not None and self.link is not None:
            names = self.link.names
            self.screen.thinking("; ".join(thinking_text(names[seat], seconds if self.ticking else 0)
                                           for seat, seconds in sorted(thinking.items())))
        if thinking and self.ticking and self._ticker is None:
            self._ticker = self.app.set_interval(1.0, self.show_thinking)
        elif not thinking:
            self.stop_ticking()

    def stop_ticking(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    @property
    def game(self) -> Game | None:
        return self.link.game if self.link is not None and self.screen is not None else None

    def start(self) -> None:
        """Show the first screen (the app calls this once, from ``begin``)."""
        raise NotImplementedError

    def stop(self) -> None:
        """Forget the table: its listeners and timers (the app then takes the screens down)."""

    async def close(self) -> None:
        """Close what this session holds open (a LAN host, a connection)."""

    # --- the one redraw path -------------------------------------------------------------
    def draw(self) -> None:
        """Draw the view of the seat at the keyboard on the game screen (the screen keeps
        it and draws it once it is mounted)."""
        if self.screen is not None and self.link is not None:
            self.screen.show(self.link.view(), self.link.legal())

    # --- the shared keys -----------------------------------------------------------------
    def say(self, text: str, severity: str = "information") -> None:
        """Tell the player, in the game's side panel when it is in front, and in a notice."""
        if self.screen is not None and self.app.screen is self.screen:
            self.screen.say(text)
        self.app.notify(text, severity=severity)  # type: ignore[arg-type]

    def save_record(self) -> None:
        self.say("Nothing to save here.")

    def save_table(self, path: Path | None) -> Path | None:
        """Save the table's record to ``path`` (None: a new file in the records folder) and
        say where; None if it could not be written (and say why)."""
        from ..common import default_record_path

        path = path or default_record_path(self.table.game.slug)
        try:
            self.table.save(path)
        except OSError as exc:
            self.app.notify(f"Could not save: {exc.strerror}", severity="error")
            return None
        self.app.notify(f"Saved to {path}")
        return path

    def leave_question(self) -> str:
        """The leave dialog's text, with what fits this game (how to come back: ``leave_command``)."""
        return "Leave this game?"

    def leave_command(self) -> str:
        """The command that comes back to this game after leaving it ('' for none), as
        ``tui.common.shell_command`` writes it."""
        return ""

    def leave(self) -> None:
        """``q``: leave this table (asks first)."""
        from ..screens.dialogs import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.leave_game()

        self.app.push_screen(ConfirmScreen(self.leave_question(), self.leave_command()), answered)
