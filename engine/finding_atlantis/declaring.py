"""Finding Atlantis -- declaring Atlantis, in small steps.

Right after an Explore that found Atlantis the explorer may pick spaces
(``PickCell`` toggles one, privately) and ``Declare`` once exactly as many are
picked as Atlantis has.  Right: that player wins.  Wrong: the declaration
becomes public and the player is moved to a random space that even they do not
know.  Neither step costs an action.
"""

from __future__ import annotations

from typing import Any

from ..components import put
from ..core import Event, IllegalAction, replace
from . import data
from .actions import PickCell
from .mapgen import inner_of
from .state import FAState
from .turns import spend

_NOT_NOW = "You can declare Atlantis only right after exploring an Atlantis space."


def pick(s: FAState, seat: int, a: PickCell) -> tuple[FAState, list[Event]]:
    if not s.may_declare[seat]:
        raise IllegalAction(_NOT_NOW)
    if not 0 <= a.cell < s.n * s.n:
        raise IllegalAction("That space is not on the map.")
    picks = s.picks[seat]
    picks = tuple(c for c in picks if c != a.cell) if a.cell in picks else tuple(sorted(picks + (a.cell,)))
    if len(picks) > s.k:
        raise IllegalAction(f"Atlantis has {s.k} spaces; unpick one first.")
    return replace(s, picks=put(s.picks, seat, picks)), []


def declare(s: FAState, seat: int, a: Any = None) -> tuple[FAState, list[Event]]:
    if not s.may_declare[seat]:
        raise IllegalAction(_NOT_NOW)
    picks = s.picks[seat]
    if len(picks) != s.k:
        raise IllegalAction(f"Pick exactly {s.k} spaces ({len(picks)} picked).")
    atl = tuple(sorted(inner_of(s.n, x) for x, t in enumerate(s.terrain) if t == data.ATLANTIS))
    s = replace(s, may_declare=put(s.may_declare, seat, False), picks=put(s.picks, seat, ()))
    if picks == atl:
        ev = [Event("declared", {"seat": seat, "cells": picks, "correct": True, "n": s.n})]
        return replace(s, phase="over", winners=(seat,), end_reason="found Atlantis"), ev
    ev = [Event("declared", {"seat": seat, "cells": picks, "correct": False, "n": s.n})]
    cell, rng = s.rng.below(s.n * s.n)
    s = replace(s, rng=rng, pos=put(s.pos, seat, cell), lost=put(s.lost, seat, True),
                lost_obs=put(s.lost_obs, seat, ()), lost_disp=put(s.lost_disp, seat, (0, 0)),
                failed=s.failed + ((seat, picks),), trail=put(s.trail, seat, ("teleport",)))
    ev.append(Event("teleported", {"seat": seat}))
    return spend(s, seat, ev, free=True)
