"""The End of Atlantis screen: ship lanes, the victory track, the Faction row and
Senate pool, the voting row with the last vote explained, the player's screen, the
legend, and the list of what the seat at the keyboard may do now.

The screen draws only the view and legal actions its session gives it.  Every decision is a
small action from ``legal()``, written as a sentence in the choice list (``words``):
Up/Down and Enter choose, digits jump to a bid, ``p`` passes, ``l`` shows or hides the
legend.  The footer names only the keys that work now (a spectator's: the legend,
help, save, leave); a key that is not allowed now still says why when pressed.  A choice
too long for the list is said in fewer words (``words.fit_choice``), and during the
Factions phase the box under the voting row shows the Senate bids and why each tie in
the pool went one way.  The target of the choice under the
cursor (a ship) is marked in the ship lanes; what the other seats changed since this
seat's last move is highlighted (``recent``).  A pending bid or card order appears
only on its owner's screen, because only its owner's view holds it.  A ship has one
name everywhere: its letter and name ("B Science Vessel").
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from engine.core import LogLine
from engine.end_of_atlantis import data
from engine.end_of_atlantis.actions import Bid, Pass, PlaySpecial, Target
from engine.text import counted

from ..commands import Command
from ..screens.game import GameScreen
from ..seat_labels import game_over_line, neutral_style, seat_style, seat_text
from ..widgets.seat_styles import themed
from ..widgets.choice_list import ChoiceList
from ..widgets.eventlog import EventLog
from .player_screen import PlayerScreen
from .senate_row import FactionSpace, SenateRow
from .ship_lanes import LaneShip, LanesPicture, ShipLanes
from .victory_track import Marker, VictoryTrack
from .voting_row import VoteCard, VoteRowLine, VotingRow
from . import words
from .words import CUBE_LETTERS, NO_PASS, PHASE, SHIP_NOTES, STAGE_WORDS, VOTING

#: Said when the log gets the focus (Tab): how to read it back and how to go on playing.
LOG_KEYS = "Log: Up, PgUp, Home read back; Tab or Enter: back to the choices."
WIDE = 140     # from this width: full names, wider side panel
TALL = 34      # from this height: the legend is always shown, the track has its points line


def cube_style(colour: int, variables: Mapping[str, str] | None = None) -> Style:
    """A seat's (or the neutral) cube letter, in the theme of ``variables`` when given."""
    return themed(seat_style(colour) if colour < data.NEUTRAL else neutral_style(), variables)


class Choices(ChoiceList):
    """The choice list, whose Enter is in the footer only while there is a choice (an
    empty list's Enter goes on to the screen, which says why)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "select":
            return bool(self.items)
        return super().check_action(action, parameters)


def doom_phase_lines(log: list[LogLine]) -> tuple[int, list[str]]:
    """The last finished Doom phase in ``log``: where it starts and the words of what it
    did, from its "doom_phase" line up to the next turn's; (-1, []) when there is none yet."""
    starts = [i for i, line in enumerate(log) if line.kind == "doom_phase"]
    if not starts:
        return -1, []
    start = starts[-1]
    for end in range(start + 1, len(log)):
        if log[end].kind == "turn":
            return start, [line.text for line in log[start + 1:end]]
    return -1, []


class DoomSummaryScreen(ModalScreen[None]):
    """What the Doom phase did (points, the Event, upgrades, ships sailing, tokens home),
    shown before the player's first choice of the next turn: it all happens at once and
    the log at 80x24 has room for a few lines only."""

    DEFAULT_CSS = """
    DoomSummaryScreen { align: center middle; }
    DoomSummaryScreen > VerticalScroll { width: 90%; max-width: 90; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1; }
    DoomSummaryScreen #doom-title { text-style: bold; }
    DoomSummaryScreen #doom-keys { color: $ink-muted; margin-top: 1; }
    """
    BINDINGS = [Binding("enter,escape", "dismiss", "Go on", id="doom-go-on")]

    def __init__(self, turn: int, lines: list[str]):
        super().__init__()
        self.turn = turn
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(f"End of turn {self.turn}: what the Doom phase did", id="doom-title")
            yield Static("\n".join(self.lines), id="doom-lines")
            yield Static(f"Enter: on to turn {self.turn + 1}. The log keeps all of this.", id="doom-keys")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()


class EndOfAtlantisScreen(GameScreen):
    """End of Atlantis."""

    AUTO_FOCUS = "ChoiceList"
    COMPONENT_CLASSES = {"eoa--doom"}

    DEFAULT_CSS = """
    EndOfAtlantisScreen #side { width: 30; }
    EndOfAtlantisScreen #eoa-head { height: 1; text-style: bold; }
    EndOfAtlantisScreen #last-vote { height: auto; max-height: 3; }
    EndOfAtlantisScreen #legend-box { height: auto; max-height: 50%; border-top: solid $primary; }
    EndOfAtlantisScreen #legend-box.small { height: 1fr; max-height: 100%; border-top: none; }
    EndOfAtlantisScreen #legend { height: auto; color: $ink-muted; }
    EndOfAtlantisScreen #legend-box.small #legend { color: $foreground; }
    EndOfAtlantisScreen ChoiceList { height: 1fr; min-height: 2; }
    EndOfAtlantisScreen.short.reading-log #players,
    EndOfAtlantisScreen.short #last-turn,
    EndOfAtlantisScreen.short.reading-log #thinking { display: none; }
    """
    # (short: "Last turn" is left out, the log under it holds the same lines and gets its room)

    GAME_KEYS = (
        Command("eoa-pass", "p", "Pass", "pass_turn", "Pass (or bid nothing in an open vote)."),
        *[Command(f"eoa-digit-{d}", str(d), "Bid", f"digit({d})",
                  "Type a bid (two digits for 10 and more), then Enter." if d == 0 else "",
                  show=d == 0, key_display="0-9") for d in range(10)],
        Command("eoa-legend", "l", "Legend", "toggle_legend", "Show or hide the legend of every symbol."),
        Command("eoa-clear", "escape", "Clear", "clear_digits", "Clear the digits typed so far.", show=False),
    )
    # The footer names only the keys that work now (check_action); a key none of whose
    # commands is allowed says why (tui/why_not.py).  Enter is the choice list's key.
    WHY_NOT = "eoa"
    WHY_NOT_ALSO = (*(c for c in GameScreen.SHARED_KEYS if c.id == "undo"), Command("", "enter", "", ""))

    def __init__(self, link: Any, **kwargs: Any):
        super().__init__(link, **kwargs)
        self._digits = ""
        self._last_key: tuple = ()
        self._legend_wanted: bool | None = None   # None: shown when the terminal is tall
        self._recent: dict[str, set] = words.recent_changes(None, None)
        self._doom_seen: dict[int, int] = {}   # seat -> where the last Doom phase it was shown starts

    # --- layout -------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Static(id="eoa-head")
        yield ShipLanes(id="lanes")
        yield VictoryTrack(id="track")
        yield SenateRow(id="senate")
        yield VotingRow(id="voting")
        yield Static(id="last-vote")
        yield PlayerScreen(id="me")
        yield Choices(id="choices")
        with VerticalScroll(id="legend-box"):
            yield Static(id="legend")

    @property
    def choices(self) -> ChoiceList:
        return self.query_one("#choices", ChoiceList)

    def _tall(self) -> bool:
        return self.size.height >= TALL

    def on_mount(self) -> None:
        # (GameScreen's on_mount runs too.)  The sizes as the first Resize will set them, so
        # the first layout is already the right one: the board is drawn once at the start,
        # not once for the default side panel's width and again for its own.
        self._fit_size(*self.app.size)

    def _fit_size(self, width: int, height: int) -> None:
        self.query_one("#side").styles.width = 30 if width < 110 else 40 if width < WIDE else 48
        lanes = self.query_one("#lanes", ShipLanes)
        lanes.picture.notes = width >= 110
        lanes.compact = height < 26
        track = self.query_one("#track", VictoryTrack)
        track.legend = height >= 28
        track.display = height >= 26
        self.query_one("#last-vote").styles.max_height = 3 if height < TALL else 6
        # (short: the log, when it has the focus, takes the side panel's room to be read back)
        self.set_class(height < TALL, "short")

    def _layout_key(self) -> tuple:
        """What the board's drawing depends on of the layout (refresh_board reads these)."""
        return (self.size, *(self.query_one(wid).size.width for wid in ("#choices", "#legend", "#me")))

    _drawn_layout: tuple = ()   # _layout_key() when the board was last drawn

    def on_resize(self, event: events.Resize) -> None:
        self._fit_size(*event.size)
        self._place_legend()
        # (a Resize to the size the board was drawn for, with the same layout, draws it the
        # same again: a table's start sends two)
        if self._view is None:
            return
        if self._layout_key() != self._drawn_layout:
            self.refresh_board(self._view, self._legal)
        else:
            self._show_last_vote()   # (the one thing of the board _place_legend set again)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        reading = isinstance(event.widget, EventLog)
        self.set_class(reading, "reading-log")
        if reading:
            self.say(LOG_KEYS)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if isinstance(event.widget, EventLog):
            self.remove_class("reading-log")
            if self.query_one("#message", Static).content == LOG_KEYS:
                self.say("")

    _has_last_vote = False   # the board shows a last vote (or the Senate bids)

    def _show_last_vote(self) -> None:
        self.query_one("#last-vote").display = self._has_last_vote and not (self._legend_shown() and not self._tall())

    def _legend_shown(self) -> bool:
        return self._tall() if self._legend_wanted is None else self._legend_wanted

    def _place_legend(self) -> None:
        """Tall terminals: the legend under the choices.  Small ones: behind ``l``, in
        place of the board below the head."""
        shown, small = self._legend_shown(), not self._tall()
        legend = self.query_one("#legend-box")
        legend.display = shown
        legend.set_class(small, "small")
        for wid in ("#lanes", "#senate", "#voting", "#last-vote", "#me", "#choices"):
            self.query_one(wid).display = not (shown and small)
        if not (shown and small):
            self.query_one("#track").display = self.size.height >= 26

    def action_toggle_legend(self) -> None:
        self._legend_wanted = not self._legend_shown()
        self._place_legend()
        small = not self._tall()
        if self._legend_wanted and small:
            self.query_one("#legend-box").focus()
        elif small:
            self.choices.focus()
        self.say(("Legend shown (Up/Down scroll it): l hides it." if small else "Legend shown: l hides it.")
                 if self._legend_wanted else "Legend hidden: l shows it.")

    def redraw(self) -> None:
        super().redraw()
        self._offer_doom_summary()

    def _offer_doom_summary(self) -> None:
        """Once per seat and Doom phase: sum the phase up for the seat at the keyboard
        (not for a watcher or a replay), when this screen is the one in front."""
        if not self._ready or self.link.read_only or self.link.seat is None or self.app.screen is not self:
            return
        log = self.link.log()
        start, lines = doom_phase_lines(log)
        seat = self.link.seat
        if start < 0 or self._doom_seen.get(seat, -1) >= start:
            return
        self._doom_seen[seat] = start
        turn = self._view.turn - 1 if self._view is not None else 0
        self.app.push_screen(DoomSummaryScreen(turn, lines))

    def set_link(self, link: Any) -> None:
        # The keyboard passes to another seat: the summary in front was the last seat's
        # (its "You ..." lines are that seat's own); the new seat gets its own.  The last
        # seat never read it (the curtain came over it): it is offered again when that
        # seat next sits down.
        if self.is_mounted and isinstance(self.app.screen, DoomSummaryScreen):
            self._doom_seen.pop(self.link.seat, None)
            self.app.pop_screen()
        self._digits = ""
        self._last_key = ()
        super().set_link(link)

    # --- drawing -------------------------------------------------------------------------
    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        self._drawn_layout = self._layout_key()
        names = self.link.names
        wide = self.size.width >= WIDE
        baseline = getattr(self, "baseline_view", lambda: None)()
        self._recent = words.recent_changes(baseline, view)
        self._show("#eoa-head", self._head(view))  # (each Static only when its text changed)
        self._draw_lanes()
        self.query_one("#track", VictoryTrack).show(
            [Marker(CUBE_LETTERS[p], self.cube_style(p), view.vp[p]) for p in range(view.players)],
            names, self._recent["vp"])
        order = sorted(range(view.players), key=lambda p: (-view.senate_pool[p], view.markers[p], p))
        spaces = []
        for f in range(7):
            h = view.faction_holders[f]
            markers = [(CUBE_LETTERS[p], self.cube_style(p)) for p in range(view.players)
                       if view.markers[p] == f]
            spaces.append(FactionSpace(data.FACTIONS[f], (CUBE_LETTERS[h], self.cube_style(h)) if h >= 0 else None,
                                       view.plus_one[f], markers))
        note = "" if not view.family else "(family rules: no Senate; ties by the Faction markers)"
        pool = [(f"{CUBE_LETTERS[p]} {names[p]}" if wide else CUBE_LETTERS[p], self.cube_style(p), view.senate_pool[p])
                for p in order]
        self.query_one("#senate", SenateRow).show(
            spaces, pool, note, self._recent["factions"],
            [i for i, p in enumerate(order) if p in self._recent["pool"]])
        self._draw_voting()
        last = words.last_vote_text(view, names, short=not self._tall())
        head = "Last vote: "
        if not last:
            last, head = words.senate_reveal_text(view, names, short=not self._tall()), "Senate bids: "
        self._show("#last-vote", Text.assemble((head, "bold"), last) if last else "")
        self._has_last_vote = bool(last)
        self._show_last_vote()
        self._draw_me()
        self._show("#legend", self._legend_text(view))
        key = (view.stage, view.turn, view.vote, len(legal), view.effect)
        room = (self.choices.size.width or self.size.width - 30) - 4  # (the cursor mark, " ↓")
        items = words.fit_choices([self.choice_text(a) for a in legal], room)
        empty = self._waiting_text()
        keep = None if key == self._last_key else self._default_choice()
        if key != self._last_key and legal:
            self.say("")
        self._last_key = key
        self.choices.show(items, keep, empty)
        self._mark_target()

    def _legend_text(self, view: Any) -> Text:
        out = Text()
        width = self.query_one("#legend").size.width or self.size.width - 32
        lines = words.legend_lines(self.link.names, view.players, width, self.size.width < WIDE)
        if not self._tall():
            out.append("Legend (l hides it)\n", Style(bold=True))
        for i, line in enumerate(lines):
            out.append(("\n" if i else "") + line)
        return out

    def _head(self, view: Any) -> Text:
        out = Text()
        out.append("Doom ", Style(bold=False))
        out.append("▲" * view.doom_markers + "△" * (data.DOOM_MARKERS - view.doom_markers),
                   self.get_component_rich_style("eoa--doom", partial=True))
        out.append(f" · Turn {view.turn} · ")
        stage = PHASE.get(view.stage, view.stage)
        if view.stage in VOTING:
            stage = f"vote {view.vote + 1} of {view.vote_cards} ({view.vote_kind})"
        out.append(stage)
        if self.size.width >= 110:  # (narrower: the event heads the side panel)
            out.append(f" · {self._event_words(view)}", Style(bold=False))
        return out

    def _event_words(self, view: Any) -> str:
        text = f"Event: {data.EVENT_NAME[view.event]}" if view.event >= 0 else "no event yet"
        if view.top_event >= 0:
            text += f" · next event: {data.EVENT_NAME[view.top_event]}"
        return text

    def _draw_lanes(self) -> None:
        view = self._view
        names = self.link.names
        ships = []
        for sh in view.ships:
            cubes = [(CUBE_LETTERS[c], self.cube_style(c)) for c in range(data.COLOURS) for _ in range(sh.cubes[c])]
            ships.append(LaneShip(data.ship_label(sh.tile), data.SHIP_NAMES[sh.tile % data.ADVANCED],
                                  data.capacity(sh.tile), sh.at_sea, cubes, SHIP_NOTES[sh.tile]))
        wide = self.size.width >= WIDE
        promised = [(f"{CUBE_LETTERS[p]} {names[p]}" if wide else CUBE_LETTERS[p], self.cube_style(p),
                     view.promised_land[p]) for p in range(view.players) if view.promised_land[p]]
        if view.promised_land_neutrals:
            promised.append(("N neutral" if wide else "N", self.cube_style(data.NEUTRAL), view.promised_land_neutrals))
        lanes = self.query_one("#lanes", ShipLanes)
        notes = lanes.picture.notes if lanes.picture.ships else (self.size.width >= 110)
        lanes.show(LanesPicture(ships, promised, view.camp, (), notes, recent=tuple(self._recent["ships"])))

    def _draw_voting(self) -> None:
        view = self._view
        rows = []
        for p in range(view.players):
            cards = []
            for i, c in enumerate(view.voting_cards[p]):
                face_down = c < 0
                own_veiled = view.seat == p and view.my_face_down is not None and i in view.my_face_down \
                    and not (view.cards_revealed and view.face_up[p][i])
                short = None if face_down else words.card_short(c) + ("?" if own_veiled else "")
                full = "" if face_down else words.card_name(c) + ("?" if own_veiled else "")
                tokens = view.tokens_on_cards[p][i] if i < len(view.tokens_on_cards[p]) else 0
                played = view.played[p][i] if i < len(view.played[p]) else False
                cards.append(VoteCard(short, tokens, played, full, (p, i) in self._recent["cards"]))
            note = ""
            if view.stage in ("senate", "vote") and view.bids[p] != -1:
                note = "has bid"
            elif view.stage == "open" and view.bids[p] >= 0:
                note = f"bid {view.bids[p]}" if view.bids[p] else "passed"
            elif view.stage == "order" and len(view.voting_cards[p]) >= view.cards_to_lay[p]:
                note = "cards laid"
            if p in view.vote_winners and view.stage == "play":
                note = f"won {view.bids[p]}"
            rows.append(VoteRowLine(CUBE_LETTERS[p], self.cube_style(p), cards, note))
        self.query_one("#voting", VotingRow).show(rows, view.vote, view.vote_cards, "")

    def _draw_me(self) -> None:
        view = self._view
        me = self.query_one("#me", PlayerScreen)
        if view.seat is None or view.hand is None:
            me.show(None, watching="Watching: every hand, screen and secret choice is hidden.")
            return
        seat = view.seat
        pending = ""
        if view.stage in ("senate", "vote", "rebid") and view.bids[seat] >= 0:
            pending = f"your secret bid: {view.bids[seat]}"
        if view.peeked_bid:
            pending += f" · {self.link.names[view.peeked_bid.target]} bid {view.peeked_bid.tokens}"
        hand = ", ".join(words.grouped([words.card_name(c) for c in view.hand]))
        if len(hand) + 6 > me.size.width and self.size.width < WIDE:
            hand = ", ".join(words.grouped([words.card_short(c) for c in view.hand]))  # the legend explains them
        me.show((CUBE_LETTERS[seat], self.cube_style(seat)), view.screen[seat],
                [hand], [words.special_name(c) for c in view.my_specials], pending)

    def _waiting_text(self) -> str:
        view = self._view
        if view.stage == "over":
            return "The game is over."
        if self.link.read_only:
            return "Replay: Left/Right step, v changes whose view."
        waiting = self.link.waiting_for()
        text = f"Waiting for {waiting}." if waiting else "Nothing to choose now."
        room = (self.choices.size.width or self.size.width - 30) - 1
        if len(text) > room:  # (the list's one line is never cut: the side panel has it all)
            text = re.sub(r" \([^)]*\)", "", text)
        return text if len(text) <= room else "Waiting for the other players."

    def cube_style(self, colour: int) -> Style:
        return cube_style(colour, self.app.theme_variables)

    def _default_choice(self) -> int:
        return words.default_choice(self._view, self._legal)

    def _mark_target(self) -> None:
        if not self._legal:
            return
        a = self._legal[self.choices.cursor] if self.choices.cursor < len(self._legal) else None
        marked = ()
        if type(a) in (Target, PlaySpecial) and a.ship >= 0:
            marked = (a.ship,)
        lanes = self.query_one("#lanes", ShipLanes)
        pic = lanes.picture
        if tuple(pic.marked) == marked:
            return  # (the lanes drew this picture: nothing to redraw)
        lanes.show(LanesPicture(pic.ships, pic.promised, pic.camp, marked, pic.notes, recent=pic.recent))

    # --- words ----------------------------------------------------------------------------
    def choice_text(self, a: Any) -> str:
        return words.choice_text(self._view, a, self.link.names, self.link.game.describe_action)

    # --- side panel -------------------------------------------------------------------------
    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        names = self.link.names
        out = Text()
        if view.stage == "over":
            return game_over_line(names, view.game_winners, f"wins: {view.end_reason}.")
        if self.size.width < 110:
            out.append(self._event_words(view) + "\n", Style(bold=False, dim=True))
        if legal:
            out.append("Your choice ")
            out.append_text(seat_text(view.seat, names[view.seat]))
            out.append("\n")
            out.append(STAGE_WORDS.get(view.stage, view.stage), Style(bold=False))
            if view.stage == "order":
                out.append(f" ({len(view.voting_cards[view.seat]) + 1}/{view.cards_to_lay[view.seat]})",
                           Style(bold=False))
            if view.effect is not None:
                out.append(f"\nCarrying out {data.CARD_NAME[view.effect.card_kind]}", Style(bold=False))
            missing = words.unplayable_text(view, legal, names)
            if missing:
                out.append(f"\n{missing}", Style(bold=False))
            out.append("\nUp/Down, Enter chooses" + (", digits bid" if type(legal[0]) is Bid else ""),
                       Style(bold=False, dim=True))
            return out
        out.append(STAGE_WORDS.get(view.stage, view.stage))
        waiting = self.link.waiting_for()
        if waiting:
            out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
        return out

    def players_panel(self, view: Any) -> Text:
        names = self.link.names
        out = Text()
        wide = self.size.width >= WIDE
        cut = 12 if wide else 6
        if wide:
            out.append(f"  {'name':<{cut}} points tokens Senate cards\n", Style(dim=True))
        else:
            out.append(f"  {'name':<{cut}} pts tok Sen cards\n", Style(dim=True))
        for p in range(view.players):
            out.append_text(seat_text(p, names[p][:cut].ljust(cut)))
            if wide:
                out.append(f"{view.vp[p]:>7}{view.screen[p]:>7}{view.senate_pool[p]:>7}"
                           f"{view.hand_sizes[p]:>4}+{view.special_counts[p]}\n")
            else:
                out.append(f"{view.vp[p]:>4}{view.screen[p]:>4}{view.senate_pool[p]:>4}{view.hand_sizes[p]:>3}"
                           f"+{view.special_counts[p]}\n")
        if view.stage == "over" and view.all_specials:
            for p in range(view.players):
                out.append(f"{names[p]}: " + (", ".join(words.special_name(c) for c in view.all_specials[p])
                                             or "no special cards") + "\n", Style(dim=True))
        return out

    # --- choosing ------------------------------------------------------------------------------
    @on(ChoiceList.Highlighted)
    def _highlighted(self, event: ChoiceList.Highlighted) -> None:
        self._mark_target()

    @on(ChoiceList.Selected)
    def _selected(self, event: ChoiceList.Selected) -> None:
        self.choose(event.index)

    @on(ChoiceList.NothingToChoose)
    def _nothing(self, event: ChoiceList.NothingToChoose) -> None:
        self.say(self._not_now())

    @on(ShipLanes.ShipSelected)
    def _ship_selected(self, event: ShipLanes.ShipSelected) -> None:
        options = [i for i, a in enumerate(self._legal)
                   if type(a) in (Target, PlaySpecial) and a.ship == event.ship]
        if not options:
            name = data.ship_full_name(self._view.ships[event.ship].tile)
            self.say(f"No choice now involves ship {name}: "
                     + (STAGE_WORDS.get(self._view.stage, "") if self._legal else self._waiting_text()))
            return
        self.choices.cursor = options[0]
        self.choices.focus()

    def choose(self, index: int) -> None:
        if not self._legal:
            self.say(self._waiting_text())
            return
        if not 0 <= index < len(self._legal):
            return
        self._digits = ""
        self.send(self._legal[index])

    def _not_now(self) -> str:
        """Why no choice is open to this seat now."""
        if self._view is not None and self._view.stage == "over":
            return "The game is over."
        if self.link.read_only:
            return self._waiting_text()
        return f"It is not your turn: {self._waiting_text()[0].lower()}{self._waiting_text()[1:]}"

    def action_pass_turn(self) -> None:
        for i, a in enumerate(self._legal):
            if type(a) is Pass or (type(a) is Bid and a.tokens == 0 and self._view.stage == "open"):
                self.choose(i)
                return
        if not self._legal:
            self.say(f"You cannot pass now. {self._not_now()}")
            return
        why = NO_PASS.get(self._view.stage, STAGE_WORDS.get(self._view.stage, "choose one of the list"))
        self.say(f"You cannot pass now: {why}.")

    def action_digit(self, d: int) -> None:
        bids = {a.tokens: i for i, a in enumerate(self._legal) if type(a) is Bid}
        if not bids:
            if not self._legal:
                self.say(f"Digits type a bid, and you have none to make. {self._not_now()}")
            else:
                self.say(f"Digits type a bid, and this is no bid: {STAGE_WORDS.get(self._view.stage, '')}.")
            return
        self._digits = (self._digits + str(d))[-2:]
        value = int(self._digits)
        if value not in bids:
            value = d
            self._digits = str(d)
        if value in bids:
            self.choices.cursor = bids[value]
            self.say(f"Bid {value}: Enter to confirm.")
        elif value > self._view.screen[self._view.seat]:
            self.say(f"You cannot bid {value}: you have {counted(self._view.screen[self._view.seat], 'token')} behind your screen.")
        else:
            self.say(f"You cannot bid {value}: another player has named it in this open vote.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer shows a key only when it does something now (else its why-not runs)."""
        if action == "pass_turn":
            return any(type(a) is Pass or (type(a) is Bid and a.tokens == 0 and self._view.stage == "open")
                       for a in self._legal)
        if action == "digit":
            return any(type(a) is Bid for a in self._legal)
        if action == "undo":
            return self.link.seat is not None and not self.link.read_only
        return super().check_action(action, parameters)

    def action_why_not(self, key: str) -> None:
        """A key none of whose commands is allowed now: say why."""
        if key.isdigit():
            self.action_digit(int(key))
        elif key == "p":
            self.action_pass_turn()
        elif key == "u":
            self.say("You are watching: you have no move to take back." if not self.link.read_only
                     else "This is a replay: nothing to take back.")
        elif key == "enter":
            if self._legal and self._legend_shown() and not self._tall():
                self.say("Enter chooses in the list: l hides the legend.")
            elif self._legal:  # (the focus is on the log: Enter still chooses)
                self.choices.focus()
                self.choose(self.choices.cursor)
            else:
                self.say(self._not_now())
        else:
            self.say("That key does nothing now.")

    def action_clear_digits(self) -> None:
        self._digits = ""
        self.say("")
