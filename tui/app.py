"""The Textual app: menu, hot-seat table with bots and curtain, replay viewer."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from engine.core import SeatInfo
from engine.registry import get_game

from .commands import Command, bindings, help_markdown, palette_commands
from .common import default_record_path, seats_for
from .games import screen_class
from .netplay import flow as lan
from .screens.common import ConfirmScreen, CurtainScreen, GameOverScreen, HelpScreen, game_over_summary
from .screens.game import GameScreen
from .screens.menu import MenuScreen, TableChoice
from .seat import LocalTable, ReplaySeat
from .seats import seat_letter


class AtlantisApp(App):
    TITLE = "atlantis"
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, id="quit")]

    def __init__(self, table: LocalTable | None = None, replay: ReplaySeat | None = None,
                 bot_delay: float = 0.15, save_path: Path | None = None,
                 autosave: bool = True, manual_bots: bool = False,
                 on_ready: Any = None, remote: Any = None, hosted: Any = None, lobby: bool = False,
                 player_name: str = "Player", bot_client: bool = False,
                 lan_interfaces: list[str] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        # LAN play (tui/netplay/flow.py): a client to join with, a hosted table, or the lobby.
        self.remote, self.hosted, self.lobby = remote, hosted, lobby
        self.player_name, self.bot_client, self.lan_interfaces = player_name, bot_client, lan_interfaces
        self.netplay_link: Any = None
        # manual_bots: bots act only when someone calls table.step_bot() (demo replays).
        self.manual_bots = manual_bots
        self.on_ready = on_ready  # called once the first screen is up
        self.table = table
        self.replay = replay
        self.bot_delay = bot_delay
        self.save_path = save_path
        self.autosave = autosave
        self.game_screen: GameScreen | None = None
        self.viewer: int | None = None
        self._bot_timer = None
        self._curtain_up = False
        self._over_shown = False

    # --- start ----------------------------------------------------------------------
    def on_mount(self) -> None:
        if self.table is not None:
            self.start_table(self.table)
        elif self.replay is not None:
            self.start_replay(self.replay)
        elif self.remote is not None or self.hosted is not None or self.lobby:
            lan.start(self)
        else:
            self.show_menu()
        if self.on_ready is not None:
            self.call_later(self.on_ready)

    async def on_unmount(self) -> None:
        """LAN play: a host says goodbye on the LAN and closes its log; a client says bye."""
        if self.hosted is not None:
            await self.hosted.close()
        if self.remote is not None:
            await self.remote.close()

    def show_menu(self) -> None:
        self.push_screen(MenuScreen(), self._menu_done)

    def _menu_done(self, choice: TableChoice | None) -> None:
        if choice is None:
            return
        if getattr(choice, "lan", ""):  # host or join a LAN table
            lan.from_menu(self, choice)
            return
        game = get_game(choice.game)
        seats = seats_for(choice.game, choice.players, choice.bots)
        if choice.kinds:  # the menu chose human or bot seat by seat
            seats = [SeatInfo(s.name, kind) for s, kind in zip(seats, choice.kinds)]
        path = self.save_path or (default_record_path(choice.game) if self.autosave else None)
        self.start_table(LocalTable.new(game, choice.options, seats, choice.seed, autosave=path))

    def start_table(self, table: LocalTable) -> None:
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
        self.push_screen(self.game_screen)
        if len(humans) > 1 and self.viewer is not None:
            self._raise_curtain(self.viewer)
        self.call_later(self._advance)

    def start_replay(self, replay: ReplaySeat) -> None:
        cls = screen_class(replay.game.slug)
        replay_cls = type(f"Replay{cls.__name__}", (ReplayMixin, cls), {
            "BINDINGS": bindings(ReplayMixin.REPLAY_COMMANDS),
            "COMMAND_TABLE": (*ReplayMixin.REPLAY_COMMANDS, *cls.COMMAND_TABLE)})
        self.game_screen = replay_cls(replay)
        self.push_screen(self.game_screen)
        if replay.problem:
            self.notify(replay.problem, severity="error", timeout=10)

    # --- the hot-seat loop ------------------------------------------------------------
    def _table_changed(self) -> None:
        self.call_later(self._advance)

    def _advance(self) -> None:
        table = self.table
        if table is None or self.game_screen is None:
            return
        if not self._curtain_up:
            self.game_screen.refresh_view()
        if table.match.result() is not None:
            self._show_game_over()
            return
        if table.bot_to_act() is not None:
            if self.manual_bots:
                return
            if self._bot_timer is None:
                # set_timer(0) divides by zero inside Textual when it runs late
                self._bot_timer = self.set_timer(max(self.bot_delay, 0.001), self._bot_step)
            return
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
        assert self.table is not None
        self._curtain_up = True
        name = self.table.names[seat]

        def lifted(_: None) -> None:
            self._curtain_up = False
            self._switch_viewer(seat)
            self._advance()

        self.push_screen(CurtainScreen(name, seat_letter(seat)), lifted)

    def _switch_viewer(self, seat: int) -> None:
        assert self.table is not None and self.game_screen is not None
        self.viewer = seat
        self.game_screen.set_link(self.table.link(seat))

    def _show_game_over(self) -> None:
        if self._over_shown or self.table is None:
            return
        self._over_shown = True
        match = self.table.match
        result = match.result()
        notes = [f"{len(match.record.moves)} moves."]
        if self.save_path:
            notes.append(f"Record: {self.save_path}")
        text = game_over_summary(match.names, result.winners, result.reason, result.scores, notes)

        def chosen(what: str | None) -> None:
            if what == "save":
                self.action_save_record()
                self._over_shown = False
                self._show_game_over()
            elif what == "menu":
                self._back_to_menu()
            elif what == "quit":
                self.exit()

        self.push_screen(GameOverScreen(text), chosen)

    # --- shared actions ---------------------------------------------------------------------
    def action_help(self) -> None:
        game = self.table.game if self.table else (self.replay.game if self.replay else None)
        if game is None and self.netplay_link is not None:
            game = self.netplay_link.client.game
        if game is not None:
            keys = getattr(self.screen, "COMMAND_TABLE", ())  # the screen's keys, from its command table
            self.push_screen(HelpScreen(help_markdown(game.help_markdown(), keys)))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette: Textual's own commands, then the screen's commands that
        its ``check_action`` allows now (from its ``COMMAND_TABLE``)."""
        yield from super().get_system_commands(screen)
        for title, help_text, callback in palette_commands(screen):
            yield SystemCommand(title, help_text, callback)

    def action_save_record(self) -> None:
        if self.table is None:
            self.notify("Nothing to save here.")
            return
        path = self.save_path or default_record_path(self.table.game.slug)
        try:
            self.table.save(path)
        except OSError as exc:
            self.notify(f"Could not save: {exc.strerror}", severity="error")
            return
        self.save_path = path
        self.notify(f"Saved to {path}")

    def action_leave(self) -> None:
        if self.replay is not None:
            self.exit()
            return
        where = f"\nThe game is saved in {self.save_path}\n(resume with: atlantis play --resume FILE)." if self.save_path else ""

        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        self.push_screen(ConfirmScreen("Leave this game?" + where), answered)

    def _back_to_menu(self) -> None:
        if self.table is not None and self._table_changed in self.table.listeners:
            self.table.listeners.remove(self._table_changed)
        self.table = None
        self.save_path = None
        self.game_screen = None
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.show_menu()


class ReplayMixin:
    """Mixed into a game's screen class to make it a replay viewer.

    Textual only merges BINDINGS of DOMNode classes, so ``start_replay`` puts the
    bindings of ``REPLAY_COMMANDS`` into the generated class (and the commands in front
    of the game's ``COMMAND_TABLE``, for the palette and the help)."""

    REPLAY_COMMANDS = (
        Command("replay-back", "left,comma", "Back", "replay_step(-1)", "One move back.", priority=True),
        Command("replay-forward", "right,full_stop", "Forward", "replay_step(1)", "One move forward.",
                priority=True),
        Command("replay-start", "home", "Start", "replay_jump(0)", "The position before the first move.",
                priority=True),
        Command("replay-end", "end", "End", "replay_jump(-1)", "The last position.", priority=True),
        Command("replay-viewer", "v", "Whose view", "replay_viewer",
                "Watch as the full table, as each seat, or as a spectator.", priority=True),
    )
    REPLAY_BINDINGS = bindings(REPLAY_COMMANDS)

    def action_replay_step(self, delta: int) -> None:
        link: ReplaySeat = self.link  # type: ignore[attr-defined]
        link.index = max(0, min(len(link.states) - 1, link.index + delta))
        self.refresh_view()  # type: ignore[attr-defined]

    def action_replay_jump(self, where: int) -> None:
        link: ReplaySeat = self.link  # type: ignore[attr-defined]
        link.index = 0 if where == 0 else len(link.states) - 1
        self.refresh_view()  # type: ignore[attr-defined]

    def action_replay_viewer(self) -> None:
        link: ReplaySeat = self.link  # type: ignore[attr-defined]
        link.next_viewer()
        self.refresh_view()  # type: ignore[attr-defined]

    def turn_line(self, view: Any, legal: list[Any]) -> str:
        return self.link.waiting_for()  # type: ignore[attr-defined]
