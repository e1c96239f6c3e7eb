"""The opening menu: game, players, which seats are bots, the game's options, and an
optional practice seed (empty: a secret seed nobody can guess)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from engine.registry import GAMES


@dataclass
class TableChoice:
    game: str
    players: int
    bots: int
    seed: int | None  # None: a secret seed (the usual game); a number: practice
    options: dict[str, Any] = field(default_factory=dict)
    lan: str = ""  # "host" / "join": play over the LAN (tui/netplay)
    kinds: tuple[str, ...] = ()  # per seat: "human" or "bot" (empty: the last ``bots`` seats)


class MenuScreen(Screen[TableChoice]):
    DEFAULT_CSS = """
    MenuScreen { align: center top; }
    MenuScreen #menu { width: 72; height: auto; max-height: 100%; padding: 0 1; }
    MenuScreen #title { text-style: bold; color: $accent; margin: 1 0; }
    MenuScreen .row { height: 1; margin-bottom: 1; }
    MenuScreen .row Label { width: 20; padding: 0 1 0 0; }
    MenuScreen #options { height: auto; }
    MenuScreen .row Select, MenuScreen .row Input { width: 1fr; }
    MenuScreen #about { color: $text-muted; margin-bottom: 1; }
    MenuScreen #error { color: $error; height: auto; }
    MenuScreen #seats { height: 1; width: 1fr; }
    MenuScreen #seats Select { width: 12; margin-right: 1; }
    MenuScreen Button { margin-top: 1; margin-right: 2; }
    MenuScreen .buttons { height: auto; }
    """
    BINDINGS = [
        Binding("ctrl+s", "start", "Start", id="menu-start"),
        Binding("ctrl+h", "start('host')", "Host on LAN", id="menu-host"),
        Binding("ctrl+j", "start('join')", "Join LAN", id="menu-join"),
        Binding("q", "app.quit", "Quit", id="menu-quit"),
    ]

    def compose(self) -> ComposeResult:
        slugs = sorted(GAMES)
        with VerticalScroll(id="menu"):
            yield Static("ATLANTIS - a game table for the terminal", id="title")
            with Horizontal(classes="row"):
                yield Label("Game")
                yield Select([(GAMES[s].title, s) for s in slugs], value=slugs[0], allow_blank=False, id="game", compact=True)
            with Horizontal(classes="row"):
                yield Label("Players")
                yield Select([("2", 2)], id="players", allow_blank=False, compact=True)
            with Horizontal(classes="row"):
                yield Label("Seats")
                with Horizontal(id="seats"):
                    # one per possible seat; _players_changed shows the first N
                    for i in range(max(g.max_players for g in GAMES.values())):
                        yield Select(self._seat_options(GAMES[slugs[0]], i), value="human" if i == 0 else "bot",
                                     allow_blank=False, compact=True, classes="seat-kind")
            with Horizontal(classes="row"):
                yield Label("Practice seed")
                yield Input("", id="seed", type="integer", compact=True, max_length=40,
                            placeholder="empty: secret (a typed seed makes a practice game)",
                            tooltip="Leave empty for a normal game. A number replays the same "
                                    "deal every time: a practice game, marked as such.")
            yield Vertical(id="options")
            yield Static("", id="about")
            yield Static("", id="error")
            with Horizontal(classes="buttons"):
                yield Button("Start  (Ctrl+S)", id="start", variant="primary", compact=True)
                yield Button("Host on LAN (^H)", id="host", compact=True)
                yield Button("Join LAN (^J)", id="join", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._game_changed(self.query_one("#game", Select).value)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "game":
            self._game_changed(event.value)
        elif event.select.id == "players":
            self._players_changed()

    def _game_changed(self, slug: Any) -> None:
        game = GAMES[str(slug)]
        players = self.query_one("#players", Select)
        players.set_options([(str(n), n) for n in range(game.min_players, game.max_players + 1)])
        players.value = game.min_players
        self._players_changed()
        box = self.query_one("#options", Vertical)
        box.remove_children()
        for name, info in game.options_model.model_fields.items():
            row = Horizontal(classes="row")
            box.mount(row)
            row.mount(Label(name.replace("_", " ")))
            row.mount(Input(str(info.default), id=f"opt-{name}", tooltip=info.description or name, compact=True))
        notes = [f"{n.replace('_', ' ')}: {i.description}" for n, i in game.options_model.model_fields.items()
                 if i.description]
        notes.append("Tab moves between fields; Enter in a field or Ctrl+S starts. "
                     "Seats: each one is a human at this keyboard or a bot.")
        self.query_one("#about", Static).update("\n".join(notes))

    def _players_changed(self) -> None:
        n = self.query_one("#players", Select).value
        n = int(n) if isinstance(n, int) else 2
        game = GAMES[str(self.query_one("#game", Select).value)]
        for i, select in enumerate(self.query(".seat-kind").results(Select)):
            select.display = i < n
            if i < n:
                select.tooltip = f"{game.seat_names[i]}: a human at this keyboard or a bot"
                options = self._seat_options(game, i)
                if getattr(select, "_shown_options", None) != options:  # another game's seat names
                    value = select.value
                    select.set_options(options)
                    select.value = value
                    select._shown_options = options

    @staticmethod
    def _seat_options(game: Any, seat: int) -> list[tuple[str, str]]:
        letter = game.seat_names[seat][0] if seat < len(game.seat_names) else str(seat + 1)
        return [(f"{letter} human", "human"), (f"{letter} bot", "bot")]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id in ("host", "join"):
            self.action_start(event.button.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self, lan: str = "") -> None:
        slug = str(self.query_one("#game", Select).value)
        game = GAMES[slug]
        text = self.query_one("#seed", Input).value.strip()
        if text and not (text.isascii() and text.isdigit()):
            self.query_one("#error", Static).update(
                "The practice seed must be a whole number (or empty for a secret seed).")
            return
        seed = int(text) if text else None
        raw = {}
        for name in game.options_model.model_fields:
            raw[name] = self.query_one(f"#opt-{name}", Input).value
        try:
            options = game.parse_options(raw).model_dump(mode="json")
        except ValueError as exc:
            self.query_one("#error", Static).update(str(exc))
            return
        players = int(self.query_one("#players", Select).value)  # type: ignore[arg-type]
        kinds = tuple(str(sel.value) for sel in self.query(".seat-kind").results(Select))[:players]
        self.dismiss(TableChoice(slug, players, kinds.count("bot"), seed, options, lan, kinds))
