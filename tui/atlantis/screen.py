"""The Atlantis screen: the route of plates, your cards and plates, and one list of what
you may do now (destinations, the bridge, the payment), picked with a digit or Enter.

The screen draws only the view and legal actions its session gives it, and sends the engine's small
actions through ``self.send``: a destination picked with one key becomes ``Choose``
(when the figure is not yet chosen) and one ``Play`` per card of the way there; the
bridge and every plate or card given for water are one action each.  What the screen
keeps for itself: the figure you are pointing at, what you have given for the water
this move (for the payment panel), and an overpayment waiting for a second key.

A turn has four named steps: 1 sell (optional) and choose a figure and a destination,
2 (only when a move was left half-played) go on, 3 bridge or boat, 4 pay the water.
On a roomy terminal (ROOMY, e.g. 160x48) those steps stand under the choices in words,
and the whole legend beside them, one symbol a line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from engine.atlantis import data
from engine.atlantis import route
from engine.atlantis.actions import Bridge, Choose, NoBridge, Pass, PayCard, PayPlate, Play, Sell
from engine.text import counted

from ..commands import Command
from ..screens.game import GameScreen
from ..seat_labels import SEAT_LETTERS, seat_style, seat_text
from ..widgets.seat_styles import themed
from ..widgets.choice_list import ChoiceList
from .route_track import RouteMark, RoutePicture, RouteSpace, RouteTrack
from . import words
from .words import ROOMY, STEP_NAMES, WIDE, destination_words, turn_guide

def letters(cards: tuple[int, ...]) -> str:
    return " ".join(data.LETTERS[c] for c in cards)


def place_name(view: Any, pos: int) -> str:
    if pos == data.MAINLAND:
        return "the mainland"
    if pos == data.ATLANTIS:
        return "Atlantis"
    if view.heights[pos]:
        return f"space {pos + 1} {data.plate_label(view.tops[pos])}"
    return f"space {pos + 1}"


class FittedChoiceList(ChoiceList):
    """The choice list, as tall as its items where the CSS says ``height: auto`` (a
    roomy terminal, with the turn's steps under it); elsewhere the CSS's ``1fr``."""

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return max(1, len(self.items))

    def show(self, items: Any, keep: int | None = None, empty: str = "", disabled: Any = ()) -> None:
        count = len(self.items)
        super().show(items, keep, empty, disabled)
        if len(self.items) != count:
            self.refresh(layout=True)


@dataclass
class Option:
    """One line of the choice list: its words, the actions it sends, what it overpays."""

    words: str
    actions: list[Any]
    overpays: int = 0
    figure: int | None = None
    position: int | None = None      # a destination: where it goes
    given: tuple[str, int] | None = None   # for the payment panel: (words, amount)


@dataclass
class Payment:
    """What this seat has given for the water of the move under way."""

    key: tuple = ()
    items: list[tuple[str, int]] = field(default_factory=list)


class AtlantisScreen(GameScreen):
    """Atlantis (Leo Colovini): the race along the plates to the mainland."""

    AUTO_FOCUS = "RouteTrack"

    DEFAULT_CSS = """
    AtlantisScreen #side { width: 30; }
    AtlantisScreen #atl-step { height: auto; text-style: bold; }
    AtlantisScreen #atl-pay { height: auto; }
    AtlantisScreen RouteTrack { height: auto; }
    AtlantisScreen #atl-lower { height: 1fr; }
    AtlantisScreen #atl-act { width: 1fr; height: 100%; }
    AtlantisScreen ChoiceList { height: 1fr; min-height: 3; }
    /* A roomy terminal (ROOMY): the turn's steps under the choices and the whole
       legend beside them, one symbol a line; below it they are not drawn at all. */
    AtlantisScreen #atl-guide { height: auto; display: none; margin-top: 1; }
    AtlantisScreen #atl-legend { width: 46; height: auto; max-height: 100%; display: none;
                                 padding: 0 1; border-left: solid $primary; }
    AtlantisScreen.roomy #atl-guide { display: block; }
    AtlantisScreen.roomy ChoiceList { height: auto; max-height: 70%; }
    AtlantisScreen.roomy #atl-legend { display: block; }
    AtlantisScreen.roomy.legend-off #atl-legend { display: none; }
    """

    # The route in 4-character spaces, the cards and three choices fit 80x24 (SCREEN.min_size).
    GAME_KEYS = (
        Command("atlantis-figure", "f", "Figure", "next_figure", "Point at your next figure that can move."),
        *[Command(f"atlantis-option-{d}", str(d), "Choose", f"option({d - 1})",
                  "Choose line 1-9 of the list: a destination, the bridge, a payment." if d == 1 else "",
                  show=d == 1, key_display="1-9") for d in range(1, 10)],
        Command("atlantis-legend", "g", "Legend", "legend",
                "The legend under the route (beside the choices on a big terminal): all of it, none, "
                "or the short one (in turn)."),
        Command("atlantis-cancel", "escape", "Cancel", "cancel", "Cancel an overpayment you were asked to confirm.",
                show=False),
    )
    WHY_NOT = "atlantis"  # a key none of whose commands is allowed now says why

    def __init__(self, link: Any, **kwargs: Any):
        super().__init__(link, **kwargs)
        self._options: list[Option] = []
        self._figure: int | None = None       # the figure pointed at (local until a destination)
        self._confirm: int | None = None      # an overpaying option awaiting a second key
        self._payment = Payment()
        # The legend under the route: "auto" (one line below 30 rows, else all of it),
        # "full" (all of it, at any size) or "off"; g goes round the three.
        self._legend = "auto"
        self._last_key: tuple = ()

    # --- layout -------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Static(id="atl-step")
        yield RouteTrack(id="route")
        with Horizontal(id="atl-lower"):
            with Vertical(id="atl-act"):
                yield Static(id="atl-pay")
                yield FittedChoiceList(id="choices")
                yield Static(id="atl-guide")
            yield Static(id="atl-legend")

    @property
    def track(self) -> RouteTrack:
        return self.query_one("#route", RouteTrack)

    @property
    def choices(self) -> ChoiceList:
        return self.query_one("#choices", ChoiceList)

    def roomy(self) -> bool:
        """A terminal with room for the whole legend beside the choices and the turn's
        steps under them (160x48; not 80x24)."""
        width, height = self.size
        return width >= ROOMY[0] and height >= ROOMY[1]

    _wide = False  # the side panel has the players in full words (from WIDE columns)

    def _fit_side(self, width: int, height: int) -> None:
        self.query_one("#side").styles.width = 30 if width < 110 else 40 if width < WIDE else 48
        self.set_class(width >= ROOMY[0] and height >= ROOMY[1], "roomy")

    def on_mount(self) -> None:
        self._fit_side(*self.app.size)  # (as on_resize will: the first layout is the last)

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        self._fit_side(width, height)
        if self._view is not None:
            if self._wide != (width >= WIDE):
                self._wide = width >= WIDE
                self.redraw()  # (the players panel too)
            else:
                self._draw()

    # --- the words (tui/atlantis/words.py) ---------------------------------------------------
    def _choice_width(self) -> int:
        """The room for a choice's words: the list's width less "▶ 1 " (before the
        list is laid out: the screen's width less the side panel's)."""
        width = self.choices.size.width or max(40, self.size.width - 30)
        return width - 4


    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        return words.turn_line(view, legal, self.link.names, self.link.waiting_for())

    def players_panel(self, view: Any) -> Text:
        return words.players_panel(view, self.link.names, self.size.width, self.track.colour_style)

    # --- keys that are not allowed now ---------------------------------------------------
    def action_why_not(self, key: str) -> None:
        """A key none of whose commands is allowed now: say why (tui/why_not.py)."""
        if key.isdigit():
            self.action_option(int(key) - 1)  # says why itself
            return
        if not self._legal:
            self.say(self._empty_text())
        elif key == "f":
            if self.my_phase() not in ("start", "move"):
                self.say("The figure is chosen in step 1, before its cards.")
            elif self._view.played:
                self.say("Cards are down for this figure: it must finish its move.")
            else:
                self.say("No other figure of yours can move now.")
        elif key == "escape":
            self.say("Nothing to cancel.")
        else:
            self.say("That key does nothing now.")


    def set_link(self, link: Any) -> None:
        self._figure = None
        self._confirm = None
        self._payment = Payment()
        self._last_key = ()
        super().set_link(link)

    # --- what the seat may do now ----------------------------------------------------------
    def my_phase(self) -> str:
        """'wait' or the engine's phase when this seat is to act."""
        view = self._view
        if view is None or not self._legal:
            return "wait"
        return view.phase

    def movable(self) -> list[int]:
        """Figures that can move now: the legal ``Choose`` actions (and the one moving)."""
        view = self._view
        out = [a.figure for a in self._legal if type(a) is Choose]
        if view is not None and view.phase == "move" and view.mover >= 0 and self._legal:
            out.append(view.mover)
        return sorted(set(out))

    def chosen_figure(self) -> int | None:
        view = self._view
        if view is None:
            return None
        if view.phase == "move" and view.played:
            return view.mover  # cards are down: no other figure any more
        movable = self.movable()
        if self._figure in movable:
            return self._figure
        if view.phase == "move" and view.mover in movable:
            return view.mover
        return movable[0] if movable else None

    def build_options(self) -> list[Option]:
        view, legal = self._view, self._legal
        phase = self.my_phase()
        out: list[Option] = []
        if phase in ("start", "move"):
            figure = self.chosen_figure()
            if figure is not None:
                out += self._destination_options(figure)
            out += [Option(f"Sell a plate worth {a.value} for "
                           f"{counted(data.sale_cards(a.value), 'card')}", [a])
                    for a in legal if type(a) is Sell]
            out += [Option("Pass: no figure can move; draw 2 cards", [a]) for a in legal if type(a) is Pass]
        elif phase == "bridge":
            passed = [g for g in route.crossed(route.gaps(view), view.start, view.cursor) if not g.bridged]
            total = sum(g.cost for g in passed)
            for a in legal:
                if type(a) is Bridge:
                    gap = next(g for g in passed if g.first == a.space)
                    span = f"space {gap.first + 1}" if gap.first == gap.last else \
                        f"spaces {gap.first + 1}-{gap.last + 1}"
                    out.append(Option(f"Bridge over {span} (saves {gap.cost}): pay {total - gap.cost}",
                                      [a], position=gap.first))
                elif type(a) is NoBridge:
                    out.append(Option(f"By boat: pay {total}, keep your bridge", [a]))
        elif phase == "pay":
            owed = view.owed
            for a in legal:
                if type(a) is PayPlate:
                    plate = next(p for p in view.plates[view.seat] if data.VALUE_OF[p] == a.value)
                    over = max(0, a.value - owed)
                    said = f"Give plate {data.plate_label(plate)} ({a.value})"
                    out.append(Option(said + (f"  ! overpays {over}" if over else ""), [a], over,
                                      given=(f"plate {data.plate_label(plate)}", a.value)))
                elif type(a) is PayCard:
                    count = view.hand.count(a.colour)
                    out.append(Option(f"Give a {data.COLOURS[a.colour]} card {data.LETTERS[a.colour]} (1)"
                                      f" · {count} held", [a], 0, given=(f"{data.LETTERS[a.colour]} card", 1)))
        return out

    def _destination_options(self, figure: int) -> list[Option]:
        view = self._view
        need_choose = view.phase == "start" or view.mover != figure
        out, others = [], []
        for dest in route.destinations(view, figure):
            ways = [w for w in dest.ways if w.payable]
            if not ways:
                continue
            way = ways[0]
            for other in ways[1:]:  # the same place by more cards: listed after every destination
                others.append(Option(
                    f"→ {place_name(view, dest.space)} another way: "
                    f"{' then '.join(data.LETTERS[c] for c in other.cards)}",
                    ([Choose(figure)] if need_choose else []) + [Play(c) for c in other.cards],
                    figure=figure))
            words = destination_words(place_name(view, dest.space), [data.LETTERS[c] for c in way.cards],
                                      dest.water, dest.bridge_water, len(ways) - 1, self._choice_width())
            actions: list[Any] = [Choose(figure)] if need_choose else []
            actions += [Play(c) for c in way.cards]
            out.append(Option(words, actions, figure=figure, position=dest.space))
        return out + others

    # --- drawing -------------------------------------------------------------------------
    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        if view.phase != "pay" or not legal:
            self._payment = Payment()
        else:
            key = (view.turn, view.round, view.start, view.cursor)
            if self._payment.key != key:
                self._payment = Payment(key)
            # an undone plate: forget what the view no longer shows as paid
            while self._payment.items and sum(v for _, v in self._payment.items) > view.paid:
                self._payment.items.pop()
        key = (view.phase, view.turn, view.round, view.cursor, view.owed, len(legal), view.seat)
        fresh = key != self._last_key
        self._last_key = key
        if fresh:
            self._confirm = None
        self._draw(reset_cursor=fresh)
        if fresh:
            figure = self.chosen_figure()
            if figure is not None and self.my_phase() in ("start", "move"):
                pos = view.figures[view.seat][figure] if view.phase != "move" else view.cursor
                self.track.position = pos
            elif self.my_phase() in ("bridge", "pay"):
                self.track.position = view.cursor

    def _draw(self, reset_cursor: bool = False) -> None:
        view = self._view
        if view is None or not self.is_mounted:
            return
        self._options = self.build_options()
        # (only what changed: a redraw for a new size repaints and lays out nothing else)
        self._show_static("#atl-step", self._step_text())
        pay = self.query_one("#atl-pay", Static)
        self._show_static("#atl-pay", self._pay_text())
        pay.display = self.my_phase() in ("bridge", "pay")
        self.track.show(self._picture())
        if self.roomy():
            width = self.query_one("#atl-act").size.width or 60
            self._show_static("#atl-guide", turn_guide(self.my_phase(), view.phase, width))
            self._show_static("#atl-legend", self.track.legend_list())
        self.set_class(self._legend == "off", "legend-off")
        items = [(f"{i + 1} " if i < 9 else "  ") + o.words for i, o in enumerate(self._options)]
        self.choices.show(items, 0 if reset_cursor else None, self._empty_text())

    def _show_static(self, selector: str, content: Text) -> None:
        """Update a Static only when what it shows changed."""
        widget = self.query_one(selector, Static)
        if widget.content != content:
            widget.update(content)

    def _legend_on(self) -> bool:
        # (roomy: the legend is drawn beside the choices instead of under the route)
        return self._legend != "off" and not self.roomy()

    def _legend_rows(self) -> int:
        return 1 if self._legend == "auto" and self.size.height < 30 else 3

    def _picture(self) -> RoutePicture:
        view = self._view
        figures_at: dict[int, list[tuple[str, Style]]] = {}
        for seat, fs in enumerate(view.figures):
            for pos in fs:
                figures_at.setdefault(pos, []).append((SEAT_LETTERS[seat], themed(seat_style(seat), self.app.theme_variables)))
        first, last = route.ends(view.heights)
        spaces = []
        gap_notes = {g.first: str(g.cost) for g in route.gaps(view) if not g.bridged}
        for i in range(data.SPACES):
            figs = tuple(figures_at.get(i, ()))
            if view.heights[i]:
                plate = view.tops[i]
                spaces.append(RouteSpace("plate", data.plate_label(plate), data.COLOUR_OF[plate],
                                         view.heights[i] == 2, figs))
            elif first <= i <= last:
                gap = route.gap_at(view, i)
                kind = "bridge" if gap is not None and gap.bridged else "water"
                spaces.append(RouteSpace(kind, figures=figs, note=gap_notes.get(i, "")))
            else:
                spaces.append(RouteSpace("gone", figures=figs))
        phase = self.my_phase()
        figure = self.chosen_figure() if phase in ("start", "move") else None
        chosen = None
        if figure is not None:
            chosen = view.cursor if view.phase == "move" and view.mover == figure else view.figures[view.seat][figure]
        elif phase in ("bridge", "pay"):
            chosen = view.cursor
        marks = []
        words: dict[int, str] = {}
        for i, o in enumerate(self._options[:9]):
            if o.position is not None and phase in ("start", "move"):
                marks.append(RouteMark(o.position, str(i + 1), o.words))
                words[o.position] = f"▲{i + 1} {o.words}"
        for pos in range(-1, data.SPACES + 1):
            if pos not in words:
                words[pos] = self._space_words(pos)
        hand = view.hand if view.hand is not None else ()
        plates = [(data.COLOUR_OF[p], data.plate_label(p)) for p in view.plates[view.seat]] \
            if view.seat is not None else []
        return RoutePicture(
            spaces=spaces, at_start=figures_at.get(data.ATLANTIS, ()), at_goal=figures_at.get(data.MAINLAND, ()),
            chosen=chosen, chosen_letter=SEAT_LETTERS[view.seat] if view.seat is not None else "",
            marks=marks, recent=self.recent_spaces(), hand=tuple(hand),
            hand_note="" if view.hand is not None else "hidden: you are watching",
            plates=plates, letters="".join(data.LETTERS), colour_names=data.COLOURS,
            legend=self._legend_on(), words=words,
            legend_rows=self._legend_rows(), legend_more="g: more",
        )

    def recent_spaces(self) -> frozenset[int]:
        """Spaces the other seats changed since this seat last acted (a plate taken, a
        figure arrived or left), until it acts again."""
        before, view = self.baseline_view(), self._view
        if before is None:
            return frozenset()
        out = {i for i in range(data.SPACES) if before.tops[i] != view.tops[i]}
        for seat in range(view.players):
            if seat == view.seat:
                continue
            for a, b in zip(before.figures[seat], view.figures[seat]):
                if a != b:
                    out |= {p for p in (a, b) if 0 <= p < data.SPACES}
        return frozenset(out)

    def _space_words(self, pos: int) -> str:
        view = self._view
        who = [f"{SEAT_LETTERS[s]}" for s, fs in enumerate(view.figures) for p in fs if p == pos]
        if pos == data.ATLANTIS:
            return "Atlantis: the start" + (f" · figures {' '.join(who)}" if who else "")
        if pos == data.MAINLAND:
            return "The mainland: the goal" + (f" · figures {' '.join(who)}" if who else "")
        if view.heights[pos]:
            plate = view.tops[pos]
            text = f"Space {pos + 1}: {data.COLOURS[data.COLOUR_OF[plate]]} {data.VALUE_OF[plate]}"
            text += " (stack of 2)" if view.heights[pos] == 2 else " (single)"
        elif route.on_route(view.heights, pos):
            gap = route.gap_at(view, pos)
            text = f"Space {pos + 1}: water, " + ("bridged: free" if gap.bridged else f"{gap.cost} to cross")
        else:
            text = f"Space {pos + 1}: gone (the route got shorter)"
        if who:
            text += " · figure " + " ".join(who)
        return text

    def _step_text(self) -> Text:
        view = self._view
        phase = self.my_phase()
        out = Text()
        if view.phase == "over":
            out.append("Game over: every figure has gone to the mainland.")
            return out
        if phase == "wait":
            out.append_text(seat_text(view.turn, self.link.names[view.turn]))
            out.append(f" to play · round {view.round}", Style(bold=False))
            return out
        out.append(STEP_NAMES.get(phase, phase))
        figure = self.chosen_figure()
        if phase in ("start", "move") and figure is not None:
            count = len(self.movable())
            out.append(f"\nFigure {figure + 1} at {place_name(view, view.figures[view.seat][figure])}",
                       Style(bold=False))
            if view.played:
                out.append(f" · played {letters(view.played)}", Style(bold=False))
            if count > 1 and not view.played:
                out.append(f" · f: {count - 1} more", Style(bold=False, dim=True))
        return out

    def _pay_text(self) -> Text:
        """The payment panel: the cost, what you have given, what is still owed."""
        view = self._view
        phase = self.my_phase()
        out = Text()
        if phase == "bridge":
            passed = [g for g in route.crossed(route.gaps(view), view.start, view.cursor) if not g.bridged]
            gaps = " + ".join(f"{g.cost} (sp {g.first + 1})" for g in passed)
            out.append(f"Water: {gaps}" + (f" = {sum(g.cost for g in passed)}" if len(passed) > 1 else "")
                       + f" · you have {route.resources(len(view.hand), view.plates[view.seat])}")
        elif phase == "pay":
            given = ", ".join(w for w, _ in self._payment.items) or "nothing yet"
            out.append(f"Water {view.owed + view.paid} · given {view.paid}: {given} · ")
            out.append(f"still owed {view.owed}", Style(bold=True))
            if self._confirm is not None and self._confirm < len(self._options):
                o = self._options[self._confirm]
                out.append(f"\n! {o.given[0]} overpays {o.overpays}, no change. {self._confirm + 1} again: pay",
                           Style(bold=True, reverse=True))
        return out

    def _empty_text(self) -> str:
        view = self._view
        if view.phase == "over":
            return "The game is over."
        if self.link.read_only:
            return "Replay: nothing to choose."
        waiting = self.link.waiting_for()
        return f"Waiting for {waiting}." if waiting else "Nothing to choose now."

    # --- messages -----------------------------------------------------------------------
    @on(RouteTrack.SpaceHighlighted)
    def _space_highlighted(self, event: RouteTrack.SpaceHighlighted) -> None:
        event.stop()
        # the choice under the cursor follows a destination under the route's cursor
        for i, o in enumerate(self._options):
            if o.position == event.position and self.my_phase() in ("start", "move"):
                self.choices.cursor = i
                break

    @on(RouteTrack.SpaceSelected)
    def _space_selected(self, event: RouteTrack.SpaceSelected) -> None:
        event.stop()
        pos = event.position
        view = self._view
        if view is None:
            return
        for i, o in enumerate(self._options):
            if o.position == pos and self.my_phase() in ("start", "move", "bridge"):
                self.action_option(i)
                return
        if view.seat is not None and self.my_phase() in ("start", "move"):
            mine = [f for f in self.movable() if view.figures[view.seat][f] == pos]
            if mine:
                self._point_at(mine[0])
                return
        self.say(self._space_words(pos) if self._legal else self._empty_text())

    @on(RouteTrack.MarkPicked)
    def _mark_picked(self, event: RouteTrack.MarkPicked) -> None:
        event.stop()
        self.action_option(event.index)

    @on(ChoiceList.Selected)
    def _choice_selected(self, event: ChoiceList.Selected) -> None:
        event.stop()
        self.action_option(event.index)

    @on(ChoiceList.Highlighted)
    def _choice_highlighted(self, event: ChoiceList.Highlighted) -> None:
        if type(event) is not ChoiceList.Highlighted:
            return
        if 0 <= event.index < len(self._options):
            pos = self._options[event.index].position
            if pos is not None and self.track.position != pos and self.choices.has_focus:
                self.track.position = pos

    # --- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.my_phase()
        if action == "next_figure":
            return phase in ("start", "move") and len(self.movable()) > 1 and not self._view.played
        if action == "option":
            return bool(self._options)
        if action == "cancel":
            return self._confirm is not None
        return super().check_action(action, parameters)

    def _point_at(self, figure: int) -> None:
        self._figure = figure
        view = self._view
        pos = view.cursor if view.phase == "move" and view.mover == figure else view.figures[view.seat][figure]
        self.say(f"Figure {figure + 1} at {place_name(view, pos)}.")
        self._draw(reset_cursor=True)
        self.track.position = pos
        self.refresh_bindings()

    def action_next_figure(self) -> None:
        movable = self.movable()
        if not movable:
            self.say("No figure of yours can move now.")
            return
        current = self.chosen_figure()
        nxt = movable[(movable.index(current) + 1) % len(movable)] if current in movable else movable[0]
        self._point_at(nxt)

    def action_option(self, index: int) -> None:
        if not self._legal:
            self.say(self._empty_text())
            return
        if not 0 <= index < len(self._options):
            self.say(f"There are only {len(self._options)} choices now.")
            return
        option = self._options[index]
        if option.overpays and self._confirm != index:
            self._confirm = index
            self.choices.cursor = index
            self.query_one("#atl-pay", Static).update(self._pay_text())
            self.say(f"That overpays by {option.overpays}: press again to pay anyway.")
            self.app.bell()
            return
        self._confirm = None
        self._figure = None if option.position is not None else self._figure
        sent = 0
        for action in option.actions:
            if not self.send(action):
                break
            sent += 1
            if option.given:
                self._payment.items.append(option.given)
        if not sent:  # (nothing changed at the table: the session draws nothing)
            self.redraw()

    def action_legend(self) -> None:
        nxt = {"auto": "full", "full": "off", "off": "auto"}[self._legend]
        if nxt == "full" and self._legend_rows() == 3:  # the short one is the whole one here
            nxt = "off"
        self._legend = nxt
        self._draw()

    def action_cancel(self) -> None:
        self._confirm = None
        self.say("")
        self._draw()
