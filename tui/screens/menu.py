"""The opening menu: a list of the games (name, players, a one-line pitch, a small
picture), the seats (human / a bot of a level / open for a LAN player), the game's options with the
widget that fits each, and an optional practice seed (empty: a secret seed nobody can
guess).

Only Start starts (its button, Ctrl+S, or the palette): Enter in a field moves to the
next field.  A mistake is written under its field, which is scrolled into view and
focused.  Host (F2) and Join (F3) open the LAN screens; the app keeps the menu's state
(``MenuState``) and gives it to the next menu, so coming back keeps every choice.
``?`` opens the menu's own help (``MenuHelp``: the fields, the keys, a paragraph per
game); below 80x24 the form gives way to "Make the terminal at least 80x24".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.validation import Integer
from textual.widgets import Input, Static, Switch
from textual.widgets.option_list import Option

from engine.core import BOT_LEVELS, DEFAULT_BOT_LEVEL
from engine.options import outside_model
from engine.registry import GAMES, MANIFESTS, option_fields  # MANIFESTS, option_fields: without the rules (start time)

from ..commands import Command, bindings
from ..screen_entry import screen_entry, size_notice
from ..seat_labels import seat_letter
from .menu_games import CardView, GameList
from .menu_keys import FormButtons, KeyLine
from .menu_fields import CycleSelect, FieldBox, error_lines, field_box, field_errors, option_field, read_value

#: Each seat's choices, in the order Space steps through them: a player here, a bot of
#: each level (the easiest first), a LAN player (the help line says so).
SEAT_CHOICES = (("human", "human"), *((f"bot:{level}", f"bot: {level}") for level in BOT_LEVELS), ("open", "open"))
#: A seat's choice for a bot nobody chose a level for.
DEFAULT_BOT = f"bot:{DEFAULT_BOT_LEVEL}"


def seat_kind(choice: str) -> tuple[str, str]:
    """A seat's choice as the table's seat kind and bot level: ("bot", "hard"), ("human", "")."""
    kind, _, level = choice.partition(":")
    return kind, level


@dataclass
class MenuState:
    """Everything the menu shows, as typed (even what is not valid yet)."""

    game: str = ""
    players: int = 0
    kinds: list[str] = field(default_factory=list)  # per seat, up to max_seats(): a ``SEAT_CHOICES`` value
    seed: str = ""
    options: dict[str, dict[str, Any]] = field(default_factory=dict)  # per game: option -> raw value


@dataclass
class TableChoice:
    game: str
    players: int
    bots: int
    seed: int | None  # None: a secret seed (the usual game); a number: practice
    options: dict[str, Any] = field(default_factory=dict)
    lan: str = ""  # "host" / "join": play over the LAN (tui/lan)
    kinds: tuple[str, ...] = ()  # per seat: "human", "bot" or "open" (empty: the last ``bots`` seats)
    levels: tuple[str, ...] = ()  # per seat: a bot's level ("" for the other seats; empty: default bots)
    menu: MenuState | None = None  # the menu as it was left (the next menu starts from it)
    learn: bool = False  # the game's guided first game instead (its own fixed table)


def max_seats() -> int:
    """The most seats a registered game takes."""
    return max(game.max_players for game in MANIFESTS.values())


def default_kinds() -> list[str]:
    return ["human"] + [DEFAULT_BOT] * (max_seats() - 1)


class MenuScreen(Screen[TableChoice]):
    # menu.tcss as the screen's default CSS: a CSS_PATH makes Textual re-parse every
    # stylesheet and restyle the app when the screen is pushed
    DEFAULT_CSS = Path(__file__).with_name("menu.tcss").read_text(encoding="utf-8")
    AUTO_FOCUS = "#games"
    COMMAND_TABLE = (
        Command("menu-start", "ctrl+s", "Start", "start", "Start the game with these seats and options.",
                key_display="^S", priority=True),
        Command("menu-host", "f2", "Host on LAN", "start('host')",
                "Open this table to players on the LAN (seats marked open wait for them).",
                key_display="F2", priority=True),
        Command("menu-join", "f3", "Join LAN", "start('join')", "Find a table on the LAN and join it.",
                key_display="F3", priority=True),
        Command("menu-learn", "f4", "Learn", "learn", "A guided first game of this game: each step says what "
                "to do and why, and waits for you to do it.", key_display="F4", priority=True),
        Command("menu-host-letter", "H", "Host on LAN", "start('host')", show=False, palette=False),
        Command("menu-learn-letter", "L", "Learn", "learn", show=False, palette=False),
        Command("menu-join-letter", "J", "Join LAN", "start('join')", show=False, palette=False),
        Command("menu-quit", "q", "Quit", "app.quit", "Leave atlantis.", palette=False),
        Command("menu-help", "question_mark", "Help", "help", "What the menu's fields and keys do, and each game.",
                key_display="?"),  # (not priority: in a text box ? is typed)
    )
    #: Below this size the form gives way to a line asking for a bigger terminal (the game
    #: list's longest line and the picture beside it need 80 columns; the games need 80x24).
    MIN_WIDTH, MIN_HEIGHT = 80, 24
    BINDINGS = bindings(COMMAND_TABLE)

    def __init__(self, state: MenuState | None = None):
        super().__init__()
        self.state = state or MenuState()
        if self.state.game not in GAMES:
            self.state.game = sorted(GAMES)[0]
        kinds = [DEFAULT_BOT if k == "bot" else k for k in self.state.kinds]
        self.state.kinds = (kinds + default_kinds()[len(kinds):])[:max_seats()]
        self.slugs = sorted(GAMES)
        self.slug = ""  # the game the fields show now

    # --- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """The whole form, already showing the chosen game (composed once: nothing is
        mounted or updated after the first frame)."""
        slug = self.slug = self.state.game
        info = MANIFESTS[slug]
        card = screen_entry(slug)
        n = self._wanted_players(info.min_players, info.max_players)
        notice = self.too_small(*self.app.size)
        if notice:  # (made only when needed: every widget costs start time)
            yield Static(notice, id="size-notice")
        menu = VerticalScroll(id="menu")
        if notice:
            menu.display = False
        with menu:
            yield Static("ATLANTIS - a game table for the terminal", id="title")
            with Horizontal(id="games-row"):
                games = GameList(*[self._game_option(s, s == slug) for s in self.slugs],
                                 highlighted=self.slugs.index(slug), id="games")
                yield games
                yield CardView(card.picture, self._card_text(slug), id="card")
            yield field_box("players", "Players", CycleSelect(self._players_options(slug), value=n, id="players"),
                            "how many seats the table has")
            # a seat's choice for each seat the table has (more are made when the players grow)
            seats = [self._seat_select(i) for i in range(n)]
            yield field_box("seats", "Seats", Horizontal(*seats, id="seats"), None)
            yield Static("human: plays at this keyboard.  bot: the computer (easy, normal or hard).  "
                         "open: a player on the LAN (only when you Host, F2).", id="seats-help", classes="note")
            yield Vertical(self._options_box(slug), id="options")
            yield field_box("seed", "Practice seed",
                            Input(self.state.seed, id="seed", type="integer", compact=True, max_length=40,
                                  placeholder="empty: secret", validators=[Integer(minimum=0)], valid_empty=True),
                            "empty: a secret deal; a number replays the same deal (a practice game)")
            yield Static("Tab or Enter: next field, Shift+Tab: back. Only Ctrl+S starts. ?: help",
                         id="about", classes="note")
        # (under the scrolling form, always in view: at 80x24 the form scrolls, Start does not)
        actions = Vertical(Static("", id="error"),
                           FormButtons([("start", "Start  (Ctrl+S)"), ("host", "Host on LAN (F2)"),
                                        ("join", "Join LAN (F3)")], primary="start", id="buttons"),
                           id="actions")
        actions.display = not notice
        yield actions
        yield KeyLine(screen_only=True)

    def _game_option(self, slug: str, chosen: bool = False) -> Option:
        """A game's two lines in the list; the highlighted one is marked with ▶ too (the
        list reads without colour)."""
        game = MANIFESTS[slug]  # (start time: not GAMES, which loads the rules)
        text = Text("▶ " if chosen else "  ")
        text.append(game.title, style="bold")
        text.append(f"  {game.min_players}-{game.max_players} players\n")
        text.append(f"    {screen_entry(slug).pitch}", style="italic")
        return Option(text, id=slug)

    @staticmethod
    def _card_text(slug: str) -> str:
        info = MANIFESTS[slug]
        return f"{info.title}\n{info.min_players}-{info.max_players} players"

    @staticmethod
    def _players_options(slug: str) -> list[tuple[str, int]]:
        info = MANIFESTS[slug]
        return [(str(n), n) for n in range(info.min_players, info.max_players + 1)]

    def _wanted_players(self, low: int, high: int) -> int:
        return self.state.players if low <= self.state.players <= high else low

    def _options_box(self, slug: str) -> Vertical:
        """The game's option fields in a box of their own, showing what was typed last time
        (or the defaults).  Made when the game is first shown, then kept (hidden while
        another game is): a cursor key in the game list only shows another box."""
        saved = self.state.options.get(slug, {})
        fields = [option_field(spec, saved.get(spec.name, spec.default)) for spec in option_fields(slug)]
        return Vertical(*fields, id=f"options-{slug}", classes="game-options")

    # --- size and help -------------------------------------------------------------------
    def too_small(self, width: int, height: int) -> str:
        """'' when the form fits, else the notice the game screens show, for the menu."""
        return size_notice("The menu", (self.MIN_WIDTH, self.MIN_HEIGHT), (width, height))

    def on_resize(self, event: events.Resize) -> None:
        text = self.too_small(event.size.width, event.size.height)
        found = self.query("#size-notice").results(Static)
        notice = next(found, None)
        if notice is None:
            if not text:
                return  # (the usual case: it fits, and no notice was ever made)
            notice = Static(id="size-notice")
            self.mount(notice, before="#menu")
        if text == notice.content:
            return
        notice.update(text)
        notice.display = bool(text)
        for part in self.query("#menu, #actions"):
            part.display = not text
        if not text and self.focused is None:
            self.query_one("#games").focus()

    def action_help(self) -> None:
        self.app.push_screen(MenuHelp())

    # --- the game and its seats --------------------------------------------------------------
    @on(GameList.Highlighted, "#games")
    async def _game_highlighted(self, event: GameList.Highlighted) -> None:
        old = self.slug
        if event.index != event.games.highlighted:
            return  # stale: the highlight moved on since
        if event.option.id and event.option.id != old:
            await self._show_game(event.option.id)
            games = self.query_one("#games", GameList)
            for slug in (old, self.slug):  # the ▶ moves from the old game to the new one
                prompt = self._game_option(slug, slug == self.slug).prompt
                games.replace_option_prompt_at_index(self.slugs.index(slug), prompt)

    @on(GameList.Selected, "#games")
    def _game_selected(self, event: GameList.Selected) -> None:
        self.query_one("#players", CycleSelect).focus()  # Enter on a game: on to its seats

    async def _show_game(self, slug: str) -> None:
        self._remember()
        self.slug = slug
        info = MANIFESTS[slug]
        self.query_one("#card", CardView).show(screen_entry(slug).picture, self._card_text(slug))
        players = self.query_one("#players", CycleSelect)
        with players.prevent(CycleSelect.Changed):
            players.set_options(self._players_options(slug))
            players.value = self._wanted_players(info.min_players, info.max_players)
        self._players_changed()
        # The shown game's box goes first: a query by id (#opt-max_rounds, which two games
        # have) finds the first one, as it found the only one when a single box was kept.
        options = self.query_one("#options", Vertical)
        with self.app.batch_update():
            for box in options.query_children(".game-options"):
                box.display = False
            made = next(options.query_children(f"#options-{slug}").results(Vertical), None)
            if made is None:
                await options.mount(self._options_box(slug), before=0)
            else:
                options.move_child(made, before=0)
                made.display = True

    def on_cycle_select_changed(self, event: CycleSelect.Changed) -> None:
        if event.select.id == "players":
            self._players_changed()

    def on_switch_changed(self, event: Switch.Changed) -> None:
        name = (event.switch.id or "").removeprefix("opt-")
        box = event.switch.parent  # (the word beside this switch: two games may share an option's name)
        if box is not None:
            for word in box.query_children(f"#word-{name}").results(Static):
                word.update("on" if event.value else "off")

    def _seat_select(self, seat: int) -> CycleSelect:
        select = CycleSelect(self._seat_options(seat), value=self.state.kinds[seat],
                             id=f"seat-{seat}", classes="seat-kind")
        select.tooltip = self._seat_tooltip(seat)
        return select

    def _players_changed(self) -> None:
        n = self._players()
        made = list(self.query(".seat-kind").results(CycleSelect))
        for i, select in enumerate(made):
            select.display = i < n
            if i < n:
                select.tooltip = self._seat_tooltip(i)  # another game's seat names
        if len(made) < n:  # the seats never shown yet, as the last menu left them
            self.query_one("#seats", Horizontal).mount_all([self._seat_select(i) for i in range(len(made), n)])

    def _seat_tooltip(self, seat: int) -> str:
        return f"{self._seat_name(seat)}: a human here, a bot (easy, normal or hard), or open for a LAN player"

    def _players(self) -> int:
        value = self.query_one("#players", CycleSelect).value
        return int(value) if isinstance(value, int) else MANIFESTS[self.slug].min_players

    def _seat_name(self, seat: int) -> str:
        names = MANIFESTS[self.slug].seat_names
        return names[seat] if seat < len(names) else f"seat {seat + 1}"

    def _seat_options(self, seat: int) -> list[tuple[str, str]]:
        letter = seat_letter(seat)
        return [(f"{letter} {label}", choice) for choice, label in SEAT_CHOICES]

    # --- the state, kept for the next menu -------------------------------------------------------
    def _remember(self) -> MenuState:
        state = self.state
        if self.slug:
            state.game = self.slug
            box = self.query_one(f"#options-{self.slug}")
            state.options[self.slug] = {spec.name: read_value(w) for spec in option_fields(self.slug)
                                        for w in box.query(f"#opt-{spec.name}")}
        state.players = self._players()
        kinds = [str(s.value) for s in self.query(".seat-kind").results(CycleSelect)]
        state.kinds = kinds + state.kinds[len(kinds):]  # (with the seats not made yet)
        state.seed = self.query_one("#seed", Input).value
        return state

    # --- starting ------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.focus_next()  # Enter in a field never starts the game

    def on_form_buttons_pressed(self, event: FormButtons.Pressed) -> None:
        if event.button == "start":
            self.action_start()
        elif event.button in ("host", "join"):
            self.action_start(event.button)

    last_key = ""  # the last key pressed on this screen (FormButtons: Shift+Tab into the row)

    def on_key(self, event: events.Key) -> None:
        self.last_key = event.key

    def _clear_errors(self) -> None:
        error_lines(self)
        for error in self.query(".field-error").results(Static):
            error.update("")
            error.display = False
        self.query_one("#error", Static).update("")

    def show_error(self, name: str, message: str) -> None:
        """Write ``message`` under the field ``name``."""
        if not self.query(f"#error-{name}"):
            error_lines(self)
        error = self.query_one(f"#error-{name}", Static)
        error.update(message)
        error.display = True

    def _focus_field(self, name: str) -> None:
        box = self.query_one(f"#field-{name}")
        target = next((w for w in box.query("Input, CycleSelect, Switch") if w.display), None)
        if target is not None:
            target.focus(scroll_visible=False)
        self.call_after_refresh(box.scroll_visible, animate=False)

    def action_learn(self) -> None:
        """The chosen game's guided first game (its own table: the form's seats and options wait)."""
        from ..lessons import has_lesson

        if not has_lesson(self.slug):
            self.query_one("#error", Static).update(f"{GAMES[self.slug].title} has no guided first game yet.")
            return
        state = self._remember()
        self.dismiss(TableChoice(self.slug, 0, 0, None, menu=state, learn=True))

    def action_start(self, lan: str = "") -> None:
        state = self._remember()
        game = GAMES[self.slug]
        players = self._players()
        kinds, levels = (tuple(part) for part in zip(*map(seat_kind, state.kinds[:players])))
        if lan == "join":  # the lobby needs nothing from this form
            self.dismiss(TableChoice(self.slug, players, kinds.count("bot"), None, {}, lan, kinds, levels, state))
            return
        self._clear_errors()
        errors: dict[str, str] = {}
        text = state.seed.strip()
        if text and not (text.isascii() and text.isdigit()):
            errors["seed"] = "The practice seed is a whole number, 0 or more (or empty for a secret seed)."
        raw = dict(state.options.get(self.slug, {}))
        options, option_errors = field_errors(outside_model(game.options_model), raw)
        for name, message in option_errors.items():
            errors[name if name in raw else "seats"] = message
        if not lan and "open" in kinds:
            errors["seats"] = "An open seat waits for a LAN player: Host (F2), or make it human or bot."
        if errors:
            order = ["players", "seats", *(spec.name for spec in option_fields(self.slug)), "seed"]
            for name in order:
                if name in errors:
                    self.show_error(name, errors[name])
            first = next(n for n in order if n in errors)
            label = self.query_one(f"#field-{first}", FieldBox).label
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            self.query_one("#error", Static).update(f"Not started: {label}: {errors[first]}{more}")
            self._focus_field(first)
            return
        assert options is not None
        seed = int(text) if text else None
        self.dismiss(TableChoice(self.slug, players, kinds.count("bot"), seed, options.model_dump(mode="json"),
                                 lan, kinds, levels, state))


MENU_KEYS = (
    ("Tab / Shift+Tab", "the next / previous field (Enter: the next one too)"),
    ("↑ ↓  j k", "pick a game in the list (Enter: on to Players)"),
    ("Space ← → ↑ ↓", "step through a choice (players, a seat, a word); a letter jumps to it"),
    ("Ctrl+S", "Start the game (nothing else starts it)"),
    ("F2  (H)", "Host the table on the LAN: open seats wait for LAN players"),
    ("F3  (J)", "Join a table on the LAN"),
    ("F4  (L)", "Learn the chosen game: a guided first game against bots"),
    ("Ctrl+P", "the command palette"),
    ("?", "this help (in a text box ? is typed)"),
    ("q", "quit atlantis (in a text box q is typed)"),
)
MENU_FIELDS = (
    ("Players", "how many seats the table has"),
    ("Seats", "one per seat: human (at this keyboard), a bot of a level (bot: easy, bot: normal, "
              "bot: hard), or open (a LAN player; only when you Host, F2)"),
    ("Options", "the chosen game's own options, each with its help and range beside it"),
    ("Practice seed", "empty: a secret deal nobody can guess; a number deals the same game again "
                      "(practice)"),
)


def menu_help_text() -> Any:
    """The menu's help: its fields, its keys, and a paragraph about each game."""
    from rich.console import Group  # here: only the help needs them (start time)
    from rich.table import Table

    def grid(rows: tuple[tuple[str, str], ...], width: int) -> Table:
        table = Table.grid(padding=(0, 1))
        table.add_column(width=width, style="bold", no_wrap=True)
        table.add_column(ratio=1)
        for name, about in rows:
            table.add_row(name, about)
        return table

    parts: list[Any] = [
        Text("The menu", style="bold"),
        Text("Pick a game, fill in the fields below it, then Start (Ctrl+S). A mistake is "
             "written under its field.\n"),
        Text("Fields", style="bold"), grid(MENU_FIELDS, 14), Text(""),
        Text("Keys", style="bold"), grid(MENU_KEYS, 16), Text(""),
        Text("The games", style="bold"),
    ]
    for slug, info in MANIFESTS.items():
        parts.append(Text.assemble((info.title, "bold"), f" ({info.min_players}-{info.max_players} players)"))
        parts.append(Text(screen_entry(slug).about + "\n"))
    parts.append(Text("Each game's full rules and keys: ? on its screen."))
    return Group(*parts)


class MenuHelp(ModalScreen[None]):
    """The menu's ``?``: what its fields and keys do, and a paragraph about each game."""

    DEFAULT_CSS = """
    MenuHelp { align: center middle; }
    MenuHelp > VerticalScroll { width: 90%; max-width: 100; height: 90%;
        border: thick $primary; background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close", id="close-menu-help")]

    def compose(self) -> ComposeResult:
        box = VerticalScroll(id="menu-help")
        box.border_title = "Help: the menu"
        box.border_subtitle = "Esc, ? or q: back · ↑ ↓ PgUp PgDn: scroll"
        with box:
            yield Static(menu_help_text(), id="menu-help-text")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
