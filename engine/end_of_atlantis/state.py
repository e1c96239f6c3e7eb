"""End of Atlantis: the state, the stages, and what one seat sees.

The state is a frozen slots dataclass of ints, strings and tuples (``engine.core``:
rebuilt with ``replace``, never changed).  Its field order is part of the canonical
digest every record stores: add fields only at the end, never reorder them.

A view (``make_view``) is built by whitelisting: every public field, the seat's own
hand, special cards, face-down choices and pending bid, counts for everything else.
Both offer the same few seat's-eye accessors (``hand_of``, ``specials_of``,
``face_down_of``, ``special_deck_count``), so the legality rules of the stage table read a
view on the client and the state inside ``apply`` with the same code.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from ..core import View, make, state_class
from ..rng import Rng
from . import data


class Stage(StrEnum):
    """Where in the turn the game is (the values are what the state stores)."""

    START = "start"                    # a new turn is about to begin (never waits)
    SENATE = "senate"                  # secret simultaneous Senate bids
    FACTIONS = "faction"               # in Senate order: take a Faction token or pass
    ABILITIES = "ability"              # end of Factions: Archont, Basileus, Demiurgos
    ARCHONT = "archont"                # the Archont discards what it drew
    LAY_CARDS = "order"                # everyone lays voting cards face down, in order
    HIDDEN_VOTE = "vote"               # secret simultaneous bids on one voting position
    DEMAGOGOS_LOOK = "peek"            # the Demagogos may look at one hidden bid
    DEMAGOGOS_REBID = "rebid"          # ... and then change their own
    DEMAGOGOS_CALL = "call"            # open vote: the Demagogos may make one player bid first
    OPEN_VOTE = "open"                 # in reverse Senate order, each names a bid nobody named
    PLAY = "play"                      # the winners play cards, one effect at a time
    TOGETHER = "together"              # We're All In This Together: refugees one at a time
    DOOM = "doom"                      # the Doom phase (never waits)
    OVER = "over"


# Stages in which bids not yet revealed stay hidden from the other seats.
SECRET_BID_STAGES = frozenset((Stage.SENATE, Stage.HIDDEN_VOTE, Stage.DEMAGOGOS_LOOK,
                               Stage.DEMAGOGOS_REBID))


class EffectStep(StrEnum):
    """One part of carrying out a Politics card (``Effect.steps``); each asks for a ``Target``
    unless it resolves by itself (``effects.AUTOMATIC``)."""

    PLACE_1 = "place1"                 # one refugee on a ship in port
    PLACE_2 = "place2"                 # two refugees on one ship in port
    PLACE_1_ELSEWHERE = "place1x"      # Refugees 2+1: the one on another ship
    ARISTOCRACY = "aristo"             # one refugee; on a full ship push off another colour
    ALLIANCE = "bump"                  # Alliance: first discard a cube of another colour
    MOVE = "move"                      # Ships: move a ship one area (each ship once)
    ROYAL = "royal"                    # Royal Ship: move one ship, royal chart
    SABOTAGE = "sabotage"              # a ship on the ocean loses everyone aboard
    BETRAY = "betray"                  # Betrayal: a ship in port, or a player's Senate tokens
    REMOVE = "remove"                  # Betrayal of a ship: discard cubes, up to 4
    DRAW_SPECIAL = "draw_special"      # draw (or, tactical, take) a special card


class Ship(NamedTuple):
    tile: int
    at_sea: bool
    cubes: tuple[int, ...]  # per colour (players 0-4, neutral 5)


class Effect(NamedTuple):
    """The Politics card being carried out: who plays it, from whose row, its kind, the
    special card riding on it (its key, or ""), the steps still to do, the ships moved
    so far, the ship chosen last, and how many cubes it discarded."""

    seat: int
    source: int
    card_kind: str
    rider: str
    steps: tuple[str, ...]
    ships_moved: tuple[int, ...]
    ship: int
    cubes_removed: int


# The kinds of turn in the Factions queue: the paid choice (one per player), the
# 2-player game's second, free token, and the free pick of those who passed.
FREE_SECOND, PAID, FREE_AFTER_PASS = 0, 1, 2


class FactionTurn(NamedTuple):
    seat: int
    kind: int  # PAID, FREE_SECOND or FREE_AFTER_PASS


class AbilityTurn(NamedTuple):
    seat: int
    faction: int


class Look(NamedTuple):
    """The Demagogos (``seat``) looked at ``target``'s hidden bid."""

    seat: int
    target: int


class PeekedBid(NamedTuple):
    """What the Demagogos saw: ``target`` bid ``tokens``."""

    target: int
    tokens: int


@state_class
class EoaState:
    players: int
    family: bool
    aggressive_neutrals: bool
    revealed_events: bool
    revealed_specials: bool
    ships_chosen: bool               # chosen ships: no upgrades
    turn: int
    stage: Stage
    vp: tuple                        # victory points per player
    screen: tuple                    # tokens behind each player's screen
    senate_pool: tuple
    buildings: tuple                 # tokens on the Faction buildings (paid or discarded)
    promised_land: tuple             # each player's refugees that arrived this turn
    promised_land_neutrals: int
    camp: int                        # neutral refugees in the camp
    ships: tuple                     # Ship, by board position (left to right)
    hands: tuple                     # Politics cards, sorted
    deck: tuple                      # the Politics deck: a sorted multiset (drawn at random)
    discard: tuple
    specials: tuple                  # each player's special cards, sorted
    special_deck: tuple
    special_discard: tuple
    face_up_specials: tuple          # tactical play
    faction_holders: tuple           # per Faction: the seat holding its token, or -1
    plus_one: tuple                  # per Faction: its token shows +1
    markers: tuple                   # per player: the Faction space of their marker
    faction_order: tuple             # the Senate order the Factions phase began with
    faction_queue: tuple             # FactionTurn
    faction_pos: int                 # index of the FactionTurn now
    faction_passers: tuple
    favour_seat: int                 # who played Senate Favour this phase, or -1
    ability_queue: tuple             # AbilityTurn, in END_OF_FACTIONS_ABILITIES order
    archont_discards: int            # cards the Archont has still to discard
    vote_cards: int                  # voting cards each player lays out this turn
    cards_to_lay: tuple              # per player, this turn
    voting_cards: tuple              # per player, the row in the order laid
    face_down: tuple                 # per player, the slots the Oraklos keeps face down
    cards_revealed: bool
    face_up: tuple                   # per player and slot: turned face up
    tokens_on_cards: tuple           # per player and slot: the tokens bid on it
    played: tuple                    # per player and slot: the card was played
    vote: int                        # voting position now, or -1
    vote_kind: str                   # "hidden" or "open", this turn
    bids: tuple                      # -1: not chosen yet
    demagogos_look: tuple            # Look, or ()
    demagogos_used: bool
    open_bidders: tuple              # who still names an open bid, next first
    vote_winners: tuple
    play_queue: tuple                # winners still to play, next first
    card_players: tuple              # who played a card in this vote (Strategos)
    effect: Any                      # Effect, or None
    last_bids: tuple
    last_winners: tuple
    last_refund: tuple               # (Strategos seat, tokens) of the last vote, or ()
    event: int                       # the Event card of the last Doom phase, or -1
    other_events: tuple              # non-Doom Event cards not yet drawn (some left in the box)
    other_events_left: int           # ... of which this many are in the deck
    dooms_left: int                  # Doom! cards in the deck
    top_event: int                   # the face-up top Event card (revealed events), or -1
    doom_markers: int
    together_queue: tuple            # who places next (We're All In This Together)
    together_placed: tuple           # per player, refugees placed so far
    game_winners: tuple
    end_reason: str
    rng: Rng

    # seat's-eye accessors, the same on a view (see the module docstring)
    def hand_of(self, seat: int) -> tuple:
        return self.hands[seat]

    def specials_of(self, seat: int) -> tuple:
        return self.specials[seat]

    def face_down_of(self, seat: int) -> tuple:
        return self.face_down[seat]

    @property
    def special_deck_count(self) -> int:
        return len(self.special_deck)


@state_class
class EoaView(View):
    seat: int | None
    players: int
    family: bool
    aggressive_neutrals: bool
    revealed_events: bool
    revealed_specials: bool
    ships_chosen: bool
    turn: int
    stage: Stage
    vp: tuple
    screen: tuple
    senate_pool: tuple
    buildings: tuple
    promised_land: tuple
    promised_land_neutrals: int
    camp: int
    ships: tuple
    hand: tuple | None               # own hand; None for a spectator
    hand_sizes: tuple
    deck_count: int
    discard: tuple
    my_specials: tuple | None
    special_counts: tuple
    all_specials: tuple              # everyone's special cards, once the game is over
    special_deck_count: int
    special_discard: tuple
    face_up_specials: tuple
    faction_holders: tuple
    plus_one: tuple
    markers: tuple
    faction_order: tuple
    faction_queue: tuple
    faction_pos: int
    faction_passers: tuple
    favour_seat: int
    ability_queue: tuple
    archont_discards: int            # only the Archont's own
    vote_cards: int
    cards_to_lay: tuple
    voting_cards: tuple              # own row in full; others -1 for a face-down card
    my_face_down: tuple | None
    cards_revealed: bool
    face_up: tuple
    tokens_on_cards: tuple
    played: tuple
    vote: int
    vote_kind: str
    bids: tuple                      # hidden stages: own bid, -2 "has chosen", -1 "still choosing"
    peeked_bid: tuple                # PeekedBid for the Demagogos who looked, else ()
    demagogos_used: bool
    open_bidders: tuple
    vote_winners: tuple
    play_queue: tuple
    card_players: tuple
    effect: Any
    last_bids: tuple
    last_winners: tuple
    last_refund: tuple
    event: int
    other_events: tuple
    events_left: int
    top_event: int
    doom_markers: int
    together_queue: tuple
    together_placed: tuple
    game_winners: tuple
    end_reason: str

    def hand_of(self, seat: int) -> tuple | None:
        return self.hand

    def specials_of(self, seat: int) -> tuple:
        return self.my_specials or ()

    def face_down_of(self, seat: int) -> tuple:
        return self.my_face_down or ()


_HIDDEN_ROWS = tuple((-1,) * k for k in range(data.HAND + 1))
_OVER = Stage.OVER


def row_lengths(cards: tuple) -> tuple:
    """How many voting cards each seat has laid (``voting_cards`` of a state or a view)."""
    return tuple(map(len, cards))


def public_rows(state: EoaState) -> tuple:
    """The voting rows as a spectator sees them: -1 for a card not turned up."""
    cards, face_up = state.voting_cards, state.face_up
    if not state.cards_revealed:  # while the cards are laid out: one row of -1 per card laid
        return tuple(_HIDDEN_ROWS[len(row)] for row in cards)
    return tuple(row if False not in face_up[p] else tuple(c if face_up[p][i] else -1 for i, c in enumerate(row))
                 for p, row in enumerate(cards))


def public_bids(bids: tuple) -> tuple:
    """Bids not yet revealed, as the other seats see them: -2 chosen, -1 still choosing."""
    return tuple(-2 if b >= 0 else -1 for b in bids)


#: The view's fields that are the state's own, as they are.
_AS_IN_THE_STATE = (
    "players", "family", "aggressive_neutrals", "revealed_events", "revealed_specials",
    "ships_chosen", "turn", "vp", "screen", "senate_pool", "buildings", "promised_land",
    "promised_land_neutrals", "camp", "ships", "discard", "special_discard", "face_up_specials",
    "faction_holders", "plus_one", "markers", "faction_order", "faction_queue", "faction_pos",
    "faction_passers", "favour_seat", "ability_queue", "vote_cards", "cards_to_lay",
    "cards_revealed", "face_up", "tokens_on_cards", "played", "vote", "vote_kind", "demagogos_used",
    "open_bidders", "vote_winners", "play_queue", "card_players", "effect", "last_bids",
    "last_winners", "last_refund", "event", "other_events", "top_event", "doom_markers",
    "together_queue", "together_placed", "game_winners", "end_reason",
)


def make_view(state: EoaState, seat: int | None) -> EoaView:
    """Everything ``seat`` may know (``None``: a spectator), and nothing else."""
    rows = public_rows(state)
    stage = state.stage
    secret = stage in SECRET_BID_STAGES
    bids = public_bids(state.bids) if secret else state.bids
    hands, specials = state.hands, state.specials
    if seat is None:
        own = dict(hand=None, my_specials=None, my_face_down=None, archont_discards=0, peeked_bid=())
    else:
        own = dict(hand=hands[seat], my_specials=specials[seat], my_face_down=state.face_down[seat], peeked_bid=())
        row = state.voting_cards[seat]
        if rows[seat] is not row:
            rows = (*rows[:seat], row, *rows[seat + 1:])
        if secret:
            mine = state.bids[seat]
            if mine != -1:  # (a seat still choosing sees its own -1 as everyone does)
                bids = (*bids[:seat], mine, *bids[seat + 1:])
            look = state.demagogos_look
            if look and look.seat == seat:
                own["peeked_bid"] = PeekedBid(look.target, state.bids[look.target])
        queue = state.ability_queue
        own["archont_discards"] = state.archont_discards if queue and queue[0].seat == seat else 0
    return make(
        EoaView, **own, **{name: getattr(state, name) for name in _AS_IN_THE_STATE},
        seat=seat,
        stage=stage,
        hand_sizes=tuple(map(len, hands)),
        deck_count=len(state.deck),
        special_counts=tuple(map(len, specials)),
        all_specials=specials if stage == _OVER else (),
        special_deck_count=len(state.special_deck),
        voting_cards=rows,
        bids=bids,
        events_left=state.other_events_left + state.dooms_left + (state.top_event >= 0))


# --- questions about the table (states and views alike) -------------------------------
_CAPACITY = data.CAPACITY


def free(ship: Ship) -> int:
    """Free spaces aboard."""
    return _CAPACITY[ship.tile] - sum(ship.cubes)


def aboard(ship: Ship) -> int:
    return sum(ship.cubes)


def in_port_with_room(ships: tuple) -> list[int]:
    return [i for i, sh in enumerate(ships) if not sh.at_sea and free(sh) > 0]


def senate_order(state: Any) -> list[int]:
    """Most tokens in the Senate pool first; ties to the marker nearer the left."""
    return senate_order_of(state.senate_pool, state.markers)


def senate_order_of(pool: tuple, markers: tuple) -> list[int]:
    return sorted(range(len(pool)), key=lambda p: (-pool[p], markers[p], p))


def marker_order(state: Any) -> list[int]:
    """Family rules: ties and awards go by the markers on the Faction spaces."""
    return sorted(range(state.players), key=lambda p: (state.markers[p], p))


def event_key(state: Any) -> str:
    """The key of the last Event card (its effects last the turn after it), or ""."""
    return data.EVENT_KEY[state.event] if state.event >= 0 else ""


def winners_needed(state: Any) -> int:
    base = 1 if state.players == 2 else 3 if state.players == 5 else 2
    if event_key(state) == "doomed" and state.players != 2:
        base -= 1
    return base


def immune(state: Any, colour: int) -> bool:
    """Two players: the Demagogos is immune to red cards."""
    return state.players == 2 and colour < data.NEUTRAL and state.faction_holders[data.DEMAGOGOS] == colour


def left_card_source(state: Any, seat: int) -> int | None:
    """The player to the left whose card a first place (or the Philosophios) may play:
    the next seat to the left that did not win this vote."""
    for i in range(1, state.players):
        t = (seat + i) % state.players
        if t not in state.vote_winners:
            return t
    return None


def one_per_kind(cards: tuple[int, ...]) -> list[int]:
    """Cards of one kind are alike: offer the first of each kind only."""
    seen: set[str] = set()
    out = []
    for c in cards:
        k = data.CARD_KIND[c]
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out
