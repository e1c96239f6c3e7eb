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
def _land(view, h):
    t = data.LAND_TILE_AT[h]
    return t >= 0 and not view.sunk[t]


def _sea(v, h):
    return 0 <= h < data.HEXES and not _land(v, h) and data.SAFE_AT[h] < 0


def _aboard(view, b):
    return [e for e, bb in enumerate(view.explorer_boat) if bb == b]


def _boardable_at(view, h):
    """The boat on sea hex h that has room and no creature beside it, or None."""
    for b, bh in enumerate(view.boat_hex):
        if bh == h and h >= 0 and h not in view.creature_hex and len(_aboard(view, b)) < data.BOAT_CAPACITY:
            return b
    return None


def _may_move(view, seat, b):
    counts = [sum(1 for e in _aboard(view, b) if e // data.EXPLORERS_PER_SEAT == p) for p in range(view.players)]
    return counts[seat] >= max(counts)


def slow_moves(view, seat):
    out = []
    for e in range(seat * data.EXPLORERS_PER_SEAT, (seat + 1) * data.EXPLORERS_PER_SEAT):
        h = view.explorer_hex[e]
        if h < 0:
            continue
        if view.explorer_boat[e] < 0 and not _sea(view, h):            # standing on land
            for n in NB[h]:
                if _land(view, n):
                    out.append(Walk(e, n))
                elif _sea(view, n):
                    if _boardable_at(view, n) is not None:
                        out.append(Board(e, _boardable_at(view, n)))
                    if n not in view.creature_hex:                  # into the sea
                        out.append(Swim(e, n))
            continue
        if view.explorer_boat[e] >= 0:                              # in a boat
            out += [Board(e, _boardable_at(view, n)) for n in NB[h] if _boardable_at(view, n) is not None]
            if data.ENTRANCE_OF[h] >= 0:
                out.append(Ashore(e))
        else:                                                    # swimming
            if _boardable_at(view, h) is not None:
                out.append(Board(e, _boardable_at(view, h)))
            if e not in view.swum:                                  # one sea hex: a swim or ashore
                out += [Swim(e, n) for n in NB[h] if _sea(view, n) and n not in view.creature_hex]
                if data.ENTRANCE_OF[h] >= 0:
                    out.append(Ashore(e))
    for b, h in enumerate(view.boat_hex):
        if h >= 0 and _may_move(view, seat, b):
            out += [Sail(b, n) for n in NB[h]
                    if _sea(view, n) and n not in view.creature_hex and n not in view.boat_hex]
    return out + [EndMoves()]


def slow_sinks(view):
    for terrain in (data.BEACH, data.FOREST, data.MOUNTAIN):
        ok = [t for t in range(len(view.terrain)) if view.terrain[t] == terrain and not view.sunk[t]
              and any(_sea(view, n) for n in NB[data.LAND_HEX_INDEX[t]])]
        if ok:
            return [Sink(t) for t in ok]
    return []


def slow_creature_steps(view):
    least, most = data.CREATURE_REACH[view.creature_kind]
    movers = [view.mover] if view.mover >= 0 else [c for c, h in enumerate(view.creature_hex)
                                              if h >= 0 and data.CREATURE_KIND[c] == view.creature_kind]
    out = []
    if view.mover < 0 or view.steps < most:
        out = [CreatureStep(c, n) for c in movers for n in NB[view.creature_hex[c]] if _sea(view, n)]
    if view.steps >= least or not out:
        out.append(EndCreature())
    return out


def slow_explorer_placements(view, seat):
    out, seen = [], set()
    for e in range(seat * data.EXPLORERS_PER_SEAT, (seat + 1) * data.EXPLORERS_PER_SEAT):
        if view.explorer_hex[e] == data.NOT_PLACED and view.values[e] not in seen:
            seen.add(view.values[e])
            out += [PlaceExplorer(e, h) for h in data.LAND_HEX_INDEX if h not in view.explorer_hex]
    return out


def slow_boat_placements(view):
    return [PlaceBoat(h) for h in range(data.HEXES)
            if _sea(view, h) and any(_land(view, n) for n in NB[h])
            and h not in view.boat_hex and h not in view.creature_hex]


def slow_legal(view):
    """The slow list for the phases ``lists.py`` makes fast (None: another phase)."""
    if view.seat != view.turn or view.phase == "respond":
        return None
    if view.phase == "move":
        return slow_moves(view, view.seat)
    if view.phase == "sink":
        return slow_sinks(view)
    if view.phase == "creature" or (view.phase == "red" and view.red in data.MOVES_CREATURE):
        return slow_creature_steps(view)
    if view.phase == "place_explorer":
        return slow_explorer_placements(view, view.seat)
    if view.phase == "place_boat":
        return slow_boat_placements(view)
    return None


def _fresh(view):
    """The same view with every piece tuple rebuilt (equal, not the same objects)."""
    return replace(view, sunk=tuple(list(view.sunk)), terrain=tuple(list(view.terrain)),
                   explorer_hex=tuple(list(view.explorer_hex)), explorer_boat=tuple(list(view.explorer_boat)),
                   boat_hex=tuple(list(view.boat_hex)), creature_hex=tuple(list(view.creature_hex)),
                   swum=tuple(list(view.swum)))


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
