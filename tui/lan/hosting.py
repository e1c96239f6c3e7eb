"""The host's own terminal: the table a ``HostedSession`` plays, over a
``netplay.host.HostTable``.

``HostedTable`` offers what the hot-seat session needs of a table (who is at this
keyboard, who is to act, a link per seat, listeners told of every change) and holds a
``HostTable``; it is no ``LocalTable``.  The host's bots are played by the netplay host
(not by a session's timer), remote seats are not humans at this keyboard, and every
action goes through the host table so that it is logged and sent to the LAN clients.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from engine.core import DEFAULT_BOT_LEVEL, Game, LogLine
from engine.match import Match
from engine.storage import save_record
from engine.text import counted
from netplay.chat import chat_text

from ..common import reachable_addresses
from ..seat_links import MatchSeat, hides_information


class HostedTable:
    """A ``netplay.host.HostTable`` (``hosted``) served by a ``netplay.host.Host``, seen
    from the host's keyboard."""

    autosave: Path | None = None  # the host's log keeps every move
    bots: dict[int, Any] = {}  # (none at this keyboard: the netplay host plays them)

    def __init__(self, host: Any, table: Any, advertise: Any = None, web: Any = None):
        self.host = host          # netplay.host.Host
        self.hosted = table       # netplay.host.HostTable
        self.advertise = advertise
        self.web = web            # tui.web.host.HostWebFront: browsers join too (``host --web``)
        self.game: Game = table.game
        self.listeners: list[Callable[[], None]] = []
        table.listeners.append(self._changed)
        self.running = False
        #: Told of the rematch's table once every human asked for one (the host's screen follows it).
        self.rematched: Callable[[Any], None] | None = None
        self._follow_rematch()

    def _follow_rematch(self) -> None:
        """The host makes the rematch's table (``Host.rematch``); this table's screen is
        told which it is.  (Set again once the host serves the table: it sets its own.)"""
        if self.hosted.on_rematch != self._rematch:
            self.hosted.on_rematch = self._rematch

    def _rematch(self, table: Any) -> Any:
        new = self.host.rematch(table)
        if self.rematched is not None:
            self.rematched(new)
        return new

    def rematch_table(self, table: Any) -> "HostedTable":
        """The rematch's table, served by the same host (and announced by the same advertiser)."""
        hosted = HostedTable(self.host, table, self.advertise, self.web)
        hosted.running, self.running = self.running, False
        self.advertise = self.web = None
        return hosted

    @property
    def match(self) -> Match:
        return self.hosted.match

    async def open(self) -> str:
        """Start listening (and announcing); returns the address."""
        await self.host.start()
        self.running = True
        self._follow_rematch()
        if self.advertise is not None:
            try:
                await self.advertise.start(self.host)
            except Exception as exc:  # no multicast here: joining by address still works
                self.advertise = None
                self.advertise_error = str(exc) or type(exc).__name__
        if self.web is not None:
            try:
                await self.web.start()
            except Exception as exc:  # (the web port is taken: the LAN table goes on without browsers)
                self.web = None
                self.web_error = str(exc) or type(exc).__name__
        return self.address

    advertise_error = ""
    web_error = ""

    def web_code(self, light_ink: bool) -> str:
        """``web_url`` as a QR code of text (``tui.web.qr``)."""
        return self.web.qr_text(light_ink) if self.web is not None else ""

    @property
    def web_url(self) -> str:
        """Where browsers join ("": not served to browsers)."""
        return self.web.url() if self.web is not None and self.running else ""

    @property
    def address(self) -> str:
        """The first address players can type (``addresses`` has them all)."""
        return self.addresses[0]

    @property
    def addresses(self) -> list[str]:
        return reachable_addresses(self.host.bind, self.host.port)

    async def close(self) -> None:
        if self.advertise is not None:
            await self.advertise.stop()
            self.advertise = None
        if self.web is not None:
            await self.web.close()
            self.web = None
        if self.running:
            self.running = False
            await self.host.close()

    # --- who is who --------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return self.hosted.names()

    @property
    def human_seats(self) -> list[int]:
        """The seats played at this keyboard."""
        return [s.index for s in self.hosted.slots if s.kind == "local"]

    def bot_to_act(self) -> int | None:
        return None  # (the netplay host plays its bots)

    def step_bot(self) -> bool:
        return False

    def human_to_act(self) -> int | None:
        if not self.hosted.started:
            return None
        for seat in sorted(self.match.to_act()):
            if self.hosted.slots[seat].kind == "local":
                return seat
        return None

    def hides_information(self) -> bool:
        return hides_information(self.game, self.match.state, self.human_seats)

    # --- acting ----------------------------------------------------------------------
    def link(self, seat: int | None) -> "HostedSeat":
        return HostedSeat(self, seat)

    def submit(self, seat: int, action: Any) -> str | None:
        return self.hosted.submit(seat, action)

    def undo(self, seat: int) -> str | None:
        return self.hosted.undo(seat)

    def save(self, path: Path) -> Path:
        return save_record(self.match.record, path)

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()


class HostedSeat(MatchSeat):
    """A local seat (or the host watching) at a hosted table."""

    def __init__(self, table: HostedTable, seat: int | None):
        self.table = table
        self.hosted = table.hosted
        self.game = table.game
        self.seat = seat
        self.practice = table.match.practice

    @property
    def names(self) -> list[str]:  # type: ignore[override]
        return self.hosted.names()

    def legal(self) -> list[Any]:
        if self.seat is None or self.hosted.slots[self.seat].kind != "local" or not self.hosted.started:
            return []
        return self.table.match.legal(self.seat)

    def log(self) -> list[LogLine]:
        m = self.table.match
        return [self.game.describe(e, self.seat, self.names) for e in m.events_for(self.seat)]

    def seat_label(self, seat: int) -> str:
        return self.hosted.slots[seat].label()

    def bot_level(self, seat: int) -> str | None:
        slot = self.hosted.slots[seat]
        return (slot.level or DEFAULT_BOT_LEVEL) if slot.kind == "bot" else None

    def clock(self, seat: int) -> float | None:
        return self.hosted.clock_left(self.hosted.slots[seat])

    def chat_log(self) -> list[str]:
        """The table's chat as this seat hears it (the host's terminal hears the players)."""
        return [chat_text(line) for line in self.hosted.chat.heard_by(self.seat if self.seat is not None else 0)]

    def chat(self, text: str) -> str | None:
        if self.seat is None:
            return "Only a player at this terminal can chat from here."
        return self.hosted.local_chat(self.seat, text)

    def waiting_for(self) -> str:
        t = self.hosted
        if t.over:
            return ""
        if not t.started:
            return f"{counted(t.open_seats(), 'more player')} to join"
        parts = []
        for s in sorted(t.match.to_act()):
            if s == self.seat:
                continue
            slot = t.slots[s]
            name = t.names()[s]
            if slot.standin:
                parts.append(f"{slot.label()} (thinking)")
            elif slot.kind == "bot":
                parts.append(f"{name} ({slot.level or DEFAULT_BOT_LEVEL} bot)")
            elif slot.kind == "open" and slot.conn is None:
                parts.append(f"{name} (disconnected)")
            elif slot.kind == "open":
                parts.append(f"{name} (remote, choosing)")
            else:
                parts.append(f"{name} (choosing)")
        return ", ".join(parts)
