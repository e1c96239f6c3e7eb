"""``atlantis host GAME --web``: a LAN host's table in browsers too, so the players at the
table each play on their own phone.

Every browser session runs ``atlantis join`` as a LAN client of the host (over TLS on
this machine, checking the host's own fingerprint), through the web server ``serve-web``
uses (``tui.web.server.BrowserFront``: the page, the browser's cookie, the limits, the
downloads).  A browser is given a seat the first time it opens the page, as a LAN player
is (``HostTable.claim``), and keeps it: the front remembers which seat's token is whose
browser, so a reload, or a phone that slept, sits down at the same seat again (and
follows its seat to a rematch).  Once every seat is taken, a new browser watches.
"""

from __future__ import annotations

from typing import Any, Callable

from netplay.text import clean_name

from ..common import CannotListen, host_port
from .qr import join_lines, qr_text
from .server import BrowserFront, WebLimits

#: Browser sessions at once: each is a connection to the host from this machine, which
#: the host takes at most ``Limits.max_per_address`` (16) of.
HOST_WEB_SESSIONS = 12


class HostWebFront(BrowserFront):
    """The web server in front of one LAN host (``netplay.host.Host``), started once the
    host listens (its port and fingerprint are known then)."""

    def __init__(self, host: Any, **kwargs: Any):
        kwargs.setdefault("limits", WebLimits(max_sessions=HOST_WEB_SESSIONS))
        super().__init__(**kwargs)
        self.host = host
        self.seats: dict[str, tuple[str, int, str]] = {}  # browser identity -> table id, seat, token
        host.rematch_listeners.append(self._rematched)

    @property
    def title(self) -> str:
        return self.host.table.name or "atlantis"

    def link_address(self) -> str:
        """Where the sessions' apps reach the host: its own address, or the loopback one
        when it listens on every interface."""
        bind = self.host.bind
        if bind in ("", "0.0.0.0"):
            bind = "127.0.0.1"
        elif bind == "::":
            bind = "::1"
        return host_port(bind, self.host.port)

    def seat_for(self, identity: str, name: str | None) -> tuple[str, str] | None:
        """This browser's seat (its table id and token): the one it holds, else the next
        open one.  None: every seat is taken (it watches)."""
        held = self.seats.get(identity)
        if held is not None:
            table_id, seat, token = held
            table = self.host.tables.get(table_id)
            if table is not None and table.slot_for_token(token) is table.slots[seat]:
                return table_id, token
            del self.seats[identity]  # (given up: it left before the start, and may sit down again)
        table = self.host.default_table()
        claimed = table.claim(name or "") if table is not None and not table.over else None
        if claimed is None:
            return None
        slot, token = claimed
        self.seats[identity] = (table.id, slot.index, token)
        return table.id, token

    def session_command(self, identity: str, name: str | None) -> tuple[list[str], dict[str, str], Callable[[], None]]:
        """``atlantis join`` to this host at the browser's seat (its token in the
        environment, never on a command line others may list), or to watch."""
        argv = ["join", self.link_address(), "--expect-fingerprint", self.host.fingerprint or ""]
        env: dict[str, str] = {}
        seat = self.seat_for(identity, name)
        if seat is None:
            argv.append("--spectate")
        else:
            argv += ["--table", seat[0]]
            env["ATLANTIS_TOKEN"] = seat[1]
        if name:
            argv += ["--name", clean_name(name, "Player")]
        return argv, env, lambda: None

    def _rematched(self, old: Any, new: Any, tokens: dict[int, str]) -> None:
        """The players moved to a rematch: each browser's seat is its seat there."""
        for identity, (table_id, seat, _) in list(self.seats.items()):
            if table_id == old.id and seat in tokens:
                self.seats[identity] = (new.id, seat, tokens[seat])

    async def start(self) -> int:
        try:
            return await super().start()
        except OSError as exc:
            raise CannotListen(f"cannot listen for browsers on {host_port(self.bind or '0.0.0.0', self.port)}: "
                               f"{exc.strerror or exc} (another --web-port, or 0 for any free one)") from None

    def join_lines(self) -> list[str]:
        """What the host prints for phones: the address and its QR code."""
        return join_lines(self.url())

    def qr_text(self, light_ink: bool) -> str:
        """The address as a QR code (``tui.web.qr``), for the host's screen."""
        return qr_text(self.url(), light_ink)

    async def close(self) -> None:
        if self._rematched in self.host.rematch_listeners:
            self.host.rematch_listeners.remove(self._rematched)
        await super().close()

