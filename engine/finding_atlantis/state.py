"""Finding Atlantis -- the options, the whole state, and what one seat may see of it.

``FAState`` holds everything, the map included; it is a frozen slots dataclass,
rebuilt with ``engine.core.replace``.  Its field order is part of the canonical
digest stored in every record: add fields at the end, never reorder them.
``FAView`` is whitelisted from it field by field (``view_of``): the seat's own
chart, hand, position and mine, and the public table; never the map.
"""

from __future__ import annotations


from ..core import View, state_class
from ..rng import Rng
from . import data as D


@state_class
class FAState:
    n: int
    k: int
    players: int
    pirate: bool
    roaming: bool
    paper: bool                         # display options: no rule depends on them
    assistant: bool
    max_rounds: int
    terrain: tuple[int, ...]            # per world cell (data.DEEP ...)
    pos: tuple[int, ...]                # map cell per seat
    lost: tuple[bool, ...]              # seat does not know where it is
    lost_obs: tuple[tuple[tuple[int, int, int], ...], ...]  # (dr, dc, facts) from the landing space
    lost_disp: tuple[tuple[int, int], ...]                  # own moves since landing
    charts: tuple[tuple[int, ...], ...]  # facts per world cell, per seat
    hands: tuple[tuple[str, ...], ...]  # action cards (and "captain") in hand
    played: tuple[tuple[tuple[str, int], ...], ...]  # discard pile: (card, burn dir or -1)
    captain: tuple[str, ...]
    offers: tuple[tuple[str, ...], ...]
    captain_shown: tuple[bool, ...]
    arts: tuple[tuple[tuple[str, int], ...], ...]   # unused artifacts held: (id, map cell found)
    used: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    taken: tuple[int, ...]              # artifact spaces already looted (map cells, sorted)
    mines: tuple[int, ...]              # map cell per seat, -1 none
    monsters: tuple[int, ...]           # map cells
    starts: tuple[int, ...]
    surfaced: tuple[int, ...]           # last surfacing cell per seat, -1 none
    trail: tuple[tuple[str, ...], ...]  # public moves since the last known position
    may_declare: tuple[bool, ...]
    picks: tuple[tuple[int, ...], ...]
    failed: tuple[tuple[int, tuple[int, ...]], ...]
    phase: str
    first: int
    turn: int
    actions_left: int
    skip: tuple[int, ...]
    round: int
    winners: tuple[int, ...]
    end_reason: str
    rng: Rng


@state_class
class PlayerPublic:
    start: int
    last_played: tuple[tuple[str, int], ...]   # the last 2 cards, oldest first
    played_count: int
    hand_count: int
    artifacts_held: int
    used: tuple[str, ...]
    captain: str                  # "" until shown
    surfaced: int
    trail: tuple[str, ...]
    has_mine: bool
    lost: bool
    skip: int


@state_class
class FAView(View):
    seat: int | None
    n: int
    k: int
    players: int
    pirate: bool
    roaming: bool
    paper: bool
    assistant: bool
    max_rounds: int
    phase: str
    turn: int
    first: int
    actions_left: int
    round: int
    public: tuple[PlayerPublic, ...]
    monsters: tuple[int, ...]
    deck_count: int
    failed: tuple[tuple[int, tuple[int, ...]], ...]
    winners: tuple[int, ...]
    end_reason: str
    # own (None / empty for a spectator)
    pos: int                      # -1 when unknown to the seat
    chart: tuple[int, ...]
    lost_obs: tuple[tuple[int, int, int], ...]
    lost_disp: tuple[int, int]
    hand: tuple[str, ...]
    captain: str
    offers: tuple[str, ...]
    artifacts: tuple[str, ...]
    mine: int
    may_declare: bool
    picks: tuple[int, ...]
    truth: tuple[int, ...] = ()   # the whole map (world terrain), for everyone once the game is over


# ``view_of`` runs for a seat after every move (self-play, bots, every screen), so it is
# built as ``engine.core.maker`` builds: a mutable twin of ``FAView`` filled by plain
# attribute stores, which then becomes an ``FAView`` (``__class__`` assignment).  The twin
# is a subclass adding no slots, with ``object``'s ``__setattr__``: its stores are plain
# slot stores, and the class assignment finds the layouts alike at once (a twin beside
# ``FAView``, with slots of its own, has them compared name by name).  The stores are
# written out here, each straight from the state (no 32-argument call in between).
_new = object.__new__


def _twin(cls: type) -> type:
    return type(cls.__name__, (cls,), {"__slots__": (), "__module__": __name__,
                                       "__setattr__": object.__setattr__, "__delattr__": object.__delattr__})


_ViewTwin = _twin(FAView)
_PublicTwin = _twin(PlayerPublic)
# The public row of each seat is made from per-seat fields of the state, and only from
# them: the "hot" ones (hand, discard pile, trail, surfacing) change with most actions --
# nearly always one seat's only --, the "cold" ones seldom.
# The last table seen: the state it came from and its ``PlayerPublic`` rows.  A row whose
# fields are those of the last table (the same tuples: states share what a move leaves
# alone) is the same value, so it is shared (public values only; the next table replaces
# the entry, whatever the match).
_last_public: tuple = (None, ())
_artifact_names: list = [((), ())] * D.MAX_SEATS  # per seat: its last ``arts`` and their ids


def _public_row(state: FAState, s: int) -> PlayerPublic:
    pile = state.played[s]
    row = _new(_PublicTwin)
    row.start = state.starts[s]
    row.last_played = pile[-2:]
    row.played_count = len(pile)
    row.hand_count = len(state.hands[s])
    row.artifacts_held = len(state.arts[s])
    row.used = state.used[s]
    row.captain = state.captain[s] if state.captain_shown[s] else ""
    row.surfaced = state.surfaced[s]
    row.trail = state.trail[s]
    row.has_mine = state.mines[s] >= 0
    row.lost = state.lost[s]
    row.skip = state.skip[s]
    row.__class__ = PlayerPublic
    return row


def _hot_row(state: FAState, s: int, old: PlayerPublic) -> PlayerPublic:
    """Seat ``s``'s row when only its hot fields changed: the cold ones are ``old``'s."""
    pile = state.played[s]
    row = _new(_PublicTwin)
    row.start = old.start
    row.last_played = pile[-2:]
    row.played_count = len(pile)
    row.hand_count = len(state.hands[s])
    row.artifacts_held = old.artifacts_held
    row.used = old.used
    row.captain = old.captain
    row.surfaced = state.surfaced[s]
    row.trail = state.trail[s]
    row.has_mine = old.has_mine
    row.lost = old.lost
    row.skip = old.skip
    row.__class__ = PlayerPublic
    return row


def public_of(state: FAState) -> tuple[PlayerPublic, ...]:
    """Every seat's public row (``FAView.public``)."""
    global _last_public
    last, pub = _last_public
    if last is state:
        return pub
    hands, played, trail, surfaced = state.hands, state.played, state.trail, state.surfaced
    if last is None or state.starts is not last.starts or state.arts is not last.arts \
            or state.used is not last.used or state.captain is not last.captain \
            or state.captain_shown is not last.captain_shown or state.mines is not last.mines \
            or state.lost is not last.lost or state.skip is not last.skip:
        pub = tuple([_public_row(state, s) for s in range(len(hands))])
    elif hands is not last.hands or played is not last.played or trail is not last.trail \
            or surfaced is not last.surfaced:
        last_hands, last_played, last_trail, last_surfaced = last.hands, last.played, last.trail, last.surfaced
        s = 0
        for hand in hands:
            if hand is not last_hands[s] or played[s] is not last_played[s] \
                    or trail[s] is not last_trail[s] or surfaced[s] != last_surfaced[s]:
                pub = (*pub[:s], _hot_row(state, s, pub[s]), *pub[s + 1:])
            s += 1
    _last_public = (state, pub)
    return pub


def view_of(state: FAState, seat: int | None) -> FAView:
    """What ``seat`` may know (``None``: a spectator), field by field in declaration order."""
    o = _new(_ViewTwin)
    o.seat = seat
    o.n = state.n
    o.k = state.k
    o.players = state.players
    o.pirate = state.pirate
    o.roaming = state.roaming
    o.paper = state.paper
    o.assistant = state.assistant
    o.max_rounds = state.max_rounds
    o.phase = phase = state.phase
    o.turn = state.turn
    o.first = state.first
    o.actions_left = state.actions_left
    o.round = state.round
    o.public = public_of(state)
    o.monsters = state.monsters
    o.deck_count = len(state.deck)
    o.failed = state.failed
    o.winners = state.winners
    o.end_reason = state.end_reason
    if seat is None:
        o.pos = -1
        o.chart = ()
        o.lost_obs = ()
        o.lost_disp = (0, 0)
        o.hand = ()
        o.captain = ""
        o.offers = ()
        o.artifacts = ()
        o.mine = -1
        o.may_declare = False
        o.picks = ()
    else:
        o.pos = -1 if state.lost[seat] else state.pos[seat]
        o.chart = state.charts[seat]
        o.lost_obs = state.lost_obs[seat]
        o.lost_disp = state.lost_disp[seat]
        o.hand = state.hands[seat]
        o.captain = state.captain[seat]
        o.offers = state.offers[seat]
        arts = state.arts[seat]
        if arts:
            known = _artifact_names[seat]
            if known[0] is not arts:
                known = _artifact_names[seat] = (arts, tuple([a for a, _ in arts]))
            o.artifacts = known[1]
        else:
            o.artifacts = ()
        o.mine = state.mines[seat]
        o.may_declare = state.may_declare[seat]
        o.picks = state.picks[seat]
    o.truth = state.terrain if phase == "over" else ()
    o.__class__ = FAView
    return o


def hand_for(pirate: bool) -> tuple[str, ...]:
    """A full hand: every action card of the mode, and the captain."""
    return D.BASE_CARDS + (D.PIRATE_CARDS if pirate else ()) + ("captain",)


def __getattr__(name: str) -> type:
    """``FindingAtlantisOptions`` lives in ``options.py``, imported on first use (pydantic: start time)."""
    if name == "FindingAtlantisOptions":
        from .options import FindingAtlantisOptions

        return FindingAtlantisOptions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
