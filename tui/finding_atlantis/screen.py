"""The Finding Atlantis screen: the player's own nautical chart and their cards.

The screen reads only ``link.view()`` / ``link.legal()`` and sends small actions.
What it keeps for itself: the question being asked (a direction, an axis, a
player, a space), the player's own pencil marks (per seat, never sent anywhere),
and a pending "declare?" confirmation.  The deduction assistant runs
``engine.finding_atlantis.knowledge.deduce`` over this seat's view only.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import Static

from engine.finding_atlantis import data as D
from engine.finding_atlantis.knowledge import check_declaration, deduce, possible_positions
from engine.finding_atlantis.rules import (
    Burn, ChooseCaptain, Declare, EndTurn, Explore, FirstMove, JellyRod, LongSilent, PickCell,
    Periscope, Silent, Sonar, Surface, DropMine, UseArtifact, UseCaptain,
)
from engine.finding_atlantis.text import cell_name, chart_char, fact_word, set_size

from ..commands import Command, bindings
from ..screens.common import game_over_line
from ..screens.game import GameScreen
from ..seats import SEAT_LETTERS, seat_colour, seat_text
from ..widgets.chart_grid import ChartCell, ChartGrid, ChartPicture

SEA_BG = ("#0b2233", "#0d2738")
RING_BG = "#06141d"
SHADE_BG = "#173a2a"
PICK_BG = "#5a2a6b"
DIR_KEYS = "1 N  2 NE  3 E  4 SE  5 S  6 SW  7 W  8 NW"
NO_ARG = {"sonar": Sonar(), "explore": Explore(), "surface": Surface(), "periscope": Periscope()}
FACT_COLOUR = {"@": "#ffd75f", "$": "#ffaf5f", "T": "#ffd75f", "t": "#ffaf87", "#": "#5f87af",
               "^": "#d7d7af", "s": "#d7d7af", "x": "#87afaf", "!": "#ff5f5f", ".": "#31576e"}


def mark_cycle(seat: int, players: int) -> list[str]:
    return ["^", "#", "x", "T", "@?"] + [f"{SEAT_LETTERS[o]}?" for o in range(players) if o != seat] + [""]


MARK_WORDS = {"^": "seamount", "#": "deep ocean", "x": "no trace", "T": "trace", "@?": "Atlantis?"}


class FindingAtlantisScreen(GameScreen, inherit_bindings=False):
    """Finding Atlantis."""

    AUTO_FOCUS = "ChartGrid"

    DEFAULT_CSS = """
    FindingAtlantisScreen ChartGrid { height: 1fr; }
    FindingAtlantisScreen #cards { height: auto; max-height: 4; padding: 0 1; }
    FindingAtlantisScreen #side { width: 36; }
    """

    COMMAND_TABLE = (
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
        *GameScreen.COMMAND_TABLE,
    )
    BINDINGS = bindings(COMMAND_TABLE)

    def __init__(self, link: Any, **kwargs: Any):
        super().__init__(link, **kwargs)
        self._view: Any = None
        self._legal: list[Any] = []
        self._know: Any = None
        self._ask: dict[str, Any] | None = None
        self._marks: dict[int | None, dict[int, str]] = {}
        self._confirm_declare = False
        self._cursor_placed = False

    # --- layout -----------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        chart = ChartGrid(6, id="chart")
        chart.enter_selects = False
        yield chart
        yield Static(id="cards")

    @property
    def chart(self) -> ChartGrid:
        return self.query_one("#chart", ChartGrid)

    def set_link(self, link: Any) -> None:
        self._ask = None
        self._confirm_declare = False
        self._cursor_placed = False
        super().set_link(link)

    # --- state ----------------------------------------------------------------------------
    @property
    def marks(self) -> dict[int, str]:
        return self._marks.setdefault(self.link.seat, {})

    def my_turn(self) -> bool:
        return bool(self._legal)

    def menu(self) -> list[tuple[str, str, str]]:
        """Numbered choices (fixed numbers: a card keeps its key when played):
        (kind, id, label); kind "played" for a card not in hand now."""
        view = self._view
        if view is None or view.seat is None:
            return []
        if view.phase == "captain":
            return [("keep", c, D.CAPTAINS[c][0]) for c in view.offers]
        out = []
        cards = D.BASE_CARDS + (D.PIRATE_CARDS if view.pirate else ())
        for card in cards:
            out.append(("card" if card in view.hand else "played", card, D.CARDS[card][0]))
        if view.captain:
            out.append(("captain" if "captain" in view.hand else "played", "captain",
                        D.CAPTAINS[view.captain][0]))
        return out

    def artifact_menu(self) -> list[tuple[str, str, str]]:
        view = self._view
        if view is None or view.seat is None:
            return []
        return [("artifact", a, D.ARTIFACTS[a][0] + (" (free)" if D.ARTIFACTS[a][2] else ""))
                for a in view.artifacts]

    # --- drawing ----------------------------------------------------------------------------
    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        self._view, self._legal = view, list(legal)
        set_size(view.n)
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

    def _draw(self) -> None:
        view = self._view
        if view is None:
            return
        n, w = view.n, view.n + 2
        seat = view.seat
        cells = []
        know = self._know
        marks = self.marks
        known_subs: dict[int, list[str]] = {}
        for o, p in enumerate(view.public):
            if o == seat:
                continue
            where = p.surfaced if p.surfaced >= 0 else p.start
            if where >= 0 and not p.lost:
                exact = not p.trail
                known_subs.setdefault(where, []).append(SEAT_LETTERS[o] if exact else SEAT_LETTERS[o].lower())
        picks = set(view.picks)
        for x in range(w * w):
            r, c = divmod(x, w)
            inner = 1 <= r <= n and 1 <= c <= n
            cell = (r - 1) * n + (c - 1) if inner else -1
            f = view.chart[x] if view.chart else 0
            text, fg, bold, shaded = "", "#31576e", False, False
            bg = SEA_BG[(r + c) % 2] if inner else RING_BG
            if not view.paper and f and not (not inner and f == D.NOTRACE):
                text = chart_char(f)
                fg = FACT_COLOUR.get(text, "#c8d8e0")
            elif know is not None:
                deduced = self._deduced_char(know, x, cell)
                if deduced:
                    text, fg = deduced, "#6c8a99"
            if know is not None and cell >= 0 and know.certain(cell):
                shaded = True
                bg = SHADE_BG
            if cell >= 0 and cell in marks and marks[cell]:
                if not text or text == ".":
                    text = marks[cell]
                else:
                    text = (text + marks[cell])[:3]
                fg = "#ffff87"
            if cell >= 0 and cell in known_subs:
                text = "".join(known_subs[cell])[:3]
                fg, bold = "#ffffff", True
            if cell >= 0 and cell == view.mine:
                text = (text + "m")[-3:] if text else "m"
                fg = "#ff87d7"
            if cell >= 0 and cell in view.monsters:
                text, fg, bold = "M", "#ff5f5f", True
            if cell >= 0 and seat is not None and cell == view.pos:
                text, fg, bold = SEAT_LETTERS[seat] + "*", "#000000", True
                bg = seat_colour(seat)
            if cell in picks:
                bg = PICK_BG
                text = text if text and text != "." else "<>"
                bold = True
            if inner and not text:
                text = "·"
            cells.append(ChartCell(text, fg, bg, bold, shaded))
        corner = "N↑"
        if seat is not None and view.pos < 0 and view.phase not in ("captain",):
            places = possible_positions(view, know)
            corner = f"N↑  you are LOST ({len(places)} possible spaces)"
        self.chart.show(ChartPicture(cells=cells, ring=True, corner=corner))
        self.query_one("#cards", Static).update(self._cards_text())

    def _deduced_char(self, know: Any, x: int, cell: int) -> str:
        if cell >= 0:
            if know.atl[cell] == 1:
                return "@"
            if know.trace[cell] == 1:
                return "T"
        if know.sea[x] == 0:
            return "#"
        if cell >= 0 and know.trace[cell] == 0 and know.sea[x] == 1:
            return "^"
        if know.sea[x] == 1:
            return "s"
        if cell >= 0 and know.trace[cell] == 0:
            return "x"
        return ""

    def _cards_text(self) -> Text:
        out = Text()
        view = self._view
        if view.seat is None:
            out.append("Watching: hands are hidden.", Style(dim=True))
            return out
        for i, (kind, ident, label) in enumerate(self.menu(), start=1):
            style = Style()
            if kind == "played":
                style = Style(dim=True, strike=True)
            elif kind == "captain":
                style = Style(color="#87d7ff", bold=True)
            elif kind == "keep":
                style = Style(bold=True)
            out.append(f"{i}", Style(reverse=kind != "played", dim=kind == "played"))
            out.append(f" {label}  ", style)
        arts = self.artifact_menu()
        if arts:
            out.append("\n")
            out.append("a", Style(reverse=True))
            out.append(" artifact: ")
            for i, (_, _, label) in enumerate(arts, start=1):
                out.append(f"{i} {label}  ", Style(color="#ffaf5f", bold=True))
        played = [D.CARDS[c][0] for c, _ in view.public[view.seat].last_played]
        if view.phase not in ("captain", "first_move"):
            out.append(f"\nPlayed: {view.public[view.seat].played_count} (last: {', '.join(played) or '-'})",
                       Style(dim=True))
        return out

    # --- side panel --------------------------------------------------------------------
    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        names = self.link.names
        out = Text()
        plain = Style(bold=False)
        if view.phase == "over":
            return game_over_line(names, view.winners, "found Atlantis!" if view.winners else view.end_reason + ".")
        if not legal:
            out.append_text(seat_text(view.turn, names[view.turn]))
            out.append(" to play")
            waiting = self.link.waiting_for()
            if waiting:
                out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
            return out
        out.append("Your turn ")
        out.append_text(seat_text(view.turn, names[view.turn]))
        if view.phase == "captain":
            out.append("\nKeep a captain: 1 or 2.\n", plain)
            for i, c in enumerate(view.offers, start=1):
                out.append(f"{i} {D.CAPTAINS[c][0]}: {D.CAPTAINS[c][1]}\n", plain)
            return out
        out.append(f"  actions left: {view.actions_left}\n" if view.phase == "play" else "\n", plain)
        if self._ask:
            out.append(self._ask_text(), Style(color="#ffd75f", bold=False))
        elif view.may_declare:
            out.append(f"Atlantis! x picks a space ({len(view.picks)}/{view.k}), D declares; "
                       "or play on.", Style(color="#ffd75f", bold=False))
        else:
            out.append("1-9 play a card, a an artifact, b burn a card to move, e end turn.", plain)
        out.append("\n")
        out.append(self._cursor_words(), Style(bold=False, dim=True))
        return out

    def _ask_text(self) -> str:
        need = self._ask["need"]
        what = self._ask["what"]
        if need == "dir":
            return f"{what}: direction? {DIR_KEYS}, or Enter towards the cursor. Esc cancels."
        if need == "axis":
            return f"{what}: axis? 1 N-S  2 E-W  3 NE-SW  4 NW-SE. Esc cancels."
        if need == "seat":
            names = self.link.names
            return f"{what}: which player? " + "  ".join(
                f"{o + 1} {names[o]}" for o in range(self._view.players) if o != self._view.seat)
        if need == "cell":
            return f"{what}: move the cursor to a space, Enter. Esc cancels."
        if need == "steps":
            return f"{what}: how far? 1-3."
        if need == "burn":
            return "Burn which card? 1-9 (not Surface). Esc cancels."
        if need == "artifact":
            return "Which artifact? 1-9. Esc cancels."
        return what

    def _cursor_words(self) -> str:
        view = self._view
        cell = self.chart.cursor
        words = [f"Cursor {cell_name(view.n, cell)}"]
        if view.chart:
            r, c = divmod(cell, view.n)
            f = view.chart[(r + 1) * (view.n + 2) + c + 1]
            if f:
                words.append(fact_word(f))
        mark = self.marks.get(cell)
        if mark:
            words.append(f"your mark {MARK_WORDS.get(mark, mark)}")
        if self._know is not None and self._know.certain(cell):
            words.append("certain")
        return ", ".join(words)

    def players_panel(self, view: Any) -> Text:
        names = self.link.names
        out = Text()
        if view.seat is not None:
            out.append("You are ")
            out.append_text(seat_text(view.seat, names[view.seat]))
            if view.captain:
                out.append(f", {D.CAPTAINS[view.captain][0]}")
            out.append(".\n")
        for s, p in enumerate(view.public):
            out.append("▶" if s == view.turn and view.phase != "over" else " ")
            out.append_text(seat_text(s, names[s][:8]))
            last = "/".join(D.CARDS[c][0].split()[0] + (f"→{D.DIR_SHORT[d]}" if d >= 0 else "")
                            for c, d in p.last_played) or "-"
            out.append(f" {last}\n", Style(dim=False))
            seen = f"up {cell_name(view.n, p.surfaced)}" if p.surfaced >= 0 else f"start {cell_name(view.n, p.start)}"
            moves = " ".join(t.replace("burn:", "→").replace("pushed:", "pushed→") for t in p.trail[-4:])
            extra = []
            if p.captain:
                extra.append(D.CAPTAINS[p.captain][0].split()[0])
            if p.artifacts_held:
                extra.append(f"{p.artifacts_held} art")
            if p.used:
                extra.append("used " + ",".join(D.ARTIFACTS[a][0].split()[0] for a in p.used))
            if p.lost:
                extra.append("LOST")
            out.append(f"   {seen} {moves}\n", Style(dim=True))
            if extra:
                out.append(f"   {' · '.join(extra)}\n", Style(dim=True))
        out.append(f"Round {view.round}/{view.max_rounds} · deck {view.deck_count}"
                   f"{' · pirate' if view.pirate else ''}{' · paper' if view.paper else ''}",
                   Style(dim=True))
        for s, cells in view.failed[-2:]:
            out.append(f"\n✗ {names[s]}: {' '.join(cell_name(view.n, c) for c in cells)}", Style(dim=True))
        return out

    # --- messages ----------------------------------------------------------------------------
    @on(ChartGrid.CellHighlighted)
    def _cell_highlighted(self, event: ChartGrid.CellHighlighted) -> None:
        self._confirm_declare = False
        self._redraw()

    @on(ChartGrid.CellSelected)
    def _cell_selected(self, event: ChartGrid.CellSelected) -> None:
        self.action_enter()

    def _redraw(self) -> None:
        if self._view is None or not self.is_mounted:
            return
        self._draw()
        self.query_one("#turn-line").update(self.turn_line(self._view, self._legal))
        self.refresh_bindings()

    # --- keys ---------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self._view
        mine = bool(self._legal)
        if action == "number":
            return mine
        if action == "enter":
            return mine and self._ask is not None and self._ask["need"] in ("dir", "cell")
        if action in ("burn", "end_turn"):
            return mine and view.phase == "play"
        if action == "artifact":
            return mine and view.phase == "play" and bool(view.artifacts)
        if action in ("pick", "declare"):
            return mine and view.may_declare
        if action == "mark":
            return view is not None and view.seat is not None
        if action == "cancel":
            return (self._ask is not None and view.phase != "first_move") or self._confirm_declare
        return super().check_action(action, parameters)

    def _send(self, action: Any) -> None:
        self._ask = None
        self._confirm_declare = False
        if self.send(action):
            self.refresh_view()
        else:
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
                self.say("Not one of the choices.")
                return
            self._then(self._ask["build"](value))
            return
        items = self.menu()
        if not 1 <= i <= len(items):
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
            arg = D.CAPTAINS[ident][2]
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
            arg = D.ARTIFACTS[ident][3]
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
            self._then(self._ask["build"](D.DIRS.index((dr, dc))))

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
        self._send(EndTurn())

    def action_cancel(self) -> None:
        self._ask = None
        self._confirm_declare = False
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
