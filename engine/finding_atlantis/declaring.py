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


def pick(state: FAState, seat: int, action: PickCell) -> tuple[FAState, list[Event]]:
    if not state.may_declare[seat]:
        raise IllegalAction(_NOT_NOW)
    if not 0 <= action.cell < state.n * state.n:
        raise IllegalAction("That space is not on the map.")
    picks = state.picks[seat]
    if action.cell in picks:
        picks = tuple(c for c in picks if c != action.cell)
    else:
        picks = tuple(sorted(picks + (action.cell,)))
    if len(picks) > state.k:
        raise IllegalAction(f"Atlantis has {state.k} spaces; unpick one first.")
    return replace(state, picks=put(state.picks, seat, picks)), []


def declare(state: FAState, seat: int, action: Any = None) -> tuple[FAState, list[Event]]:
    if not state.may_declare[seat]:
        raise IllegalAction(_NOT_NOW)
    picks = state.picks[seat]
    if len(picks) != state.k:
        raise IllegalAction(f"Pick exactly {state.k} spaces ({len(picks)} picked).")
    atl = tuple(sorted(inner_of(state.n, x) for x, t in enumerate(state.terrain) if t == data.ATLANTIS))
    state = replace(state, may_declare=put(state.may_declare, seat, False), picks=put(state.picks, seat, ()))
    if picks == atl:
        events = [Event("declared", {"seat": seat, "cells": picks, "correct": True, "n": state.n})]
        return replace(state, phase="over", winners=(seat,), end_reason="found Atlantis"), events
    events = [Event("declared", {"seat": seat, "cells": picks, "correct": False, "n": state.n})]
    cell, rng = state.rng.below(state.n * state.n)
    state = replace(state, rng=rng, pos=put(state.pos, seat, cell), lost=put(state.lost, seat, True),
                    lost_obs=put(state.lost_obs, seat, ()), lost_disp=put(state.lost_disp, seat, (0, 0)),
                    failed=state.failed + ((seat, picks),), trail=put(state.trail, seat, ("teleport",)))
    events.append(Event("teleported", {"seat": seat}))
    return spend(state, seat, events, free=True)
