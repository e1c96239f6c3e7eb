"""The Textual app: the menu, and the session of the way of playing chosen (hot-seat,
hosted, remote or replay: ``tui/sessions``), with the keys every screen shares."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.css.stylesheet import Stylesheet

from netplay.thinking import Thinker

from .config import keep_theme
from .theme import ThemedApp
from .widgets.seat_styles import SEATS_TCSS

if TYPE_CHECKING:
    from textual.screen import Screen

    from .screens.game import GameScreen
    from .screens.menu import TableChoice
    from .seat_links import LocalTable, ReplaySeat
    from .sessions.base import Session

__all__ = ["AtlantisApp", "screenshots_dir"]


#: How long a bot waits before it acts, so a person can follow (0 when headless: tests).
BOT_DELAY = 0.4


#: Textual's palette commands a game's palette leaves out (see ``get_system_commands``).
NOT_IN_A_GAME = frozenset({"Quit", "Keys", "Maximize", "Minimize"})


#: Seconds between checks that the terminal is still there (``_leave_if_terminal_gone``).
TERMINAL_CHECK = 1.0


def terminal_fd() -> int | None:
    """The terminal a drawing app reads its keys from (Textual's driver reads standard
    input as Python started it), or None when that is not a terminal."""
    stdin = sys.__stdin__
    try:
        fd = stdin.fileno() if stdin is not None else None
    except (OSError, ValueError):
        return None
    return fd if fd is not None and os.isatty(fd) else None


class WarmStylesheet(NamedTuple):
    """A stylesheet an earlier app of this process parsed, and the theme variables it was
    parsed with."""
    variables: dict[str, str]
    stylesheet: Stylesheet


class NoTerminal(Exception):
    """The app was asked to open its screen where there is no terminal to draw it in."""


def open_screen(app: App) -> int:
    """Run ``app`` in this terminal and return its exit code; without a terminal, say so
    on standard error and return 2 at once.  Every ``atlantis`` command that opens a
    screen comes through here (``tui.cli.main``), once per process: what the imports
    made (modules, classes, Textual's tables, alive for good) is first moved out of the
    collector's reach, so its full collections do not scan it all again."""
    gc.freeze()
    atexit.register(gc.unfreeze)  # (at exit all is collectable again: every finalizer runs)
    try:
        app.run()
    except NoTerminal as exc:
        print(f"atlantis: {exc}", file=sys.stderr)
        return 2
    return app.return_code or 0


class Opening(NamedTuple):
    """What the app opens first: a table, a replay, a LAN client or hosted table, or the
    LAN lobby (none of them: the menu)."""

    table: Any = None
    replay: Any = None
    remote: Any = None
    hosted: Any = None
    lobby: bool = False


class AtlantisApp(ThemedApp):
    TITLE = "atlantis"
    # the seat colours and the `recent` tint as CSS classes, then the widgets' looks
    CSS_PATH = [SEATS_TCSS, *ThemedApp.CSS_PATH]
    ENABLE_COMMAND_PALETTE = True
    # Ctrl+C leaves as a shell command does (exit code 130); every move is already saved.
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, id="quit"),
                Binding("ctrl+c", "interrupt", show=False, priority=True)]
    #: Set by the SSH fork server's warm-up (tui/ssh/forkserver.py): the next app made in
    #: this process (a forked session's) starts from that parsed stylesheet, if its theme
    #: variables are the same, instead of parsing every source again.
    warm_stylesheet: WarmStylesheet | None = None

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's run, refused at once without a terminal: redirected to a file, the app
        would write escape codes into it and wait for keys that never come.  A driver named
        in ``TEXTUAL_DRIVER`` (textual-serve's web driver, for ``serve-web``) needs none."""
        if (not kwargs.get("headless") and not os.environ.get("TEXTUAL_DRIVER")
                and not (sys.stdin.isatty() and sys.stdout.isatty())):
            raise NoTerminal("this opens a screen and needs a terminal (standard input and output "
                             "are not both one); without a screen: atlantis selfplay, replay --verify, "
                             "host --headless, join --headless")
        return super().run(*args, **kwargs)

    def action_interrupt(self) -> None:
        """Ctrl+C: leave at once, with the exit code a shell gives an interrupted command."""
        self.exit(return_code=130)

    def __init__(self, table: LocalTable | None = None, replay: ReplaySeat | None = None,
                 bot_delay: float | None = None, save_path: Path | None = None,
                 autosave: bool = True, manual_bots: bool = False,
                 on_ready: Any = None, remote: Any = None, hosted: Any = None, lobby: bool = False,
                 player_name: str = "Player", bot_client: bool = False, bot_level: str = "normal",
                 lan_interfaces: list[str] | None = None, trust: Any = None, **kwargs: Any):
        super().__init__(**kwargs)
        warm, AtlantisApp.warm_stylesheet = AtlantisApp.warm_stylesheet, None
        if warm is not None and warm.variables == self.get_css_variables():
            self.stylesheet = warm.stylesheet  # (its sources are ours: added again, they are not parsed again)
        #: What to open first (on_mount); none of them: the menu.
        self.opens = Opening(table, replay, remote, hosted, lobby)
        self.player_name, self.bot_client, self.lan_interfaces = player_name, bot_client, lan_interfaces
        self.bot_level = bot_level  # (the level of the bot that plays a joined seat: ``bot_client``)
        self.trust = trust  # how the lobby's clients check a host's certificate (netplay.tls.Trust; None: pin)
        # manual_bots: bots act only when someone calls table.step_bot() (demo replays).
        self.manual_bots = manual_bots
        self.on_ready = on_ready  # called once the first screen is up
        self.bot_delay = bot_delay  # None: BOT_DELAY, or 0 when headless (set in on_mount)
        self.menu_home = False  # the app began at the menu: leaving a game goes back to it
        self.save_path = save_path  # where the menu's tables save their records (None: the default)
        self.autosave = autosave
        #: The way of playing now under way (tui/sessions), None at the menu.
        self.session: Session | None = None
        #: Where the hot-seat tables' slow (hard) bots decide: a worker process, started
        #: on the first such decision (a hosted table's bots decide in its host's).
        self.thinker = Thinker(1)

    # --- what the session under way holds -------------------------------------------------
    @property
    def table(self) -> Any:
        """The local (or hosted) table being played here, if any."""
        return self.session.table if self.session is not None else None

    @property
    def game_screen(self) -> GameScreen | None:
        return self.session.screen if self.session is not None else None

    @property
    def remote(self) -> Any:
        """The LAN client of a remote seat, if that is the way of playing now."""
        return getattr(self.session, "client", None)

    @property
    def hosted(self) -> Any:
        """The hosted LAN table, if that is the way of playing now."""
        return getattr(self.session, "hosted", None)

    # --- start ----------------------------------------------------------------------
    def on_mount(self) -> None:
        keep_theme(self)  # (the saved theme, and the next one chosen saved: tui/config.py)
        if self.bot_delay is None:
            self.bot_delay = 0.0 if self.is_headless else BOT_DELAY
        table, replay, remote, hosted, lobby = self.opens
        if table is not None:
            self.start_table(table)
        elif replay is not None:
            from .sessions.replay import ReplaySession

            self.begin(ReplaySession(self, replay))
        elif hosted is not None:
            from .sessions.hosted import HostedSession  # LAN play imported on first use (start time)

            self.begin(HostedSession(self, hosted))
        elif remote is not None:
            self.join(remote)
        elif lobby:
            from .sessions.remote import open_lobby

            open_lobby(self, from_menu=False)
        else:
            self.menu_home = True
            self.show_menu()
        if self.on_ready is not None:
            self.call_later(self.on_ready)
        fd = terminal_fd() if not (self.is_headless or self.is_web) else None
        if fd is not None:
            self.set_interval(TERMINAL_CHECK, lambda: self._leave_if_terminal_gone(fd), name="terminal check")

    def _leave_if_terminal_gone(self, fd: int) -> None:
        """The terminal hung up (its window closed, the SSH link to it dropped) and no
        SIGHUP reached this process (under ``make play`` it does not): Textual's input
        thread then reads nothing forever, at half a core.  Leave as a hangup would have
        made us (every move is saved as it is made)."""
        if not os.isatty(fd):
            self.exit(return_code=129)

    async def on_unmount(self) -> None:
        """LAN play: a host says goodbye on the LAN and closes its log; a client says bye.
        A bot's worker process ends."""
        if self.session is not None:
            self.session.stop()
            await self.session.close()
        self.thinker.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await self.thinker.wait_closed()

    # --- sessions -------------------------------------------------------------------
    def begin(self, session: Session) -> None:
        """Make ``session`` the way of playing now and show its first screen (one it
        replaces is stopped; closing it is the caller's to do)."""
        if self.session is not None:
            self.session.stop()
        self.session = session
        session.start()

    def end_session(self) -> Session | None:
        """Stop the session under way and take every screen above the first down; the
        caller closes it (``Session.close``) if it holds a connection."""
        session, self.session = self.session, None
        self.save_path = None  # (a path given for the first table is that table's alone)
        if session is not None:
            session.stop()
        while len(self.screen_stack) > 1:
            self.pop_screen()
        return session

    def start_table(self, table: LocalTable) -> None:
        """Play ``table`` hot-seat at this keyboard (a lesson's table with its cards)."""
        if getattr(table, "lesson", None) is not None:
            from .sessions.lesson import LessonSession

            self.begin(LessonSession(self, table, self.bot_delay or 0.0, manual_bots=self.manual_bots))
            return
        from .sessions.hot_seat import HotSeatSession

        self.begin(HotSeatSession(self, table, self.bot_delay or 0.0, self.manual_bots,
                                  save_path=self.save_path))

    def start_lesson(self, slug: str) -> None:
        """``slug``'s guided first game (``tui.lessons``): its fixed table, with the lesson's cards."""
        from .lessons import LessonTable, load_lesson

        self.start_table(LessonTable(load_lesson(slug)))

    def action_lesson_card(self) -> None:
        """``L``: the lesson's current step again (a guided first game only)."""
        show = getattr(self.session, "show_card", None)
        if show is None:
            self.notify("No lesson here: atlantis learn GAME (or F4 in the menu) starts one.")
            return
        show()

    def join(self, client: Any, back: Any = None) -> None:
        """Play (or watch) a remote table through ``client``; ``back``: what Esc on the
        connecting screen does (default: leave the app)."""
        from .sessions.remote import RemoteSession

        self.begin(RemoteSession(self, client, back=back, bot=self.bot_client, bot_delay=self.bot_delay or 0.0,
                                   bot_level=self.bot_level))

    def show_menu(self) -> None:
        # the menu starts as the last one was left (back from Host, Join or a game); its
        # module is imported here, not with the app: a table's start does not need it
        from .screens.menu import MenuScreen

        self.push_screen(MenuScreen(getattr(self, "menu_state", None)), self._menu_done)

    def _menu_done(self, choice: TableChoice | None) -> None:
        if choice is None:
            return
        self.menu_state = choice.menu
        if choice.learn:
            self.start_lesson(choice.game)
            return
        if getattr(choice, "lan", "") == "join":
            from .sessions.remote import open_lobby  # LAN play imported on first use (start time)

            open_lobby(self, from_menu=True)
            return
        if getattr(choice, "lan", "") == "host":
            from .sessions.hosted import host_from_menu

            host_from_menu(self, choice)
            return
        from engine.core import SeatInfo, bot_seat
        from engine.registry import get_game

        from .common import default_record_path, seats_for
        from .seat_links import LocalTable

        game = get_game(choice.game)
        seats = seats_for(choice.game, choice.players, choice.bots)
        if choice.kinds:  # the menu chose human or bot (and its level) seat by seat
            levels = choice.levels or ("",) * len(choice.kinds)
            seats = [bot_seat(s.name, level) if kind == "bot" else SeatInfo(s.name, kind)
                     for s, kind, level in zip(seats, choice.kinds, levels)]
        path = self.save_path or (default_record_path(choice.game) if self.autosave else None)
        self.start_table(LocalTable.new(game, choice.options, seats, choice.seed, autosave=path))

    def leave_game(self) -> None:
        """Leave the game under way: back to the menu if the app began there, else out."""
        if self.menu_home:
            self.back_to_menu()
        else:
            self.exit()

    def back_to_menu(self) -> None:
        session = self.end_session()
        if session is not None:
            self.run_worker(session.close(), exit_on_error=False)
        self.show_menu()

    # --- shared actions ---------------------------------------------------------------------
    def action_help(self) -> None:
        from .commands import help_markdown
        from .screens.dialogs import HelpScreen

        game = self.session.game if self.session is not None else None
        if game is not None:
            keys = getattr(self.screen, "COMMAND_TABLE", ())  # the screen's keys, from its command table
            text = help_markdown(game.help_markdown(), keys)
            # Built once and kept (installed): laying out the rules' Markdown takes a large
            # part of a second, so the second ? opens at once.
            name = f"help {hash(text)}"
            if not self.is_screen_installed(name):
                self.install_screen(HelpScreen(text), name)
            self.push_screen(name)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette: Textual's own commands, then the screen's commands that
        its ``check_action`` allows now (from its ``COMMAND_TABLE``).  In a game, Textual's
        "Quit" would skip the leave dialog (the screen's "Leave" asks first) and its
        "Keys" and "Maximize" are about widgets, not the game: those are left out."""
        from .commands import palette_commands

        for command in super().get_system_commands(screen):
            if self.session is None or command.title not in NOT_IN_A_GAME:
                yield command
        for title, help_text, callback in palette_commands(screen):
            yield SystemCommand(title, help_text, callback)

    def action_save_record(self) -> None:
        if self.session is None:
            self.notify("Nothing to save here.")
            return
        self.session.save_record()

    def action_leave(self) -> None:
        if self.session is not None:
            self.session.leave()

    # --- screenshots ----------------------------------------------------------------------------
    def save_screenshot(self, filename: str | None = None, path: str | None = None,
                        time_format: str | None = None) -> str:
        """Textual's screenshot, saved by default into the platform's data folder (made 0700)."""
        from engine.storage import private_dir

        folder = Path(path) if path else screenshots_dir()
        private_dir(folder)
        return super().save_screenshot(filename, str(folder), time_format)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's "Screenshot": in a browser (serve-web), Textual's own delivery, which
        the browser downloads; in a terminal, saved into a folder that exists
        (``TEXTUAL_SCREENSHOT_LOCATION`` when set) and the full path said."""
        if self.is_web:
            return super().deliver_screenshot(filename, path, time_format)
        path = path or os.environ.get("TEXTUAL_SCREENSHOT_LOCATION") or None
        try:
            saved = self.save_screenshot(filename, path, time_format)
        except OSError as exc:
            self.notify(f"Could not save the screenshot: {exc.strerror or exc}", severity="error")
            return None
        self.notify(f"Screenshot saved to {Path(saved).resolve()}", timeout=8)
        return saved


def screenshots_dir() -> Path:
    """Where the palette's screenshots go: the platform's data folder for atlantis."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("atlantis", appauthor=False)) / "screenshots"
