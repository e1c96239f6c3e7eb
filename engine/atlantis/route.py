"""Questions about the route, answered from public fields only.

Every function here reads the fields a state and a view share (``tops``, ``heights``,
``figures``, ``bridges``, ``plates``), so the rules (on the state), ``legal`` and the
screen (on a view) ask the same questions and get the same answers.

* A space with plates shows its top plate (``tops[i]``, a plate id, -1 when empty).
* An empty space between two spaces with plates is water; runs of water are one gap.
  Empty spaces at either end are no longer part of the route (it got shorter).
* A gap costs the lower of the two top plates beside it, unless a bridge stands in it
  (``bridges[seat]`` is a space inside the gap, or -1 while unbuilt); the gap a bridge
  stands in is free for everyone, however it grows.
* ``destinations(view, figure)`` is what the screen shows for a chosen figure: every
  space it can reach with the cards in hand, the cards each way needs, the water.
"""

from __future__ import annotations

import functools

from itertools import chain, compress
from operator import itemgetter
from typing import Any, Iterator, NamedTuple

from . import data

_COLOUR_OF = data.COLOUR_OF + (-1,)   # index -1 (an empty space) gives colour -1
_VALUE_OF = data.VALUE_OF + (0,)
MAINLAND = data.MAINLAND


class Gap(NamedTuple):
    """A run of water: spaces ``first``..``last``; ``cost`` is the lower top beside it."""

    first: int
    last: int
    cost: int
    bridged: bool


class Way(NamedTuple):
    """One way to a destination: the card colours in the order they are played, and
    whether the water can be paid afterwards (with the bridge, when it helps)."""

    cards: tuple[int, ...]
    payable: bool


class Destination(NamedTuple):
    """A space the figure can reach (``MAINLAND`` for the mainland).

    ``water``: what crossing costs without building a bridge; ``bridge_water``: the
    least it costs when you build your bridge on one of the gaps crossed (the same as
    ``water`` when your bridge is already built or no unbridged gap is crossed);
    ``gaps``: the gaps crossed, in route order."""

    space: int
    ways: tuple[Way, ...]
    water: int
    bridge_water: int
    gaps: tuple[Gap, ...]


def colours(view: Any) -> tuple[int, ...]:
    """The colour of the top plate on every space (-1: empty)."""
    tops = view.tops
    return itemgetter(*tops)(_COLOUR_OF) if len(tops) > 1 else tuple(_COLOUR_OF[t] for t in tops)


# after the last space, every colour once: ``index`` always finds one (an index past the
# route is the mainland), so no ValueError to catch
_PAST_THE_END = tuple(range(data.NCOLOURS))


def top_value(view: Any, space: int) -> int:
    return _VALUE_OF[view.tops[space]]


def ends(heights: tuple[int, ...]) -> tuple[int, int]:
    """The first and last spaces that still hold plates ((SPACES, -1) if none does)."""
    if not any(heights):
        return data.SPACES, -1
    first = 0
    while not heights[first]:
        first += 1
    last = data.SPACES - 1
    while not heights[last]:
        last -= 1
    return first, last


def on_route(heights: tuple[int, ...], space: int) -> bool:
    """Is ``space`` still part of the route (a plate or water, not a lost end)?"""
    first, last = ends(heights)
    return first <= space <= last


def gaps(view: Any) -> tuple[Gap, ...]:
    """Every gap on the route, in order."""
    return _find_gaps(view.heights, view.tops, view.bridges)[0]


_WATER_OR_PLATES = bytes.maketrans(bytes(range(3)), b"wpp")  # heights 0, 1, 2 as letters
_new_gap = tuple.__new__   # ``Gap(...)`` less its Python-level ``__new__``


@functools.lru_cache(maxsize=256)
def _find_gaps(heights: tuple[int, ...], tops: tuple[int, ...], bridges: tuple[int, ...]
               ) -> tuple[tuple[Gap, ...], tuple[tuple[int, int, int], ...]]:
    """The gaps, and the unbridged ones as (first, last, cost) (kept for recent routes:
    ``legal`` and ``apply`` ask the same route for every figure and every point)."""
    row = bytes(heights).translate(_WATER_OR_PLATES)   # "w" water, "p" plates: scanned in C
    last = row.rfind(b"p")                             # the ends (``ends``): lost ends skipped
    i = row.find(b"w", row.find(b"p") + 1, last) if last > 0 else -1
    if i < 0:
        return (), ()
    built = [b for b in bridges if b >= 0]
    out: list[Gap] = []
    open_: list[tuple[int, int, int]] = []
    find, value = row.find, _VALUE_OF
    while i >= 0:
        j = find(b"p", i) - 1      # row[last] holds plates
        cost = value[tops[i - 1]]
        after = value[tops[j + 1]]
        if after < cost:
            cost = after
        for b in built:
            if i <= b <= j:
                out.append(_new_gap(Gap, (i, j, cost, True)))
                break
        else:
            out.append(_new_gap(Gap, (i, j, cost, False)))
            open_.append((i, j, cost))
        i = find(b"w", j + 2, last)
    return tuple(out), tuple(open_)


def gap_at(view: Any, space: int) -> Gap | None:
    for g in gaps(view):
        if g.first <= space <= g.last:
            return g
    return None


def crossed(all_gaps: tuple[Gap, ...], start: int, dest: int) -> tuple[Gap, ...]:
    """The gaps a figure crosses going from ``start`` to ``dest``."""
    return tuple(g for g in all_gaps if start < g.first and g.last < dest)


def water_cost(passed: tuple[Gap, ...], with_bridge: bool) -> int:
    """What the gaps passed cost; ``with_bridge``: you build yours on the dearest one."""
    costs = [g.cost for g in passed if not g.bridged]
    if not costs:
        return 0
    return sum(costs) - (max(costs) if with_bridge else 0)


def occupied(view: Any) -> frozenset[int]:
    """Spaces with a figure on them (Atlantis and the mainland hold any number)."""
    return frozenset(chain.from_iterable(view.figures)).difference(_OFF_ROUTE)


_OFF_ROUTE = (data.ATLANTIS, MAINLAND)


def next_plate(cols: tuple[int, ...], pos: int, colour: int) -> int:
    """The next space after ``pos`` whose top plate has ``colour``, else the mainland."""
    try:
        return cols.index(colour, pos + 1)
    except ValueError:
        return MAINLAND


def take_space(view: Any, pos: int, taken: frozenset[int] | None = None) -> int:
    """The space whose top plate a figure arriving at ``pos`` takes: the first one
    behind it with a plate and no figure (water, bridges and lost ends are skipped);
    -1 when there is none."""
    busy = occupied(view) if taken is None else taken
    heights = view.heights
    for i in range(min(pos, MAINLAND) - 1, -1, -1):
        if heights[i] and i not in busy:
            return i
    return -1


def counts_of(hand: tuple[int, ...]) -> list[int]:
    out = [0] * data.NCOLOURS
    for c in hand:
        out[c] += 1
    return out


def walks(cols: tuple[int, ...], busy: frozenset[int], counts: list[int], pos: int
          ) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every card sequence that takes a figure from ``pos`` to a free plate or the
    mainland, with where it ends: a card moves to the next plate of its colour, and
    on a plate under a figure another card must follow."""
    stack: list[tuple[int, tuple[int, ...]]] = [(pos, ())]
    while stack:
        here, seq = stack.pop()
        for c in range(data.NCOLOURS):
            if counts[c] <= seq.count(c):
                continue
            q = next_plate(cols, here, c)
            path = seq + (c,)
            if q == MAINLAND or q not in busy:
                yield path, q
            else:
                stack.append((q, path))


def resources(hand_size: int, plates: tuple[int, ...]) -> int:
    """What a player can pay with: a card counts 1, a plate its value."""
    return hand_size + sum(map(_VALUE_OF.__getitem__, plates))


class Plan(NamedTuple):
    """A whole move worked out from a position: used by ``legal`` and the bots."""

    cards: tuple[int, ...]
    dest: int
    water: int          # without a bridge
    bridge_water: int   # with the bridge on the dearest gap (== water if none can be built)
    payable: bool


def plans(view: Any, hand: tuple[int, ...], seat: int, start: int, pos: int,
          played: tuple[int, ...] = ()) -> list[Plan]:
    """Every complete move of a figure that started at ``start``, now at ``pos``
    after ``played`` (the cards already down), with the cards of ``hand``."""
    cols = colours(view)
    busy = occupied(view)
    all_gaps = gaps(view)
    can_bridge = view.bridges[seat] < 0
    wealth = resources(len(hand), view.plates[seat])
    counts = counts_of(hand)
    out: list[Plan] = []
    cache: dict[int, tuple[int, int]] = {}
    for seq, dest in walks(cols, busy, counts, pos):
        cost = cache.get(dest)
        if cost is None:
            passed = crossed(all_gaps, start, dest)
            cost = cache[dest] = (water_cost(passed, False), water_cost(passed, can_bridge))
        out.append(Plan(played + seq, dest, cost[0], cost[1], wealth - len(seq) >= cost[1]))
    return out


def first_cards(view: Any, hand: tuple[int, ...], seat: int, start: int, pos: int,
                stop_at_one: bool = False) -> tuple[int, ...]:
    """The colours that can begin a complete move from ``pos`` (the figure started at
    ``start``) that can be paid for; ``stop_at_one``: only whether there is one (the
    first such colour, or none)."""
    return first_cards_from(prepare(view, hand, seat), start, pos, stop_at_one)


_COLOUR_IDS = tuple(range(data.NCOLOURS))


def prepare(view: Any, hand: tuple[int, ...], seat: int) -> tuple:
    """What ``first_cards_from`` reads, the same for every figure of a seat in a position
    (ask once, then for each figure): ``index`` of the colours followed by every colour
    once, the occupied spaces, the unbridged gaps, whether the bridge can be built, the
    wealth, the cards per colour, the colours held, and a table of the water by start
    that ``_water_by_space`` fills."""
    counts = counts_of(hand)
    heights, tops, bridges = view.heights, view.tops, view.bridges
    can_bridge = bridges[seat] < 0
    return ((colours(view) + _PAST_THE_END).index, occupied(view), _find_gaps(heights, tops, bridges)[1],
            can_bridge, resources(len(hand), view.plates[seat]), counts,
            tuple(compress(_COLOUR_IDS, counts)),   # the colours held: the others never extend a walk
            {})                                     # water by space, per start (of these gaps)


def _water_by_space(prep: tuple, start: int) -> list[int]:
    """What ending a move on each space (index past the route: the mainland) costs, for a
    figure that started at ``start``: the open gaps wholly between, less the dearest one
    when the bridge can still be built.  (Never less further on: a move that stands on a
    space costing more than it can still pay goes nowhere it can pay.)  Remembered with
    the prepared position: the same for each of its figures that started at ``start``."""
    by_start = prep[7]
    out = by_start.get(start)
    if out is None:
        out, total, dearest = [], 0, 0
        can_bridge = prep[3]
        for first, last, cost in prep[2]:
            if first > start:
                out += [total - dearest] * (last + 1 - len(out))
                total += cost
                if can_bridge and cost > dearest:
                    dearest = cost
        out += [total - dearest] * (MAINLAND + data.NCOLOURS - len(out))
        by_start[start] = out
    return out


def first_cards_from(prep: tuple, start: int, pos: int, stop_at_one: bool = False) -> tuple[int, ...]:
    """``first_cards`` from ``prepare(view, hand, seat)``: ``walks`` from ``pos``, per first
    colour, until one ends where the water can be paid with what is left; a walk standing
    on a plate under a figure is dropped as soon as even one more card would leave too
    little (the water never gets cheaper further on)."""
    index, busy, _, _, wealth, counts, held, _ = prep
    water = _water_by_space(prep, start)
    out: list[int] = []
    for first in held:
        q = index(first, pos + 1)
        if q not in busy:  # a free plate or the mainland: one card
            if water[q] > wealth - 1:
                continue
        elif water[q] > wealth - 2:  # every move on from here needs one more card
            continue
        else:
            stack = [(q, (first,))]
            found = False
            while stack and not found:
                here, seq = stack.pop()
                left = wealth - len(seq) - 1   # what is left after one more card
                for c in held:
                    if counts[c] > seq.count(c):
                        q = index(c, here + 1)
                        if q not in busy:
                            if water[q] <= left:
                                found = True
                                break
                        elif water[q] <= left - 1:
                            stack.append((q, seq + (c,)))
            if not found:
                continue
        out.append(first)
        if stop_at_one:
            break
    return tuple(out)


def destinations(view: Any, figure: int) -> tuple[Destination, ...]:
    """For the view's own ``figure``: every reachable destination, in route order,
    with each way there (the cards, in order) and the water it costs.  Mid-move (the
    figure chosen and cards already played) the ways go on from where it stands and
    list only the cards still to play.  Computed from the view alone."""
    seat = view.seat
    if seat is None or view.hand is None:
        return ()
    start = view.figures[seat][figure]
    if start == MAINLAND:
        return ()
    pos = start
    if view.phase == "move" and view.mover == figure:
        pos = view.cursor
    all_gaps = gaps(view)
    can_bridge = view.bridges[seat] < 0
    wealth = resources(len(view.hand), view.plates[seat])
    by_dest: dict[int, list[Way]] = {}
    for seq, dest in walks(colours(view), occupied(view), counts_of(view.hand), pos):
        by_dest.setdefault(dest, []).append(seq)  # type: ignore[arg-type]
    out = []
    for dest in sorted(by_dest):
        passed = crossed(all_gaps, start, dest)
        water, bridge = water_cost(passed, False), water_cost(passed, can_bridge)
        ways = tuple(Way(seq, wealth - len(seq) >= bridge)
                     for seq in sorted(by_dest[dest], key=lambda s: (len(s), s)))  # type: ignore[arg-type]
        out.append(Destination(dest, ways, water, bridge, passed))
    return tuple(out)
