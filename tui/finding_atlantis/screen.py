"""The Finding Atlantis screen: the player's own nautical chart and their cards.

The screen draws only the view and legal actions its session gives it, and sends small actions.
What it keeps for itself: the question being asked (a direction, an axis, a
player, a space), the player's own pencil marks (per seat, never sent anywhere),
and a pending "declare?" confirmation.  The deduction assistant runs
``engine.finding_atlantis.knowledge.deduce`` over this seat's view only.  What the
chart draws is built in ``picture``; the side panel's words (and why a key does
nothing now) in ``words``.  Once the game is over the view holds the true map,
drawn beside the chart with what this seat had right and wrong.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from engine.core import LogLine
from engine.finding_atlantis import data
from engine.finding_atlantis.knowledge import check_declaration, deduce, possible_positions
from engine.finding_atlantis.actions import (
    Burn, ChooseCaptain, Declare, DropMine, EndTurn, Explore, FirstMove, JellyRod, LongSilent, Periscope,
    PickCell, Silent, Sonar, Surface, UseArtifact, UseCaptain,
)
from engine.finding_atlantis.text import cell_name
from engine.text import counted

from ..commands import Command
from ..seat_labels import game_over_line
from ..screens.game import GameScreen
from .chart_grid import ChartGrid
from . import words
from .picture import MARK_WORDS, chart_picture, mark_cycle, truth_picture

NO_ARG = {"sonar": Sonar(), "explore": Explore(), "surface": Surface(), "periscope": Periscope()}
#: The game keys whose refusal the screen explains (a hidden binding on the same key).
WHY_KEYS = (("enter", "enter"), ("a", "artifact"), ("b", "burn"), ("m", "mark"), ("x", "pick"),
            ("D", "declare"), ("e", "end_turn"), ("escape", "cancel"))

__all__ = ["FindingAtlantisScreen", "mark_cycle", "MARK_WORDS"]

#: Below this terminal height the cards keep 3 rows and the chart's legend 3, from it
#: on 5 and 4 (the cards scroll when they need more), so the chart's cell size never
#: changes from one action to the next.
TALL = 32


def legend_room(height: int) -> int:
    """The chart legend's rows, fixed by the terminal's height."""
    return 3 if height < TALL else 4


def same_height(before: Any, text: Any, width: int) -> bool:
    """Whether ``text`` surely wraps to as many lines as ``before`` at ``width`` without
    measuring it (measuring is slow): only the last line differs, and both fit."""
    if not isinstance(before, Text) or not isinstance(text, Text) or width <= 0:
        return False
    head, _, tail = before.plain.rpartition("\n")
    new_head, _, new_tail = text.plain.rpartition("\n")
    return head == new_head and cell_len(tail) <= width and cell_len(new_tail) <= width


class FindingAtlantisScreen(GameScreen):
    """Finding Atlantis."""

    AUTO_FOCUS = "#chart"

    COMPONENT_CLASSES = {"fa--recent", "fa--ask", "fa--captain", "fa--artifact"}

    DEFAULT_CSS = """
    FindingAtlantisScreen #charts { height: 1fr; }
    FindingAtlantisScreen ChartGrid { height: 1fr; }
    FindingAtlantisScreen #truth { display: none; }
    FindingAtlantisScreen.-over #truth { display: block; }
    FindingAtlantisScreen.-over #cards-box { display: none; }
    FindingAtlantisScreen #cards-box { height: 3; scrollbar-size-vertical: 1; }
    FindingAtlantisScreen.-tall #cards-box { height: 5; }
    FindingAtlantisScreen #cards { height: auto; padding: 0 1; }
    FindingAtlantisScreen #side { width: 36; }
    FindingAtlantisScreen.-wide #side { width: 56; }
    """

    GAME_KEYS = (
        Command("fa-1", "1", "Choose", "number(1)",
                "Choose from the numbered list: a card, a direction (1 N ... 8 NW), a seat.", key_display="1-9"),
        *[Command(f"fa-{i}", str(i), f"Choose {i}", f"number({i})", show=False) for i in range(2, 10)],
        Command("fa-enter", "enter", "Here", "enter", "Use the space under the cursor (or the way to it)."),
        Command("fa-artifact", "a", "Artifact", "artifact", "Use one of your artifacts."),
        Command("fa-burn", "b", "Burn", "burn", "Burn a card to move (the direction is public)."),
        Command("fa-mark", "m", "Mark", "mark", "Mark the space under the cursor on your chart (m again: the next mark)."),
        Command("fa-pick", "x", "Pick", "pick", "Pick the space under the cursor for your declaration."),
        Command("fa-declare", "D", "Declare", "declare", "Declare where Atlantis is (D again to confirm).",
                key_display="D"),
        Command("fa-end-turn", "e", "End turn", "end_turn", "End your turn."),
        Command("fa-cancel", "escape", "Cancel", "cancel", "Cancel the choice you started.", show=False),
        # a and b while Atlantis may be declared at 80 columns: not in the footer (no room
        # beside x and D), the same action
        *[Command(f"fa-quiet-{name}", key, label, f"quiet('{name}')", show=False, palette=False)
          for key, name, label in (("a", "artifact", "Artifact"), ("b", "burn", "Burn"))],
        # the same keys when they do nothing now: they say why (never nothing at all)
        *[Command(f"fa-why-{i}", str(i), "Why", "why('number')", show=False, palette=False) for i in range(1, 10)],
        *[Command(f"fa-why-{name}", key, "Why", f"why('{name}')", show=False, palette=False)
          for key, name in WHY_KEYS],
    )

    def __init__(self, link: Any, **kwargs: Any):
        super().__init__(link, **kwargs)
        self._know: Any = None
        self._ask: dict[str, Any] | None = None
        self._marks: dict[int | None, dict[int, str]] = {}
        self._confirm_declare = False
        self._confirm_end = False
        self._cursor_placed = False

    # --- layout -----------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        chart = self._chart = ChartGrid(6, id="chart")
        chart.enter_selects = False
        truth = ChartGrid(6, id="truth")
        truth.can_focus = False
        truth.follow(chart)   # its rows on the chart's lines
        with Horizontal(id="charts"):
            yield chart
            yield truth
        with VerticalScroll(id="cards-box"):
            yield Static(id="cards")

    def on_mount(self) -> None:
        # (GameScreen's on_mount runs too.)  The first layout already as wide as on_resize
        # will make it (no second layout and redraw at the start).
        self.set_class(self.app.size.width >= 140, "-wide")
        self.set_class(self.app.size.height >= TALL, "-tall")

    _resized_to: Any = None   # the size of the last Resize

    def on_resize(self, event: Any) -> None:
        # (GameScreen's on_resize runs too: Textual calls each class's handler)
        self.set_class(event.size.width >= 140, "-wide")
        self.set_class(event.size.height >= TALL, "-tall")
        if event.size != self._resized_to:   # (a table's start sends the same size twice)
            self._resized_to = event.size
            self.call_after_refresh(self._redraw)   # the cards wrap to the new width

    _chart: ChartGrid | None = None

    @property
    def chart(self) -> ChartGrid:
        return self._chart if self._chart is not None else self.query_one("#chart", ChartGrid)

    def set_link(self, link: Any) -> None:
        self._ask = None
        self._confirm_declare = False
        self._confirm_end = False
        self._cursor_placed = False
        super().set_link(link)

    # --- state ----------------------------------------------------------------------------
    @property
    def marks(self) -> dict[int, str]:
        return self._marks.setdefault(self.link.seat, {})

    def my_turn(self) -> bool:
        return bool(self._legal)

    def baseline(self) -> Any:
        """The view right after this seat's last action (GameScreen.baseline_view), if any."""
        get = getattr(self, "baseline_view", None)
        try:
            base = get() if get is not None else None
        except Exception:  # the shared screen may not have it yet  # noqa: BLE001
            base = None
        return base if base is not None and hasattr(base, "public") else None

    def menu(self) -> list[tuple[str, str, str]]:
        """Numbered choices (fixed numbers: a card keeps its key when played):
        (kind, id, label); kind "played" for a card not in hand now."""
        view = self._view
        if view is None or view.seat is None:
            return []
        if view.phase == "captain":
            return [("keep", c, data.CAPTAINS[c][0]) for c in view.offers]
        out = []
        cards = data.BASE_CARDS + (data.PIRATE_CARDS if view.pirate else ())
        for card in cards:
            out.append(("card" if card in view.hand else "played", card, data.CARDS[card][0]))
        if view.captain:
            out.append(("captain" if "captain" in view.hand else "played", "captain",
                        data.CAPTAINS[view.captain][0]))
        return out

    def artifact_menu(self) -> list[tuple[str, str, str]]:
        view = self._view
        if view is None or view.seat is None:
            return []
        return [("artifact", a, data.ARTIFACTS[a][0] + (" (free)" if data.ARTIFACTS[a][2] else ""))
                for a in view.artifacts]

    # --- drawing ----------------------------------------------------------------------------
    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        before, was_legal = self._previous
        if legal and not was_legal:
            self.say("")  # your turn again: a "not your turn" note is stale
        if self._confirm_end and (not legal or before is None or view.actions_left != before.actions_left):
            self._confirm_end = False   # the question was about another moment of the turn
        self.chart.set_size(view.n)
        self._know = deduce(view) if (view.assistant and view.seat is not None and not view.paper) else None
        if view.phase == "first_move" and legal and self._ask is None:
            self._ask = {"need": "dir", "what": "Your free hidden first move",
                         "build": lambda d: FirstMove(d)}
        if not legal:
            self._ask = None
        if not self._cursor_placed and view.seat is not None and view.pos >= 0:
            # on your own submarine once the game proper starts (after the hidden dive)
            self._cursor_placed = view.phase not in ("captain", "first_move")
            self.chart.cursor = view.pos
        self._draw()

    def part_style(self, name: str) -> Style:
        return self.get_component_rich_style(f"fa--{name}", partial=True)

    def _draw(self) -> None:
        view = self._view
        if view is None:
            return
        picture = chart_picture(view, self.marks, self._know, self.baseline())
        picture.legend_room = legend_room(self.app.size.height)
        over = bool(getattr(view, "truth", ()))
        self.set_class(over, "-over")
        if over:
            truth = self.query_one("#truth", ChartGrid)
            truth.set_size(view.n)
            truth.show(truth_picture(view, self.marks, self._know))
            picture.corner = "Your chart" if view.seat is not None else "The public chart"
        self.chart.show(picture)
        lost = ""
        if view.seat is not None and view.pos < 0 and view.phase not in ("captain", "over"):
            lost = f"You are LOST: {counted(len(possible_positions(view, self._know)), 'space')} possible."
        cards = self.query_one("#cards", Static)
        width = max(20, cards.content_size.width or (self.chart.size.width or 44) - 2)
        shown = words.question_keys(self._ask) if self._legal else None   # (digits: one meaning at a time)
        if shown is None:
            shown = words.cards_text(view, self.menu(), self.artifact_menu(), self.part_style, lost, width,
                                     rows=5 if self.has_class("-tall") else 3)
        self._show_quietly("#cards", shown)

    def _show_quietly(self, selector: str, content: Any) -> None:
        """Update a Static only when its content changed, and lay the screen out again only
        when its height changed (a layout costs a second frame a key)."""
        shown = self.__dict__.setdefault("_shown", {})  # (GameScreen._show's record too)
        widget = self.query_one(selector, Static)
        if selector in shown and widget.content is shown[selector] and shown[selector] == content:
            return
        previous, shown[selector] = shown.get(selector), content
        width = widget.size.width
        if width and same_height(previous, content, widget.content_size.width):
            widget.update(content, layout=False)   # (a cursor key: only the last line changed)
            return
        before = widget.get_content_height(widget.size, self.size, width)
        widget.update(content, layout=False)
        if not width or widget.get_content_height(widget.size, self.size, width) != before:
            widget.refresh(layout=True)

    # --- side panel --------------------------------------------------------------------
    def turn_line(self, view: Any, legal: list[Any]):
        names = self.link.names
        if view.phase == "over":
            return game_over_line(names, view.winners, "found Atlantis!" if view.winners else view.end_reason + ".")
        return words.turn_line(view, legal, names, self._ask, self.link.waiting_for(),
                           words.cursor_words(view, self.chart.cursor, self.marks, self._know),
                           self.part_style("ask"))

    def turn_summary(self, name: str, lines: list[LogLine]) -> str:
        """One sentence per other seat: "Blue played Sonar, then Jelly Rod, then burnt ..."."""
        return words.turn_summary(name, lines)

    def seat_note(self, view: Any) -> str:
        return f", {data.CAPTAINS[view.captain][0]}" if view.captain else ""

    def players_panel(self, view: Any):
        return words.players_panel(view, self.link.names, self.baseline(), self.part_style("recent"),
                               narrow=self.size.width < 140)

    # --- messages ----------------------------------------------------------------------------
    @on(ChartGrid.CellHighlighted)
    def _cell_highlighted(self, event: ChartGrid.CellHighlighted) -> None:
        # Only the turn line's cursor words depend on the cursor (the chart repaints its
        # own cursor; the cards and the keys do not change), and the keys only when a
        # "declare?" question is dropped.
        if self._view is None or not self.is_mounted:
            return
        confirm, self._confirm_declare = self._confirm_declare, False
        self._show("#turn-line", self.turn_line(self._view, self._legal), layout=False)
        if confirm:
            self.refresh_bindings()

    @on(ChartGrid.CellSelected)
    def _cell_selected(self, event: ChartGrid.CellSelected) -> None:
        self.action_enter()

    def _redraw(self) -> None:
        if self._view is None or not self.is_mounted:
            return
        self._draw()
        self._show("#turn-line", self.turn_line(self._view, self._legal), layout=False)
        self.refresh_bindings()

    # --- keys ---------------------------------------------------------------------------------
    def why_not(self, action: str) -> str:
        """Why a game key does nothing now ("" when it does something)."""
        waiting = self.link.waiting_for() if self._view is not None and not self._legal else None
        return words.why_not(action, self._view, self._legal, self._ask, self.link.names, waiting)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "why":
            return True
        if action == "cancel" and (self._confirm_declare or self._confirm_end):
            return True
        if action == "quiet":
            return self._view is not None and not self.why_not(str(parameters[0])) and self.footer_full()
        if action in ("number", "enter", "burn", "end_turn", "artifact", "pick", "declare", "mark", "cancel"):
            # False lets the key fall through to its hidden "why" binding, which says why
            # (or, for a and b, to their hidden twin: the footer has no room for them)
            if action in ("artifact", "burn") and self.footer_full():
                return False
            return self._view is not None and not self.why_not(action)
        return super().check_action(action, parameters)

    def footer_full(self) -> bool:
        """While Atlantis may be declared the footer shows x and D; below 110 columns
        there is then no room for a and b as well (they still work: ``quiet``)."""
        view = self._view
        return bool(view is not None and view.may_declare and self._legal and self.size.width < 110)

    def action_quiet(self, action: str) -> None:
        getattr(self, f"action_{action}")()

    def action_why(self, action: str) -> None:
        reason = self.why_not(action) or "Not now."
        self.say(reason)

    def _send(self, action: Any) -> None:
        self._ask = None
        self._confirm_declare = False
        self._confirm_end = False
        if not self.send(action):
            self._redraw()

    def _then(self, build: Callable[[int], Any]) -> None:
        result = build
        if isinstance(result, dict):
            self._ask = result
            self._redraw()
        else:
            self._send(result)

    def action_number(self, i: int) -> None:
        view = self._view
        if self._ask is not None:
            need = self._ask["need"]
            if need == "dir" and 1 <= i <= 8:
                value = i - 1
            elif need == "axis" and 1 <= i <= 4:
                value = i - 1
            elif need == "seat" and 1 <= i <= view.players and i - 1 != view.seat:
                value = i - 1
            elif need == "steps" and 1 <= i <= 3:
                value = i
            elif need == "artifact":
                arts = self.artifact_menu()
                if not 1 <= i <= len(arts):
                    self.say("You hold no such artifact.")
                    return
                self._ask = None
                self._start(*arts[i - 1])
                return
            elif need == "burn":
                items = self.menu()
                if not 1 <= i <= len(items) or items[i - 1][0] != "card" and items[i - 1][0] != "captain" \
                        or items[i - 1][1] == "surface":
                    self.say("That card cannot be burnt (played already, or Surface).")
                    return
                card = items[i - 1][1]
                self._ask = {"need": "dir", "what": f"Burn {items[i - 1][2]} (direction is public)",
                             "build": lambda d, card=card: Burn(card, d)}
                self._redraw()
                return
            else:
                self.say(f"{i} is not one of the choices now. " + words.ask_text(self._ask, view, self.link.names))
                return
            self._then(self._ask["build"](value))
            return
        items = self.menu()
        if not 1 <= i <= len(items):
            self.say(f"There is no choice {i}: the numbers go from 1 to {len(items)}." if items else
                     "There is nothing to choose with a number now.")
            return
        kind, ident, label = items[i - 1]
        if kind == "played":
            self.say(f"{label} is played: surface (or a Seed of Youth) takes it back.")
            return
        if kind == "captain":
            ident = self._view.captain
        if kind == "keep":
            self._send(ChooseCaptain(ident))
            return
        self._start(kind, ident, label)

    def _start(self, kind: str, ident: str, label: str) -> None:
        if kind == "card":
            if ident in NO_ARG:
                self._send(NO_ARG[ident])
            elif ident == "rod":
                self._ask = {"need": "axis", "what": label, "build": lambda a: JellyRod(a)}
            else:
                cls = {"silent": Silent, "long": LongSilent, "mine": DropMine}[ident]
                self._ask = {"need": "dir", "what": label, "build": lambda d, cls=cls: cls(d)}
        elif kind == "captain":
            arg = data.CAPTAINS[ident][2]
            if arg == "":
                self._send(UseCaptain())
                return
            if arg == "axis":
                self._ask = {"need": "axis", "what": label, "build": lambda a: UseCaptain(a)}
            elif arg == "dir":
                self._ask = {"need": "dir", "what": label, "build": lambda d: UseCaptain(d)}
            elif arg == "seat":
                self._ask = {"need": "seat", "what": label, "build": lambda s: UseCaptain(s)}
            else:
                self._ask = {"need": "dir", "what": label, "build": lambda d: {
                    "need": "steps", "what": label, "build": lambda k: UseCaptain(d, k)}}
        else:
            arg = data.ARTIFACTS[ident][3]
            if arg == "":
                self._send(UseArtifact(ident))
                return
            if arg == "dir":
                self._ask = {"need": "dir", "what": label, "build": lambda d: UseArtifact(ident, d)}
            elif arg == "seat":
                self._ask = {"need": "seat", "what": label, "build": lambda s: UseArtifact(ident, s)}
            elif arg == "cell":
                self._ask = {"need": "cell", "what": label, "build": lambda c: UseArtifact(ident, c)}
            else:
                self._ask = {"need": "seat", "what": label, "build": lambda s: {
                    "need": "dir", "what": label + " (push)", "build": lambda d: UseArtifact(ident, s, d)}}
        self._redraw()

    def action_enter(self) -> None:
        if self._ask is None:
            self.action_why("enter")
            return
        view = self._view
        cursor = self.chart.cursor
        if self._ask["need"] == "cell":
            self._then(self._ask["build"](cursor))
            return
        if self._ask["need"] == "dir":
            if view.pos < 0 or cursor == view.pos:
                self.say("Move the cursor off your submarine towards where you want to go, or press 1-8.")
                return
            (r0, c0), (r1, c1) = divmod(view.pos, view.n), divmod(cursor, view.n)
            dr = (r1 > r0) - (r1 < r0)
            dc = (c1 > c0) - (c1 < c0)
            self._then(self._ask["build"](data.DIRS.index((dr, dc))))

    def action_artifact(self) -> None:
        if not self.artifact_menu():
            self.say("You hold no artifact.")
            return
        self._ask = {"need": "artifact", "what": "Use an artifact"}
        self._redraw()

    def action_burn(self) -> None:
        self._ask = {"need": "burn", "what": "Burn"}
        self._redraw()

    def action_end_turn(self) -> None:
        """End the turn; with actions unused, only when e is pressed twice (an e meant for
        the turn before must not throw a whole turn away)."""
        view = self._view
        unused = view.actions_left if view.phase == "play" else 0
        if unused > 0 and not self._confirm_end:
            self._confirm_end = True
            self.say(words.end_turn_question(unused))
            self.refresh_bindings()
            return
        self._send(EndTurn())

    def action_cancel(self) -> None:
        self._ask = None
        self._confirm_declare = False
        self._confirm_end = False
        self.say("")
        self._redraw()

    def action_mark(self) -> None:
        view = self._view
        cell = self.chart.cursor
        cycle = mark_cycle(view.seat, view.players)
        now = self.marks.get(cell, "")
        nxt = cycle[(cycle.index(now) + 1) % len(cycle)] if now in cycle else cycle[0]
        if nxt:
            self.marks[cell] = nxt
        else:
            self.marks.pop(cell, None)
        self.say(f"Mark on {cell_name(view.n, cell)}: {MARK_WORDS.get(nxt, nxt) or 'none'}")
        self._redraw()

    def action_pick(self) -> None:
        self._send(PickCell(self.chart.cursor))

    def action_declare(self) -> None:
        view = self._view
        picks = tuple(view.picks)
        if len(picks) != view.k:
            self.say(f"Pick exactly {view.k} spaces with x first ({len(picks)} picked).")
            return
        if not self._confirm_declare:
            self._confirm_declare = True
            names = " ".join(cell_name(view.n, c) for c in picks)
            warn = check_declaration(view, picks, self._know) if self._know is not None else []
            text = f"Declare {names}? Everyone will see it. D again to confirm, Esc to cancel."
            if warn:
                text = "Careful: " + " ".join(warn) + " " + text
            self.say(text)
            return
        self._send(Declare())
