"""End of Atlantis -- the rules.

A turn has four phases: Senate (secret simultaneous bids into the Senate pool),
Factions (in Senate order take a Faction token or pass; passers take one free),
Voting (everyone lays 5 of 7 cards face down in order, all revealed at once, then
five votes, hidden or open; the top bidders play cards) and Doom (majorities, an
event, three ships sail, tokens come home).  The third Doom! card ends the game.

Simultaneous secret choices: ``to_act`` holds every seat that still has to choose;
a pending bid or card order lives in the state and in its owner's view only.  The
action that completes a secret choice reveals it *through the views*: the events
it emits carry no secret (``revealed``), so no seat's events depend on what it
could not know before (tests/leakcheck.py).  For the same reason every card a
seat draws is drawn by that seat's own action (the hand is refilled to 7 as soon
as its voting cards are down), and decks are kept as sorted multisets drawn from
at random when a card is taken: the order of a face-down pile does not exist
until it is drawn.

Rules decisions where the texts are silent are listed in ``text.HELP``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..core import ActionCodec, Event, Game, IllegalAction, Result, View
from ..rng import Rng
from . import data as D


# --- actions ------------------------------------------------------------------------
class Bid(NamedTuple):
    n: int


class Faction(NamedTuple):
    faction: int


class Pass(NamedTuple):
    pass


class Special(NamedTuple):
    card: int
    arg: int = -1


class Use(NamedTuple):
    pass


class Discard(NamedTuple):
    card: int


class TakeSpecial(NamedTuple):
    slot: int  # 0-2 a face-up card (tactical play), 3 the top of the deck


class Order(NamedTuple):
    card: int
    veiled: bool = False


class Demagogos(NamedTuple):
    target: int


class Play(NamedTuple):
    source: int       # whose card (seat)
    special: int = -1  # a special card riding on it, or -1


class Target(NamedTuple):
    a: int
    b: int = -1


class Done(NamedTuple):
    pass


ACTIONS = {
    "bid": Bid, "faction": Faction, "pass": Pass, "special": Special, "use": Use,
    "discard": Discard, "take_special": TakeSpecial, "order": Order, "demagogos": Demagogos,
    "play": Play, "target": Target, "done": Done,
}
DECK_SLOT = 3


class EndOfAtlantisOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    family: bool = Field(False, description="family variant: no Senate phase, ties by Faction markers")
    chosen_ships: str = Field("", description="chosen ships, e.g. A+,B,C,D+,E (no upgrades); empty: usual ships")
    revealed_events: bool = Field(False, description="tactical: the top Event card is face up")
    revealed_specials: bool = Field(False, description="tactical: 3 special cards face up to choose from")
    aggressive_neutrals: bool = Field(False, description="neutral refugees push the last player's cube off full ships")

    @field_validator("chosen_ships")
    @classmethod
    def _ships(cls, value: str) -> str:
        parse_ships(value)
        return value.replace(" ", "").upper()


def parse_ships(spec: str) -> tuple[int, ...]:
    """'A+,B,C,D+,E' -> tile indexes; each of the 10 tiles at most once, 1-5 ships."""
    spec = spec.replace(" ", "").upper()
    if not spec:
        return ()
    out = []
    for item in spec.split(","):
        if not item or item[0] not in D.SHIP_LETTERS or item[1:] not in ("", "+"):
            raise ValueError(f"ship {item!r} should be a letter A-E, with + for the advanced tile")
        tile = D.SHIP_LETTERS.index(item[0]) + (D.ADVANCED if item[1:] == "+" else 0)
        if tile in out:
            raise ValueError(f"ship {item} is listed twice")
        out.append(tile)
    if not 1 <= len(out) <= 5:
        raise ValueError("choose 1 to 5 ships")
    return tuple(out)


# --- state ------------------------------------------------------------------------------
class Ship(NamedTuple):
    tile: int
    at_sea: bool
    cubes: tuple[int, ...]  # per colour (players 0-4, neutral 5)


class Effect(NamedTuple):
    seat: int
    source: int
    kind: str
    special: str
    steps: tuple[str, ...]
    moved: tuple[int, ...]
    ship: int
    removed: int


@dataclass(slots=True)
class EoaState:
    n: int
    family: bool
    aggressive: bool
    rev_events: bool
    rev_specials: bool
    chosen: bool
    turn: int
    stage: str
    vp: tuple
    screen: tuple
    pool: tuple
    building: tuple
    pl: tuple
    pl_neutral: int
    camp: int
    ships: tuple
    hands: tuple
    deck: tuple
    discard: tuple
    specials: tuple
    sdeck: tuple
    sdiscard: tuple
    sface: tuple
    holder: tuple
    plus1: tuple
    marker: tuple
    forder: tuple
    fqueue: tuple
    fpos: int
    fpassed: tuple
    free_faction: int
    aqueue: tuple
    archont_left: int
    ncards: int
    need: tuple
    rows: tuple
    veiled: tuple
    revealed: bool
    shown: tuple
    card_tokens: tuple
    played: tuple
    vote: int
    vtype: str
    bids: tuple
    peek: tuple
    dem_used: bool
    oqueue: tuple
    winners: tuple
    pqueue: tuple
    pplayed: tuple
    effect: Any
    last_bids: tuple
    last_winners: tuple
    last_refund: tuple
    event: int
    ev_pool: tuple
    ev_other_left: int
    ev_doom_left: int
    ev_top: int
    doom_markers: int
    tqueue: tuple
    tcount: tuple
    final: tuple
    end_reason: str
    rng: Rng

    def clone(self) -> "EoaState":
        return _copy(self)


_FIELDS = tuple(f.name for f in dataclasses.fields(EoaState))
_src = "def _copy(s):\n    return EoaState(" + ", ".join(f"s.{n}" for n in _FIELDS) + ")\n"
_ns: dict[str, Any] = {"EoaState": EoaState}
exec(_src, _ns)  # noqa: S102 - a fast shallow copy from the dataclass's own field names
_copy = _ns["_copy"]


@dataclass(frozen=True, slots=True)
class EoaView(View):
    seat: int | None
    n: int
    family: bool
    aggressive: bool
    rev_events: bool
    rev_specials: bool
    chosen: bool
    turn: int
    stage: str
    vp: tuple
    screen: tuple
    pool: tuple
    building: tuple
    pl: tuple
    pl_neutral: int
    camp: int
    ships: tuple
    hand: tuple | None
    hand_sizes: tuple
    deck_count: int
    discard: tuple
    specials: tuple | None
    special_counts: tuple
    all_specials: tuple  # everyone's special cards, once the game is over
    sdeck_count: int
    sdiscard: tuple
    sface: tuple
    holder: tuple
    plus1: tuple
    marker: tuple
    forder: tuple
    fqueue: tuple
    fpos: int
    fpassed: tuple
    free_faction: int
    aqueue: tuple
    archont_left: int
    ncards: int
    need: tuple
    rows: tuple          # own row in full; others -1 for a face-down card
    veiled: tuple | None  # own veiled slots
    revealed: bool
    shown: tuple
    card_tokens: tuple
    played: tuple
    vote: int
    vtype: str
    bids: tuple          # hidden stages: own bid, -2 "has chosen", -1 "still choosing"
    peeked: tuple        # (target, bid) for the Demagogos who looked, else ()
    dem_used: bool
    oqueue: tuple
    winners: tuple
    pqueue: tuple
    pplayed: tuple
    effect: Any
    last_bids: tuple
    last_winners: tuple
    last_refund: tuple
    event: int
    ev_pool: tuple
    events_left: int
    ev_top: int
    doom_markers: int
    tqueue: tuple
    tcount: tuple
    final: tuple
    end_reason: str


def _view_maker() -> Any:
    """A constructor for the frozen view that sets each slot straight through its
    descriptor: the dataclass ``__init__`` of a frozen class goes through
    ``object.__setattr__`` field by field, which made it the costliest step of a move."""
    names = [f.name for f in dataclasses.fields(EoaView)]
    space: dict[str, Any] = {"new": object.__new__, "View": EoaView}
    lines = [f"def make({', '.join(names)}):", "    o = new(View)"]
    for i, name in enumerate(names):
        space[f"s{i}"] = EoaView.__dict__[name].__set__
        lines.append(f"    s{i}(o, {name})")
    lines.append("    return o")
    exec("\n".join(lines), space)  # noqa: S102 - generated from the dataclass's own fields
    return space["make"]


_make_view = _view_maker()

SECRET_STAGES = ("senate", "vote", "peek", "rebid")
_HIDDEN_ROWS = tuple((-1,) * k for k in range(D.HAND + 1))


# --- small helpers -------------------------------------------------------------------------
def _set(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def _add(t: tuple, i: int, v: int) -> tuple:
    return t[:i] + (t[i] + v,) + t[i + 1:]


def _without(t: tuple, x: Any) -> tuple:
    i = t.index(x)
    return t[:i] + t[i + 1:]


def free(ship: Ship) -> int:
    return D.capacity(ship.tile) - sum(ship.cubes)


def aboard(ship: Ship) -> int:
    return sum(ship.cubes)


def senate_order(s: Any) -> list[int]:
    """Most tokens in the Senate pool first; ties to the marker nearer the left."""
    pool, marker = s.pool, s.marker
    return sorted(range(s.n), key=lambda p: (-pool[p], marker[p], p))


def faction_order(s: Any) -> list[int]:
    """Family rules: ties and awards go by the markers on the Faction spaces."""
    return sorted(range(s.n), key=lambda p: (s.marker[p], p))


def winners_needed(s: Any) -> int:
    base = 1 if s.n == 2 else 3 if s.n == 5 else 2
    if s.event >= 0 and D.EVENT_KEY[s.event] == "doomed" and s.n != 2:
        base -= 1
    return base


def immune(s: Any, colour: int) -> bool:
    """Two players: the Demagogos is immune to red cards."""
    return s.n == 2 and colour < D.NEUTRAL and s.holder[D.DEMAGOGOS] == colour


def left_card_source(s: Any, seat: int) -> int | None:
    """The player to the left whose card a first place (or the Philosophios) may play:
    the next seat to the left that did not win this vote."""
    for i in range(1, s.n):
        t = (seat + i) % s.n
        if t not in s.winners:
            return t
    return None


def holds(s: Any, seat: int, faction: int) -> bool:
    return s.holder[faction] == seat


# --- the game -----------------------------------------------------------------------------
class EndOfAtlantisGame(Game):
    slug = "end-of-atlantis"
    title = "End of Atlantis"
    rules_version = "end-of-atlantis-2"
    min_players = D.MIN_PLAYERS
    max_players = D.MAX_PLAYERS
    seat_names = ("Red", "Blue", "Green", "Yellow", "Purple")
    options_model = EndOfAtlantisOptions
    codec = ActionCodec(ACTIONS)

    # --- setup ----------------------------------------------------------------------------
    def setup(self, options: Any, seats: int, seed: int) -> EoaState:
        o = self.parse_options(options)
        if not D.MIN_PLAYERS <= seats <= D.MAX_PLAYERS:
            raise ValueError(f"End of Atlantis takes 2-5 players, not {seats}")
        rng = Rng.from_seed(seed, "end-of-atlantis")
        chosen = parse_ships(o.chosen_ships)
        if chosen:
            tiles = chosen
        elif seats == 2:
            tiles = (D.SCIENCE, D.ROYAL_VESSEL, D.AIRSHIP, D.WARSHIP)
        else:
            tiles = tuple(range(5))
        camp = D.NEUTRAL_TOKENS
        ships = []
        for t in tiles:
            ships.append(Ship(t, False, (0,) * D.COLOURS))
        largest = max(range(len(ships)), key=lambda i: (D.capacity(ships[i].tile), -i))
        cubes = list(ships[largest].cubes)
        cubes[D.NEUTRAL] = min(D.START_NEUTRALS, D.capacity(ships[largest].tile))
        camp -= cubes[D.NEUTRAL]
        ships[largest] = ships[largest]._replace(cubes=tuple(cubes))
        for i, sh in enumerate(ships):
            if sh.tile == D.ARK + D.ADVANCED and sh.cubes[D.NEUTRAL] == 0 and camp:
                ships[i] = sh._replace(cubes=_add(sh.cubes, D.NEUTRAL, 1))
                camp -= 1
        deck = list(range(len(D.CARD_KIND)))
        sdeck = list(range(len(D.SPECIAL_KEY)))
        hands, specials = [], []
        for _ in range(seats):
            hand = []
            for _ in range(D.HAND):
                i, rng = rng.below(len(deck))
                hand.append(deck.pop(i))
            hands.append(tuple(sorted(hand)))
            sp = []
            for _ in range(D.START_SPECIALS):
                i, rng = rng.below(len(sdeck))
                sp.append(sdeck.pop(i))
            specials.append(tuple(sorted(sp)))
        sface: tuple = ()
        if o.revealed_specials:
            face = []
            for _ in range(D.FACE_UP_SPECIALS):
                i, rng = rng.below(len(sdeck))
                face.append(sdeck.pop(i))
            sface = tuple(face)
        spots, rng = rng.shuffled(range(len(D.FACTIONS)))
        marker = tuple(sorted(spots[:seats]))  # markers start on random spaces, kept in seat order
        order, rng = rng.shuffled(range(seats))
        marker = tuple(marker[order[p]] for p in range(seats))
        s = EoaState(
            n=seats, family=o.family, aggressive=o.aggressive_neutrals, rev_events=o.revealed_events,
            rev_specials=o.revealed_specials, chosen=bool(chosen), turn=0, stage="start",
            vp=(D.START_VP,) * seats, screen=(D.CUBES,) * seats, pool=(0,) * seats,
            building=(0,) * seats, pl=(0,) * seats, pl_neutral=0, camp=camp, ships=tuple(ships),
            hands=tuple(hands), deck=tuple(sorted(deck)), discard=(), specials=tuple(specials),
            sdeck=tuple(sorted(sdeck)), sdiscard=(), sface=sface, holder=(-1,) * 7,
            plus1=(False,) * 7, marker=marker, forder=(), fqueue=(), fpos=0, fpassed=(),
            free_faction=-1, aqueue=(), archont_left=0, ncards=D.VOTE_CARDS, need=(0,) * seats,
            rows=((),) * seats, veiled=((),) * seats, revealed=False, shown=((),) * seats,
            card_tokens=((),) * seats, played=((),) * seats, vote=-1, vtype=D.FIRST_TURN_VOTE,
            bids=(-1,) * seats, peek=(), dem_used=False, oqueue=(), winners=(), pqueue=(),
            pplayed=(), effect=None, last_bids=(), last_winners=(), last_refund=(), event=-1,
            ev_pool=D.OTHER_EVENTS, ev_other_left=len(D.OTHER_EVENTS) - D.EVENTS_REMOVED,
            ev_doom_left=len(D.DOOM_EVENTS), ev_top=-1, doom_markers=D.DOOM_MARKERS, tqueue=(),
            tcount=(0,) * seats, final=(), end_reason="", rng=rng,
        )
        if s.rev_events:
            s.ev_top = _lazy_event(s)
        _start_turn(s, [])
        return s

    # --- view -----------------------------------------------------------------------------
    def view(self, s: EoaState, seat: int | None) -> EoaView:
        n = s.n
        rows = []
        revealed = s.revealed
        for p in range(n):
            row = s.rows[p]
            if p == seat:
                rows.append(row)
            elif not revealed:
                rows.append(_HIDDEN_ROWS[len(row)])
            else:
                shown = s.shown[p]
                rows.append(row if False not in shown else
                            tuple(c if shown[i] else -1 for i, c in enumerate(row)))
        if s.stage in SECRET_STAGES:
            bids = tuple(s.bids[p] if p == seat else (-2 if s.bids[p] >= 0 else -1) for p in range(n))
        else:
            bids = s.bids
        peeked = ()
        if s.peek and seat is not None and s.peek[0] == seat and s.stage in SECRET_STAGES:
            peeked = (s.peek[1], s.bids[s.peek[1]])
        own = seat is not None
        return _make_view(
            seat,  # seat
            n,  # n
            s.family,  # family
            s.aggressive,  # aggressive
            s.rev_events,  # rev_events
            s.rev_specials,  # rev_specials
            s.chosen,  # chosen
            s.turn,  # turn
            s.stage,  # stage
            s.vp,  # vp
            s.screen,  # screen
            s.pool,  # pool
            s.building,  # building
            s.pl,  # pl
            s.pl_neutral,  # pl_neutral
            s.camp,  # camp
            s.ships,  # ships
            s.hands[seat] if own else None,  # hand
            tuple(map(len, s.hands)),  # hand_sizes
            len(s.deck),  # deck_count
            s.discard,  # discard
            s.specials[seat] if own else None,  # specials
            tuple(map(len, s.specials)),  # special_counts
            s.specials if s.stage == "over" else (),  # all_specials
            len(s.sdeck),  # sdeck_count
            s.sdiscard,  # sdiscard
            s.sface,  # sface
            s.holder,  # holder
            s.plus1,  # plus1
            s.marker,  # marker
            s.forder,  # forder
            s.fqueue,  # fqueue
            s.fpos,  # fpos
            s.fpassed,  # fpassed
            s.free_faction,  # free_faction
            s.aqueue,  # aqueue
            s.archont_left if s.aqueue and s.aqueue[0][0] == seat else 0,  # archont_left
            s.ncards,  # ncards
            s.need,  # need
            tuple(rows),  # rows
            s.veiled[seat] if own else None,  # veiled
            s.revealed,  # revealed
            s.shown,  # shown
            s.card_tokens,  # card_tokens
            s.played,  # played
            s.vote,  # vote
            s.vtype,  # vtype
            bids,  # bids
            peeked,  # peeked
            s.dem_used,  # dem_used
            s.oqueue,  # oqueue
            s.winners,  # winners
            s.pqueue,  # pqueue
            s.pplayed,  # pplayed
            s.effect,  # effect
            s.last_bids,  # last_bids
            s.last_winners,  # last_winners
            s.last_refund,  # last_refund
            s.event,  # event
            s.ev_pool,  # ev_pool
            s.ev_other_left + s.ev_doom_left + (s.ev_top >= 0),  # events_left
            s.ev_top,  # ev_top
            s.doom_markers,  # doom_markers
            s.tqueue,  # tqueue
            s.tcount,  # tcount
            s.final,  # final
            s.end_reason,  # end_reason
        )

    def to_act(self, s: EoaState) -> frozenset[int]:
        st = s.stage
        if st in ("senate", "vote"):
            return frozenset(p for p in range(s.n) if s.bids[p] < 0)
        if st == "order":
            return frozenset(p for p in range(s.n) if len(s.rows[p]) < s.need[p])
        if st == "faction":
            return frozenset((s.fqueue[s.fpos][0],))
        if st in ("ability", "archont"):
            return frozenset((s.aqueue[0][0],))
        if st in ("peek", "rebid", "call"):
            return frozenset((s.holder[D.DEMAGOGOS],))
        if st == "open":
            return frozenset((s.oqueue[0],))
        if st == "play":
            return frozenset((s.pqueue[0],))
        if st == "together":
            return frozenset((s.tqueue[0],))
        return frozenset()

    def result(self, s: EoaState) -> Result | None:
        if s.stage != "over":
            return None
        return Result(tuple(float(v) for v in s.vp), s.final, s.end_reason)

    # --- legal ----------------------------------------------------------------------------
    def legal(self, v: EoaView) -> list[Any]:
        seat = v.seat
        if seat is None or v.stage == "over":
            return []
        st = v.stage
        if st == "senate" or st == "vote":
            if v.bids[seat] != -1:
                return []
            return [Bid(k) for k in range(v.screen[seat] + 1)]
        if st == "rebid":
            return [Bid(k) for k in range(v.screen[seat] + 1)] if v.holder[D.DEMAGOGOS] == seat else []
        if st == "order":
            if len(v.rows[seat]) >= v.need[seat]:
                return []
            cards = one_per_kind(v.hand)
            out: list[Any] = [Order(c) for c in cards]
            if v.holder[D.ORAKLOS] == seat and len(v.veiled) < 2:
                out += [Order(c, True) for c in cards]
            return out
        if seat not in self._actors_of_view(v):
            return []
        if st == "faction":
            return faction_legal(v, seat)
        if st == "ability":
            return ability_legal(v, seat)
        if st == "archont":
            return [Discard(c) for c in one_per_kind(v.hand)]
        if st == "peek":
            return [Demagogos(t) for t in range(v.n) if t != seat] + [Pass()]
        if st == "call":
            return [Demagogos(t) for t in v.oqueue if t != seat] + [Pass()]
        if st == "open":
            taken = {b for b in v.bids if b > 0}
            return [Bid(k) for k in range(v.screen[seat] + 1) if k == 0 or k not in taken]
        if st == "play":
            if v.effect is not None:
                return effect_legal(v, v.effect)
            return play_legal(v, seat) + [Pass()]
        if st == "together":
            out = [Target(i) for i, sh in enumerate(v.ships) if not sh.at_sea and free(sh) > 0]
            return out + [Pass()]
        return []

    def _actors_of_view(self, v: EoaView) -> tuple[int, ...]:
        st = v.stage
        if st == "faction":
            return (v.fqueue[v.fpos][0],)
        if st in ("ability", "archont"):
            return (v.aqueue[0][0],)
        if st in ("peek", "call"):
            return (v.holder[D.DEMAGOGOS],)
        if st == "open":
            return (v.oqueue[0],)
        if st == "play":
            return (v.pqueue[0],)
        if st == "together":
            return (v.tqueue[0],)
        return ()

    # --- apply ----------------------------------------------------------------------------
    def apply(self, state: EoaState, seat: int, action: Any) -> tuple[EoaState, list[Event]]:
        if state.stage == "over":
            raise IllegalAction("The game is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn to choose.")
        if not _quick_ok(state, seat, action) and action not in self.legal(self.view(state, seat)):
            raise IllegalAction(refusal(state, seat, action))
        s = state.clone()
        ev: list[Event] = []
        kind = type(action)
        st = s.stage
        if kind is Bid:
            _bid(s, seat, action.n, ev)
        elif kind is Faction:
            _take_faction(s, seat, action.faction, ev)
        elif kind is Pass:
            _pass(s, seat, ev)
        elif kind is Special:
            _faction_special(s, seat, action, ev)
        elif kind is Use:
            _use_ability(s, seat, ev)
        elif kind is Discard:
            _archont_discard(s, seat, action.card, ev)
        elif kind is TakeSpecial:
            _take_special_action(s, seat, action.slot, ev)
        elif kind is Order:
            _order(s, seat, action, ev)
        elif kind is Demagogos:
            _demagogos(s, seat, action.target, ev)
        elif kind is Play:
            _play(s, seat, action, ev)
        elif kind is Target:
            if st == "together":
                _together_place(s, seat, action.a, ev)
            elif st == "ability":
                _basileus(s, seat, action.a, ev)
            else:
                _target(s, seat, action, ev)
        elif kind is Done:
            _done(s, seat, ev)
        return s, ev

    # --- undo, leaks, bots, text ------------------------------------------------------------
    def undo_barrier(self, before: EoaState, after: EoaState, seat: int, action: Any) -> str | None:
        if before.rng != after.rng:
            return "it drew cards or an event"
        if after.revealed != before.revealed or after.last_bids != before.last_bids \
                or after.pool != before.pool or after.stage != before.stage:
            return "it revealed everyone's choices or moved the game on"
        if type(action) in (Play, Target, Done, Faction, Special, Discard):
            return "everyone has seen it"
        return None

    def rerandomise(self, s: EoaState, seat: int, rng: Rng) -> EoaState:
        """Re-draw what ``seat`` cannot see: other hands and face-down voting cards, the
        Politics deck, other seats' special cards (with the special deck unless its
        cards are turned face up, which would reveal the deck's make-up), bids that
        are not yet revealed (except one the Demagogos looked at), and which of another
        seat's unrevealed cards the Oraklos keeps face down."""
        r = s.clone()
        n = s.n
        hidden: list[int] = list(s.deck)
        slots: list[tuple[int, int]] = []
        for p in range(n):
            if p == seat:
                continue
            hidden += s.hands[p]
            for i, c in enumerate(s.rows[p]):
                if not (s.revealed and s.shown[p][i]):
                    hidden.append(c)
                    slots.append((p, i))
        mixed, rng = rng.shuffled(hidden)
        k = 0
        hands = list(s.hands)
        for p in range(n):
            if p != seat:
                hands[p] = tuple(sorted(mixed[k:k + len(s.hands[p])]))
                k += len(s.hands[p])
        rows = [list(x) for x in s.rows]
        for p, i in slots:
            rows[p][i] = mixed[k]
            k += 1
        r.deck = tuple(sorted(mixed[k:]))
        r.hands = tuple(hands)
        r.rows = tuple(tuple(x) for x in rows)
        sp_hidden = [c for p in range(n) if p != seat and s.stage != "over" for c in s.specials[p]]
        if not s.rev_specials:
            sp_hidden += s.sdeck
        smixed, rng = rng.shuffled(sp_hidden)
        k = 0
        specials = list(s.specials)
        for p in range(n):
            if p != seat and s.stage != "over":
                specials[p] = tuple(sorted(smixed[k:k + len(s.specials[p])]))
                k += len(s.specials[p])
        r.specials = tuple(specials)
        if not s.rev_specials:
            r.sdeck = tuple(sorted(smixed[k:]))
        if s.stage in SECRET_STAGES:
            bids = list(s.bids)
            for p in range(n):
                known = s.peek and s.peek[0] == seat and s.peek[1] == p
                if p != seat and bids[p] >= 0 and not known:
                    bids[p], rng = rng.below(s.screen[p] + 1)
            r.bids = tuple(bids)
        if not s.revealed and s.stage == "order":
            o = s.holder[D.ORAKLOS]
            if o >= 0 and o != seat and s.rows[o]:
                picks, rng = rng.shuffled(range(len(s.rows[o])))
                many, rng = rng.below(min(2, len(s.rows[o])) + 1)
                veiled = list(r.veiled)
                veiled[o] = tuple(sorted(picks[:many]))
                r.veiled = tuple(veiled)
        return r

    def reveal(self, s: EoaState, names) -> list[str]:
        from .text import reveal_lines

        return reveal_lines(s, names)


def one_per_kind(cards: tuple[int, ...]) -> list[int]:
    """Cards of one kind are alike: offer the first of each kind only."""
    seen: set[str] = set()
    out = []
    for c in cards:
        k = D.CARD_KIND[c]
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def _quick_ok(s: EoaState, seat: int, action: Any) -> bool:
    """The most frequent actions (bids, laying cards) checked without building a view;
    anything this does not accept is checked against ``legal()``."""
    kind = type(action)
    if kind is Bid:
        st = s.stage
        n = action.n
        if type(n) is not int or not 0 <= n <= s.screen[seat]:
            return False
        if st in ("senate", "vote"):
            return s.bids[seat] == -1
        if st == "open":
            return s.oqueue[0] == seat and (n == 0 or n not in s.bids)
        return st == "rebid" and s.holder[D.DEMAGOGOS] == seat
    if kind is Pass:
        st = s.stage
        if st == "faction":
            return s.fqueue[s.fpos] == (seat, 1)
        if st == "play":
            return s.effect is None and s.pqueue[0] == seat
        return st in ("ability", "peek", "call", "together")
    if kind is Target or kind is Done:
        st = s.stage
        if st == "play" and s.effect is not None and s.effect.seat == seat:
            return action in effect_legal(s, s.effect)
        return False
    if kind is Faction and s.stage == "faction" and s.fqueue[s.fpos][0] == seat:
        f = action.faction
        if type(f) is not int or not 0 <= f < 7 or s.holder[f] >= 0:
            return False
        return s.fqueue[s.fpos][1] != 1 or s.screen[seat] >= faction_cost(s, seat)
    if kind is Discard and s.stage == "archont":
        return action.card in one_per_kind(s.hands[seat])
    if kind is Order and s.stage == "order" and action.veiled is False:
        hand = s.hands[seat]
        return (len(s.rows[seat]) < s.need[seat] and action.card in hand
                and action.card in one_per_kind(hand))
    return False


# --- legal helpers (views and states alike) ------------------------------------------------------
def faction_cost(v: Any, seat: int) -> int:
    if v.free_faction == seat:
        return 0
    return D.FACTION_COST[v.n][v.forder.index(seat)]


def faction_legal(v: Any, seat: int) -> list[Any]:
    paid = v.fqueue[v.fpos][1]
    free_f = [f for f in range(7) if v.holder[f] < 0]
    if paid != 1:
        return [Faction(f) for f in free_f]
    out: list[Any] = []
    if v.screen[seat] >= faction_cost(v, seat):
        out += [Faction(f) for f in free_f]
    out.append(Pass())
    for c in sorted(set(v.specials or ())):
        key = D.SPECIAL_KEY[c]
        if key == "favour" and v.free_faction != seat:
            out.append(Special(c))
        elif key == "boarding" and v.screen[seat] > 0:
            out += [Special(c, i) for i, sh in enumerate(v.ships) if not sh.at_sea and free(sh) > 0]
    return out


def special_available(v: Any) -> bool:
    count = v.sdeck_count if isinstance(v, EoaView) else len(v.sdeck)
    return bool(count or v.sdiscard or v.sface)


def take_special_choices(v: Any) -> list[Any]:
    out: list[Any] = [TakeSpecial(i) for i in range(len(v.sface))]
    count = v.sdeck_count if isinstance(v, EoaView) else len(v.sdeck)
    if count or v.sdiscard:
        out.append(TakeSpecial(DECK_SLOT))
    return out


def ability_legal(v: Any, seat: int) -> list[Any]:
    f = v.aqueue[0][1]
    if f == D.BASILEUS:
        return [Target(i) for i, sh in enumerate(v.ships) if not sh.at_sea and free(sh) > 0] + [Pass()]
    if f == D.DEMIURGOS and v.rev_specials:
        return take_special_choices(v) + [Pass()]
    return [Use(), Pass()]


def _port_capacity(v: Any, seat: int) -> list[tuple[int, int, int]]:
    """(ship, free spaces, cubes of other colours) for every ship in port."""
    out = []
    for i, sh in enumerate(v.ships):
        if not sh.at_sea:
            others = sum(sh.cubes) - sh.cubes[seat]
            out.append((i, free(sh), others))
    return out


def _placement_ok(kind: str, frees: list[int], tokens: int) -> bool:
    if kind == "refugees1":
        return tokens >= 1 and any(f >= 1 for f in frees)
    if kind == "refugees2":
        return tokens >= 2 and any(f >= 2 for f in frees)
    if kind == "refugees21":
        if tokens < 3:
            return False
        for i, f in enumerate(frees):
            if f >= 2 and any(g >= 1 for j, g in enumerate(frees) if j != i):
                return True
        return False
    return False


def card_feasible(v: Any, seat: int, kind: str, special: str) -> bool:
    """Can ``seat`` apply this card (with this rider) in full now?"""
    tokens = v.screen[seat]
    ships = v.ships
    if kind in ("refugees1", "refugees2", "refugees21"):
        port = _port_capacity(v, seat)
        if special == "alliance":
            for k, (i, f, others) in enumerate(port):
                sh = ships[i]
                if others == 0:
                    continue
                frees = [g + (1 if j == k else 0) for j, (_, g, _) in enumerate(port)]
                if _placement_ok(kind, frees, tokens):
                    return True
            return False
        return _placement_ok(kind, [f for _, f, _ in port], tokens)
    if kind == "aristocracy":
        need = 2 if special == "empath" else 1
        room = sum(f + o for _, f, o in _port_capacity(v, seat))
        return tokens >= need and room >= need
    if kind == "ships":
        need = 3 if special == "winds" else 2
        return sum(1 for sh in ships if aboard(sh) > 0) >= need
    if kind == "royal":
        return any(aboard(sh) > 0 and sh.tile != D.AIRSHIP + D.ADVANCED for sh in ships)
    if kind == "support":
        return special_available(v)
    if kind == "sabotage":
        return any(sh.at_sea and sh.tile != D.WARSHIP + D.ADVANCED for sh in ships)
    if kind == "betrayal":
        return bool(_betray_targets(v, seat))
    return False


def _removable(v: Any, sh: Ship) -> list[int]:
    return [c for c in range(D.COLOURS) if sh.cubes[c] > 0 and not immune(v, c)]


def _betray_targets(v: Any, seat: int) -> list[Target]:
    out = [Target(i) for i, sh in enumerate(v.ships)
           if not sh.at_sea and sh.tile != D.WARSHIP + D.ADVANCED and _removable(v, sh)]
    if not v.family:
        out += [Target(-1, p) for p in range(v.n) if p != seat and v.pool[p] > 0 and not immune(v, p)]
    return out


def play_sources(v: Any, seat: int) -> list[int]:
    vote = v.vote
    out = []
    if not v.played[seat][vote]:
        out.append(seat)
    first = v.winners and v.winners[0] == seat
    philo = v.holder[D.PHILOSOPHIOS] == seat
    if first or philo:
        left = left_card_source(v, seat)
        if left is not None and left != seat and not v.played[left][vote]:
            blocked = (v.n == 2 and first and not philo and v.holder[D.PHILOSOPHIOS] == left)
            if not blocked:
                out.append(left)
    return out


def play_legal(v: Any, seat: int) -> list[Any]:
    out: list[Any] = []
    vote = v.vote
    riders = sorted({c for c in (v.specials or ()) if D.SPECIAL_KIND[D.SPECIAL_KEY[c]] == "rider"},
                    key=lambda c: c)
    seen_keys: dict[str, int] = {}
    for c in riders:
        seen_keys.setdefault(D.SPECIAL_KEY[c], c)
    for src in play_sources(v, seat):
        card = v.rows[src][vote]
        if card < 0:
            continue
        kind = D.CARD_KIND[card]
        if card_feasible(v, seat, kind, ""):
            out.append(Play(src))
        for key, c in seen_keys.items():
            if D.rider_fits(key, kind) and card_feasible(v, seat, kind, key):
                out.append(Play(src, c))
    return out


def effect_legal(v: Any, e: Effect) -> list[Any]:
    step = e.steps[0]
    seat = e.seat
    ships = v.ships
    out: list[Any] = []
    if step == "bump":
        port = _port_capacity(v, seat)
        for k, (i, _, others) in enumerate(port):
            if not others:
                continue
            frees = [g + (1 if j == k else 0) for j, (_, g, _) in enumerate(port)]
            if not _placement_ok(e.kind, frees, v.screen[seat]):
                continue
            out += [Target(i, c) for c in range(D.COLOURS) if c != seat and ships[i].cubes[c] > 0]
        return out
    if step in ("place1", "place2", "place1x"):
        need = 2 if step == "place2" else 1
        rest = e.steps[1:]
        for i, sh in enumerate(ships):
            if sh.at_sea or free(sh) < need or (step == "place1x" and i == e.ship):
                continue
            if step == "place2" and "place1x" in rest:
                if not any(j != i and not o.at_sea and free(o) >= 1 for j, o in enumerate(ships)):
                    continue
            out.append(Target(i))
        return out
    if step == "aristo":
        for i, sh in enumerate(ships):
            if sh.at_sea:
                continue
            if free(sh) > 0:
                out.append(Target(i))
            else:
                out += [Target(i, c) for c in range(D.COLOURS) if c != seat and sh.cubes[c] > 0]
        return out
    if step == "move":
        return [Target(i) for i, sh in enumerate(ships) if aboard(sh) > 0 and i not in e.moved]
    if step == "royal":
        return [Target(i) for i, sh in enumerate(ships)
                if aboard(sh) > 0 and sh.tile != D.AIRSHIP + D.ADVANCED]
    if step == "sabotage":
        return [Target(i) for i, sh in enumerate(ships)
                if sh.at_sea and sh.tile != D.WARSHIP + D.ADVANCED]
    if step == "betray":
        return _betray_targets(v, seat)
    if step == "remove":
        sh = ships[e.ship]
        out = [Target(e.ship, c) for c in _removable(v, sh)]
        if e.removed > 0:
            out.append(Done())
        return out
    if step == "draw_special":
        return take_special_choices(v)
    return out


def refusal(s: EoaState, seat: int, action: Any) -> str:
    st = s.stage
    kind = type(action)
    if kind is Bid:
        if st in ("senate", "vote", "rebid", "open"):
            if action.n < 0 or action.n > s.screen[seat]:
                return f"You can bid 0 to {s.screen[seat]} tokens (what is behind your screen)."
            if st == "open":
                return "In an open vote your bid must differ from every other bid (0 passes)."
            return "You have already chosen your bid."
        return "There is nothing to bid on now."
    if kind is Faction:
        if st != "faction":
            return "Faction tokens are taken in the Factions phase."
        if not 0 <= action.faction < 7 or s.holder[action.faction] >= 0:
            return "That Faction token is not available."
        return "You cannot pay for a Faction token now."
    if kind is Order:
        if st != "order":
            return "Voting cards are laid out at the start of the Voting phase."
        if action.card not in s.hands[seat]:
            return "That card is not in your hand."
        return "Only the Oraklos may keep cards face down, at most 2."
    if kind is Play:
        return "You cannot play that card now: you must be able to apply it in full."
    if kind is Target:
        return "That is not a possible target now."
    return "That is not possible now."


# --- phases ---------------------------------------------------------------------------------------
def _start_turn(s: EoaState, ev: list[Event]) -> None:
    n = s.n
    s.turn += 1
    key = D.EVENT_KEY[s.event] if s.event >= 0 else ""
    s.ncards = D.DOOMED_2P_CARDS if (n == 2 and key == "doomed") else D.VOTE_CARDS
    s.vtype = D.EVENT_VOTE[s.event] if s.event >= 0 else D.FIRST_TURN_VOTE
    s.dem_used = False
    s.rows = ((),) * n
    s.veiled = ((),) * n
    s.shown = ((),) * n
    s.revealed = False
    s.card_tokens = ((),) * n
    s.played = ((),) * n
    s.vote = -1
    s.bids = (-1,) * n
    s.peek = ()
    s.winners = ()
    s.pqueue = ()
    s.effect = None
    ev.append(Event("turn", {"turn": s.turn, "vote": s.vtype}))
    if key == "chaos":
        ev.append(Event("chaos_skip", {"family": s.family}))
        _begin_order(s, ev)
    elif s.family:
        _begin_factions(s, ev)
    else:
        s.stage = "senate"


def _bid(s: EoaState, seat: int, amount: int, ev: list[Event]) -> None:
    st = s.stage
    if st == "open":
        s.bids = _set(s.bids, seat, amount)
        s.oqueue = _without(s.oqueue, seat)
        ev.append(Event("open_bid", {"seat": seat, "n": amount, "vote": s.vote}))
        if not s.oqueue:
            _resolve_vote(s, ev)
        return
    s.bids = _set(s.bids, seat, amount)
    ev.append(Event("bid", {"seat": seat, "stage": st}))
    ev.append(Event("my_bid", {"seat": seat, "n": amount, "stage": st}, to=(seat,)))
    if st == "rebid":
        _resolve_vote(s, ev)
        return
    if any(b < 0 for b in s.bids):
        return
    if st == "senate":
        s.pool = tuple(p + b for p, b in zip(s.pool, s.bids))
        s.screen = tuple(c - b for c, b in zip(s.screen, s.bids))
        s.last_bids = s.bids
        s.bids = (-1,) * s.n
        ev.append(Event("revealed", {"what": "senate"}))
        _begin_factions(s, ev)
        return
    h = s.holder[D.DEMAGOGOS]
    if h >= 0 and not s.dem_used:
        s.stage = "peek"
        return
    _resolve_vote(s, ev)


def _begin_factions(s: EoaState, ev: list[Event]) -> None:
    order = tuple(senate_order(s))
    s.forder = order
    if s.n == 2:
        s.fqueue = ((order[0], 1), (order[1], 1), (order[0], 0), (order[1], 0))
    else:
        s.fqueue = tuple((p, 1) for p in order)
    s.fpos = 0
    s.fpassed = ()
    s.free_faction = -1
    s.holder = (-1,) * 7
    s.stage = "faction"


def _take_faction(s: EoaState, seat: int, f: int, ev: list[Event]) -> None:
    paid = s.fqueue[s.fpos][1] == 1
    cost = faction_cost(s, seat) if paid else 0
    s.screen = _add(s.screen, seat, -cost)
    s.building = _add(s.building, seat, cost)
    s.holder = _set(s.holder, f, seat)
    s.marker = _set(s.marker, seat, f)
    bonus = 0
    if s.plus1[f]:
        bonus = 1
        s.vp = _add(s.vp, seat, 1)
        s.plus1 = _set(s.plus1, f, False)
    ev.append(Event("faction", {"seat": seat, "faction": f, "cost": cost, "bonus": bonus}))
    _next_faction(s, ev)


def _next_faction(s: EoaState, ev: list[Event]) -> None:
    s.fpos += 1
    if s.fpos < len(s.fqueue):
        return
    if s.fpassed:
        s.fqueue = tuple((p, 2) for p in sorted(s.fpassed, key=s.forder.index))
        s.fpassed = ()
        s.fpos = 0
        return
    s.plus1 = tuple(s.plus1[f] or s.holder[f] < 0 for f in range(7))
    s.free_faction = -1
    s.aqueue = tuple((s.holder[f], f) for f in D.END_OF_FACTIONS_ABILITIES if s.holder[f] >= 0)
    _next_ability(s, ev)


def _next_ability(s: EoaState, ev: list[Event]) -> None:
    while s.aqueue:
        seat, f = s.aqueue[0]
        if f == D.ARCHONT and (s.deck or s.discard):
            break
        if f == D.BASILEUS and s.screen[seat] > 0 and any(
                not sh.at_sea and free(sh) > 0 for sh in s.ships):
            break
        if f == D.DEMIURGOS and special_available(s):
            break
        s.aqueue = s.aqueue[1:]
    if s.aqueue:
        s.stage = "ability"
        return
    _begin_order(s, ev)


def _pass(s: EoaState, seat: int, ev: list[Event]) -> None:
    st = s.stage
    if st == "faction":
        s.fpassed = s.fpassed + (seat,)
        ev.append(Event("faction_pass", {"seat": seat}))
        _next_faction(s, ev)
    elif st == "ability":
        ev.append(Event("ability_pass", {"seat": seat, "faction": s.aqueue[0][1]}))
        s.aqueue = s.aqueue[1:]
        _next_ability(s, ev)
    elif st == "peek":
        _resolve_vote(s, ev)
    elif st == "call":
        s.stage = "open"
    elif st == "play":
        ev.append(Event("play_pass", {"seat": seat, "vote": s.vote}))
        _next_player(s, ev)
    elif st == "together":
        s.tqueue = tuple(p for p in s.tqueue if p != seat)
        ev.append(Event("together_stop", {"seat": seat}))
        _together_next(s, ev, advance=False)


def _faction_special(s: EoaState, seat: int, a: Special, ev: list[Event]) -> None:
    key = D.SPECIAL_KEY[a.card]
    s.specials = _set(s.specials, seat, _without(s.specials[seat], a.card))
    s.sdiscard = s.sdiscard + (a.card,)
    ev.append(Event("special", {"seat": seat, "card": a.card, "key": key, "ship": a.arg}))
    if key == "favour":
        s.free_faction = seat
    elif key == "boarding":
        _put_cubes(s, seat, a.arg, 1)


def _put_cubes(s: EoaState, seat: int, ship: int, k: int) -> None:
    sh = s.ships[ship]
    s.ships = _set(s.ships, ship, sh._replace(cubes=_add(sh.cubes, seat, k)))
    s.screen = _add(s.screen, seat, -k)


def _discard_cube(s: EoaState, ship: int, colour: int, k: int = 1) -> None:
    sh = s.ships[ship]
    s.ships = _set(s.ships, ship, sh._replace(cubes=_add(sh.cubes, colour, -k)))
    if colour == D.NEUTRAL:
        s.camp += k
    else:
        s.building = _add(s.building, colour, k)


def _use_ability(s: EoaState, seat: int, ev: list[Event]) -> None:
    f = s.aqueue[0][1]
    if f == D.ARCHONT:
        drawn = _draw_cards(s, seat, D.ARCHONT_DRAW, ev)
        ev.append(Event("archont", {"seat": seat, "count": drawn}))
        s.archont_left = drawn
        if drawn:
            s.stage = "archont"
            return
    elif f == D.DEMIURGOS:
        ev.append(Event("demiurgos", {"seat": seat}))
        _gain_special(s, seat, DECK_SLOT, ev)
    s.aqueue = s.aqueue[1:]
    _next_ability(s, ev)


def _basileus(s: EoaState, seat: int, ship: int, ev: list[Event]) -> None:
    _put_cubes(s, seat, ship, 1)
    ev.append(Event("basileus", {"seat": seat, "ship": ship}))
    s.aqueue = s.aqueue[1:]
    _next_ability(s, ev)


def _take_special_action(s: EoaState, seat: int, slot: int, ev: list[Event]) -> None:
    if s.stage == "ability":
        ev.append(Event("demiurgos", {"seat": seat}))
        _gain_special(s, seat, slot, ev)
        s.aqueue = s.aqueue[1:]
        _next_ability(s, ev)
        return
    _gain_special(s, seat, slot, ev)
    e = s.effect
    s.effect = e._replace(steps=e.steps[1:])
    _continue_effect(s, ev)


def _archont_discard(s: EoaState, seat: int, card: int, ev: list[Event]) -> None:
    s.hands = _set(s.hands, seat, _without(s.hands[seat], card))
    s.discard = s.discard + (card,)
    s.archont_left -= 1
    ev.append(Event("discarded", {"seat": seat, "card": card}))
    if s.archont_left <= 0:
        s.aqueue = s.aqueue[1:]
        _next_ability(s, ev)


def _draw_cards(s: EoaState, seat: int, k: int, ev: list[Event]) -> int:
    """``seat`` draws up to ``k`` Politics cards (only ever on its own action)."""
    deck = list(s.deck)
    hand = list(s.hands[seat])
    got = []
    rng = s.rng
    for _ in range(k):
        if not deck:
            if not s.discard:
                break
            deck = sorted(s.discard)
            s.discard = ()
            ev.append(Event("reshuffled", {"count": len(deck)}))
        i, rng = rng.below(len(deck))
        got.append(deck.pop(i))
    s.rng = rng
    s.deck = tuple(deck)
    s.hands = _set(s.hands, seat, tuple(sorted(hand + got)))
    if got:
        ev.append(Event("drew", {"seat": seat, "count": len(got)}))
        ev.append(Event("drew_cards", {"seat": seat, "cards": tuple(got)}, to=(seat,)))
    return len(got)


def _gain_special(s: EoaState, seat: int, slot: int, ev: list[Event]) -> None:
    """``seat`` takes a special card: a face-up one (tactical play) or the top of the deck."""
    rng = s.rng
    if 0 <= slot < len(s.sface):
        card = s.sface[slot]
        face = list(s.sface)
        if not s.sdeck and s.sdiscard:
            s.sdeck = tuple(sorted(s.sdiscard))
            s.sdiscard = ()
        if s.sdeck:
            i, rng = rng.below(len(s.sdeck))
            face[slot] = s.sdeck[i]
            s.sdeck = s.sdeck[:i] + s.sdeck[i + 1:]
        else:
            face.pop(slot)
        s.sface = tuple(face)
        ev.append(Event("took_special", {"seat": seat, "card": card, "face": s.sface}))
    else:
        if not s.sdeck:
            if not s.sdiscard:
                return
            s.sdeck = tuple(sorted(s.sdiscard))
            s.sdiscard = ()
        i, rng = rng.below(len(s.sdeck))
        card = s.sdeck[i]
        s.sdeck = s.sdeck[:i] + s.sdeck[i + 1:]
        ev.append(Event("drew_special", {"seat": seat}))
        ev.append(Event("my_special", {"seat": seat, "card": card}, to=(seat,)))
    s.rng = rng
    s.specials = _set(s.specials, seat, tuple(sorted(s.specials[seat] + (card,))))


# --- voting -----------------------------------------------------------------------------------------
def _begin_order(s: EoaState, ev: list[Event]) -> None:
    s.stage = "order"
    s.need = tuple(min(s.ncards, len(h)) for h in s.hands)
    s.rows = ((),) * s.n
    s.veiled = ((),) * s.n
    s.revealed = False
    if not any(s.need):
        _reveal_rows(s, ev)


def _order(s: EoaState, seat: int, a: Order, ev: list[Event]) -> None:
    s.hands = _set(s.hands, seat, _without(s.hands[seat], a.card))
    slot = len(s.rows[seat])
    s.rows = _set(s.rows, seat, s.rows[seat] + (a.card,))
    if a.veiled:
        s.veiled = _set(s.veiled, seat, s.veiled[seat] + (slot,))
    ev.append(Event("ordered", {"seat": seat, "slot": slot}))
    ev.append(Event("my_order", {"seat": seat, "slot": slot, "card": a.card, "veiled": a.veiled},
                    to=(seat,)))
    if len(s.rows[seat]) == s.need[seat]:
        _draw_cards(s, seat, D.HAND - len(s.hands[seat]), ev)
    if all(len(s.rows[p]) >= s.need[p] for p in range(s.n)):
        _reveal_rows(s, ev)


def _reveal_rows(s: EoaState, ev: list[Event]) -> None:
    s.revealed = True
    s.shown = tuple(tuple(i not in s.veiled[p] for i in range(len(s.rows[p]))) for p in range(s.n))
    s.card_tokens = tuple((0,) * len(r) for r in s.rows)
    s.played = tuple((False,) * len(r) for r in s.rows)
    ev.append(Event("revealed", {"what": "cards"}))
    _begin_vote(s, 0, ev)


def _begin_vote(s: EoaState, vote: int, ev: list[Event]) -> None:
    if vote >= s.ncards or all(len(r) <= vote for r in s.rows):
        _doom(s, ev)
        return
    s.vote = vote
    s.bids = (-1,) * s.n
    s.peek = ()
    s.winners = ()
    s.pqueue = ()
    s.pplayed = ()
    s.effect = None
    ev.append(Event("vote", {"vote": vote, "type": s.vtype}))
    if s.vtype == "hidden":
        s.stage = "vote"
        return
    s.oqueue = tuple(reversed(senate_order(s)))
    h = s.holder[D.DEMAGOGOS]
    s.stage = "call" if h >= 0 and not s.dem_used else "open"


def _demagogos(s: EoaState, seat: int, target: int, ev: list[Event]) -> None:
    s.dem_used = True
    if s.stage == "peek":
        s.peek = (seat, target)
        ev.append(Event("peek", {"seat": seat, "target": target}))
        ev.append(Event("peeked", {"seat": seat, "target": target, "n": s.bids[target]}, to=(seat,)))
        s.stage = "rebid"
        return
    s.oqueue = (target,) + _without(s.oqueue, target)
    ev.append(Event("call", {"seat": seat, "target": target}))
    s.stage = "open"


def _resolve_vote(s: EoaState, ev: list[Event]) -> None:
    n, vote = s.n, s.vote
    bids = s.bids
    hidden = s.stage != "open"
    has = [len(s.rows[p]) > vote for p in range(n)]
    s.screen = tuple(c - b for c, b in zip(s.screen, bids))
    s.card_tokens = tuple(_set(t, vote, bids[p]) if has[p] else t for p, t in enumerate(s.card_tokens))
    s.shown = tuple(_set(sh, vote, True) if has[p] else sh for p, sh in enumerate(s.shown))
    rank = {p: i for i, p in enumerate(senate_order(s))}
    ranking = sorted(range(n), key=lambda p: (-bids[p], rank[p]))
    candidates = [p for p in ranking if has[p] and (hidden or bids[p] > 0)]
    winners = tuple(candidates[:winners_needed(s)])
    if s.event >= 0 and D.EVENT_KEY[s.event] == "no_mercy":
        loser = ranking[-1]
        s.vp = _set(s.vp, loser, max(0, s.vp[loser] - 1))
    s.winners = winners
    s.last_bids = bids
    s.last_winners = winners
    s.last_refund = ()
    order = list(winners)
    philo = s.holder[D.PHILOSOPHIOS]
    if philo in order:
        order.remove(philo)
        order.insert(0, philo)
    s.pqueue = tuple(order)
    s.pplayed = ()
    s.peek = ()
    if hidden:
        ev.append(Event("revealed", {"what": "vote", "vote": vote}))
    else:
        ev.append(Event("vote_result", {"vote": vote, "winners": winners}))
    if not s.pqueue:
        _end_vote(s, ev)
    else:
        s.stage = "play"


def _next_player(s: EoaState, ev: list[Event]) -> None:
    s.pqueue = s.pqueue[1:]
    s.effect = None
    if not s.pqueue:
        _end_vote(s, ev)


def _end_vote(s: EoaState, ev: list[Event]) -> None:
    h = s.holder[D.STRATEGOS]
    vote = s.vote
    if h >= 0 and h not in s.pplayed and len(s.card_tokens[h]) > vote:
        back = min(D.STRATEGOS_REFUND, s.card_tokens[h][vote])
        if back:
            s.card_tokens = _set(s.card_tokens, h, _add(s.card_tokens[h], vote, -back))
            s.screen = _add(s.screen, h, back)
            s.last_refund = (h, back)
            ev.append(Event("strategos", {"seat": h, "n": back}))
    _begin_vote(s, vote + 1, ev)


# --- playing cards --------------------------------------------------------------------------------------
STEPS = {
    "refugees1": ("place1",), "refugees2": ("place2",), "refugees21": ("place2", "place1x"),
    "aristocracy": ("aristo",), "ships": ("move", "move"), "royal": ("royal",),
    "support": ("draw_special",), "sabotage": ("sabotage",), "betrayal": ("betray",),
}


def _play(s: EoaState, seat: int, a: Play, ev: list[Event]) -> None:
    vote = s.vote
    card = s.rows[a.source][vote]
    kind = D.CARD_KIND[card]
    key = ""
    if a.special >= 0:
        key = D.SPECIAL_KEY[a.special]
        s.specials = _set(s.specials, seat, _without(s.specials[seat], a.special))
        s.sdiscard = s.sdiscard + (a.special,)
    s.played = _set(s.played, a.source, _set(s.played[a.source], vote, True))
    s.pplayed = s.pplayed + (seat,)
    steps = STEPS[kind]
    if key == "alliance":
        steps = ("bump",) + steps
    elif key == "empath":
        steps = ("aristo", "aristo")
    elif key == "winds":
        steps = ("move", "move", "move")
    ev.append(Event("play", {"seat": seat, "source": a.source, "card": card, "kind": kind,
                             "special": a.special, "key": key}))
    s.effect = Effect(seat, a.source, kind, key, steps, (), -1, 0)
    _continue_effect(s, ev)


def _continue_effect(s: EoaState, ev: list[Event]) -> None:
    e = s.effect
    while e.steps:
        step = e.steps[0]
        if step == "draw_special" and not s.rev_specials:
            _gain_special(s, e.seat, DECK_SLOT, ev)
            e = e._replace(steps=e.steps[1:])
            continue
        if step == "remove" and (e.removed >= 4 or not any(
                type(t) is Target for t in effect_legal(s, e))):
            e = e._replace(steps=e.steps[1:])
            continue
        if step == "draw_special" and not take_special_choices(s):
            e = e._replace(steps=e.steps[1:])
            continue
        s.effect = e
        return
    s.effect = e
    _finish_effect(s, ev)


def _finish_effect(s: EoaState, ev: list[Event]) -> None:
    e = s.effect
    if e.special == "decree":
        s.vp = _add(s.vp, e.seat, D.DECREE_VP)
        ev.append(Event("score", {"seat": e.seat, "n": D.DECREE_VP, "why": "decree"}))
    elif e.special == "guild" and e.removed:
        gain = min(D.GUILD_MAX, e.removed)
        s.vp = _add(s.vp, e.seat, gain)
        ev.append(Event("score", {"seat": e.seat, "n": gain, "why": "guild"}))
    _next_player(s, ev)


def _target(s: EoaState, seat: int, a: Target, ev: list[Event]) -> None:
    e = s.effect
    step = e.steps[0]
    rest = e.steps[1:]
    if step == "bump":
        _discard_cube(s, a.a, a.b)
        ev.append(Event("bumped", {"seat": seat, "ship": a.a, "colour": a.b}))
    elif step in ("place1", "place1x", "place2"):
        k = 2 if step == "place2" else 1
        _put_cubes(s, seat, a.a, k)
        e = e._replace(ship=a.a)
        ev.append(Event("placed", {"seat": seat, "ship": a.a, "n": k}))
    elif step == "aristo":
        if a.b >= 0:
            _discard_cube(s, a.a, a.b)
            ev.append(Event("bumped", {"seat": seat, "ship": a.a, "colour": a.b}))
        _put_cubes(s, seat, a.a, 1)
        ev.append(Event("placed", {"seat": seat, "ship": a.a, "n": 1}))
    elif step in ("move", "royal"):
        e = e._replace(moved=e.moved + (a.a,))
        if _move_ship(s, a.a, seat, step == "royal", ev):
            rest = rest + ("draw_special",)
    elif step == "sabotage":
        k = _wreck(s, a.a)
        e = e._replace(removed=k)
        ev.append(Event("sabotage", {"seat": seat, "ship": a.a, "n": k}))
    elif step == "betray":
        if a.a >= 0:
            e = e._replace(ship=a.a)
            rest = ("remove",) + rest
            ev.append(Event("betray_ship", {"seat": seat, "ship": a.a}))
        else:
            k = min(4, s.pool[a.b])
            s.pool = _add(s.pool, a.b, -k)
            s.building = _add(s.building, a.b, k)
            e = e._replace(removed=k)
            ev.append(Event("betray_senate", {"seat": seat, "target": a.b, "n": k}))
    elif step == "remove":
        _discard_cube(s, a.a, a.b)
        e = e._replace(removed=e.removed + 1)
        ev.append(Event("bumped", {"seat": seat, "ship": a.a, "colour": a.b}))
        rest = e.steps  # stays until 4, Done, or nothing left
        if e.removed >= 4:
            rest = e.steps[1:]
    s.effect = e._replace(steps=rest)
    _continue_effect(s, ev)


def _done(s: EoaState, seat: int, ev: list[Event]) -> None:
    e = s.effect
    s.effect = e._replace(steps=e.steps[1:])
    _continue_effect(s, ev)


def _wreck(s: EoaState, i: int) -> int:
    """Discard everything aboard (except cubes immune to red cards); back to port."""
    sh = s.ships[i]
    k = 0
    for c in range(D.COLOURS):
        if sh.cubes[c] and not immune(s, c):
            k += sh.cubes[c]
            _discard_cube(s, i, c, sh.cubes[c])
    s.ships = _set(s.ships, i, s.ships[i]._replace(at_sea=False))
    _ark_refill(s, i)
    return k


def _ark_refill(s: EoaState, i: int) -> None:
    sh = s.ships[i]
    if sh.tile == D.ARK + D.ADVANCED and sh.cubes[D.NEUTRAL] == 0 and s.camp > 0 and free(sh) > 0:
        s.ships = _set(s.ships, i, sh._replace(cubes=_add(sh.cubes, D.NEUTRAL, 1)))
        s.camp -= 1


def _move_ship(s: EoaState, i: int, mover: int, royal: bool, ev: list[Event]) -> bool:
    """Move ship ``i`` one area.  Returns True when the mover earns a special card."""
    sh = s.ships[i]
    if not sh.at_sea and sh.tile != D.AIRSHIP + D.ADVANCED:
        s.ships = _set(s.ships, i, sh._replace(at_sea=True))
        ev.append(Event("sailed", {"ship": i, "seat": mover}))
        return False
    from_ocean = sh.at_sea
    _arrive(s, i, mover, royal, ev)
    if mover >= 0 and from_ocean and sh.tile == D.SCIENCE + D.ADVANCED:
        s.vp = _add(s.vp, mover, D.SCIENCE_BONUS)
        ev.append(Event("score", {"seat": mover, "n": D.SCIENCE_BONUS, "why": "science"}))
    return mover >= 0 and from_ocean and sh.tile == D.ROYAL_VESSEL + D.ADVANCED


def arrival_scores(cubes: tuple[int, ...], n: int, royal: bool) -> list[int]:
    chart = D.ROYAL_CHART if royal else D.CHART
    present = sum(1 for c in cubes if c > 0)
    return [chart[min(cubes[p], 5) - 1] + present - 1 if cubes[p] else 0 for p in range(n)]


def _arrive(s: EoaState, i: int, mover: int, royal: bool, ev: list[Event]) -> None:
    sh = s.ships[i]
    gains = arrival_scores(sh.cubes, s.n, royal)
    if mover >= 0:
        gains[mover] += D.MOVER_BONUS
    s.vp = tuple(v + g for v, g in zip(s.vp, gains))
    s.pl = tuple(p + sh.cubes[q] for q, p in enumerate(s.pl))
    s.pl_neutral += sh.cubes[D.NEUTRAL]
    s.ships = _set(s.ships, i, Ship(sh.tile, False, (0,) * D.COLOURS))
    ev.append(Event("arrived", {"ship": i, "tile": sh.tile, "seat": mover, "royal": royal,
                                "cubes": sh.cubes, "gains": tuple(gains)}))
    _ark_refill(s, i)


# --- Doom phase -----------------------------------------------------------------------------------------
def _ranked_for_awards(s: EoaState) -> list[int]:
    return faction_order(s) if s.family else senate_order(s)


def _award(s: EoaState, seat: int, n: int, why: str, ev: list[Event]) -> None:
    if n <= 0:
        return
    s.vp = _add(s.vp, seat, n)
    ev.append(Event("score", {"seat": seat, "n": n, "why": why}))


def _lazy_event(s: EoaState, allow_doom: bool = True) -> int:
    """Draw an Event card: the deck's order is decided only as cards are drawn."""
    dooms = s.ev_doom_left if allow_doom else 0
    total = dooms + s.ev_other_left
    if total <= 0:
        return -1
    r, rng = s.rng.below(total)
    if r < dooms:
        s.ev_doom_left -= 1
        card = D.DOOM_EVENTS[s.ev_doom_left]
    else:
        j, rng = rng.below(len(s.ev_pool))
        card = s.ev_pool[j]
        s.ev_pool = s.ev_pool[:j] + s.ev_pool[j + 1:]
        s.ev_other_left -= 1
    s.rng = rng
    return card


def _doom(s: EoaState, ev: list[Event]) -> None:
    s.stage = "doom"
    s.vote = -1
    s.effect = None
    ev.append(Event("doom_phase", {"turn": s.turn}))
    key = D.EVENT_KEY[s.event] if s.event >= 0 else ""
    order = _ranked_for_awards(s)
    if key == "leadership" and s.pl_neutral:
        top = [p for p in order if s.family or s.pool[p] > 0]
        if top:
            _award(s, top[0], s.pl_neutral, "leadership", ev)
        if len(top) > 1:
            _award(s, top[1], (s.pl_neutral + 1) // 2, "leadership", ev)
    rank = {p: i for i, p in enumerate(senate_order(s))}
    best = min(range(s.n), key=lambda p: (-s.pl[p], rank[p]))
    if s.pl[best] > 0 and s.pl[best] >= s.pl_neutral:
        _award(s, best, D.MOST_IN_PROMISED_LAND, "promised_land", ev)
    if not s.family:
        best = min(range(s.n), key=lambda p: (-s.pool[p], rank[p]))
        if s.pool[best] > 0:
            _award(s, best, D.MOST_IN_SENATE, "senate", ev)
    # the Event card
    if s.rev_events:
        card, s.ev_top = s.ev_top, -1
    else:
        card = _lazy_event(s)
    if card in D.DOOM_EVENTS and s.doom_markers == 1 and s.turn <= D.EARLY_DOOM_TURNS:
        card = _lazy_event(s, allow_doom=False)
        s.ev_doom_left += 1
        ev.append(Event("doom_returned", {"turn": s.turn}))
    if s.rev_events:
        s.ev_top = _lazy_event(s)
    s.event = card
    ev.append(Event("event", {"card": card, "top": s.ev_top}))
    ekey = D.EVENT_KEY[card]
    if ekey == "doom":
        s.doom_markers -= 1
        if s.doom_markers == 0:
            _end_game(s, ev)
            return
        if not s.chosen:
            upgrade = D.DOOM_UPGRADES[D.DOOM_MARKERS - 1 - s.doom_markers]
            for i, sh in enumerate(s.ships):
                if sh.tile < D.ADVANCED and sh.tile in upgrade:
                    s.ships = _set(s.ships, i, sh._replace(tile=sh.tile + D.ADVANCED))
                    ev.append(Event("upgraded", {"ship": i, "tile": sh.tile + D.ADVANCED}))
                    _ark_refill(s, i)
    elif ekey == "senate_pays":
        top = [p for p in order if s.family or s.pool[p] > 0]
        for p, pts in zip(top, D.SENATE_PAYS):
            _award(s, p, pts, "senate_pays", ev)
    elif ekey == "wrath":
        for i, sh in enumerate(s.ships):
            if sh.at_sea:
                k = 0
                for c in range(D.COLOURS):
                    if sh.cubes[c]:
                        k += sh.cubes[c]
                        _discard_cube(s, i, c, sh.cubes[c])
                s.ships = _set(s.ships, i, s.ships[i]._replace(at_sea=False))
                _ark_refill(s, i)
                ev.append(Event("wrecked", {"ship": i, "n": k}))
    elif ekey == "together":
        s.tqueue = tuple(senate_order(s))
        s.tcount = (0,) * s.n
        s.stage = "together"
        if _together_next(s, ev, advance=False):
            return
        return
    _doom_finish(s, ev)


def _together_can(s: EoaState, p: int) -> bool:
    return (s.tcount[p] < D.TOGETHER_MAX and s.screen[p] > 0
            and any(not sh.at_sea and free(sh) > 0 for sh in s.ships))


def _together_next(s: EoaState, ev: list[Event], advance: bool) -> bool:
    """Next placer in turn; returns True while someone still places."""
    q = list(s.tqueue)
    if advance and q:
        q = q[1:] + q[:1]
    q = [p for p in q if _together_can(s, p)]
    s.tqueue = tuple(q)
    if q:
        return True
    s.stage = "doom"
    _doom_finish(s, ev)
    return False


def _together_place(s: EoaState, seat: int, ship: int, ev: list[Event]) -> None:
    _put_cubes(s, seat, ship, 1)
    s.tcount = _add(s.tcount, seat, 1)
    ev.append(Event("placed", {"seat": seat, "ship": ship, "n": 1}))
    _together_next(s, ev, advance=True)


def _place_neutrals(s: EoaState, count: int, ev: list[Event]) -> None:
    order = sorted((i for i, sh in enumerate(s.ships) if not sh.at_sea),
                   key=lambda i: (-D.capacity(s.ships[i].tile), i))
    if not order:
        return
    j = 0
    placed = []
    for _ in range(count):
        if s.camp <= 0:
            break
        for _ in range(len(order)):
            i = order[j % len(order)]
            j += 1
            sh = s.ships[i]
            if free(sh) > 0:
                break
            if s.aggressive:
                rank = senate_order(s)
                aboard_p = [p for p in reversed(rank) if sh.cubes[p] > 0]
                if aboard_p:
                    _discard_cube(s, i, aboard_p[0])
                    ev.append(Event("pushed_off", {"ship": i, "colour": aboard_p[0]}))
                    break
        else:
            break
        sh = s.ships[i]
        s.ships = _set(s.ships, i, sh._replace(cubes=_add(sh.cubes, D.NEUTRAL, 1)))
        s.camp -= 1
        placed.append(i)
    if placed:
        ev.append(Event("neutrals", {"ships": tuple(placed)}))


def doom_movers(ships: tuple, k: int) -> list[int]:
    """Which ships sail in the Doom phase: full ones first, then the most refugees
    aboard, ties to the left; never an empty ship."""
    cands = [i for i, sh in enumerate(ships) if aboard(sh) > 0]
    cands.sort(key=lambda i: (free(ships[i]) > 0, -aboard(ships[i]), i))
    return cands[:k]


def _doom_finish(s: EoaState, ev: list[Event]) -> None:
    card = s.event
    ekey = D.EVENT_KEY[card]
    _place_neutrals(s, D.EVENT_NEUTRALS[card], ev)
    k = D.SHIPS_MOVED_IN_DOOM_2P if s.n == 2 else D.SHIPS_MOVED_IN_DOOM
    for i in doom_movers(s.ships, k):
        _move_ship(s, i, -1, False, ev)
    chaos = ekey == "chaos"
    n = s.n
    screen = list(s.screen)
    pool = list(s.pool)
    for p in range(n):
        screen[p] += s.building[p] + sum(s.card_tokens[p]) + s.pl[p]
        if not chaos:
            back = pool[p] if ekey in D.FULL_SENATE_RETURN else (pool[p] + 1) // 2
            screen[p] += back
            pool[p] -= back
    s.screen = tuple(screen)
    s.pool = tuple(pool)
    s.building = (0,) * n
    s.pl = (0,) * n
    s.camp += s.pl_neutral
    s.pl_neutral = 0
    s.discard = s.discard + tuple(c for r in s.rows for c in r)
    s.rows = ((),) * n
    s.card_tokens = ((),) * n
    if not chaos:
        s.holder = (-1,) * 7
    ev.append(Event("returned", {"chaos": chaos, "full": ekey in D.FULL_SENATE_RETURN}))
    _start_turn(s, ev)


def end_bonus(s: Any, p: int, card: int, first: int) -> int:
    """Victory points a special card gives ``p`` when the game ends."""
    key = D.SPECIAL_KEY[card]
    if key == "treasury":
        return D.TREASURY_VP
    if key == "favourite":
        return D.FAVOURITE_VP if first == p else 0
    if key == "builders":
        return min(D.BUILDERS_MAX, sum(sh.cubes[p] for sh in s.ships))
    return 0


def _end_game(s: EoaState, ev: list[Event]) -> None:
    """The special cards are turned up and scored.  The scores reach the other seats
    through the final view, not through events: they depend on cards that were
    secret until this moment (see the module docstring)."""
    order = senate_order(s)
    s.vp = tuple(s.vp[p] + sum(end_bonus(s, p, c, order[0]) for c in s.specials[p])
                 for p in range(s.n))
    rank = {p: i for i, p in enumerate(order)}
    win = min(range(s.n), key=lambda p: (-s.vp[p], rank[p]))
    s.final = (win,)
    s.stage = "over"
    s.end_reason = "the third Doom! card: Atlantis sinks"
    ev.append(Event("game_over", {}))
