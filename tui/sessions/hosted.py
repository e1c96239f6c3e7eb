"""Hosted: this keyboard opens a LAN table (``atlantis host`` or the menu's Host) and
plays its local seats, hot-seat style, while LAN players play theirs.

The waiting room comes first (``HostTableScreen``); once the table starts, the hot-seat
state machine runs over the ``HostedTable`` (the netplay host plays the bots), and the
side panel says where players reach the table and who is away.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..seat_labels import seat_label
from .base import Stage
from .hot_seat import HotSeatSession

if TYPE_CHECKING:
    from ..lan.hosting import HostedTable


class HostedSession(HotSeatSession):
    OVER_CHOICES = ("rematch", "menu", "save", "board", "quit")

    def __init__(self, app: Stage, hosted: HostedTable, from_menu: bool = False, waiting_room: bool = True):
        super().__init__(app, hosted)  # type: ignore[arg-type]
        self.hosted = hosted
        self.from_menu = from_menu
        self.waiting_room = waiting_room  # (a rematch's table has every seat taken already)
        self.save_path = hosted.hosted.log.path if hosted.hosted.log else None
        self._connected: dict[int, bool] = {}
        self._playing = False

    def start(self) -> None:
        """The waiting room first; the table once every seat is taken."""
        from ..lan.screens import HostTableScreen

        self.hosted.rematched = self._rematched
        if self.waiting_room:
            self.app.push_screen(HostTableScreen(self.hosted), self._waited)
        else:
            self._waited(True)

    def _waited(self, ok: bool | None) -> None:
        if not ok:
            self.app.call_later(lambda: asyncio.ensure_future(self._closed()))
            return
        self._playing = True
        self.app.call_later(super().start)  # once the waiting room is gone
        self._connected = self._seats_now()
        self.hosted.hosted.seat_listeners.append(self._seats_changed)

    async def _closed(self) -> None:
        await self.hosted.close()
        self.app.session = None
        if self.from_menu:
            self.app.show_menu()
        else:
            self.app.exit()

    def stop(self) -> None:
        if self._playing:
            super().stop()
        if self.hosted.rematched == self._rematched:
            self.hosted.rematched = None
        if self._seats_changed in self.hosted.hosted.seat_listeners:
            self.hosted.hosted.seat_listeners.remove(self._seats_changed)

    async def close(self) -> None:
        await self.hosted.close()

    def bots_thinking(self) -> dict[int, float]:
        """The host's slow bots deciding now (the host plays its bots, off its loop)."""
        t = self.hosted.hosted
        return {seat: t.loop.time() - since for seat, since in t.thinking.items()} if t.loop else {}

    def draw(self) -> None:
        super().draw()
        if self.screen is not None:
            self.screen.status_lines(self.status_text())

    # --- the rematch ---------------------------------------------------------------------
    def rematch(self) -> None:
        """Game over's Rematch: every player at this keyboard asks for one; once the LAN
        players have too, the host opens the new table and this screen follows it."""
        table = self.hosted.hosted
        for seat in self.table.human_seats:
            error = table.want_rematch(seat)
            if error:
                self.app.notify(error, severity="warning")
                return
        if self.app.session is self:
            names = table.names()
            waiting = [names[s] for s in sorted(table.humans() - table.rematch_wanted)]
            if waiting:
                self.app.notify("Rematch asked: waiting for " + ", ".join(waiting) + ".")

    def _rematched(self, table: Any) -> None:
        """Everyone asked for a rematch: play the new table (the old one's screens go)."""
        hosted = self.hosted.rematch_table(table)

        def follow() -> None:
            self.app.end_session()
            self.app.begin(HostedSession(self.app, hosted, from_menu=self.from_menu, waiting_room=False))

        self.app.call_later(follow)

    # --- who is where ------------------------------------------------------------------
    def status_text(self) -> str:
        """The host's side panel: where the players reach the table, who is away, and
        who asked for a rematch."""
        t = self.hosted.hosted
        away = [t.names()[s.index] for s in t.slots if s.kind == "open" and s.conn is None]
        lines = [f"LAN: hosting on {self.hosted.address}"]
        if self.hosted.web_url:
            lines.append(f"Phones: {self.hosted.web_url}")
        if away:
            lines.append("Away: " + ", ".join(away))
        if t.over and t.rematch_wanted:
            lines.append("Rematch asked by " + ", ".join(t.names()[s] for s in sorted(t.rematch_wanted)))
        return "\n".join(lines)

    def _seats_now(self) -> dict[int, bool]:
        return {s.index: s.conn is not None for s in self.hosted.hosted.slots if s.kind == "open"}

    def _seats_changed(self) -> None:
        """A LAN player dropped or came back: say so, and draw the seats as they are now."""
        t = self.hosted.hosted
        now, before = self._seats_now(), self._connected
        self._connected = now
        for seat, up in now.items():
            if before.get(seat, up) != up:
                self.app.notify(f"{seat_label(seat, t.names()[seat])} " + ("is back." if up else "disconnected."),
                                severity="information" if up else "warning")
        self.app.call_later(self.advance)

    # --- the shared keys ---------------------------------------------------------------
    _copy: Any = None  # where ``s`` saved a copy of the record

    def save_record(self) -> None:
        """A copy of the record in a file of its own, never over the host's log (the log
        holds what ``host --resume`` needs: the seed's salt, the seat tokens' hashes)."""
        self._copy = self.save_table(self._copy) or self._copy

    def leave_question(self) -> str:
        log = self.hosted.hosted.log
        if self.over() or log is None:
            return "Leave this game? The LAN table closes."
        return "Leave this game? The LAN table closes; its log is kept.\nTo open it again later:"

    def leave_command(self) -> str:
        from ..common import shell_command

        log = self.hosted.hosted.log
        if self.over() or log is None:
            return ""
        return shell_command("atlantis", "host", "--resume", Path(log.path))


def host_from_menu(app: Stage, choice: Any) -> None:
    """The menu's Host: the table's setup (name, port, who plays each seat), then the table."""
    from engine.registry import get_game
    from netplay.host import Host, HostTable

    from ..common import DEFAULT_PORT, host_log_path
    from ..lan.hosting import HostedTable
    from ..lan.screens import HostSetupScreen

    game = get_game(choice.game)
    names = list(game.seat_names[:choice.players])

    def chosen(setup: Any) -> None:
        if setup is None:
            app.show_menu()
            return
        # Deliberately lazy: zeroconf is loaded only when a table is really announced.
        from netplay.discovery import Advertiser

        table = HostTable.create(game, choice.options, setup.kinds, choice.seed, name=setup.name,
                                 log_path=host_log_path(game.slug), levels=setup.levels)
        table.turn_time = setup.turn_time
        host = Host([table], host="0.0.0.0", port=setup.port)
        hosted = HostedTable(host, table, Advertiser(interfaces=app.lan_interfaces))
        app.begin(HostedSession(app, hosted, from_menu=True))

    default = f"{socket.gethostname()[:20]} {game.slug}"
    app.push_screen(HostSetupScreen(game.title, names, choice.bots, default, DEFAULT_PORT,
                                    kinds=list(choice.kinds) or None, levels=list(choice.levels) or None), chosen)
