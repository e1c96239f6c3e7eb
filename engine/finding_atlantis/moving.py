"""Finding Atlantis -- moving a submarine, and what it can run into.

A move stops at the edge of the map (the mover is told privately), at a sea
monster (the submarine stays where it was and loses its next action) or on
another player's mine (see ``mine_hit``: an artifact card, used ones included,
goes to the mine's owner).  Your own mine never hurts you.
"""

from __future__ import annotations

from typing import Any

from ..components import put
from ..core import Event, replace
from . import data
from .board import step
from .state import FAState
from .turns import discard_random, lose_action


def move(state: FAState, seat: int, d: int, steps: int, public_dir: bool, label: str) -> tuple[FAState, list[Event]]:
    """Move ``steps`` spaces; stop at the edge, a sea monster or another's mine.
    ``label`` goes on the public trail (with the direction when ``public_dir``)."""
    events: list[Event] = []
    pos = state.pos[seat]
    moved = 0
    stop = ""
    owner = -1
    for _ in range(steps):
        nxt = step(state.n, pos, d)
        if nxt < 0:
            stop = "edge"
            break
        if nxt in state.monsters:
            stop = "monster"
            events.append(Event("monster_attack", {"seat": seat, "monster": nxt, "n": state.n}))
            break
        pos = nxt
        moved += 1
        owner = next((o for o in range(state.players) if o != seat and state.mines[o] == nxt), -1)
        if owner >= 0:
            stop = "mine"
            break
    dr, dc = data.DIRS[d]
    changes: dict[str, Any] = dict(pos=put(state.pos, seat, pos))
    if state.lost[seat]:
        r0, c0 = state.lost_disp[seat]
        changes["lost_disp"] = put(state.lost_disp, seat, (r0 + dr * moved, c0 + dc * moved))
    tag = f"{label}:{data.DIR_SHORT[d]}" if public_dir else label
    changes["trail"] = put(state.trail, seat, state.trail[seat] + (tag,))
    state = replace(state, **changes)
    events.insert(0, Event("moved", {"seat": seat, "steps": moved, "of": steps, "dir": d, "stop": stop},
                           to=(seat,)))
    if stop == "monster":
        state = lose_action(state, seat)
    elif stop == "mine":
        state, more = mine_hit(state, seat, owner)
        events += more
    return state, events


def mine_hit(state: FAState, seat: int, owner: int) -> tuple[FAState, list[Event]]:
    """``seat`` ran into ``owner``'s mine, which is spent.  The victim hands the owner
    one of its artifact cards at random, used ones included (RULES-DECISIONS: a used
    artifact still belongs to you and can be stolen); else it loses up to 2 random
    action cards (never Surface), face up.

    An unused card changes hands in secret (only the two of them learn which) and
    the owner may use it.  A used card stays used: it moves from the victim's used
    artifacts to the owner's, in public (used artifacts are public), and the sea
    monster it woke stays where it is."""
    events = [Event("mine_hit", {"seat": seat, "owner": owner})]
    state = replace(state, mines=put(state.mines, owner, -1))
    held, used = state.arts[seat], state.used[seat]
    if held or used:
        i, rng = state.rng.below(len(held) + len(used))
        if i < len(held):
            card = held[i]
            arts = put(state.arts, seat, held[:i] + held[i + 1:])
            arts = put(arts, owner, arts[owner] + (card,))
            state = replace(state, arts=arts, rng=rng)
            events.append(Event("mine_artifact", {"seat": seat, "owner": owner}))
            events.append(Event("mine_artifact_card", {"seat": seat, "owner": owner, "artifact": card[0]},
                                to=(seat, owner)))
            return state, events
        j = i - len(held)
        artifact = used[j]
        spent = put(state.used, seat, used[:j] + used[j + 1:])
        spent = put(spent, owner, spent[owner] + (artifact,))
        state = replace(state, used=spent, rng=rng)
        events.append(Event("mine_used_artifact", {"seat": seat, "owner": owner, "artifact": artifact}))
        return state, events
    lost = []
    for _ in range(data.MINE_DISCARDS):
        state, card = discard_random(state, seat)
        if card:
            lost.append(card)
    events.append(Event("mine_cards", {"seat": seat, "cards": tuple(lost)}))
    return state, events
