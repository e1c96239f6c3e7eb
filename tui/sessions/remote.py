"""Remote: this keyboard plays one seat (or watches) at a table another process holds,
a LAN host (``atlantis join``) or a table server (its lobby's tables).

Until the host's first view arrives there is no view yet: the session shows the
connecting screen, and the game's own screen only once that view is in.  The client's
events (an update, the seats, the connection's status, an error, the game's end) reach
the session through ``call_later``; an event of a session the app has left changes
nothing.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Callable

from engine.core import DEFAULT_BOT_LEVEL
from engine.text import counted

from .base import Session, Stage

if TYPE_CHECKING:
    from netplay.client import Client

    from ..lan.screens import ConnectingScreen


class RemoteSession(Session):
    """A ``netplay.client.Client`` and the ``RemoteSeat`` over it.

    ``back``: what Esc on the connecting screen does (default: leave the app).  A client
    this session replaces is the caller's to close: its goodbye would give up a seat not
    yet played, the very seat a join with its token comes back to."""

    def __init__(self, app: Stage, client: Client, back: Callable[[], None] | None = None,
                 bot: bool = False, bot_delay: float = 0.0, bot_level: str = "normal"):
        from netplay.client import RemoteSeat

        super().__init__(app)
        self.client = client
        self.link = RemoteSeat(client)
        self.back = back
        self.bot, self.bot_delay, self.bot_level = bot, bot_delay, bot_level
        self.connecting: ConnectingScreen | None = None
        self._bot_task: Any = None
        self._stopped = False

    def start(self) -> None:
        from netplay.client import run_bot

        from ..lan.screens import ConnectingScreen

        client = self.client
        self.connecting = ConnectingScreen(f"Connecting to {client.host}:{client.port}...", self.back is not None)
        self.app.push_screen(self.connecting, self._connecting_left)
        client.listeners.append(self._client_event)
        if client.view is not None:  # (a client already under way: its first view is in, to show)
            self.app.call_later(self.on_event, "update")
        if self.bot:
            self._bot_task = asyncio.ensure_future(run_bot(client, delay=self.bot_delay, level=self.bot_level))
        elif not client.has_started:
            client.start()

    def _connecting_left(self, _: Any) -> None:
        if self.back is not None:
            self.back()
        else:
            self.app.exit()

    def stop(self) -> None:
        self._stopped = True
        self.stop_ticking()
        if self._client_event in self.client.listeners:
            self.client.listeners.remove(self._client_event)

    async def close(self) -> None:
        await self.client.close()

    def _client_event(self, what: str) -> None:
        self.app.call_later(self.on_event, what)

    # --- the client's events -------------------------------------------------------------
    def on_event(self, what: str) -> None:
        """One event of the client: "update", "seats", "status", "welcome", "error", "over",
        "chat", "moved"."""
        if self._stopped or self.app.session is not self:
            return  # a session this app has left (or replaced): nothing of it is on the screen
        if what == "moved":
            self._follow_rematch()
            return
        if self.screen is None:
            self._while_connecting()
            return
        client, screen, app = self.client, self.screen, self.app
        if what == "status":
            app.sub_title = self.link.connection_line()
            if client.status == "reconnecting" and client.attempt == 1:
                app.notify("Connection to the host lost: reconnecting...", severity="warning")
            elif client.status == "connected":
                app.notify("Reconnected to the host.")
            elif client.status in ("refused", "closed"):
                app.notify(f"Disconnected: {client.last_error}", severity="error", timeout=10)
            screen.say(self.link.connection_line() if client.status == "reconnecting" else "")
        if what == "error":
            screen.say(client.last_error)
            app.bell()
        self.draw()
        if what == "over":
            self.show_game_over()

    def _while_connecting(self) -> None:
        from ..games import screen_class
        from ..seat_labels import seat_label

        client, connecting, app = self.client, self.connecting, self.app
        if connecting is None or connecting not in app.screen_stack:
            return  # given up on (Esc on it): the way back is under way
        if client.view is not None and client.game is not None:
            try:
                cls = screen_class(client.game.slug)
            except KeyError:
                connecting.set_text(f"This program has no screen for {client.game.title} yet.")
                return
            self.screen = cls(self.link)
            self.draw()
            while app.screen is not connecting:  # (a screen over it, the command palette say)
                app.pop_screen()
            app.pop_screen()  # (the connecting screen itself, not whatever is on top)
            app.push_screen(self.screen)
            who = "a spectator" if client.seat is None else seat_label(client.seat, self.link.names[client.seat])
            token = " Your seat token is in this panel." if client.seat is not None else ""
            # (in the side panel, not a toast: a toast fading over the board just pushed
            # left fragments of itself and of the panel's border behind)
            self.screen.say(f"Joined {client.welcome.table_name!r} as {who}.{token}")
            app.sub_title = self.link.connection_line()
        elif client.status in ("refused", "closed"):
            connecting.set_text(f"[b]Could not join[/b] {client.host}:{client.port}\n\n"
                                f"{client.last_error or client.status}\n\n"
                                f"{'Esc goes back to the lobby.' if connecting.back else 'Esc leaves.'}")
        elif client.status == "reconnecting":
            connecting.set_text(f"Connecting to {client.host}:{client.port}... (try {client.attempt})\n"
                                f"{client.last_error}")

    def draw(self) -> None:
        super().draw()
        if self.screen is not None:
            self.screen.status_lines(lambda width: lan_status_text(self.client, width))
            self.show_thinking()

    _since: dict[int, float] = {}  # the host's bots to act, since when (monotonic): as seen here

    def bots_thinking(self) -> dict[int, float]:
        """The seats a bot plays at the host (its own or a player's kept warm) that are to
        act, counted from when this client learned it."""
        c = self.client
        seats = c.seats.seats if c.seats is not None else []
        now = time.monotonic()
        acting = [] if c.over is not None else [
            s for s in c.to_act if s != c.seat and s < len(seats) and (seats[s].kind == "bot" or seats[s].standin)]
        self._since = {s: self._since.get(s, now) for s in acting}
        return {s: now - since for s, since in self._since.items()}

    # --- the end -------------------------------------------------------------------------
    def _follow_rematch(self) -> None:
        """Every player asked for a rematch: this game's screens go, and the new table's
        game screen comes with its first view (as at the first join)."""
        from ..lan.screens import ConnectingScreen

        app = self.app
        if self.screen is not None:
            while self.screen in app.screen_stack:
                app.pop_screen()
        self.screen = None
        self.connecting = ConnectingScreen("Every player asked for a rematch: joining the new table...",
                                           self.back is not None)
        app.push_screen(self.connecting, self._connecting_left)

    def can_rematch(self) -> bool:
        """A player whose client stays at the table after the game may ask for another."""
        return self.client.linger and self.client.seat is not None

    def show_game_over(self) -> None:
        from ..screens.dialogs import game_over_summary
        from ..screens.game_over import GameOverScreen

        link, app = self.link, self.app
        over = self.client.over
        v = self.client.verification
        mark = "OK" if v and v.ok else "!!"
        notes = [f"[{mark}] Host honesty: {v.text if v else 'not checked'}",
                 f"{counted(len(over.moves), 'move')}. The host keeps the record."]
        seats = self.client.seats.seats if self.client.seats is not None else []
        text = game_over_summary(link.names, over.winners, over.reason, over.scores, notes,
                                 unit=link.game.score_unit,
                                 bots={i: st.level or DEFAULT_BOT_LEVEL for i, st in enumerate(seats) if st.kind == "bot"})

        def chosen(what: str | None) -> None:
            if what == "menu" and app.menu_home:
                app.back_to_menu()  # (closes the connection)
            elif what in ("quit", "menu"):
                app.exit()
            elif what == "save":
                app.notify("The host keeps the record of this game (its log).")
            elif what == "rematch":
                error = self.client.rematch()
                app.notify(error or "Rematch asked: the new game starts when every player has asked.",
                           severity="warning" if error else "information")

        choices = ("menu", "board", "quit") if app.menu_home else ("board", "quit")
        if self.can_rematch():
            choices = ("rematch", *choices)
        app.push_screen(GameOverScreen(text, link.final_reveal(), choices), chosen)

    # --- the shared keys -----------------------------------------------------------------
    def save_record(self) -> None:
        self.say("The host keeps the record of this game (its log): nothing to save here.")

    def leave(self) -> None:
        """``q``: leave the table; once the game is over, the result first (its Rematch)."""
        if self.client.over is not None and self.can_rematch() and self.screen is not None:
            self.show_game_over()
            return
        super().leave()

    def leave_question(self) -> str:
        client = self.client
        token = getattr(client, "token", None)
        if client.over is not None or not token:
            return "Leave this game?"
        if on_server_socket(client):
            return ("Leave this game? Your seat stays yours: back in the lobby, Enter on the table "
                    "takes it again, or t with your seat token (in the side panel):")
        return "Leave this game? Your seat stays yours. To come back:"

    def leave_command(self) -> str:
        from ..common import shell_command

        client = self.client
        token = getattr(client, "token", None)
        if client.over is not None or not token:
            return ""
        if on_server_socket(client):
            return token
        return shell_command("atlantis", "join", f"{client.host}:{client.port}", "--token", token)


def on_server_socket(client: Client) -> bool:
    """The client is a session of ``serve-ssh`` (its table server's Unix socket, a path):
    no ``atlantis join`` of this address works from the player's own machine."""
    return client.host.startswith("/")


def lan_status_text(client: Client, width: int = 80) -> str:
    """The LAN lines of the side panel: where, how the connection is, and the seat's
    token while this player holds a seat (in two halves, one a line, when it is wider
    than the ``width`` the panel has: a token cut anywhere else is hard to copy)."""
    c = client
    where = "Server" if on_server_socket(c) else f"LAN {c.host}:{c.port}"
    if c.status == "connected":
        state = "watching (spectator)" if c.seat is None else "connected"
    elif c.status == "reconnecting":
        lost = ""
        if c.lost_at is not None:
            lost = f", no answer for {asyncio.get_running_loop().time() - c.lost_at:.0f} s"
        state = f"reconnecting (try {c.attempt}{lost})"
    elif c.status == "over":
        state = "the game is over"
    elif c.status == "closed":
        state = "the table is closed"
    else:
        state = c.status
    lines = [f"{where}: {state}"]
    if c.status in ("closed", "refused") and c.last_error:
        lines.append(c.last_error)
    if c.over is not None and c.seats is not None and c.seats.rematch:
        lines.append("Rematch asked by " + ", ".join(c.names[s] for s in c.seats.rematch if s < len(c.names)))
    if c.seat is not None and c.token and c.status != "over":
        token = c.token
        if len(token) <= width:
            lines += ["Seat token, to come back:", token]
        else:
            half = (len(token) + 1) // 2
            lines += ["Seat token (2 lines, one word):", token[:half], token[half:]]
    return "\n".join(lines)


def open_lobby(app: Stage, from_menu: bool) -> None:
    """The LAN lobby: pick a table (or type an address), then join it; Esc on a join
    that failed goes back to the lobby."""
    from netplay.client import Client
    from netplay.tls import Trust

    from ..lan.screens import JoinRequest, LobbyScreen

    def chosen(req: JoinRequest | None) -> None:
        if req is None:
            if from_menu:
                app.show_menu()
            else:
                app.exit()
            return
        client = Client(req.host, req.port, name=req.name, spectate=req.spectate,
                        trust=(app.trust or Trust()).expecting(req.fingerprint), linger=True)

        def back() -> None:
            session.stop()
            app.session = None
            app.call_later(lambda: asyncio.ensure_future(client.close()))
            open_lobby(app, from_menu)

        session = RemoteSession(app, client, back=back)
        app.begin(session)

    app.push_screen(LobbyScreen(app.player_name, interfaces=app.lan_interfaces), chosen)
