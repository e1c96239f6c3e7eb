"""Builders for End of Atlantis positions used by the rule tests.

Positions start from a real ``setup`` and are changed with ``engine.core.replace`` (the
state is a frozen slots dataclass of tuples: a changed position is a new state, the
original never moves)."""

from __future__ import annotations

from typing import Any, Sequence

from engine.core import replace
from engine.end_of_atlantis import data
from engine.end_of_atlantis.rules import EndOfAtlantisGame
from engine.end_of_atlantis.state import EoaState, Ship, Stage, senate_order

GAME = EndOfAtlantisGame()
NAMES = ("Red", "Blue", "Green", "Yellow", "Purple")


def fresh(players: int = 4, seed: int = 1, **options: Any) -> EoaState:
    return GAME.setup(GAME.parse_options(options), players, seed)


def cards_of(kind: str, count: int = 1, skip: int = 0) -> list[int]:
    ids = [i for i, k in enumerate(data.CARD_KIND) if k == kind]
    return ids[skip:skip + count]


def special_of(key: str) -> int:
    return data.SPECIAL_KEY.index(key)


def cubes(**by: int) -> tuple[int, ...]:
    """cubes(r=2, n=1) -> per-colour counts (r b g y p, n = neutral)."""
    out = [0] * data.COLOURS
    for k, v in by.items():
        out["rbgypn".index(k)] = v
    return tuple(out)


def ship(tile: int, at_sea: bool = False, **by: int) -> Ship:
    return Ship(tile, at_sea, cubes(**by))


def holders(**by: int) -> tuple[int, ...]:
    """holders(demagogos=0) -> who holds each Faction token (-1 nobody)."""
    out = [-1] * len(data.FACTIONS)
    for name, seat in by.items():
        out[data.FACTIONS.index(name.capitalize())] = seat
    return tuple(out)


def voting(players: int, kinds: Sequence[Sequence[str]], *, screen=None, pool=None,
           vote_kind: str = "hidden", seed: int = 1, **options: Any) -> EoaState:
    """A state at the start of vote 1 with each seat's row made of ``kinds``."""
    state = fresh(players, seed, **options)
    used: dict[str, int] = {}
    rows = []
    for row in kinds:
        r = []
        for k in row:
            r.append(cards_of(k, 1, used.get(k, 0))[0])
            used[k] = used.get(k, 0) + 1
        rows.append(tuple(r))
    allrows = {c for r in rows for c in r}
    changes: dict[str, Any] = dict(
        hands=tuple(tuple(c for c in h if c not in allrows) for h in state.hands),
        deck=tuple(c for c in state.deck if c not in allrows),
        voting_cards=tuple(rows), cards_to_lay=tuple(len(r) for r in rows),
        vote_cards=max(len(r) for r in rows), cards_revealed=True,
        face_up=tuple((True,) * len(r) for r in rows), tokens_on_cards=tuple((0,) * len(r) for r in rows),
        played=tuple((False,) * len(r) for r in rows), faction_holders=(-1,) * 7,
        vote_kind=vote_kind, vote=0, bids=(-1,) * players, vote_winners=(), play_queue=(), effect=None)
    if screen is not None:
        changes["screen"] = tuple(screen)
    if pool is not None:
        changes["senate_pool"] = tuple(pool)
    state = replace(state, **changes)
    if vote_kind == "hidden":
        return replace(state, stage=Stage.HIDDEN_VOTE)
    return replace(state, open_bidders=tuple(reversed(senate_order(state))), stage=Stage.OPEN_VOTE)


def act(state: EoaState, seat: int, action: Any) -> tuple[EoaState, list]:
    return GAME.apply(state, seat, action)


def run(state: EoaState, *moves: tuple[int, Any]) -> tuple[EoaState, list]:
    events: list = []
    for seat, a in moves:
        state, ev = GAME.apply(state, seat, a)
        events += ev
    return state, events
