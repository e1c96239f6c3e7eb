"""The End of Atlantis screen: ship lanes, the victory track, the Faction row and
Senate pool, the voting row, the player's screen, and the list of what the seat
at the keyboard may do now.

The screen reads only ``link.view()`` and ``link.legal()``.  Every decision is a
small action from ``legal()``, written as a sentence in the choice list: Up/Down
and Enter choose, digits jump to a bid, ``p`` passes.  The target of the choice
under the cursor (a ship) is marked in the ship lanes.  A pending bid or card
order appears only on its owner's screen, because only its owner's view holds it.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.widgets import Static

from engine.end_of_atlantis import data as D
from engine.end_of_atlantis.rules import (
    DECK_SLOT, PAID, Bid, Demagogos, Discard, Done, Faction, LayCard, Pass, Play, PlaySpecial,
    TakeSpecial, Target, UseAbility, faction_cost,
)

from ..commands import Command, bindings
from ..screens.common import game_over_line
from ..screens.game import GameScreen
from ..seats import NEUTRAL, NEUTRAL_LETTER, SEAT_LETTERS, neutral_style, seat_style, seat_text
from ..widgets.choice_list import ChoiceList
from ..widgets.player_screen import PlayerScreen
from ..widgets.senate_row import FactionSpace, SenateRow
from ..widgets.ship_lanes import LaneShip, LanesPicture, ShipLanes
from ..widgets.victory_track import Marker, VictoryTrack
from ..widgets.voting_row import VoteCard, VoteRowLine, VotingRow

CUBE_LETTERS = SEAT_LETTERS[:NEUTRAL] + NEUTRAL_LETTER  # cube colours 0-4 are the seats', 5 neutral
SHIP_NOTES = ("", "", "", "", "", "A+ one neutral always aboard", "B+ mover +2",
              "C+ mover: special", "D+ port→land, no Royal", "E+ immune to red")
PHASE = {"senate": "Senate", "faction": "Factions", "ability": "Factions", "archont": "Factions",
         "order": "Voting", "together": "Doom", "over": "game over"}
STAGE_WORDS = {
    "senate": "Senate: choose your secret bid",
    "faction": "Factions",
    "ability": "End of Factions: abilities",
    "archont": "Archont: discard",
    "order": "Voting: lay your cards face down, in order",
    "vote": "Hidden vote: choose your secret bid",
    "peek": "Demagogos: look at one bid?",
    "rebid": "Demagogos: change your bid?",
    "call": "Demagogos: who bids first?",
    "open": "Open vote: name a bid nobody has named (0 passes)",
    "play": "Winners play their cards",
    "together": "We're All In This Together: place refugees",
    "over": "Game over",
}


def cube_style(colour: int) -> Style:
    return seat_style(colour) if colour < NEUTRAL else neutral_style()


def card_short(card: int) -> str:
    return D.CARD_SHORT[D.CARD_KIND[card]]


def special_name(card: int) -> str:
    return D.SPECIAL_NAME[D.SPECIAL_KEY[card]]


def ship_words(view: Any, i: int) -> str:
    sh = view.ships[i]
    where = "at sea" if sh.at_sea else "in port"
    return f"{D.ship_label(sh.tile)} {D.SHIP_NAMES[sh.tile % D.ADVANCED]} ({where})"


class EndOfAtlantisScreen(GameScreen, inherit_bindings=False):
    """End of Atlantis."""

    AUTO_FOCUS = "ChoiceList"

    DEFAULT_CSS = """
    EndOfAtlantisScreen #side { width: 30; }
    EndOfAtlantisScreen #eoa-head { height: 1; text-style: bold; }
    EndOfAtlantisScreen ChoiceList { height: 1fr; min-height: 3; }
    """

    COMMAND_TABLE = (
        Command("eoa-pass", "p", "Pass", "pass_turn", "Pass (or bid nothing in an open vote)."),
        *[Command(f"eoa-digit-{d}", str(d), "Bid", f"digit({d})",
                  "Type a bid (two digits for 10 and more), then Enter." if d == 0 else "",
                  show=d == 0, key_display="0-9") for d in range(10)],
        Command("eoa-clear", "escape", "Clear", "clear_digits", "Clear the digits typed so far.", show=False),
        *GameScreen.COMMAND_TABLE,
    )
    BINDINGS = bindings(COMMAND_TABLE)

    def __init__(self, link: Any, **kwargs: Any):
        super().__init__(link, **kwargs)
        self._view: Any = None
        self._legal: list[Any] = []
        self._digits = ""
        self._last_key: tuple = ()

    # --- layout -------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Static(id="eoa-head")
        yield ShipLanes(id="lanes")
        yield VictoryTrack(id="track")
        yield SenateRow(id="senate")
        yield VotingRow(id="voting")
        yield PlayerScreen(id="me")
        yield ChoiceList(id="choices")

    @property
    def choices(self) -> ChoiceList:
        return self.query_one("#choices", ChoiceList)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#side").styles.width = 30 if event.size.width < 110 else 40
        lanes = self.query_one("#lanes", ShipLanes)
        lanes.picture.notes = event.size.width >= 110
        lanes.compact = event.size.height < 26
        self.query_one("#track", VictoryTrack).legend = event.size.height >= 28 or event.size.width >= 100

    def set_link(self, link: Any) -> None:
        self._digits = ""
        self._last_key = ()
        super().set_link(link)

    # --- drawing -------------------------------------------------------------------------
    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        self._view, self._legal = view, list(legal)
        names = self.link.names
        self.query_one("#eoa-head", Static).update(self._head(view))
        self._draw_lanes()
        self.query_one("#track", VictoryTrack).show(
            [Marker(CUBE_LETTERS[p], cube_style(p), view.vp[p]) for p in range(view.players)])
        order = sorted(range(view.players), key=lambda p: (-view.senate_pool[p], view.markers[p], p))
        spaces = []
        for f in range(7):
            h = view.faction_holders[f]
            markers = [(CUBE_LETTERS[p], cube_style(p)) for p in range(view.players)
                       if view.markers[p] == f]
            spaces.append(FactionSpace(D.FACTIONS[f][:4], (CUBE_LETTERS[h], cube_style(h)) if h >= 0 else None,
                                       view.plus_one[f], markers))
        note = "" if not view.family else "(family: no Senate; ties by markers)"
        self.query_one("#senate", SenateRow).show(
            spaces, [(CUBE_LETTERS[p], cube_style(p), view.senate_pool[p]) for p in order], note)
        self._draw_voting()
        self._draw_me()
        key = (view.stage, view.turn, view.vote, len(legal), view.effect)
        items = [self.choice_text(a) for a in legal]
        empty = self._waiting_text()
        keep = None if key == self._last_key else self._default_choice()
        if key != self._last_key and legal:
            self.say("")
        self._last_key = key
        self.choices.show(items, keep, empty)
        self._mark_target()

    def _head(self, view: Any) -> Text:
        out = Text()
        out.append("▲" * view.doom_markers + "△" * (D.DOOM_MARKERS - view.doom_markers),
                   Style(color="#ff7b7b"))
        out.append(f" Turn {view.turn} · ")
        stage = PHASE.get(view.stage, view.stage)
        if view.stage in ("vote", "open", "play", "peek", "rebid", "call"):
            stage = f"vote {view.vote + 1}/{view.vote_cards} {view.vote_kind}"
        out.append(stage)
        ev = D.EVENT_NAME[view.event] if view.event >= 0 else "no event yet"
        out.append(f" · {ev}", Style(bold=False))
        if view.top_event >= 0:
            out.append(f" · next: {D.EVENT_NAME[view.top_event]}", Style(dim=True))
        return out

    def _draw_lanes(self) -> None:
        view = self._view
        ships = []
        for sh in view.ships:
            cubes = [(CUBE_LETTERS[c], cube_style(c)) for c in range(D.COLOURS) for _ in range(sh.cubes[c])]
            ships.append(LaneShip(D.ship_label(sh.tile), D.SHIP_NAMES[sh.tile % D.ADVANCED],
                                  D.capacity(sh.tile), sh.at_sea, cubes, SHIP_NOTES[sh.tile]))
        promised = [(CUBE_LETTERS[p], cube_style(p), view.promised_land[p]) for p in range(view.players)
                    if view.promised_land[p]]
        if view.promised_land_neutrals:
            promised.append(("N", cube_style(D.NEUTRAL), view.promised_land_neutrals))
        lanes = self.query_one("#lanes", ShipLanes)
        notes = lanes.picture.notes if lanes.picture.ships else (self.size.width >= 110)
        lanes.show(LanesPicture(ships, promised, view.camp, (), notes))

    def _draw_voting(self) -> None:
        view = self._view
        rows = []
        for p in range(view.players):
            cards = []
            for i, c in enumerate(view.voting_cards[p]):
                face_down = c < 0
                own_veiled = view.seat == p and view.my_face_down is not None and i in view.my_face_down \
                    and not (view.cards_revealed and view.face_up[p][i])
                short = None if face_down else card_short(c) + ("?" if own_veiled else "")
                tokens = view.tokens_on_cards[p][i] if i < len(view.tokens_on_cards[p]) else 0
                played = view.played[p][i] if i < len(view.played[p]) else False
                cards.append(VoteCard(short, tokens, played))
            note = ""
            if view.stage in ("senate", "vote") and view.bids[p] != -1:
                note = "chose ✓"
            elif view.stage == "open" and view.bids[p] >= 0:
                note = f"bid {view.bids[p]}" if view.bids[p] else "passed"
            elif view.stage == "order" and len(view.voting_cards[p]) >= view.cards_to_lay[p]:
                note = "ready ✓"
            if p in view.vote_winners and view.stage == "play":
                note = f"won ({view.bids[p]})"
            rows.append(VoteRowLine(CUBE_LETTERS[p], cube_style(p), cards, note))
        title = ""
        if view.last_bids and view.stage not in ("senate",):
            title = "last bids " + " ".join(f"{CUBE_LETTERS[p]}{b}" for p, b in enumerate(view.last_bids))
        self.query_one("#voting", VotingRow).show(rows, view.vote, view.vote_cards, title)

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
        me.show((CUBE_LETTERS[seat], cube_style(seat)), view.screen[seat],
                [card_short(c) for c in view.hand], [special_name(c) for c in view.my_specials], pending)

    def _waiting_text(self) -> str:
        view = self._view
        if view.stage == "over":
            return "The game is over."
        if self.link.read_only:
            return "Replay: Left/Right step, v changes whose view."
        waiting = self.link.waiting_for()
        return f"Waiting for {waiting}." if waiting else "Nothing to choose now."

    def _default_choice(self) -> int:
        """Where the cursor starts: the first real choice (not Pass)."""
        for i, a in enumerate(self._legal):
            if type(a) is not Pass:
                return i
        return 0

    def _mark_target(self) -> None:
        if not self._legal:
            return
        a = self._legal[self.choices.cursor] if self.choices.cursor < len(self._legal) else None
        marked = ()
        if type(a) is Target and a.ship >= 0 and self._view.stage != "play" or (
                type(a) is Target and self._view.effect is not None and a.ship >= 0
                and self._view.effect.steps[0] != "remove"):
            marked = (a.ship,)
        elif type(a) is Target and self._view.effect is not None and self._view.effect.steps[0] == "remove":
            marked = (a.ship,)
        elif type(a) is PlaySpecial and a.ship >= 0:
            marked = (a.ship,)
        lanes = self.query_one("#lanes", ShipLanes)
        pic = lanes.picture
        lanes.show(LanesPicture(pic.ships, pic.promised, pic.camp, marked, pic.notes))

    # --- words ----------------------------------------------------------------------------
    def choice_text(self, a: Any) -> str:
        view = self._view
        names = self.link.names
        st = view.stage
        kind = type(a)
        if kind is Bid:
            if st == "open" and a.tokens == 0:
                return "Pass (bid 0)"
            keep = st == "rebid" and a.tokens == view.bids[view.seat]
            return f"Bid {a.tokens}" + (" (keep it)" if keep else "")
        if kind is Faction:
            paid = view.faction_queue[view.faction_pos].kind == PAID
            cost = faction_cost(view, view.seat) if paid else 0
            plus = " +1 point" if view.plus_one[a.faction] else ""
            return f"{D.FACTIONS[a.faction]} ({'free' if not cost else f'{cost} tokens'}{plus})"
        if kind is Pass:
            return {
                "faction": "Pass (take a Faction free at the end)", "play": "Play no card",
                "ability": "Do not use the ability", "peek": "Do not look at a bid",
                "call": "Nobody bids out of turn", "together": "Stop placing refugees",
            }.get(st, "Pass")
        if kind is PlaySpecial:
            text = f"Play special: {special_name(a.card)}"
            return text + (f" → {ship_words(view, a.ship)}" if a.ship >= 0 else "")
        if kind is UseAbility:
            f = view.ability_queue[0].faction
            return f"Use {D.FACTIONS[f]}: {D.FACTION_ABILITY[f]}"
        if kind is Discard:
            return f"Discard {D.CARD_NAME[D.CARD_KIND[a.card]]}"
        if kind is TakeSpecial:
            if a.slot == DECK_SLOT:
                return "Draw a special card from the deck"
            return f"Take face-up special: {special_name(view.face_up_specials[a.slot])}"
        if kind is LayCard:
            return f"Lay {D.CARD_NAME[D.CARD_KIND[a.card]]}" + (" face down (Oraklos)" if a.face_down else "")
        if kind is Demagogos:
            return (f"Look at {names[a.player]}'s bid" if st == "peek"
                    else f"Make {names[a.player]} bid first")
        if kind is Play:
            card = view.voting_cards[a.source][view.vote]
            whose = "your" if a.source == view.seat else f"{names[a.source]}'s"
            extra = f" with {special_name(a.special)}" if a.special >= 0 else ""
            return f"Play {whose} {D.CARD_NAME[D.CARD_KIND[card]]}{extra}"
        if kind is Done:
            return "Stop discarding refugees"
        if kind is Target:
            return self._target_text(a)
        return self.link.game.describe_action(a)

    def _target_text(self, a: Target) -> str:
        view = self._view
        names = self.link.names
        if view.stage == "together":
            return f"One refugee on {ship_words(view, a.ship)}"
        if view.stage == "ability":
            return f"Basileus: a refugee on {ship_words(view, a.ship)}"
        step = view.effect.steps[0] if view.effect is not None else ""
        colour = (lambda c: "neutral" if c == D.NEUTRAL else names[c])
        if step in ("place1", "place1x"):
            return f"1 refugee on {ship_words(view, a.ship)}"
        if step == "place2":
            return f"2 refugees on {ship_words(view, a.ship)}"
        if step == "aristo":
            base = f"1 refugee on {ship_words(view, a.ship)}"
            return base + (f", pushing off a {colour(a.colour)} cube" if a.colour >= 0 else "")
        if step == "bump":
            return f"Discard a {colour(a.colour)} cube from {ship_words(view, a.ship)}"
        if step in ("move", "royal"):
            sh = view.ships[a.ship]
            to = "Promised Land" if sh.at_sea or sh.tile == D.AIRSHIP + D.ADVANCED else "ocean"
            return f"Move {ship_words(view, a.ship)} → {to}"
        if step == "sabotage":
            return f"Sabotage {ship_words(view, a.ship)}"
        if step == "betray":
            if a.ship >= 0:
                return f"Betray the refugees on {ship_words(view, a.ship)}"
            return f"Remove up to 4 of {names[a.colour]}'s tokens from the Senate"
        if step == "remove":
            return f"Discard a {colour(a.colour)} cube"
        return f"Target {a.ship}"

    # --- side panel -------------------------------------------------------------------------
    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        names = self.link.names
        out = Text()
        if view.stage == "over":
            return game_over_line(names, view.game_winners, f"wins: {view.end_reason}.")
        if legal:
            out.append("Your choice ")
            out.append_text(seat_text(view.seat, names[view.seat]))
            out.append("\n")
            out.append(STAGE_WORDS.get(view.stage, view.stage), Style(bold=False))
            if view.stage == "order":
                out.append(f" ({len(view.voting_cards[view.seat]) + 1}/{view.cards_to_lay[view.seat]})",
                           Style(bold=False))
            if view.effect is not None:
                out.append(f"\nCarrying out {D.CARD_NAME[view.effect.card_kind]}", Style(bold=False))
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
        if view.seat is not None:
            out.append("You are ")
            out.append_text(seat_text(view.seat, names[view.seat]))
            out.append(".\n")
        out.append("  name     VP scr sen cards\n", Style(dim=True))
        for p in range(view.players):
            out.append_text(seat_text(p, names[p][:6].ljust(6)))
            out.append(f"{view.vp[p]:>4}{view.screen[p]:>4}{view.senate_pool[p]:>4}{view.hand_sizes[p]:>3}"
                       f"+{view.special_counts[p]}\n")
        if view.stage == "over" and view.all_specials:
            for p in range(view.players):
                out.append(f"{CUBE_LETTERS[p]}: " + (", ".join(special_name(c) for c in view.all_specials[p])
                                                or "no specials") + "\n", Style(dim=True))
        return out

    # --- choosing ------------------------------------------------------------------------------
    @on(ChoiceList.Highlighted)
    def _highlighted(self, event: ChoiceList.Highlighted) -> None:
        self._mark_target()

    @on(ChoiceList.Selected)
    def _selected(self, event: ChoiceList.Selected) -> None:
        self.choose(event.index)

    @on(ShipLanes.ShipSelected)
    def _ship_selected(self, event: ShipLanes.ShipSelected) -> None:
        options = [i for i, a in enumerate(self._legal)
                   if type(a) in (Target, PlaySpecial) and a.ship == event.ship]
        if not options:
            self.say("No choice now involves that ship.")
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
        if self.send(self._legal[index]):
            self.refresh_view()

    def action_pass_turn(self) -> None:
        for i, a in enumerate(self._legal):
            if type(a) is Pass or (type(a) is Bid and a.tokens == 0 and self._view.stage == "open"):
                self.choose(i)
                return
        self.say("You cannot pass now." if self._legal else self._waiting_text())

    def action_digit(self, d: int) -> None:
        bids = {a.tokens: i for i, a in enumerate(self._legal) if type(a) is Bid}
        if not bids:
            self.say("Digits type a bid when you are bidding.")
            return
        self._digits = (self._digits + str(d))[-2:]
        value = int(self._digits)
        if value not in bids:
            value = d
            self._digits = str(d)
        if value in bids:
            self.choices.cursor = bids[value]
            self.say(f"Bid {value}: Enter to confirm.")
        else:
            self.say(f"You cannot bid {value} now.")

    def action_clear_digits(self) -> None:
        self._digits = ""
        self.say("")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pass_turn":
            return any(type(a) is Pass for a in self._legal) or (
                self._view is not None and self._view.stage == "open" and bool(self._legal))
        if action == "digit":
            return any(type(a) is Bid for a in self._legal)
        return super().check_action(action, parameters)
