"""A table server's lobby: its tables (live), open a new one, join, watch, or play here.

Shown by ``atlantis join HOST:PORT`` when HOST:PORT is a table server
(``netplay.server``), and by every SSH session of ``atlantis serve-ssh``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from netplay import messages
from engine.core import BOT_LEVELS, DEFAULT_BOT_LEVEL
from engine.text import counted
from netplay.identity import ServerLobby

from ..common import form_turn_time
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
        your_turn = set(answer.your_turn)
        shown = (answer.tables, answer.mine, answer.limit, answer.your_turn)
        if shown == self._shown:  # (nothing changed: no redraw, no bytes to the terminal)
            return
        self._shown = shown
        self.query_one("#title", Static).update(f"{answer.server}: tables")

        def cells(t: messages.TableInfo) -> tuple[str, ...]:
            state = "over" if t.over else ("playing" if t.started else "waiting")
            you = (" (your turn)" if t.table in your_turn else " (your seat)") if t.table in mine else ""
            return t.name[:30] + you, t.game, f"{t.open} of {t.players} open", state

        def order(t: messages.TableInfo) -> int:
            """Your games in progress first (those where it is your turn before the others)."""
            if t.table in mine and not t.over:
                return 0 if t.table in your_turn else 1
            return 2

        tables = sorted(answer.tables, key=order)
        held = [i for i, t in enumerate(tables) if t.table in mine]
        # (back after a drop: the seat is one key away)
        self.show_rows(tables, cells, held[0] if self.point_at_mine and held else None)
        self.point_at_mine = False
        n = len(self.rows)
        seats = (f"You hold a seat at {counted(len(held), 'table')} here, listed first, marked (your seat) or "
                 "(your turn): Enter on one takes your seat back.\n" if held else "")
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
    """The game, seats, bots, options and name of a new table: the menu's choice widgets
    (a choice among words, ``‹ 2 ›``; the game's option fields), the focused field marked
    by a bar and its reversed label, as in the menu."""

    DEFAULT_CSS = """
    OpenTableScreen { align: center top; }
    OpenTableScreen #box { width: 76; height: auto; max-height: 100%; padding: 0 1; }
    OpenTableScreen #title { text-style: bold; color: $ink-gold; margin: 1 0; }
    OpenTableScreen .field { layout: horizontal; height: auto; padding-left: 1; border-left: blank; }
    OpenTableScreen .field:focus-within { border-left: thick $ink-gold; background: $boost; }
    OpenTableScreen .field > .field-widget { margin-left: 16; }
    OpenTableScreen .field > Input { width: 24; }
    OpenTableScreen .field-help { width: 1fr; color: $ink-muted; padding-left: 2; }
    OpenTableScreen #options { height: auto; }
    OpenTableScreen Switch { border: none; padding: 0; height: 1; width: 8; min-width: 8; max-width: 8; }
    OpenTableScreen .switch-word { width: 10; padding-left: 1; }
    OpenTableScreen CycleSelect:focus, OpenTableScreen Input:focus, OpenTableScreen Switch:focus {
        background: $accent 40%; text-style: bold; }
    OpenTableScreen #about { color: $ink-muted; margin-top: 1; }
    OpenTableScreen #error { color: $error; height: auto; }
    """
    BINDINGS = [
        Binding("ctrl+s", "open", "Open the table", id="open-table-open"),
        Binding("escape", "cancel", "Back", id="open-table-back"),
    ]

    def __init__(self, games: list[str], name: str):
        from engine.registry import GAMES

        super().__init__()
        self.games, self.player_name = [g for g in games if g in GAMES] or ["pathways"], name
        self.slug = "pathways" if "pathways" in self.games else self.games[0]

    def compose(self) -> ComposeResult:
        from engine.registry import GAMES

        from ..screens.menu_fields import CycleSelect, field_box

        info = GAMES[self.slug]
        with VerticalScroll(id="box"):
            yield Static("Open a table on the server", id="title")
            yield field_box("game", "Game", CycleSelect([(GAMES[s].title, s) for s in self.games], value=self.slug,
                                                        id="game"), None)
            yield field_box("players", "Players", CycleSelect(self._players_options(), value=info.min_players,
                                                              id="players"), "how many seats the table has")
            yield field_box("bots", "Bots", CycleSelect(self._bots_options(info.min_players), value=1, id="bots"),
                            "the last seats; the others join from the lobby")
            yield field_box("bot-level", "Bot level", CycleSelect([(level, level) for level in BOT_LEVELS],
                                                                  value=DEFAULT_BOT_LEVEL, id="bot-level"),
                            "how well the bots play: easy, normal or hard")
            yield Vertical(*self._option_fields(), id="options")
            yield field_box("table-name", "Table name",
                            Input("", placeholder=f"{self.player_name}'s table", id="table-name", compact=True,
                                  max_length=40), None)
            yield field_box("turn-time", "Turn time (s)",
                            Input("", placeholder="none", id="turn-time", type="number", compact=True),
                            "when it runs out, a bot decides that turn (empty: no timer)")
            yield Static("You take the first seat. Tab or Enter: next field; Ctrl+S opens the table.", id="about")
            yield Static("", id="error")
        yield Footer()

    def _players_options(self) -> list[tuple[str, int]]:
        from engine.registry import GAMES

        info = GAMES[self.slug]
        return [(str(n), n) for n in range(info.min_players, info.max_players + 1)]

    @staticmethod
    def _bots_options(players: int) -> list[tuple[str, int]]:
        return [(str(n), n) for n in range(players)]   # (the first seat is yours)

    def _option_fields(self) -> list[Any]:
        from engine.registry import option_fields

        from ..screens.menu_fields import option_field

        return [option_field(spec, spec.default) for spec in option_fields(self.slug)]

    def on_mount(self) -> None:
        self.query_one("#game").focus()

    async def on_cycle_select_changed(self, event: Any) -> None:
        from ..screens.menu_fields import CycleSelect

        players, bots = self.query_one("#players", CycleSelect), self.query_one("#bots", CycleSelect)
        if event.select.id == "game" and event.value != self.slug:
            self.slug = event.value
            with players.prevent(CycleSelect.Changed):
                players.set_options(self._players_options())
            box = self.query_one("#options", Vertical)
            await box.remove_children()
            await box.mount_all(self._option_fields())
        if event.select.id in ("game", "players"):
            kept = bots.value
            bots.set_options(self._bots_options(players.value))
            bots.value = kept

    def on_switch_changed(self, event: Any) -> None:
        name = (event.switch.id or "").removeprefix("opt-")
        for word in self.query(f"#word-{name}").results(Static):
            word.update("on" if event.value else "off")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.focus_next()

    def action_open(self) -> None:
        from engine.options import outside_model
        from engine.registry import GAMES, option_fields

        from ..screens.menu_fields import CycleSelect, field_errors, read_value

        error = self.query_one("#error", Static)
        raw = {spec.name: read_value(self.query_one(f"#opt-{spec.name}")) for spec in option_fields(self.slug)}
        options, errors = field_errors(outside_model(GAMES[self.slug].options_model), raw)
        if options is None:
            name, message = next(iter(errors.items()))
            error.update(f"Not opened: {name.replace('_', ' ')}: {message}")
            return
        players = self.query_one("#players", CycleSelect).value
        bots = self.query_one("#bots", CycleSelect).value
        level = self.query_one("#bot-level", CycleSelect).value
        try:
            turn_time = form_turn_time(self.query_one("#turn-time", Input).value)
        except ValueError as exc:
            error.update(str(exc))
            return
        try:
            request = messages.OpenTable(game=self.slug, options=options.model_dump(mode="json"), players=players,
                                         bots=bots, name=self.player_name,
                                         table_name=self.query_one("#table-name", Input).value.strip(),
                                         turn_time=turn_time, seats=["open"] * (players - bots) + [level] * bots)
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
