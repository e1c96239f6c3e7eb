"""How the app runs LAN play: hosting (setup -> waiting room -> the hot-seat loop over a
``HostedTable``), joining (lobby -> connecting -> the game's own screen over a
``RemoteSeat``), connection status, and the end of a remote game.

``AtlantisApp`` calls ``start`` from ``on_mount`` (``atlantis host`` / ``atlantis
join``) and ``from_menu`` for the menu's LAN buttons; everything else lives here.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from textual.css.query import NoMatches

from engine.registry import get_game
from netplay.client import Client, RemoteSeat, run_bot
from netplay.host import Host, HostTable
from netplay.tls import Trust

from ..common import DEFAULT_PORT, host_log_path
from ..games import screen_class
from ..screens.common import GameOverScreen, game_over_summary
from ..seats import seat_label
from .hosting import HostedTable
from .screens import ConnectingScreen, HostSetupScreen, HostTableScreen, JoinRequest, LanStatus, LobbyScreen


def start(app: Any) -> None:
    if app.hosted is not None:
        host_flow(app, app.hosted, from_menu=False)
    elif app.remote is not None:
        remote_flow(app, app.remote)
    else:
        lobby_flow(app, from_menu=False)


def from_menu(app: Any, choice: Any) -> None:
    if choice.lan == "join":
        lobby_flow(app, from_menu=True)
        return
    game = get_game(choice.game)
    names = list(game.seat_names[:choice.players])

    def chosen(setup: Any) -> None:
        if setup is None:
            app.show_menu()
            return
        # Deliberately lazy: zeroconf is loaded only when a table is really announced.
        from netplay.discovery import Advertiser

        table = HostTable.create(game, choice.options, setup.kinds, choice.seed, name=setup.name,
                                 log_path=host_log_path(game.slug))
        host = Host([table], host="0.0.0.0", port=setup.port)
        host_flow(app, HostedTable(host, table, Advertiser(interfaces=app.lan_interfaces)), from_menu=True)

    default = f"{socket.gethostname()[:20]} {game.slug}"
    app.push_screen(HostSetupScreen(game.title, names, choice.bots, default, DEFAULT_PORT,
                                    kinds=list(choice.kinds) or None), chosen)


# --- hosting ------------------------------------------------------------------------
def host_flow(app: Any, hosted: Any, from_menu: bool) -> None:
    def started(ok: bool | None) -> None:
        if ok:
            app.hosted = hosted
            app.save_path = hosted.hosted.log.path if hosted.hosted.log else None
            app.call_later(app.start_table, hosted)  # once the waiting room is gone
            app.call_later(app.call_after_refresh, _host_status, app, hosted)
            _seats_notice(app, hosted)  # (remembers who is connected now)
            hosted.hosted.seat_listeners.append(lambda: _seats_notice(app, hosted))
            return

        async def close() -> None:
            await hosted.close()
            if from_menu:
                app.show_menu()
            else:
                app.exit()

        app.call_later(lambda: asyncio.ensure_future(close()))

    app.push_screen(HostTableScreen(hosted), started)


def _host_status(app: Any, hosted: Any) -> None:
    """The host's side panel: where the players reach the table, and who is away."""
    t = hosted.hosted
    away = [t.names()[s.index] for s in t.slots if s.kind == "open" and s.conn is None]
    lines = [f"LAN: hosting on {hosted.address}"]
    if away:
        lines.append("Away: " + ", ".join(away))
    put_lan_lines(app, "\n".join(lines))


def _seats_notice(app: Any, hosted: Any) -> None:
    """Tell the host when a LAN player drops or comes back."""
    _host_status(app, hosted)
    t = hosted.hosted
    now = {s.index: s.conn is not None for s in t.slots if s.kind == "open"}
    before = getattr(hosted, "_connected", now)
    hosted._connected = now
    for seat, up in now.items():
        if before.get(seat) != up:
            name = t.names()[seat]
            app.notify(f"{seat_label(seat, name)} " + ("is back." if up else "disconnected."),
                       severity="information" if up else "warning")


# --- joining ------------------------------------------------------------------------
def lobby_flow(app: Any, from_menu: bool) -> None:
    def chosen(req: JoinRequest | None) -> None:
        if req is None:
            if from_menu:
                app.show_menu()
            else:
                app.exit()
            return
        client = Client(req.host, req.port, name=req.name, spectate=req.spectate,
                        trust=(app.trust or Trust()).expecting(req.fingerprint))
        remote_flow(app, client, back=lambda: _back_to_lobby(app, client, from_menu))

    app.push_screen(LobbyScreen(app.player_name, interfaces=app.lan_interfaces), chosen)


def _back_to_lobby(app: Any, client: Any, from_menu: bool) -> None:
    """Esc on a join that failed (or is taking long): back to the lobby, not out."""
    app.remote = app.netplay_link = None
    app.call_later(lambda: asyncio.ensure_future(client.close()))
    lobby_flow(app, from_menu)


class _Join:
    """One join: its link, the connecting screen it shows, and the game screen that
    replaces it once the first view is in (None until then)."""

    def __init__(self, link: Any, connecting: ConnectingScreen):
        self.link, self.connecting = link, connecting
        self.screen: Any = None


def remote_flow(app: Any, client: Any, back: Any = None) -> None:
    """Join with ``client``; ``back``: what Esc on the connecting screen does (default:
    leave the app).

    The client's events reach the app through ``call_later``, each handled by the join
    it belongs to (``_client_event``): an event of an earlier join (its client replaced
    by this one), or of a join given up on (Esc on its connecting screen), changes
    nothing, and what waits for the first view is this join's connecting screen, not
    whatever ``app.game_screen`` held before.  (A client this one replaces is the
    caller's to close: its goodbye would give up a seat not yet played, the very seat a
    join with its token comes back to.)"""
    link = RemoteSeat(client)
    app.remote = client
    app.netplay_link = link
    app.game_screen = None  # (this join's own comes with its first view)
    connecting = ConnectingScreen(f"Connecting to {client.host}:{client.port}...", back is not None)
    join = _Join(link, connecting)

    def left(_: Any) -> None:
        if back is not None:
            back()
        else:
            app.exit()

    app.push_screen(connecting, left)
    client.listeners.append(lambda what: app.call_later(_client_event, app, join, what))
    if client.view is not None:  # (a client already under way: its first view is in, to show)
        app.call_later(_client_event, app, join, "update")
    if app.bot_client:
        app._bot_task = asyncio.ensure_future(run_bot(client, delay=app.bot_delay))
    elif not client.has_started:
        client.start()


def _client_event(app: Any, join: _Join, what: str) -> None:
    if app.netplay_link is not join.link:
        return  # a join this app has left (or replaced): nothing of it is on the screen
    try:
        _on_client_event(app, join, what)
    except NoMatches:
        pass  # the game screen is still composing: its own on_mount draws the view


def _on_client_event(app: Any, join: _Join, what: str) -> None:
    link, connecting = join.link, join.connecting
    client = link.client
    if join.screen is None:  # still connecting
        if connecting not in app.screen_stack:
            return  # given up on (Esc on it): the way back is under way
        if client.view is not None and client.game is not None:
            try:
                cls = screen_class(client.game.slug)
            except KeyError:
                connecting.set_text(f"This program has no screen for {client.game.title} yet.")
                return
            app.game_screen = join.screen = cls(link)
            while app.screen is not connecting:  # (a screen over it, the command palette say)
                app.pop_screen()
            app.pop_screen()  # (the connecting screen itself, not whatever is on top)
            app.push_screen(app.game_screen)
            who = "a spectator" if client.seat is None else seat_label(client.seat, link.names[client.seat])
            token = " Your seat token is in the side panel." if client.seat is not None else ""
            app.notify(f"Joined {client.welcome.table_name!r} as {who}.{token}", timeout=8)
            app.sub_title = link.connection_line()
            app.call_after_refresh(show_lan_status, app, link)
        elif client.status in ("refused", "closed"):
            connecting.set_text(f"[b]Could not join[/b] {client.host}:{client.port}\n\n"
                                f"{client.last_error or client.status}\n\n"
                                f"{'Esc goes back to the lobby.' if connecting.back else 'Esc leaves.'}")
        elif client.status == "reconnecting":
            connecting.set_text(f"Connecting to {client.host}:{client.port}... (try {client.attempt})\n"
                                f"{client.last_error}")
        return
    if app.game_screen is not join.screen:
        return  # (its game screen is gone: the app is leaving this game)
    screen = app.game_screen
    show_lan_status(app, link)
    if what == "status":
        app.sub_title = link.connection_line()
        if client.status == "reconnecting" and client.attempt == 1:
            app.notify("Connection to the host lost: reconnecting...", severity="warning")
        elif client.status == "connected":
            app.notify("Reconnected to the host.")
        elif client.status in ("refused", "closed"):
            app.notify(f"Disconnected: {client.last_error}", severity="error", timeout=10)
        screen.say(link.connection_line() if client.status != "connected" else "")
    if what == "error":
        screen.say(client.last_error)
        app.bell()
    if what in ("update", "seats", "status", "welcome", "over"):
        screen.refresh_view()
    if what == "over":
        _remote_game_over(app, link)


def lan_status_text(link: Any, width: int = 80) -> str:
    """The LAN lines of the side panel: where, how the connection is, and the seat's
    token while this player holds a seat (in two halves, one a line, when it is wider
    than the ``width`` the panel has: a token cut anywhere else is hard to copy)."""
    c = link.client
    where = "Server" if c.host.startswith("/") else f"LAN {c.host}:{c.port}"  # (a path: serve-ssh's tables)
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
    if c.seat is not None and c.token and c.status != "over":
        token = c.token
        if len(token) <= width:
            lines += ["Seat token, to come back:", token]
        else:
            half = (len(token) + 1) // 2
            lines += ["Seat token (2 lines, one word):", token[:half], token[half:]]
    return "\n".join(lines)


def show_lan_status(app: Any, link: Any) -> None:
    """Keep the LAN lines in the game screen's side panel up to date (added there once
    the screen is composed)."""
    put_lan_lines(app, lambda width: lan_status_text(link, width))


def put_lan_lines(app: Any, text: Any, tries: int = 20) -> None:
    """Show ``text`` (or ``text(width)``) as the LAN lines of the game screen's side
    panel, adding them under the practice line the first time (a screen still being
    composed is tried again a moment later)."""
    screen = app.game_screen
    if screen is None:
        return
    try:
        if not screen.is_mounted:
            raise NoMatches()
        side = screen.query_one("#side")
    except NoMatches:
        if tries > 0:
            app.set_timer(0.05, lambda: put_lan_lines(app, text, tries - 1))
        return
    found = side.query(LanStatus)
    if found:
        status = found.first()
    else:
        status = LanStatus(id="lan-status", markup=False)
        anchor = side.query("#practice")
        side.mount(status, after=anchor.first() if anchor else None)
    width = status.content_region.width or side.content_region.width or 31
    status.update(text(width) if callable(text) else text)


def _remote_game_over(app: Any, link: Any) -> None:
    over = link.client.over
    v = link.client.verification
    mark = "OK" if v and v.ok else "!!"
    notes = [f"[{mark}] Host honesty: {v.text if v else 'not checked'}",
             f"{len(over.moves)} moves. The host keeps the record."]
    text = game_over_summary(link.names, over.winners, over.reason, over.scores, notes,
                             unit=link.game.score_unit)

    def chosen(what: str | None) -> None:
        if what == "menu" and getattr(app, "menu_home", False):
            app._back_to_menu()  # (closes the connection)
        elif what in ("quit", "menu"):
            app.exit()
        elif what == "save":
            app.notify("The host keeps the record of this game (its log).")

    choices = ("menu", "board", "quit") if getattr(app, "menu_home", False) else ("board", "quit")
    app.push_screen(GameOverScreen(text, link.final_reveal(), choices), chosen)


def current_game(app: Any) -> Any:
    link = getattr(app, "netplay_link", None)
    return link.client.game if link is not None else None
