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

from typing import Any, Iterator, NamedTuple

from . import data as D

_COLOUR_OF = D.COLOUR_OF + (-1,)   # index -1 (an empty space) gives colour -1
_VALUE_OF = D.VALUE_OF + (0,)
MAINLAND = D.MAINLAND


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


# Pure-function caches (a turn asks the same questions of the same route many times);
# keyed by the tuples themselves, so they cannot change any answer.
_COLOURS: dict[tuple[int, ...], tuple[int, ...]] = {}
_GAPS: dict[tuple, tuple["Gap", ...]] = {}
_CACHE_MAX = 4096


def colours(x: Any) -> tuple[int, ...]:
    """The colour of the top plate on every space (-1: empty)."""
    tops = x.tops
    last = _LAST_COLOURS[0]
    if last[0] is tops:
        return last[1]
    out = _COLOURS.get(tops)
    if out is None:
        if len(_COLOURS) >= _CACHE_MAX:
            _COLOURS.clear()
        out = _COLOURS[tops] = tuple(map(_COLOUR_OF.__getitem__, tops))
    _LAST_COLOURS[0] = (tops, out)
    return out


_LAST_COLOURS: list[tuple] = [(None, None)]


def top_value(x: Any, space: int) -> int:
    return _VALUE_OF[x.tops[space]]


def ends(heights: tuple[int, ...]) -> tuple[int, int]:
    """The first and last spaces that still hold plates ((SPACES, -1) if none does)."""
    if not any(heights):
        return D.SPACES, -1
    first = 0
    while not heights[first]:
        first += 1
    last = D.SPACES - 1
    while not heights[last]:
        last -= 1
    return first, last


def on_route(heights: tuple[int, ...], space: int) -> bool:
    """Is ``space`` still part of the route (a plate or water, not a lost end)?"""
    first, last = ends(heights)
    return first <= space <= last


def gaps(x: Any) -> tuple[Gap, ...]:
    """Every gap on the route, in order."""
    heights, tops, bridges = x.heights, x.tops, x.bridges
    last = _LAST_GAPS[0]
    if last[0] is heights and last[1] is tops and last[2] is bridges:
        return last[3]
    key = (heights, tops, bridges)
    out = _GAPS.get(key)
    if out is None:
        if len(_GAPS) >= _CACHE_MAX:
            _GAPS.clear()
        out = _GAPS[key] = _find_gaps(*key)
    _LAST_GAPS[0] = (heights, tops, bridges, out)
    return out


# the tuples last asked about (the same objects, usually) and the answer: one tuple, replaced
# whole (threads), read once
_LAST_GAPS: list[tuple] = [(None,) * 4]


def _find_gaps(heights: tuple[int, ...], tops: tuple[int, ...], bridges: tuple[int, ...]) -> tuple[Gap, ...]:
    first, last = ends(heights)
    if 0 not in heights[first:last + 1]:
        return ()
    empty = [i for i in range(first + 1, last) if not heights[i]]
    built = [b for b in bridges if b >= 0]
    out: list[Gap] = []
    k = 0
    while k < len(empty):
        i = j = empty[k]
        k += 1
        while k < len(empty) and empty[k] == j + 1:
            j = empty[k]
            k += 1
        cost = min(_VALUE_OF[tops[i - 1]], _VALUE_OF[tops[j + 1]])
        out.append(Gap(i, j, cost, any(i <= b <= j for b in built)))
    return tuple(out)


def gap_at(x: Any, space: int) -> Gap | None:
    for g in gaps(x):
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


_OCCUPIED: dict[tuple, frozenset[int]] = {}
_FIRSTS: dict[tuple, tuple[int, ...]] = {}


def occupied(x: Any) -> frozenset[int]:
    """Spaces with a figure on them (Atlantis and the mainland hold any number)."""
    figures = x.figures
    last = _LAST_OCCUPIED[0]
    if last[0] is figures:
        return last[1]
    out = _OCCUPIED.get(figures)
    if out is None:
        if len(_OCCUPIED) >= _CACHE_MAX:
            _OCCUPIED.clear()
        out = _OCCUPIED[figures] = frozenset(p for fs in figures for p in fs if 0 <= p < MAINLAND)
    _LAST_OCCUPIED[0] = (figures, out)
    return out


_LAST_OCCUPIED: list[tuple] = [(None, None)]


def next_plate(cols: tuple[int, ...], pos: int, colour: int) -> int:
    """The next space after ``pos`` whose top plate has ``colour``, else the mainland."""
    try:
        return cols.index(colour, pos + 1)
    except ValueError:
        return MAINLAND


def take_space(x: Any, pos: int, taken: frozenset[int] | None = None) -> int:
    """The space whose top plate a figure arriving at ``pos`` takes: the first one
    behind it with a plate and no figure (water, bridges and lost ends are skipped);
    -1 when there is none."""
    busy = occupied(x) if taken is None else taken
    heights = x.heights
    for i in range(min(pos, MAINLAND) - 1, -1, -1):
        if heights[i] and i not in busy:
            return i
    return -1


def counts_of(hand: tuple[int, ...]) -> list[int]:
    out = [0] * D.NCOLOURS
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
        for c in range(D.NCOLOURS):
            if counts[c] <= seq.count(c):
                continue
            q = next_plate(cols, here, c)
            path = seq + (c,)
            if q == MAINLAND or q not in busy:
                yield path, q
            else:
                stack.append((q, path))


_PLATES_WORTH: dict[tuple[int, ...], int] = {}  # a collection's value, asked several times a move


def resources(hand_size: int, plates: tuple[int, ...]) -> int:
    """What a player can pay with: a card counts 1, a plate its value."""
    worth = _PLATES_WORTH.get(plates)
    if worth is None:
        if len(_PLATES_WORTH) >= 4096:
            _PLATES_WORTH.clear()
        worth = _PLATES_WORTH[plates] = sum(map(_VALUE_OF.__getitem__, plates))
    return hand_size + worth


class Plan(NamedTuple):
    """A whole move worked out from a position: used by ``legal`` and the bots."""

    cards: tuple[int, ...]
    dest: int
    water: int          # without a bridge
    bridge_water: int   # with the bridge on the dearest gap (== water if none can be built)
    payable: bool


def plans(x: Any, hand: tuple[int, ...], seat: int, start: int, pos: int,
          played: tuple[int, ...] = ()) -> list[Plan]:
    """Every complete move of a figure that started at ``start``, now at ``pos``
    after ``played`` (the cards already down), with the cards of ``hand``."""
    cols = colours(x)
    busy = occupied(x)
    all_gaps = gaps(x)
    can_bridge = x.bridges[seat] < 0
    wealth = resources(len(hand), x.plates[seat])
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


def first_cards(x: Any, hand: tuple[int, ...], seat: int, start: int, pos: int,
                stop_at_one: bool = False) -> tuple[int, ...]:
    """The colours that can begin a complete move from ``pos`` (the figure started at
    ``start``) that can be paid for; ``stop_at_one``: only whether there is one.
    (Remembered: ``legal`` on the view and ``apply`` on the state ask the same.)"""
    tops, heights, bridges, figures, plates = x.tops, x.heights, x.bridges, x.figures, x.plates[seat]
    last = _LAST[0]   # one read: another thread may replace it, never change it
    # the same tuples as last time (a view shares its state's): answers per (start, pos)
    # without hashing the route again; otherwise the answers for these tuples' values
    if (last[0] is tops and last[1] is heights and last[2] is figures and last[3] is plates
            and last[4] is hand and last[5] is bridges and last[6] == seat):
        here = last[7]
    else:
        here = {}
        _LAST[0] = (tops, heights, figures, plates, hand, bridges, seat, here)
    out = here.get((start, pos))
    if out is None:
        key = (tops, heights, bridges, figures, plates, hand, seat, start, pos)
        out = _FIRSTS.get(key)
        if out is None and stop_at_one:
            # whether there is one: the first colour that works (the whole answer is
            # worked out when asked for, once that figure moves)
            some = here.get((start, pos, 1))
            if some is None:
                some = _FIRSTS.get((*key, 1))
                if some is None:
                    if len(_FIRSTS) >= _CACHE_MAX:
                        _FIRSTS.clear()
                    some = _FIRSTS[(*key, 1)] = _first_cards(x, hand, seat, start, pos, True,
                                                             _prepared(here, x, hand, seat))
                here[start, pos, 1] = some
            return some
        if out is None:
            if len(_FIRSTS) >= _CACHE_MAX:
                _FIRSTS.clear()
            out = _FIRSTS[key] = _first_cards(x, hand, seat, start, pos, False,
                                              _prepared(here, x, hand, seat))
        here[start, pos] = out
    return out[:1] if stop_at_one else out


def _prepared(here: dict, x: Any, hand: tuple[int, ...], seat: int) -> tuple:
    """``_prepare`` once for the tuples ``here`` belongs to (every figure asks)."""
    out = here.get(None)
    if out is None:
        out = here[None] = _prepare(x, hand, seat)
    return out


_LAST: list[tuple] = [(None,) * 8]


def _prepare(x: Any, hand: tuple[int, ...], seat: int) -> tuple:
    """What ``_first_cards`` reads, the same for every figure of a seat in a position."""
    counts = counts_of(hand)
    return (colours(x), occupied(x), [g for g in gaps(x) if not g.bridged], x.bridges[seat] < 0,
            resources(len(hand), x.plates[seat]), counts,
            [c for c in range(D.NCOLOURS) if counts[c]])   # the others never extend a walk


def _first_cards(x: Any, hand: tuple[int, ...], seat: int, start: int, pos: int,
                 stop_at_one: bool, prepared: tuple | None = None) -> tuple[int, ...]:
    cols, busy, open_gaps, can_bridge, wealth, counts, held = prepared or _prepare(x, hand, seat)
    gap_list = [(g.last, g.cost) for g in open_gaps if g.first > start]
    index = cols.index                                   # next_plate, inlined
    cost_at: dict[int, int] = {}
    out: list[int] = []
    for first in held:
        try:
            q = index(first, pos + 1)
        except ValueError:
            q = MAINLAND
        stack = [(q, (first,))]
        found = False
        while stack:
            here, seq = stack.pop()
            if here == MAINLAND or here not in busy:
                cost = cost_at.get(here)
                if cost is None:
                    costs = [c for last, c in gap_list if last < here]
                    cost = cost_at[here] = (sum(costs) - (max(costs) if can_bridge else 0)) if costs else 0
                if wealth - len(seq) >= cost:
                    found = True
                    break
                continue
            for c in held:
                if counts[c] > seq.count(c):
                    try:
                        q = index(c, here + 1)
                    except ValueError:
                        q = MAINLAND
                    stack.append((q, seq + (c,)))
        if found:
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
