"""LAN screens: host a table (seats, name, port), the host's waiting room that shows who
joined, the lobby (live discovered tables and an address box; the list is the one every
lobby shares, ``tui.screens.lobby``), and a connecting screen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from engine.core import BOT_LEVELS, DEFAULT_BOT_LEVEL
from engine.text import counted
from netplay.client import parse_address
from netplay.text import clean_name

from ..common import DEFAULT_PORT, form_turn_time
from ..screens.lobby import TablesLobby
from ..seat_labels import seat_letter

KIND_LABEL = {"open": "open (LAN player)", "local": "here (this keyboard)",
              **{f"bot:{level}": f"bot: {level}" for level in BOT_LEVELS}}


def seat_choice(kind: str, level: str = "") -> str:
    """A seat's choice in the form: "open", "local", or "bot:LEVEL" (a bot of no chosen level: normal)."""
    return f"bot:{level or DEFAULT_BOT_LEVEL}" if kind == "bot" else kind


@dataclass
class HostSetup:
    kinds: list[str]
    name: str
    port: int
    turn_time: float = 0.0  # each seat's seconds per decision (0: no turn timer)
    levels: list[str] | None = None  # each seat's bot level ("" for the other seats)


class HostSetupScreen(Screen[HostSetup]):
    """Which seats are open for the LAN, played here, or bots; table name and port."""

    DEFAULT_CSS = """
    HostSetupScreen { align: center top; }
    HostSetupScreen #box { width: 72; height: auto; max-height: 100%; padding: 0 1; }
    HostSetupScreen #title { text-style: bold; color: $ink-gold; margin: 1 0; }
    HostSetupScreen .row { height: 1; margin-bottom: 1; }
    HostSetupScreen .row Label { width: 20; }
    HostSetupScreen .row Select, HostSetupScreen .row Input { width: 1fr; }
    HostSetupScreen #about { color: $ink-muted; }
    HostSetupScreen #error { color: $error; height: auto; }
    HostSetupScreen .row:focus-within Label { text-style: bold reverse; }
    HostSetupScreen Input:focus, HostSetupScreen Select:focus > SelectCurrent { background: $accent 40%; text-style: bold; }
    HostSetupScreen Button:focus { text-style: bold reverse; }
    """
    BINDINGS = [
        Binding("ctrl+s", "start", "Open the table", id="host-setup-start"),
        Binding("escape", "cancel", "Back", id="host-setup-back"),
    ]

    def __init__(self, title: str, names: list[str], bots: int, default_name: str, port: int,
                 kinds: list[str] | None = None, levels: list[str] | None = None):
        super().__init__()
        self.title_text = title
        self.names = names
        self.bots = bots
        self.default_name = default_name
        self.port = port
        # the menu's seats: "human" (here, at this keyboard), "bot" or "open"
        levels = list(levels or []) + [""] * len(kinds or [])
        self.kinds = [seat_choice({"human": "local"}.get(k, k), level) for k, level in zip(kinds, levels)] \
            if kinds else None

    def compose(self) -> ComposeResult:
        n = len(self.names)
        kinds = list(self.kinds) if self.kinds and len(self.kinds) == n else \
            [seat_choice("bot") if i >= n - self.bots else ("local" if i == 0 else "open") for i in range(n)]
        if "open" not in kinds and n > 1:  # a LAN table needs a LAN seat
            kinds[1 if kinds[1] != "local" else 0] = "open"
        with VerticalScroll(id="box"):
            yield Static(f"Host on the LAN: {self.title_text}", id="title")
            for i, name in enumerate(self.names):
                kind = kinds[i]
                with Horizontal(classes="row"):
                    yield Label(f"{seat_letter(i)} {name}")
                    yield Select([(v, k) for k, v in KIND_LABEL.items()], value=kind, allow_blank=False,
                                 id=f"seat-{i}", compact=True)
            with Horizontal(classes="row"):
                yield Label("Table name")
                yield Input(self.default_name, id="table-name", compact=True, max_length=40)
            with Horizontal(classes="row"):
                yield Label("Port")
                yield Input(str(self.port), id="port", type="integer", compact=True)
            with Horizontal(classes="row"):
                yield Label("Turn time (s)")
                yield Input("", placeholder="none (a bot decides when it runs out)", id="turn-time",
                            type="number", compact=True)
            yield Static("At least one seat must be open. Players join with `atlantis join` "
                         "(the lobby lists this table) or `atlantis join ADDRESS:PORT`.", id="about")
            yield Static("", id="error")
            yield Button("Open the table  (Ctrl+S)", id="open", variant="primary", compact=True)
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.focus_next()  # a stray Enter opens nothing: Ctrl+S or the button does

    def action_start(self) -> None:
        choices = [str(self.query_one(f"#seat-{i}", Select).value) for i in range(len(self.names))]
        kinds = [choice.partition(":")[0] for choice in choices]
        levels = [choice.partition(":")[2] for choice in choices]
        error = self.query_one("#error", Static)
        if "open" not in kinds:
            error.update("Open at least one seat for a LAN player.")
            return
        try:
            port = int(self.query_one("#port", Input).value or "0")
            if not 0 <= port < 65536:
                raise ValueError
        except ValueError:
            error.update("The port is a number from 0 (any) to 65535.")
            return
        try:
            turn_time = form_turn_time(self.query_one("#turn-time", Input).value)
        except ValueError as exc:
            error.update(str(exc))
            return
        name = self.query_one("#table-name", Input).value.strip() or self.default_name
        self.dismiss(HostSetup(kinds, name, port, turn_time, levels))

    def action_cancel(self) -> None:
        self.dismiss(None)


def table_heading(name: str, title: str) -> str:
    """A hosted table's heading: its name, then its game unless the name says it already
    (the default name is "<game> table")."""
    return name if title in name else f"{name} - {title}"


def fingerprint_lines(fingerprint: str | None) -> str:
    """What the host tells its players about the table's TLS certificate."""
    if not fingerprint:
        return ""
    return (f"\nThe connection is encrypted (TLS). Certificate fingerprint:\n  [b]{fingerprint}[/b]\n"
            "A player's first join remembers it; if theirs shows another one, someone is in between.")


class HostTableScreen(Screen[bool]):
    """The host's waiting room: the address, and every seat with who took it."""

    DEFAULT_CSS = """
    HostTableScreen { align: center top; }
    HostTableScreen #box { width: 76; height: auto; padding: 0 1; }
    HostTableScreen #title { text-style: bold; color: $ink-gold; margin: 1 0 0 0; }
    HostTableScreen #address { margin: 1 0; }
    HostTableScreen #seats { height: auto; border: round $primary; padding: 0 1; }
    HostTableScreen #note { color: $ink-muted; margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Close the table", id="host-table-close"),
                Binding("w", "phones", "QR code for phones", id="host-table-phones")]

    def __init__(self, hosted: Any):
        super().__init__()
        self.hosted = hosted

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The QR code only while browsers can join (``host --web``)."""
        return bool(self.hosted.web_url) if action == "phones" else True

    def action_phones(self) -> None:
        if self.hosted.web_url:
            self.app.push_screen(PhonesScreen(self.hosted.web_url, self.hosted.web_code))

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Static("", id="title")
            yield Static("Opening the table...", id="address")
            yield Static("", id="seats")
            yield Static("", id="note")
        yield Footer()

    async def on_mount(self) -> None:
        self.hosted.hosted.listeners.append(self._changed)
        self._changed()
        if not self.hosted.running:
            try:
                await self.hosted.open()
            except OSError as exc:
                self.query_one("#address", Static).update(
                    f"[b]Cannot listen:[/b] {exc.strerror or exc}. Esc goes back.")
                return
            except ValueError as exc:  # (the TLS certificate file does not load)
                self.query_one("#address", Static).update(f"[b]Cannot open the table:[/b] {exc}. Esc goes back.")
                return
        self.refresh_bindings()
        self.call_after_refresh(self._changed)

    def on_unmount(self) -> None:
        if self._changed in self.hosted.hosted.listeners:
            self.hosted.hosted.listeners.remove(self._changed)

    def _changed(self) -> None:
        if not self.is_mounted:
            return
        t = self.hosted.hosted
        self.query_one("#title", Static).update(table_heading(t.name, t.game.title))
        if self.hosted.running:
            ad = ("announced on the LAN" if self.hosted.advertise is not None
                  else f"not announced ({self.hosted.advertise_error or 'off'}): give the address")
            joins = "\n".join(f"  [b]atlantis join {a}[/b]" for a in self.hosted.addresses[:4])
            self.query_one("#address", Static).update(
                f"Listening on port {self.hosted.host.port} ({ad}). Players join with:\n{joins}"
                + self.web_line() + fingerprint_lines(self.hosted.host.fingerprint))
        self.query_one("#seats", Static).update("\n".join(self.seat_lines()))
        note = ("Everyone is here: the game starts." if t.started else
                f"Waiting for {counted(t.open_seats(), 'player')}. The game starts when every seat is taken.")
        self.query_one("#note", Static).update(f"{note}\nLog: {t.log.path if t.log else '(none)'}")
        if t.started and self.is_current and not self._leaving:
            self._leaving = True
            self.app.call_later(self.dismiss, True)

    _leaving = False

    def web_line(self) -> str:
        """Where phones and browsers join (with ``host --web``)."""
        if self.hosted.web_url:
            return f"\nPhones and browsers open: [b]{self.hosted.web_url}[/b]  (w: its QR code)"
        if self.hosted.web_error:
            return f"\nNot served to browsers: {self.hosted.web_error}"
        return ""

    def seat_lines(self) -> list[str]:
        t = self.hosted.hosted
        out = []
        for slot, name in zip(t.slots, t.names()):
            letter = seat_letter(slot.index)
            if slot.kind == "bot":
                state = f"{slot.level or DEFAULT_BOT_LEVEL} bot"
            elif slot.kind == "local":
                state = "here, at this keyboard"
            elif not slot.taken:
                state = "open - waiting for a player"
            elif slot.conn is None:
                state = f"joined: {slot.player or name} [b]x disconnected[/b]"
            else:
                state = f"joined: {slot.player or name} (connected)"
            out.append(f"[b]{letter}[/b] {slot.name:<8} {state}")
        if t.spectators:
            out.append(f"  + {counted(len(t.spectators), 'spectator')}")
        return out

    def action_cancel(self) -> None:
        self.dismiss(False)


class PhonesScreen(ModalScreen[None]):
    """The join address of ``host --web`` as a QR code, for the phones at the table."""

    DEFAULT_CSS = """
    PhonesScreen { align: center middle; }
    PhonesScreen > Vertical { height: auto; max-height: 100%; border: thick $primary; background: $background;
        padding: 0 1; }
    PhonesScreen Static { width: 100%; text-wrap: nowrap; content-align-horizontal: center; }
    PhonesScreen #qr { color: $foreground; background: $background; }
    """
    BINDINGS = [Binding("escape,w,enter", "dismiss", "Close", id="phones-close")]

    def __init__(self, url: str, code: Callable[[bool], str]):
        """``code(light_ink)``: ``url`` as a QR code of text, drawn light on dark or dark on light."""
        super().__init__()
        self.url, self.code = url, code

    def compose(self) -> ComposeResult:
        code = self.code(self.app.current_theme.dark)
        lines = ["Point a phone's camera at the code, or open", self.url]
        box = Vertical()
        box.styles.width = max(len(line) for line in [*lines, *code.splitlines()]) + 4  # (border and padding)
        with box:
            yield Static(lines[0])
            yield Static(code, id="qr", markup=False)
            yield Static(lines[1], id="url", markup=False)
        yield Footer()


@dataclass
class JoinRequest:
    host: str
    port: int
    name: str
    spectate: bool = False
    fingerprint: str = ""  # the TLS fingerprint the LAN announcement gave ("": typed in)


class LobbyScreen(TablesLobby[JoinRequest, Any]):
    """Tables found on the LAN, live; or an address typed in (SSH tunnels, other subnets)."""

    DEFAULT_CSS = """
    LobbyScreen .row { height: 1; margin-top: 1; }
    LobbyScreen .row Label { width: 16; }
    LobbyScreen .row Input { width: 1fr; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Back", id="lobby-back"),
        Binding("ctrl+w", "watch", "Watch selected", id="lobby-watch"),
        Binding("ctrl+r", "refresh", "Refresh", id="lobby-refresh"),
    ]
    COLUMNS = ("Table", "Game", "Seats", "Address")
    WAITING = "Looking for tables..."

    def __init__(self, name: str = "Player", interfaces: list[str] | None = None, browse: bool = True):
        super().__init__()
        self.player_name = name
        self.interfaces = interfaces
        self.browse = browse
        self.browser: Any = None

    def title_text(self) -> str:
        return "Join a table on the LAN"

    def compose_fields(self) -> ComposeResult:
        with Horizontal(classes="row"):
            yield Label("Or address")
            yield Input(placeholder="HOST:PORT (e.g. 127.0.0.1:7341 through an SSH tunnel)", id="address",
                        compact=True)
        with Horizontal(classes="row"):
            yield Label("Your name")
            yield Input(self.player_name, id="name", compact=True, max_length=24)

    async def on_mount(self) -> None:
        if self.browse:
            from netplay.discovery import Browser  # (lazy on purpose: zeroconf loads only in the lobby)

            self.browser = Browser(on_change=self._changed, interfaces=self.interfaces)
            try:
                await self.browser.start()
            except Exception as exc:  # no multicast here: the address box still works
                self.browser = None
                self.say(f"Cannot browse the LAN ({exc}); type an address.")

    async def on_unmount(self) -> None:
        if self.browser is not None:
            browser, self.browser = self.browser, None
            await browser.stop()

    def _changed(self) -> None:
        if not self.is_mounted or self.browser is None:
            return
        self.show_tables(sorted(self.browser.tables.values(), key=lambda t: (t.name, t.address)))

    def show_tables(self, tables: list[Any]) -> None:
        def cells(t: Any) -> tuple[str, ...]:
            state = "over" if t.over else ("playing" if t.started else f"{t.open} of {t.players} open")
            return t.name[:28], t.game, state, t.address

        self.show_rows(tables, cells)
        n = len(self.rows)
        self.say(f"{counted(n, 'table')} found. Enter joins the selected one; Ctrl+W watches it." if n else
                 "No tables found yet (they appear here as hosts start). Type an address below.")

    def _request(self, host: str, port: int, spectate: bool = False, fingerprint: str = "") -> None:
        name = clean_name(self.query_one("#name", Input).value, "Player")  # (the host's own rule)
        self.dismiss(JoinRequest(host, port, name, spectate, fingerprint))

    def action_join(self) -> None:
        self._join_row(False)

    def _join_row(self, spectate: bool) -> None:
        t = self.selected()
        if t is None:
            return
        if not spectate and (t.open <= 0 or t.over):
            self.show_error("That table has no open seat: Ctrl+W watches it.")
            return
        self._request(t.host, t.port, spectate, t.tls)

    def action_watch(self) -> None:
        self._join_row(True)

    def action_refresh(self) -> None:
        self._changed()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = self.query_one("#address", Input).value.strip()
        if not text:
            self._join_row(False)
            return
        try:
            host, port = parse_address(text, DEFAULT_PORT)
        except ValueError as exc:
            self.show_error(str(exc))
            return
        self._request(host, port)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LanStatus(Static):
    """The LAN lines of a remote player's side panel: the connection and, for as long as
    the player holds a seat, the seat's token (to take the seat back from anywhere with
    ``atlantis join HOST:PORT --token T``)."""

    DEFAULT_CSS = """
    LanStatus { height: auto; margin: 1 0 0 0; color: $ink-muted; }
    """


class ConnectingScreen(Screen[None]):
    """Shown until the host's first view arrives (or it refuses us)."""

    DEFAULT_CSS = """
    ConnectingScreen { align: center middle; }
    ConnectingScreen Static { width: auto; max-width: 70; padding: 1 4; border: round $accent; }
    """
    BINDINGS = [Binding("escape", "give_up", "Give up", id="connecting-quit")]

    def __init__(self, text: str, back: bool = False):
        super().__init__()
        self.text = text
        self.back = back  # Esc goes back (to the lobby) rather than out of the app

    def action_give_up(self) -> None:
        self.dismiss(None)

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="connecting")
        yield Footer()

    def set_text(self, text: str) -> None:
        self.text = text
        # Composed (mounted or not yet): its box shows it now; not composed yet: compose
        # uses self.text (a text set between compose and the end of the mount is not lost).
        for box in self.query("#connecting").results(Static):
            box.update(text)
