"""Survive's fast legal lists (``engine/survive/lists.py``: tables and caches of pure
answers) give exactly what a slow, obvious enumeration written here gives -- the same
actions in the same order (random bots pick by index, so goldens and demos depend on
it) -- over whole self-play games, with two games interleaved (the caches remember the
last position they saw) and on views rebuilt from fresh tuples (caches keyed by object
identity must not answer for a different position)."""

from __future__ import annotations

from engine.core import SeatInfo, replace
from engine.match import Match
from engine.survive import data
from engine.survive.rules import SurviveGame
from engine.survive.actions import (
    Ashore, Board, CreatureStep, EndCreature, EndMoves, PlaceBoat, PlaceExplorer, Sail, Sink, Swim, Walk,
)

GAME = SurviveGame()
NB = data.NEIGHBOURS


# --- the slow, obvious rules (from the rule text and RULES-DECISIONS, survive) --------------
def _land(v, h):
    t = data.LAND_TILE_AT[h]
    return t >= 0 and not v.sunk[t]


def _sea(v, h):
    return 0 <= h < data.HEXES and not _land(v, h) and data.SAFE_AT[h] < 0


def _aboard(v, b):
    return [e for e, bb in enumerate(v.explorer_boat) if bb == b]


def _boardable_at(v, h):
    """The boat on sea hex h that has room and no creature beside it, or None."""
    for b, bh in enumerate(v.boat_hex):
        if bh == h and h >= 0 and h not in v.creature_hex and len(_aboard(v, b)) < data.BOAT_CAPACITY:
            return b
    return None


def _may_move(v, seat, b):
    counts = [sum(1 for e in _aboard(v, b) if e // data.EXPLORERS_PER_SEAT == p) for p in range(v.players)]
    return counts[seat] >= max(counts)


def slow_moves(v, seat):
    out = []
    for e in range(seat * data.EXPLORERS_PER_SEAT, (seat + 1) * data.EXPLORERS_PER_SEAT):
        h = v.explorer_hex[e]
        if h < 0:
            continue
        if v.explorer_boat[e] < 0 and not _sea(v, h):            # standing on land
            for n in NB[h]:
                if _land(v, n):
                    out.append(Walk(e, n))
                elif _sea(v, n):
                    if _boardable_at(v, n) is not None:
                        out.append(Board(e, _boardable_at(v, n)))
                    if n not in v.creature_hex:                  # into the sea
                        out.append(Swim(e, n))
            continue
        if v.explorer_boat[e] >= 0:                              # in a boat
            out += [Board(e, _boardable_at(v, n)) for n in NB[h] if _boardable_at(v, n) is not None]
            if data.ENTRANCE_OF[h] >= 0:
                out.append(Ashore(e))
        else:                                                    # swimming
            if _boardable_at(v, h) is not None:
                out.append(Board(e, _boardable_at(v, h)))
            if e not in v.swum:                                  # one sea hex: a swim or ashore
                out += [Swim(e, n) for n in NB[h] if _sea(v, n) and n not in v.creature_hex]
                if data.ENTRANCE_OF[h] >= 0:
                    out.append(Ashore(e))
    for b, h in enumerate(v.boat_hex):
        if h >= 0 and _may_move(v, seat, b):
            out += [Sail(b, n) for n in NB[h]
                    if _sea(v, n) and n not in v.creature_hex and n not in v.boat_hex]
    return out + [EndMoves()]


def slow_sinks(v):
    for terrain in (data.BEACH, data.FOREST, data.MOUNTAIN):
        ok = [t for t in range(len(v.terrain)) if v.terrain[t] == terrain and not v.sunk[t]
              and any(_sea(v, n) for n in NB[data.LAND_HEX_INDEX[t]])]
        if ok:
            return [Sink(t) for t in ok]
    return []


def slow_creature_steps(v):
    least, most = data.CREATURE_REACH[v.creature_kind]
    movers = [v.mover] if v.mover >= 0 else [c for c, h in enumerate(v.creature_hex)
                                              if h >= 0 and data.CREATURE_KIND[c] == v.creature_kind]
    out = []
    if v.mover < 0 or v.steps < most:
        out = [CreatureStep(c, n) for c in movers for n in NB[v.creature_hex[c]] if _sea(v, n)]
    if v.steps >= least or not out:
        out.append(EndCreature())
    return out


def slow_explorer_placements(v, seat):
    out, seen = [], set()
    for e in range(seat * data.EXPLORERS_PER_SEAT, (seat + 1) * data.EXPLORERS_PER_SEAT):
        if v.explorer_hex[e] == data.NOT_PLACED and v.values[e] not in seen:
            seen.add(v.values[e])
            out += [PlaceExplorer(e, h) for h in data.LAND_HEX_INDEX if h not in v.explorer_hex]
    return out


def slow_boat_placements(v):
    return [PlaceBoat(h) for h in range(data.HEXES)
            if _sea(v, h) and any(_land(v, n) for n in NB[h])
            and h not in v.boat_hex and h not in v.creature_hex]


def slow_legal(v):
    """The slow list for the phases ``lists.py`` makes fast (None: another phase)."""
    if v.seat != v.turn or v.phase == "respond":
        return None
    if v.phase == "move":
        return slow_moves(v, v.seat)
    if v.phase == "sink":
        return slow_sinks(v)
    if v.phase == "creature" or (v.phase == "red" and v.red in data.MOVES_CREATURE):
        return slow_creature_steps(v)
    if v.phase == "place_explorer":
        return slow_explorer_placements(v, v.seat)
    if v.phase == "place_boat":
        return slow_boat_placements(v)
    return None


def _fresh(v):
    """The same view with every piece tuple rebuilt (equal, not the same objects)."""
    return replace(v, sunk=tuple(list(v.sunk)), terrain=tuple(list(v.terrain)),
                   explorer_hex=tuple(list(v.explorer_hex)), explorer_boat=tuple(list(v.explorer_boat)),
                   boat_hex=tuple(list(v.boat_hex)), creature_hex=tuple(list(v.creature_hex)),
                   swum=tuple(list(v.swum)))


def test_fast_legal_lists_equal_a_slow_obvious_enumeration_over_interleaved_games():
    checked = {}
    for pair in range(12):
        seeds = (2 * pair, 2 * pair + 1)
        matches, bots = [], []
        for seed in seeds:
            n = 2 + seed % 3
            matches.append(Match(GAME, {"memory": seed % 4 != 3}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed))
            bots.append([GAME.make_bot(i, seed, "random") for i in range(n)])
        step = 0
        while any(m.result() is None for m in matches):
            for m, bs in zip(matches, bots):                    # one move of each game in turn
                if m.result() is not None:
                    continue
                (seat,) = m.to_act()
                view = m.view(seat)
                legal = GAME.legal(view)
                slow = slow_legal(view)
                if slow is not None:
                    assert legal == slow, (m.seed, view.phase, step)
                    checked[view.phase] = checked.get(view.phase, 0) + 1
                if step % 5 == 0:
                    assert GAME.legal(_fresh(view)) == legal, (m.seed, view.phase, step)
                    other = (seat + 1) % view.players             # not its turn: nothing
                    assert GAME.legal(m.view(other)) == [] or view.phase == "respond"
                m.act(seat, bs[seat].choose(view, legal))
                step += 1
    assert set(checked) >= {"move", "sink", "creature", "place_explorer", "place_boat"}, checked


def test_the_move_list_is_each_pieces_own_list_as_apply_checks_them():
    """``apply`` checks a move against the moving piece's own list (``board``); the move
    phase's whole list is those lists, explorer by explorer, then boat by boat."""
    from engine.survive import board

    for seed in range(6):
        n = 2 + seed % 3
        m = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        while m.result() is None:
            (seat,) = m.to_act()
            view = m.view(seat)
            legal = GAME.legal(view)
            if view.phase == "move":
                s = m.state
                pieces = [a for e in range(seat * data.EXPLORERS_PER_SEAT, (seat + 1) * data.EXPLORERS_PER_SEAT)
                          for a in board.explorer_moves(s, seat, e)]
                pieces += [a for b in range(data.BOATS) for a in board.boat_moves(s, seat, b)]
                assert legal == pieces + [EndMoves()]
            m.act(seat, bots[seat].choose(view, legal))


def test_the_move_list_is_right_for_positions_in_any_order():
    """``moves.py`` patches each seat's last list from the position it was made for
    (a walk remakes one explorer's part, a sail the pieces around the boat): positions
    asked for out of order (a seat's list after another game's, a turn skipped, the same
    position twice) must give the slow list all the same."""
    import random

    views = []
    for seed in (40, 41, 42):
        n = 2 + seed % 3
        m = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        while m.result() is None:
            (seat,) = m.to_act()
            view = m.view(seat)
            if view.phase == "move":
                views.append(view)
            m.act(seat, bots[seat].choose(view, GAME.legal(view)))
    order = list(range(len(views)))
    random.Random(7).shuffle(order)
    for i in order[:400] + order[:50]:
        assert GAME.legal(views[i]) == slow_moves(views[i], views[i].seat), i


def test_the_move_list_follows_a_change_of_water_or_creatures_alone():
    """A position that shares every other tuple with the seat's last one (by identity)
    but has another tile sunk or a creature elsewhere: the patched list must see it."""
    import random

    rnd = random.Random(3)
    seen = 0
    for seed in (50, 51):
        n = 2 + seed % 3
        m = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        while m.result() is None:
            (seat,) = m.to_act()
            view = m.view(seat)
            legal = GAME.legal(view)
            if view.phase == "move":
                afloat = [t for t, k in enumerate(view.sunk) if not k]
                sunk = list(view.sunk)
                sunk[rnd.choice(afloat)] = 1
                creatures = list(view.creature_hex)
                creatures[rnd.randrange(len(creatures))] = rnd.choice(
                    [h for h in range(data.HEXES) if _sea(view, h)])
                for other in (replace(view, sunk=tuple(sunk)), replace(view, creature_hex=tuple(creatures))):
                    assert GAME.legal(other) == slow_moves(other, seat)
                    assert GAME.legal(view) == legal
                    seen += 1
            m.act(seat, bots[seat].choose(view, legal))
    assert seen > 100
