"""The Textual app: menu, hot-seat table with bots and curtain, replay viewer."""

from __future__ import annotations

import atexit
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.css.query import NoMatches

from .config import keep_theme
from .theme import ThemedApp
from .widgets.seats import SEATS_TCSS

if TYPE_CHECKING:
    from textual.screen import Screen

    from .screens.game import GameScreen
    from .screens.menu import TableChoice
    from .seat import LocalTable, ReplaySeat

# What a table, a replay or a dialog needs is imported when it is first needed, not with
# the app: the menu's start needs none of it (~20 ms, issue 15).  The names stay readable
# from this module as before (``from tui.app import ReplayMixin``...): ``__getattr__``.
_LAZY = {
    "SeatInfo": "engine.core", "private_dir": "engine.storage", "Match": "engine.match",
    "get_game": "engine.registry", "help_markdown": "tui.commands", "palette_commands": "tui.commands",
    "default_record_path": "tui.common", "seats_for": "tui.common", "screen_class": "tui.games",
    "ConfirmScreen": "tui.screens.common", "CurtainScreen": "tui.screens.common",
    "HelpScreen": "tui.screens.common", "game_over_summary": "tui.screens.common",
    "GameScreen": "tui.screens.game", "GameOverScreen": "tui.screens.game_over",
    "ReplayMixin": "tui.screens.replay", "replay_screen_class": "tui.screens.replay",
    "LocalTable": "tui.seat", "ReplaySeat": "tui.seat", "seat_letter": "tui.seats",
    "user_data_dir": "platformdirs",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = globals()[name] = getattr(importlib.import_module(module), name)
    return value


__all__ = ["AtlantisApp", "ReplayMixin", "screenshots_dir"]


#: How long a bot waits before it acts, so a person can follow (0 when headless: tests).
BOT_DELAY = 0.4


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


class AtlantisApp(ThemedApp):
    TITLE = "atlantis"
    # the seat colours and the `recent` tint as CSS classes, then the widgets' looks
    CSS_PATH = [SEATS_TCSS, *ThemedApp.CSS_PATH]
    ENABLE_COMMAND_PALETTE = True
    # Ctrl+C leaves as a shell command does (exit code 130); every move is already saved.
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, id="quit"),
                Binding("ctrl+c", "interrupt", show=False, priority=True)]

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """Textual's run, refused at once without a terminal: redirected to a file, the app
        would write escape codes into it and wait for keys that never come."""
        if not kwargs.get("headless") and not (sys.stdin.isatty() and sys.stdout.isatty()):
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
                 player_name: str = "Player", bot_client: bool = False,
                 lan_interfaces: list[str] | None = None, trust: Any = None, **kwargs: Any):
        super().__init__(**kwargs)
        # LAN play (tui/netplay/flow.py): a client to join with, a hosted table, or the lobby.
        self.remote, self.hosted, self.lobby = remote, hosted, lobby
        self.player_name, self.bot_client, self.lan_interfaces = player_name, bot_client, lan_interfaces
        self.trust = trust  # how the lobby's clients check a host's certificate (netplay.tls.Trust; None: pin)
        self.netplay_link: Any = None
        # manual_bots: bots act only when someone calls table.step_bot() (demo replays).
        self.manual_bots = manual_bots
        self.on_ready = on_ready  # called once the first screen is up
        self.table = table
        self.replay = replay
        self.bot_delay = bot_delay  # None: BOT_DELAY, or 0 when headless (set in on_mount)
        self.menu_home = False  # the app began at the menu: leaving a game goes back to it
        self.save_path = save_path
        self.autosave = autosave
        self.game_screen: GameScreen | None = None
        self.viewer: int | None = None
        self._bot_timer = None
        self._curtain_up = False
        self._over_shown = False

    # --- start ----------------------------------------------------------------------
    def on_mount(self) -> None:
        keep_theme(self)  # (the saved theme, and the next one chosen saved: tui/config.py)
        if self.bot_delay is None:
            self.bot_delay = 0.0 if self.is_headless else BOT_DELAY
        if self.table is not None:
            self.start_table(self.table)
        elif self.replay is not None:
            self.start_replay(self.replay)
        elif self.remote is not None or self.hosted is not None or self.lobby:
            from .netplay import flow as lan  # LAN play imported on first use (start time: ~120 ms)

            lan.start(self)
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
        """LAN play: a host says goodbye on the LAN and closes its log; a client says bye."""
        if self.hosted is not None:
            await self.hosted.close()
        if self.remote is not None:
            await self.remote.close()

    def show_menu(self) -> None:
        # the menu starts as the last one was left (back from Host, Join or a game); its
        # module is imported here, not with the app: a table's start does not need it
        from .screens.menu import MenuScreen

        self.push_screen(MenuScreen(getattr(self, "menu_state", None)), self._menu_done)

    def _menu_done(self, choice: TableChoice | None) -> None:
        if choice is None:
            return
        self.menu_state = choice.menu
        if getattr(choice, "lan", ""):  # host or join a LAN table
            from .netplay import flow as lan  # on first use (start time)

            lan.from_menu(self, choice)
            return
        from engine.core import SeatInfo
        from engine.registry import get_game

        from .common import default_record_path, seats_for
        from .seat import LocalTable

        game = get_game(choice.game)
        seats = seats_for(choice.game, choice.players, choice.bots)
        if choice.kinds:  # the menu chose human or bot seat by seat
            seats = [SeatInfo(s.name, kind) for s, kind in zip(seats, choice.kinds)]
        path = self.save_path or (default_record_path(choice.game) if self.autosave else None)
        self.start_table(LocalTable.new(game, choice.options, seats, choice.seed, autosave=path))

    def start_table(self, table: LocalTable) -> None:
        from .games import screen_class

        self.table = table
        self._over_shown = False
        if self.save_path is None and table.autosave is not None:
            self.save_path = table.autosave
        table.listeners.append(self._table_changed)
        humans = table.human_seats
        first = table.human_to_act()
        self.viewer = first if first is not None else (humans[0] if humans else None)
        cls = screen_class(table.game.slug)
        self.game_screen = cls(table.link(self.viewer))
        self.game_screen.seed_baselines(
            {s: (table.match.view(s), len(table.link(s).log())) for s in humans})
        if len(humans) > 1 and self.viewer is not None:
            # The curtain comes first: the first player's hand is drawn only once they are here.
            self._raise_curtain(self.viewer)
        else:
            self.push_screen(self.game_screen)
        self.call_later(self._advance)

    def start_replay(self, replay: ReplaySeat) -> None:
        from .games import screen_class
        from .screens.replay import replay_screen_class

        self.game_screen = replay_screen_class(screen_class(replay.game.slug))(replay)
        self.push_screen(self.game_screen)
        if replay.problem:
            self.notify(replay.problem, severity="error", timeout=10)

    # --- the hot-seat loop ------------------------------------------------------------
    def _table_changed(self) -> None:
        self.call_later(self._advance)

    def _advance(self) -> None:
        table, screen = self.table, self.game_screen
        if table is None or screen is None:
            return
        if not self._curtain_up and not screen.shows_current_view():
            try:
                screen.refresh_view()
            except NoMatches:  # (the app is closing: the screen's widgets are already gone)
                return
        if table.match.result() is not None:
            screen.thinking("")
            self._show_game_over()
            return
        bot = table.bot_to_act()
        if bot is not None:
            screen.thinking(f"{table.names[bot]} (bot) is thinking…")
            if self.manual_bots:
                return
            if self._bot_timer is None:
                # set_timer(0) divides by zero inside Textual when it runs late
                self._bot_timer = self.set_timer(max(self.bot_delay or 0, 0.001), self._bot_step)
            return
        screen.thinking("")
        human = table.human_to_act()
        if human is None or human == self.viewer or self._curtain_up:
            return
        if len(table.human_seats) > 1 and table.hides_information():
            self._raise_curtain(human)
        else:
            self._switch_viewer(human)

    def _bot_step(self) -> None:
        self._bot_timer = None
        if self.table is not None:
            self.table.step_bot()  # the table's listener schedules _advance

    def _raise_curtain(self, seat: int) -> None:
        from .screens.common import CurtainScreen
        from .seats import seat_letter

        assert self.table is not None
        self._curtain_up = True
        table = self.table

        def lifted(_: None) -> None:
            self._curtain_up = False
            if self.table is not table or self.game_screen is None:
                return  # (the table was left while the curtain was up)
            if self.game_screen not in self.screen_stack:
                self.viewer = seat
                self.game_screen.link = table.link(seat)
                self.push_screen(self.game_screen)
            else:
                self._switch_viewer(seat)
            self._advance()

        self.push_screen(CurtainScreen(table.names[seat], seat_letter(seat)), lifted)

    def _switch_viewer(self, seat: int) -> None:
        assert self.table is not None and self.game_screen is not None
        self.viewer = seat
        self.game_screen.set_link(self.table.link(seat))

    def _show_game_over(self) -> None:
        if self._over_shown or self.table is None:
            return
        from .screens.common import game_over_summary
        from .screens.game_over import GameOverScreen

        self._over_shown = True
        table = self.table
        match = table.match
        result = match.result()
        notes = [f"{len(match.record.moves)} moves."]
        if self.save_path:
            notes.append(f"Record: {self.save_path}")
        text = game_over_summary(match.names, result.winners, result.reason, result.scores, notes,
                                 unit=self.table.game.score_unit)
        reveal = table.link(self.viewer).final_reveal()
        hosted = self.hosted is not None
        choices = ("menu", "save", "board", "quit") if hosted else ("rematch", "menu", "save", "board", "quit")

        def chosen(what: str | None) -> None:
            if what == "save":
                self.action_save_record()
                self._over_shown = False
                self._show_game_over()
            elif what == "rematch":
                self.rematch()
            elif what == "menu":
                self._back_to_menu()
            elif what == "quit":
                self.exit()

        self.push_screen(GameOverScreen(text, reveal, choices), chosen)

    def rematch(self) -> None:
        """The same seats and options at a new table with a new secret seed."""
        from engine.match import Match

        from .common import default_record_path
        from .seat import LocalTable

        old = self.table
        if old is None:
            return
        match = old.match
        path = default_record_path(old.game.slug) if old.autosave is not None else None
        table = LocalTable(old.game, Match(old.game, match.options, match.seats, None), autosave=path)
        self._drop_table()
        self.save_path = path
        self.start_table(table)

    # --- shared actions ---------------------------------------------------------------------
    def action_help(self) -> None:
        from .commands import help_markdown
        from .screens.common import HelpScreen

        game = self.table.game if self.table else (self.replay.game if self.replay else None)
        if game is None and self.netplay_link is not None:
            game = self.netplay_link.client.game
        if game is not None:
            keys = getattr(self.screen, "COMMAND_TABLE", ())  # the screen's keys, from its command table
            self.push_screen(HelpScreen(help_markdown(game.help_markdown(), keys)))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette: Textual's own commands, then the screen's commands that
        its ``check_action`` allows now (from its ``COMMAND_TABLE``)."""
        from .commands import palette_commands

        yield from super().get_system_commands(screen)
        for title, help_text, callback in palette_commands(screen):
            yield SystemCommand(title, help_text, callback)

    def _say(self, text: str, severity: str = "information") -> None:
        """Tell the player, in the game's side panel when there is one, else in a notice."""
        if self.game_screen is not None and self.screen is self.game_screen:
            self.game_screen.say(text)
        self.notify(text, severity=severity)  # type: ignore[arg-type]

    def action_save_record(self) -> None:
        if self.table is None:
            if self.replay is not None:
                self._say("This is a replay of a saved record: there is nothing new to save.")
            elif self.remote is not None:
                self._say("The host keeps the record of this game (its log): nothing to save here.")
            else:
                self._say("Nothing to save here.")
            return
        from .common import default_record_path

        path = self.save_path or default_record_path(self.table.game.slug)
        try:
            self.table.save(path)
        except OSError as exc:
            self.notify(f"Could not save: {exc.strerror}", severity="error")
            return
        self.save_path = path
        self.notify(f"Saved to {path}")

    def leave_question(self) -> str:
        """The leave dialog's text, with the way back that fits this game."""
        table = self.table
        over = table is not None and table.match.result() is not None
        if self.hosted is not None:
            log = self.hosted.hosted.log
            if over or log is None:
                return "Leave this game? The LAN table closes."
            return ("Leave this game? The LAN table closes; its log is kept.\nTo open it again later:\n"
                    f"  atlantis host --resume {log.path}")
        if self.remote is not None:
            client = self.remote
            token = getattr(client, "token", None)
            if over or not token:
                return "Leave this game?"
            return ("Leave this game? Your seat stays yours. To come back:\n"
                    f"  atlantis join {client.host}:{client.port} --token {token}")
        if over:
            return "Leave this game?" + (f"\nIts record is in {self.save_path}." if self.save_path else "")
        if self.save_path:
            return ("Leave this game? It is saved. To go on later:\n"
                    f"  atlantis play --resume {self.save_path}")
        return "Leave this game? It is not saved (s saves it first)."

    def action_leave(self) -> None:
        from .screens.common import ConfirmScreen

        if self.table is not None and self.table.match.result() is not None:
            # A finished game: q brings the result back (Rematch, Back to menu, Quit).
            self._over_shown = False
            self._show_game_over()
            return
        if self.replay is not None and self.table is None:
            if self.menu_home:
                self._back_to_menu()
            else:
                self.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                if self.menu_home:
                    self._back_to_menu()
                else:
                    self.exit()

        self.push_screen(ConfirmScreen(self.leave_question()), answered)

    def _drop_table(self) -> None:
        """Forget the table (its listener, a bot's timer) and every screen above the first."""
        if self.table is not None and self._table_changed in self.table.listeners:
            self.table.listeners.remove(self._table_changed)
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        self.table = None
        self.replay = None
        self.save_path = None
        self.game_screen = None
        self._curtain_up = False
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def _back_to_menu(self) -> None:
        hosted, remote = self.hosted, self.remote
        self.hosted = self.remote = self.netplay_link = None
        self._drop_table()
        for closing in (hosted, remote):
            if closing is not None:
                self.run_worker(closing.close(), exit_on_error=False)
        self.show_menu()

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
        """The palette's "Screenshot": saved into a folder that exists, and the full path said."""
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
