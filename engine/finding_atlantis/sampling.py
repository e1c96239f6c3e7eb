"""One full Finding Atlantis state consistent with a seat's view (the hard bot's
``sample_hidden``).

Drawn from the bot's stream, from its view only:

* **the map**: Atlantis and the artifacts placed where the seat's chart allows a
  trace (the traces it knows kept; ``secrets.constrained_map``, the leak tests'
  re-drawer), then checked against every fact of its chart (``secrets.consistent``);
  if none of ``MAP_TRIES`` candidates passes every check, the last candidate is
  kept (rejection sampling with a fallback: a sample may then break a fact, which
  only makes the search's picture a little blurred);
* the other submarines' positions and mines (anywhere), its own position while it
  is lost (one of the places its notes allow, ``knowledge.possible_positions``);
* the others' unplayed captains and dealt offers (from the captains nobody has
  shown and it was not dealt), the artifact cards they hold and the deck order;
* the others' discard piles below their two face-up cards, and so their hands
  (a full hand less what they played).

Where the view holds nothing of another seat's private record the sample makes
the simplest one that agrees with it: the others' charts are a copy of the bot's
own (they know what it knows), none of them may declare this turn, and an
artifact held is found on a looted space (the spaces its chart marks as artifact
spaces, and the sleeping monsters' spaces).  The game's own stream is the
caller's to replace.
"""

from __future__ import annotations

from collections import Counter

from ..core import replace
from ..rng import Rng
from . import data
from .knowledge import possible_positions
from .mapgen import generate, world_of
from .secrets import MAP_TRIES, consistent, constrained_map
from .state import FAState, FAView, hand_for


def sample_hidden(view: FAView, rng: Rng) -> tuple[FAState, Rng]:
    seat, n, players = view.seat, view.n, view.players
    cells = n * n
    public = view.public
    # positions and mines
    pos, mines = [], []
    for p in range(players):
        if p == seat:
            if view.pos >= 0:
                pos.append(view.pos)
            else:
                places = possible_positions(view) or list(range(cells))
                here, rng = rng.choice(places)
                pos.append(here)
            mines.append(view.mine)
            continue
        here, rng = rng.below(cells)
        pos.append(here)
        if public[p].has_mine:
            mine, rng = rng.below(cells)
            mines.append(mine)
        else:
            mines.append(-1)
    # hands and discard piles
    full = hand_for(view.pirate)
    hands, played = [], []
    for p in range(players):
        row = public[p]
        if p == seat:
            hands.append(view.hand)
            rest = Counter(full)
            rest.subtract(view.hand)
            rest.subtract(card for card, _ in row.last_played)
            earlier, rng = rng.shuffled(sorted(rest.elements()))
            played.append(tuple((c, -1) for c in earlier[:row.played_count - len(row.last_played)])
                          + row.last_played)
            continue
        rest = Counter(full)
        rest.subtract(card for card, _ in row.last_played)
        mixed, rng = rng.shuffled(sorted(rest.elements()))
        below = max(0, row.played_count - len(row.last_played))
        played.append(tuple((c, -1) for c in mixed[:below]) + row.last_played)
        hands.append(tuple(sorted(mixed[below:below + row.hand_count], key=full.index)))
    # captains
    shown = {row.captain for row in public if row.captain}
    pool = [c for c in data.CAPTAINS if c not in shown and c not in view.offers and c != view.captain]
    pool, rng = rng.shuffled(pool)
    chosen = _chosen_captains(view)
    captain, offers, j = [], [], 0
    for p in range(players):
        if p == seat:
            captain.append(view.captain)
            offers.append(view.offers)
        elif public[p].captain:
            captain.append(public[p].captain)
            offers.append(())
        elif chosen[p]:
            captain.append(pool[j])
            offers.append(())
            j += 1
        else:
            captain.append("")
            offers.append(tuple(pool[j:j + data.CAPTAINS_DEALT]))
            j += data.CAPTAINS_DEALT
    # artifact cards: where each was found is a looted space
    looted = sorted({c for c in range(cells) if view.chart[world_of(n, c)] & data.ART}
                    | (set() if view.roaming else set(view.monsters)))
    used = {a for row in public for a in row.used}
    left = [a for a in data.ARTIFACTS if a not in view.artifacts and a not in used]
    left, rng = rng.shuffled(left)
    arts, i = [], 0
    for p in range(players):
        names = view.artifacts if p == seat else tuple(left[i:i + public[p].artifacts_held])
        if p != seat:
            i += len(names)
        found = []
        for name in names:
            where, rng = rng.choice(looted) if looted else (pos[p], rng)
            found.append((name, where))
        arts.append(tuple(found))
    deck = tuple(left[i:i + view.deck_count])
    taken = tuple(sorted(set(looted) | {where for held in arts for _, where in held}))
    state = FAState(
        n=n, k=view.k, players=players, pirate=view.pirate, roaming=view.roaming, paper=view.paper,
        assistant=view.assistant, max_rounds=view.max_rounds, terrain=view.truth or view.chart,
        pos=tuple(pos), lost=tuple(row.lost for row in public),
        lost_obs=tuple(view.lost_obs if p == seat else () for p in range(players)),
        lost_disp=tuple(view.lost_disp if p == seat else (0, 0) for p in range(players)),
        charts=(view.chart,) * players, hands=tuple(hands), played=tuple(played),
        captain=tuple(captain), offers=tuple(offers),
        captain_shown=tuple(bool(row.captain) for row in public), arts=tuple(arts),
        used=tuple(row.used for row in public), deck=deck, taken=taken, mines=tuple(mines),
        monsters=view.monsters, starts=tuple(row.start for row in public),
        surfaced=tuple(row.surfaced for row in public), trail=tuple(row.trail for row in public),
        may_declare=tuple(view.may_declare if p == seat else False for p in range(players)),
        picks=tuple(view.picks if p == seat else () for p in range(players)), failed=view.failed,
        phase=view.phase, first=view.first, turn=view.turn, actions_left=view.actions_left,
        skip=tuple(row.skip for row in public), round=view.round, winners=view.winners,
        end_reason=view.end_reason, rng=rng)
    if view.truth:
        return state, rng
    terrain, rng = _map(state, seat, rng)
    return replace(state, terrain=terrain), rng


def _chosen_captains(view: FAView) -> list[bool]:
    """Who has kept a captain: everyone after the captain phase; during it, the seats
    from the first player up to the one to choose now."""
    if view.phase != "captain":
        return [True] * view.players
    done = [False] * view.players
    p = view.first
    while p != view.turn:
        done[p] = True
        p = (p + 1) % view.players
    return done


def _map(state: FAState, seat: int, rng: Rng) -> tuple[tuple[int, ...], Rng]:
    """A map agreeing with the seat's facts (see the module docstring); the checks
    leave out the notes of a lost seat, whose landing space is not known."""
    checked = replace(state, lost_obs=tuple(() for _ in state.lost_obs))
    last = None
    for _ in range(MAP_TRIES):
        cand, rng = constrained_map(state, seat, rng)
        if cand is None:
            continue
        last = cand
        if consistent(cand, checked, seat):
            return cand, rng
    if last is None:
        last, rng = generate(state.n, rng)
    return last, rng
