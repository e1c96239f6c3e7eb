"""GameScreen: what every game's screen shares.

A game screen sends actions through its ``SeatLink`` and draws the views it is given,
nothing else.  Subclasses compose their board in ``compose_board()`` and redraw it in
``refresh_board(view, legal)``; the side panel (turn line, player panel, "last turn"
lines, event log) and the shared keys come from here.  The session of the way of
playing (``tui/sessions``) calls ``show(view, legal)`` whenever the table changed, and
``set_link()`` when the seat at the keyboard changes (behind the curtain); a key never
redraws the table after sending (the session does, once the table says it changed).

What the other seats did since your last move: ``baseline_view()`` is the view this
seat had right after its own last action; a game screen draws whatever differs from it
with the ``recent`` tint (``recent_style(self.app.theme_variables)`` for rich Text, the
CSS class ``recent`` for widgets).  One baseline per seat, so hot-seat players each keep their own.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Static

from engine.core import LogLine

from ..commands import Command, bindings
from ..last_turn import acted_since, fit_rows, summary
from ..seat_links import SeatLink
from ..screen_entry import ScreenEntry, screen_entry, size_notice
from ..seat_labels import seat_text
from ..why_not import why_not_commands
from ..widgets.chat import ChatBox
from ..widgets.eventlog import EventLog, said_once
from ..widgets.key_line import KeyLine
from ..widgets.quiet_update import update_quietly
from ..widgets.turn_line import TurnLine
from ..widgets.seat_styles import RECENT_CLASS, in_theme, recent_style as _recent_style


# A typed seed or a named setup: someone knew the deal before play began.
PRACTICE_LINE = "practice: seed known"
#: From this terminal height a seat's "last turn" summary may take two rows, not one.
TALL = 32


def clock_text(seconds: float) -> str:
    """A turn timer's time left as a clock reads it: "1:05" (whole seconds, rounded up
    so that "0:00" means the time is out)."""
    whole = int(-(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}"


def recent_style(variables: Mapping[str, str] | None = None) -> Style:
    """The tint of what the other seats did since your last move (add it to a cell's
    style), in the theme of ``variables`` (an app's ``theme_variables``; None: dark)."""
    return _recent_style(variables)


def bots_line(names: Sequence[str], levels: dict[int, str]) -> str:
    """The seats bots play, on one line: "Bots (normal): Blue, Green", or with each
    level when they differ: "Bots: Blue (hard), Green (easy)"."""
    if len(set(levels.values())) == 1:
        return f"Bots ({next(iter(levels.values()))}): " + ", ".join(names[seat] for seat in levels)
    return "Bots: " + ", ".join(f"{names[seat]} ({level})" for seat, level in levels.items())


class GameScreen(Screen):
    """Base class of every game's screen."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    GameScreen #body { height: 1fr; }
    GameScreen #size-notice { height: 1fr; content-align: center middle; text-style: bold; display: none; }
    GameScreen #board-area { width: 1fr; height: 100%; }
    GameScreen #side { width: 34; height: 100%; border-left: solid $primary; padding: 0 1;
        overflow-y: auto; scrollbar-size-vertical: 1; }
    GameScreen #turn-line { height: auto; text-style: bold; }
    GameScreen #thinking { height: auto; color: $ink-muted; text-style: italic; display: none; }
    GameScreen #players { height: auto; margin-top: 1; }
    GameScreen #message { height: auto; color: $ink-gold; }
    GameScreen #practice { height: auto; color: $ink-muted; }
    GameScreen #lan-status { height: auto; margin: 1 0 0 0; color: $ink-muted; display: none; }
    GameScreen #table-status { height: auto; display: none; }
    GameScreen #last-turn { height: auto; margin-top: 1; }
    GameScreen EventLog { height: 1fr; min-height: 5; margin-top: 1; }
    """

    #: The keys every game shares (DESIGN.md "Screens every game shares").
    SHARED_KEYS: tuple[Command, ...] = (
        Command("help", "question_mark", "Help", "app.help",
                "Show the rules of this game and this list of keys.", key_display="?"),
        Command("undo", "u", "Undo", "undo", "Take back your last move, where the undo rule allows it."),
        Command("save", "s", "Save", "app.save_record", "Save the record of this game."),
        Command("leave", "q", "Leave", "app.leave", "Leave the game (asks first)."),
        Command("lesson", "L", "Lesson", "app.lesson_card", "In a guided first game: show the lesson's step again.",
                show=False),
        Command("focus-next", "tab", "Focus", "app.focus_next",
                "Move the focus between board, hand and log (Shift+Tab: back).", show=False, palette=False),
        Command("focus-prev", "shift+tab", "Focus", "app.focus_previous", show=False),
        Command("chat", "c", "Chat", "open_chat",
                "Open the table's chat (LAN and server tables): Enter says the line, Esc closes it.", show=False),
        Command("palette", "ctrl+p", "Commands", "app.command_palette",
                "Open the command palette: find any command of this screen by name.", show=False,
                key_display="Ctrl+P", palette=False),
    )
    #: A game's own keys.  A game's screen states them (and its ``WHY_NOT`` prefix);
    #: ``__init_subclass__`` builds its ``COMMAND_TABLE`` and ``BINDINGS``: the game's
    #: keys first (the footer shows them first), the shared ones, then one hidden command
    #: per key of the game that says why the key does nothing now (tui/why_not.py).
    GAME_KEYS: tuple[Command, ...] = ()
    #: The prefix of those "why not" commands' ids ('' for none: a game that words its
    #: own among its keys).
    WHY_NOT = ""
    #: More commands whose keys say why they do nothing now (beside the game's keys).
    WHY_NOT_ALSO: tuple[Command, ...] = ()
    COMMAND_TABLE: tuple[Command, ...] = SHARED_KEYS
    BINDINGS = bindings(COMMAND_TABLE)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "GAME_KEYS" in cls.__dict__:  # a game's screen (not a replay made from one)
            why_not = why_not_commands((*cls.GAME_KEYS, *cls.WHY_NOT_ALSO), cls.WHY_NOT) if cls.WHY_NOT else ()
            cls.COMMAND_TABLE = (*cls.GAME_KEYS, *GameScreen.SHARED_KEYS, *why_not)
            cls.BINDINGS = bindings(cls.COMMAND_TABLE)
            kwargs.setdefault("inherit_bindings", False)
        super().__init_subclass__(**kwargs)

    #: Below this width the footer drops its padding, so the shared keys stay visible.
    FOOTER_COMPACT_BELOW = 110
    #: Below this width the footer leaves out Textual's "^p palette" (Ctrl+P still opens
    #: it, and the help lists it), so no key's label is clipped at 80 columns.
    FOOTER_PALETTE_FROM = 100
    #: The CSS class of the tint for what the other seats did since your last move.
    RECENT = RECENT_CLASS

    def __init__(self, link: SeatLink, **kwargs: Any):
        super().__init__(**kwargs)
        self.link = link
        # seat -> (its view right after its last action, the length of its log then)
        self._baselines: dict[int | None, tuple[Any, int]] = {}
        self._pending_baseline: tuple[int | None, Any] | None = None
        self._shown: dict[str, Any] = {}  # what each side-panel Static shows now
        self._bindings_signature: Any = None

    # --- layout ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="size-notice")
        with Horizontal(id="body"):
            with Vertical(id="board-area"):
                yield from self.compose_board()
            with Vertical(id="side"):
                yield TurnLine(id="turn-line")
                yield Static(id="thinking")
                practice = Static(PRACTICE_LINE, id="practice")
                practice.display = bool(getattr(self.link, "practice", False))
                yield practice
                yield Static(id="lan-status", markup=False)
                yield Static(id="table-status", markup=False)
                yield Static(id="message")
                yield Static(id="players")
                yield Static(id="last-turn")
                chat = ChatBox(id="chat")
                chat.display = self.link.chat_log() is not None
                yield chat
                yield EventLog(id="log")
        # (compact and palette as on_resize would set them: no restyle after the first frame)
        width = self.app.size.width
        yield KeyLine(compact=width < self.FOOTER_COMPACT_BELOW,
                      show_command_palette=width >= self.FOOTER_PALETTE_FROM)

    def compose_board(self) -> ComposeResult:
        yield from ()

    _ready = False  # set once composed: a LAN update may arrive while the screen is mounting
    _drawn = False  # set by the first drawing of a view
    #: The view and legal actions drawn now (what ``show`` gave; a game's keys read
    #: them).  No view yet: None.
    _view: Any = None
    _legal: list[Any] = []
    #: The view and legal actions drawn before these (a game compares the two).
    _previous: tuple[Any, list[Any]] = (None, [])
    #: What ``show`` gave last: drawn at once, or as soon as the screen is mounted.
    _given: tuple[Any, list[Any]] = (None, [])
    _status: Any = ""  # the LAN lines of the side panel ('' none; or a function of the width)

    def on_resize(self, event: events.Resize) -> None:
        # (Textual calls every class's on_resize along the MRO: a game screen's own
        # on_resize adds to this one, it does not replace it.)
        for footer in self.query(KeyLine):
            footer.compact = event.size.width < self.FOOTER_COMPACT_BELOW
            footer.show_command_palette = event.size.width >= self.FOOTER_PALETTE_FROM
        self._fit(event.size.width, event.size.height)
        if not self._drawn and self._ready:
            # The first layout is done (sizes known) and nothing is painted yet: draw the
            # view now, so the first frame shows it.
            self.redraw()

    @property
    def min_size(self) -> tuple[int, int]:
        """The smallest screen (columns, rows) the board is drawn in: the game's screen
        entry says (``ScreenEntry.min_size``)."""
        try:
            return screen_entry(self.link.game.slug).min_size
        except KeyError:  # (a game with no screen entry: the table's smallest)
            return ScreenEntry.min_size

    def too_small(self, width: int, height: int) -> str:
        """'' when the board fits, else the notice saying how big a screen the game needs."""
        return size_notice(self.link.game.title, self.min_size, (width, height))

    def _fit(self, width: int, height: int) -> None:
        if not self.is_mounted:
            return
        notice = self.too_small(width, height)
        small = self.query_one("#size-notice", Static)
        if small.content != notice:   # (an update lays the screen out again: not for the same line)
            small.update(notice)
        small.display = bool(notice)
        body = self.query_one("#body")
        was_hidden = not body.display
        if notice and not was_hidden:
            self._focus_before_notice = self.focused
        body.display = not notice
        if not notice and was_hidden:
            self._refocus()

    _focus_before_notice: Any = None   # what had the focus when the size notice hid the board

    def _refocus(self) -> None:
        """The board came back from behind the size notice: give the focus back to what
        had it (hiding the board took it away), so the keys work again at once."""
        kept, self._focus_before_notice = self._focus_before_notice, None
        if kept is not None and kept.is_attached:
            self.call_after_refresh(kept.focus)
        elif self.focused is None:
            self.call_after_refresh(self.focus_next)

    def on_mount(self) -> None:
        self._ready = True
        for static in self.query("#side > Static").results(Static):
            # what each side-panel Static holds from compose (""): _show skips setting it again
            if static.id:
                self._shown.setdefault(f"#{static.id}", static.content)
        if self._said:
            self._show("#message", self._said)
        self._fit(self.app.size.width, self.app.size.height)
        # is_mounted turns True only after the Mount handlers have run: draw at the first
        # Resize (on_resize, before the first paint) or, failing one, just after a refresh.
        self.call_after_refresh(self._first_view)
        # Side panels hold rich Text styled from the theme: a new theme draws them anew.
        self.app.theme_changed_signal.subscribe(self, self.redraw_for_theme)
        # A turn timer counts down between the host's words: its line is drawn every second.
        self.set_interval(1.0, self._show_table_status)

    def redraw_for_theme(self, theme: Any) -> None:
        if self._drawn:
            self.redraw()

    def _first_view(self) -> None:
        if not self._drawn:
            self.redraw()

    # --- the link ------------------------------------------------------------------
    def set_link(self, link: SeatLink) -> None:
        """Another seat is at the keyboard: send through ``link`` from now on (the session
        shows that seat's view next)."""
        self.link = link
        self._pending_baseline = None
        if self.is_mounted and self._ready:
            self.query_one("#practice", Static).display = bool(getattr(link, "practice", False))

    # --- drawing -------------------------------------------------------------------
    def show(self, view: Any, legal: list[Any]) -> None:
        """The table changed: draw ``view`` with ``legal`` (None: no view yet, nothing to
        draw).  Before the screen is mounted the view is kept and drawn with the first frame."""
        self._given = (view, list(legal))
        self.redraw()

    def redraw(self) -> None:
        """Draw the view given last again (the terminal's size changed, a panel opened)."""
        view, legal = self._given
        if view is None or not self.is_mounted or not self._ready:
            return
        self._take_baseline(view)
        log = self.link.log()
        self._previous = (self._view, self._legal)
        self._view, self._legal = view, legal
        try:
            self.refresh_board(view, legal)
        except NoMatches:  # (a rematch or Back to menu is taking this screen down)
            return
        self._show("#turn-line", self.turn_line(view, legal))
        header, panel = self.players_header(view), self.players_panel(view)
        self._show("#players", header + panel if header.plain else panel)
        self._show("#last-turn", self.last_turn(log))
        for event_log in self.query(EventLog):
            event_log.set_lines(said_once(log))
        self._show_status()
        self._show_table_status()
        self._show_chat()
        self._drawn = True
        self.refresh_bindings()

    def status_lines(self, text: Any) -> None:
        """The side panel's connection lines, under the practice line: ``text``, or a
        function of the panel's width giving it ('' hides them)."""
        self._status = text
        self._show_status()

    def _show_status(self) -> None:
        if not self.is_mounted or not self._ready or not self._status:
            return
        try:
            status = self.query_one("#lan-status", Static)
        except NoMatches:  # (the app is closing and the panel is already gone)
            return
        width = status.content_region.width or self.query_one("#side").content_region.width or 31
        text = self._status(width) if callable(self._status) else self._status
        status.display = bool(text)
        self._show("#lan-status", text)

    def table_status(self) -> str:
        """The seats as the table names them now when that is not their player's name
        ("Blue (bot until Ana returns)"), and the time left on each running turn timer."""
        link = self.link
        seats = range(len(link.names))
        levels = {seat: level for seat in seats if (level := link.bot_level(seat)) is not None}
        lines = [bots_line(link.names, levels)] if levels else []
        lines += [label for seat in seats if seat not in levels
                  and (label := link.seat_label(seat)) != link.names[seat]]
        clocks = [(seat, link.clock(seat)) for seat in range(len(link.names))]
        running = [f"{link.names[seat]} {clock_text(left)}" for seat, left in clocks if left is not None]
        if running:
            lines.append("Time left: " + ", ".join(running))
        return "\n".join(lines)

    def _show_table_status(self) -> None:
        if not self.is_mounted or not self._ready or self._given[0] is None:
            return
        try:
            status = self.query_one("#table-status", Static)
        except NoMatches:  # (the app is closing and the panel is already gone)
            return
        text = self.table_status()
        status.display = bool(text)
        self._show("#table-status", text)

    def _show_chat(self) -> None:
        lines = self.link.chat_log()
        try:
            chat = self.query_one(ChatBox)
        except NoMatches:  # (the app is closing and the panel is already gone)
            return
        chat.display = lines is not None
        if lines is not None:
            chat.show_lines(lines)

    def action_open_chat(self) -> None:
        """``c``: open the table's chat line (or say why there is none)."""
        if self.link.chat_log() is None:
            self.say(self.link.chat(""))
            self.app.bell()
            return
        self.query_one(ChatBox).action_open()

    def on_chat_box_said(self, event: ChatBox.Said) -> None:
        error = self.link.chat(event.text)
        if error:
            self.say(error)
            self.app.bell()
            return
        self.query_one(ChatBox).sent()

    def _show(self, selector: str, content: Any, layout: bool = False) -> None:
        """Update a side-panel Static (or the turn line) only when its text changed.  (A
        screen that updates one of these itself is noticed: what the widget holds is
        compared, not only what was last shown here.)  The screen is laid out again only
        if the widget's height changed (``update_quietly``), or always with ``layout``."""
        try:
            widget = self.query_one(selector)
        except NoMatches:  # (the app is closing and the panel is already gone)
            return
        if not isinstance(widget, (Static, TurnLine)):
            return
        if isinstance(content, Text):   # (words modules draw seat chips in the default theme)
            content = in_theme(content, self.app.theme_variables)
        if selector in self._shown and widget.content is self._shown[selector] and self._shown[selector] == content:
            return
        self._shown[selector] = content
        if isinstance(widget, TurnLine):
            widget.update(content, layout=layout)
        elif layout:
            widget.update(content)
        else:
            update_quietly(widget, content)

    def refresh_bindings(self) -> None:
        """Tell the key line only when the set of enabled keys changed (a key that only
        moves the cursor needs no key-line check)."""
        if not self.is_mounted:
            super().refresh_bindings()
            return
        try:
            signature = tuple((key, b.binding.id, b.binding.action, b.binding.description, b.enabled,
                               b.tooltip, id(b.node)) for key, b in self.active_bindings.items())
        except Exception:  # (a screen still composing: let Textual do its own thing)
            signature = None
        if signature is not None and signature == self._bindings_signature:
            return
        self._bindings_signature = signature
        super().refresh_bindings()

    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        """Redraw the board, hand and anything game-specific (``view`` and ``legal`` are
        ``self._view`` and ``self._legal`` by now)."""

    def turn_line(self, view: Any, legal: list[Any]) -> str:
        waiting = self.link.waiting_for()
        if legal:
            return "Your move."
        return f"Waiting for {waiting}" if waiting else ""

    #: The players panel begins with "You are Blue." (False: the game's panel says it
    #: its own way).
    PLAYERS_HEADER = True

    def players_header(self, view: Any) -> Text:
        """The first line of the players panel: who you are at this table (nothing for
        a watcher)."""
        out = Text()
        if self.PLAYERS_HEADER and view.seat is not None:
            out.append("You are ")
            out.append_text(seat_text(view.seat, self.link.names[view.seat]))
            out.append(f"{self.seat_note(view)}.\n")
        return out

    def seat_note(self, view: Any) -> str:
        """What the game adds to "You are Blue" (", Captain Nemo"), if anything."""
        return ""

    def players_panel(self, view: Any) -> Text | str:
        """Every player's public state, under the header (a game draws its own)."""
        return ""

    _said = ""   # a message said before the screen was mounted: shown once it is

    def say(self, message: str) -> None:
        """Show a one-line message (an illegal move, a refusal) in the side panel (said
        before the screen is mounted: shown as soon as it is)."""
        if self.is_mounted and self._ready:
            self._show("#message", message)
        else:
            self._said = message

    def thinking(self, text: str) -> None:
        """The app's line about a bot that is about to act ('' to clear it)."""
        if self.is_mounted and self._ready:
            self._show("#thinking", text)
            for line in self.query("#thinking"):   # (none once the app is closing)
                line.display = bool(text)           # (an empty line takes no row)

    # --- what the other seats did since your last move ------------------------------------
    def baseline_view(self) -> Any | None:
        """The view this seat had right after its own last action (None before it acted)."""
        kept = self._baselines.get(self.link.seat)
        return kept[0] if kept else None

    def seed_baselines(self, seen: dict[int, tuple[Any, int]]) -> None:
        """Each seat's view and log length when the table opened: what the others do
        before a seat's first move is tinted too (its first turn shows their openings)."""
        for seat, kept in seen.items():
            self._baselines.setdefault(seat, kept)

    def _baseline_log_length(self) -> int:
        kept = self._baselines.get(self.link.seat)
        return kept[1] if kept else 0

    def _take_baseline(self, now: Any) -> None:
        """After an accepted action, the first view that differs from the one before it is
        this seat's new baseline (at once for a local table; when the host's update comes
        for a LAN seat)."""
        if self._pending_baseline is None:
            return
        seat, before = self._pending_baseline
        if seat != self.link.seat:
            self._pending_baseline = None
            return
        if now is None or now is before:  # (no view yet, or not the new one yet)
            return
        self._pending_baseline = None
        self._baselines[seat] = (now, len(self.link.log()))

    def last_turn(self, log: list[LogLine]) -> str:
        """'Last turn' lines: a summary of each other seat's actions since this seat's last
        move, in the order they acted ('' in a read-only link or when nobody else moved)."""
        if self.link.read_only or self.link.seat is None:
            return ""
        since = log[self._baseline_log_length():]
        # Two rows of the side panel a seat (three where the terminal is tall enough).
        width = max(10, self.query_one("#side").content_size.width or 31)
        row_count = 3 if self.app.size.height >= TALL else 2
        rows = []
        for seat, lines in acted_since(since, self.link.seat).items():
            rows.extend(fit_rows(self.turn_summary(self.link.names[seat], lines), width, row_count))
        return "Last turn:\n" + "\n".join(rows) if rows else ""

    def turn_summary(self, name: str, lines: list[LogLine]) -> str:
        """One line for what one other seat (``name``) did since your last move (a game
        may do better)."""
        return summary(name, lines)

    # --- acting ------------------------------------------------------------------------
    def send(self, action: Any) -> bool:
        """Submit an action through the link; show why if it is refused."""
        before = self.link.view()
        error = self.link.submit(action)
        if error:
            self.say(error)
            self.app.bell()
            return False
        self.say("")
        self._pending_baseline = (self.link.seat, before)
        self._take_baseline(self.link.view())
        self.choice_sent()
        return True

    def choice_sent(self) -> None:
        """The choice being made on this screen went out (an accepted action): a game
        forgets what it held for it (a picked tile, a question).  No drawing here: the
        session draws the table once it changed."""

    def action_undo(self) -> None:
        if self.link.read_only:
            self.say("This is a replay: nothing to take back.")
            self.app.bell()
            return
        before = self.link.view()
        error = self.link.undo()
        if error:
            self.say(f"Cannot undo: {error}")
            self.app.bell()
            return
        self.say("Move taken back.")
        self._pending_baseline = (self.link.seat, before)
        self._take_baseline(self.link.view())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The shared keys always run and say why when they cannot (DESIGN.md: never silent).
        return True
