"""A table server's lobby: its tables (live), open a new one, join, watch, or play here.

Shown by ``atlantis join HOST:PORT`` when HOST:PORT is a table server
(``netplay.server``), and by every SSH session of ``atlantis serve-ssh``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Select, Static

from netplay import messages
from engine.text import counted
from netplay.identity import ServerLobby

from ..screens.lobby import TablesLobby


@dataclass
class LobbyChoice:
    what: str                         # "open" | "join" | "watch" | "rejoin" | "token" | "here"
    table: str = ""
    ticket: messages.Ticket | None = None
    request: messages.OpenTable | None = None
    token: str = ""                   # "token": the seat token the player typed


class ServerLobbyScreen(TablesLobby[LobbyChoice, messages.TableInfo]):
    """The server's tables, refreshed every second or so.  A table where this player
    holds a seat is marked "(your seat)"; the lobby never takes the player there by
    itself (the seat may be in play on another screen of theirs): it selects the table
    and says that Enter takes the seat back."""

    BINDINGS = [
        Binding("n", "open", "New table", id="server-lobby-open"),
        Binding("enter", "join", "Join", id="server-lobby-join"),
        Binding("w", "watch", "Watch", id="server-lobby-watch"),
        Binding("t", "token", "My seat (token)", id="server-lobby-token"),
        Binding("p", "here", "Play here", id="server-lobby-here"),
        Binding("r", "refresh", "Refresh", show=False, id="server-lobby-refresh"),
        Binding("q,escape", "leave", "Quit", id="server-lobby-quit"),
    ]
    COLUMNS = ("Table", "Game", "Seats", "State")
    WAITING = "Asking the server for its tables..."

    def __init__(self, lobby: ServerLobby, name: str, point_at_mine: bool = False):
        super().__init__()
        self.lobby, self.player_name = lobby, name
        self.host, self.port = lobby.host, lobby.port
        self.point_at_mine = point_at_mine  # the first listing selects a table where the player holds a seat
        self.listing: messages.TableList | None = None
        self._shown: Any = None

    def title_text(self) -> str:
        where = "" if self.host.startswith("/") else f" {self.host}:{self.port}"  # (a path: serve-ssh)
        return f"Table server{where}"

    async def on_mount(self) -> None:
        await self.refresh_tables()
        self.set_interval(1.0, self.refresh_tables)

    async def refresh_tables(self) -> None:
        try:
            answer = await self.lobby.list_tables(3.0)
        except Exception as exc:
            self.say(f"The server does not answer ({exc or type(exc).__name__}).")
            return
        if isinstance(answer, messages.Error):
            self.say(f"The server refused: {answer.message}")
            return
        if not isinstance(answer, messages.TableList) or not self.is_attached:  # (attached already in on_mount)
            return
        self.listing = answer
        mine = {t.table: t for t in answer.mine}
        shown = (answer.tables, answer.mine, answer.limit)
        if shown == self._shown:  # (nothing changed: no redraw, no bytes to the terminal)
            return
        self._shown = shown
        self.query_one("#title", Static).update(f"{answer.server}: tables")

        def cells(t: messages.TableInfo) -> tuple[str, ...]:
            state = "over" if t.over else ("playing" if t.started else "waiting")
            you = " (your seat)" if t.table in mine else ""
            return t.name[:30] + you, t.game, f"{t.open} of {t.players} open", state

        held = [i for i, t in enumerate(answer.tables) if t.table in mine]
        # (back after a drop: the seat is one key away)
        self.show_rows(answer.tables, cells, held[0] if self.point_at_mine and held else None)
        self.point_at_mine = False
        n = len(self.rows)
        seats = (f"You hold a seat at {counted(len(held), 'table')} here, marked (your seat): Enter on one "
                 "takes your seat back.\n" if held else "")
        self.say(seats + (f"{counted(n, 'table')}. Enter joins the selected one, w watches it, t takes your seat there "
                          f"back with its token, n opens a new table, p plays here (hot-seat or bots)." if n else
                          "No tables yet: n opens one (you choose the game and how many bots), p plays here.")
                 + f"\n{answer.limit}")

    def action_join(self) -> None:
        t = self.selected()
        if t is None:
            self.show_error("No table selected: n opens a new one.")
            return
        mine = {x.table: x for x in (self.listing.mine if self.listing else [])}
        if t.table in mine:
            self.dismiss(LobbyChoice("rejoin", t.table, mine[t.table]))
        elif t.open <= 0 or t.over:
            self.show_error("That table has no open seat: w watches it; if your seat is there, t takes it back "
                            "with its seat token.")
        else:
            self.dismiss(LobbyChoice("join", t.table))

    def action_watch(self) -> None:
        t = self.selected()
        if t is not None:
            self.dismiss(LobbyChoice("watch", t.table))

    def action_open(self) -> None:
        games = self.listing.games if self.listing else ["pathways"]
        if self.listing is not None and not self.listing.can_open:
            self.show_error(f"You cannot open another table now. {self.listing.limit}")
            return

        def opened(request: messages.OpenTable | None) -> None:
            if request is not None:
                self.dismiss(LobbyChoice("open", request=request))

        self.app.push_screen(OpenTableScreen(games, self.player_name), opened)

    def action_token(self) -> None:
        """Back into a seat by its token (shown in the game's side panel): the way back
        for a player the server cannot recognise (an SSH session without a key)."""
        t = self.selected()
        if t is None or t.over:
            self.show_error("Select the table where your seat is, then t.")
            return

        def typed(token: str | None) -> None:
            if token:
                self.dismiss(LobbyChoice("token", t.table, token=token))

        self.app.push_screen(SeatTokenScreen(t.name), typed)

    def action_here(self) -> None:
        self.dismiss(LobbyChoice("here"))

    async def action_refresh(self) -> None:
        await self.refresh_tables()

    def action_leave(self) -> None:
        self.dismiss(None)


class OpenTableScreen(Screen[messages.OpenTable]):
    """The game, seats, bots, options and name of a new table."""

    DEFAULT_CSS = """
    OpenTableScreen { align: center top; }
    OpenTableScreen #box { width: 72; height: auto; max-height: 100%; padding: 0 1; }
    OpenTableScreen #title { text-style: bold; color: $ink-gold; margin: 1 0; }
    OpenTableScreen .row { height: 1; margin-bottom: 1; }
    OpenTableScreen .row Label { width: 20; }
    OpenTableScreen .row Select, OpenTableScreen .row Input { width: 1fr; }
    OpenTableScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [
        Binding("ctrl+s", "open", "Open the table", id="open-table-open"),
        Binding("escape", "cancel", "Back", id="open-table-back"),
    ]

    def __init__(self, games: list[str], name: str):
        super().__init__()
        self.games, self.player_name = games, name

    def compose(self) -> ComposeResult:
        from engine.registry import GAMES

        slugs = [g for g in self.games if g in GAMES] or ["pathways"]
        first = "pathways" if "pathways" in slugs else slugs[0]
        with VerticalScroll(id="box"):
            yield Static("Open a table on the server", id="title")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select([(GAMES[s].title, s) for s in slugs], value=first, allow_blank=False,
                             id="game", compact=True)
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Input("2", id="players", type="integer", compact=True)
            with Horizontal(classes="row"):
                yield Label("Bots (last seats)")
                yield Input("1", id="bots", type="integer", compact=True)
            with Horizontal(classes="row"):
                yield Label("Options")
                yield Input("", placeholder="name=value ... (e.g. max_rounds=10)", id="options", compact=True)
            with Horizontal(classes="row"):
                yield Label("Table name")
                yield Input("", placeholder=f"{self.player_name}'s table", id="table-name", compact=True,
                            max_length=40)
            yield Static("You take the first seat; the others join from the lobby. Enter opens.", id="about")
            yield Static("", id="error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#game", Select).focus()  # (then Tab: players, bots, options, name)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_open()

    def action_open(self) -> None:
        error = self.query_one("#error", Static)
        try:
            players = int(self.query_one("#players", Input).value or "0")
            bots = int(self.query_one("#bots", Input).value or "0")
        except ValueError:
            error.update("Players and bots are numbers.")
            return
        if not 1 <= players <= 8 or not 0 <= bots < players:
            error.update("At least one seat must be a player's (fewer bots than players).")
            return
        options: dict[str, Any] = {}
        for pair in self.query_one("#options", Input).value.split():
            key, sep, value = pair.partition("=")
            if not sep:
                error.update(f"Option {pair!r} should look like name=value.")
                return
            options[key.replace("-", "_")] = value
        try:
            request = messages.OpenTable(game=str(self.query_one("#game", Select).value), options=options,
                                  players=players, bots=bots, name=self.player_name,
                                  table_name=self.query_one("#table-name", Input).value.strip())
        except ValueError as exc:
            error.update(f"Cannot open that table: {str(exc).splitlines()[0][:120]}")
            return
        self.dismiss(request)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SeatTokenScreen(Screen[str]):
    """The seat token of a seat to take back (the side panel of the game showed it)."""

    DEFAULT_CSS = """
    SeatTokenScreen { align: center top; }
    SeatTokenScreen #box { width: 72; height: auto; padding: 0 1; }
    SeatTokenScreen #title { text-style: bold; color: $ink-gold; margin: 1 0; }
    SeatTokenScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Back", id="seat-token-back")]

    def __init__(self, table_name: str):
        super().__init__()
        self.table_name = table_name

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static(f"Take your seat back at {self.table_name[:40]!r}", id="title")
            yield Static("Type (or paste) the seat token your game showed in its side panel; "
                         "the two halves go together, spaces do not matter. Enter takes the seat.")
            yield Input("", placeholder="seat token", id="token", max_length=80)
            yield Static("", id="error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        token = "".join(event.value.split())
        if not 16 <= len(token) <= 64 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in token):
            self.query_one("#error", Static).update("A seat token is 32 letters, digits, - and _.")
            return
        self.dismiss(token)

    def action_cancel(self) -> None:
        self.dismiss(None)
