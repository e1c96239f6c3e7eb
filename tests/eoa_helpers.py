"""Builders for End of Atlantis positions used by the rule tests.

Positions start from a real ``setup`` and are changed on a clone (the state is a
slots dataclass of tuples; ``clone()`` is a shallow copy, so setting a field on the
clone never touches the original)."""

from __future__ import annotations

from typing import Any, Sequence

from engine.end_of_atlantis import data as D
from engine.end_of_atlantis.rules import EndOfAtlantisGame, EoaState, Ship

GAME = EndOfAtlantisGame()
NAMES = ("Red", "Blue", "Green", "Yellow", "Purple")


def fresh(players: int = 4, seed: int = 1, **options: Any) -> EoaState:
    return GAME.setup(GAME.parse_options(options), players, seed)


def cards_of(kind: str, count: int = 1, skip: int = 0) -> list[int]:
    ids = [i for i, k in enumerate(D.CARD_KIND) if k == kind]
    return ids[skip:skip + count]


def special_of(key: str) -> int:
    return D.SPECIAL_KEY.index(key)


def cubes(**by: int) -> tuple[int, ...]:
    """cubes(r=2, n=1) -> per-colour counts (r b g y p, n = neutral)."""
    out = [0] * D.COLOURS
    for k, v in by.items():
        out["rbgypn".index(k)] = v
    return tuple(out)


def ship(tile: int, at_sea: bool = False, **by: int) -> Ship:
    return Ship(tile, at_sea, cubes(**by))


def voting(players: int, kinds: Sequence[Sequence[str]], *, screen=None, pool=None,
           vtype: str = "hidden", seed: int = 1, **options: Any) -> EoaState:
    """A state at the start of vote 1 with each seat's row made of ``kinds``."""
    s = fresh(players, seed, **options).clone()
    used: dict[str, int] = {}
    rows = []
    for row in kinds:
        r = []
        for k in row:
            r.append(cards_of(k, 1, used.get(k, 0))[0])
            used[k] = used.get(k, 0) + 1
        rows.append(tuple(r))
    allrows = {c for r in rows for c in r}
    s.hands = tuple(tuple(c for c in h if c not in allrows) for h in s.hands)
    s.deck = tuple(c for c in s.deck if c not in allrows)
    s.rows = tuple(rows)
    s.need = tuple(len(r) for r in rows)
    s.ncards = max(len(r) for r in rows)
    s.revealed = True
    s.shown = tuple((True,) * len(r) for r in rows)
    s.card_tokens = tuple((0,) * len(r) for r in rows)
    s.played = tuple((False,) * len(r) for r in rows)
    s.holder = (-1,) * 7
    if screen is not None:
        s.screen = tuple(screen)
    if pool is not None:
        s.pool = tuple(pool)
    s.vtype = vtype
    s.vote = 0
    s.bids = (-1,) * players
    s.winners = ()
    s.pqueue = ()
    s.effect = None
    if vtype == "hidden":
        s.stage = "vote"
    else:
        from engine.end_of_atlantis.rules import senate_order
        s.oqueue = tuple(reversed(senate_order(s)))
        s.stage = "open"
    return s


def act(s: EoaState, seat: int, action: Any) -> tuple[EoaState, list]:
    return GAME.apply(s, seat, action)


def run(s: EoaState, *moves: tuple[int, Any]) -> tuple[EoaState, list]:
    events: list = []
    for seat, a in moves:
        s, ev = GAME.apply(s, seat, a)
        events += ev
    return s, events
