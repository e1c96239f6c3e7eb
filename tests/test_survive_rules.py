"""Survive: Escape from Atlantis -- one test per rule (seed 002 and RULES-DECISIONS,
survive), each named after the rule it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.geometry import hex_ring
from engine.core import IllegalAction, SeatInfo, replace, to_data
from engine.match import Match
from engine.survive import board
from engine.survive import data
from engine.survive.rules import SurviveGame
from engine.survive.actions import (
    Ashore, Board, CreatureStep, Defend, DolphinStep, EndCreature, EndMoves, EndTile, NoDefence, NoTile,
    PlaceBoat, PlaceExplorer, PlayTile, Roll, Sail, Sink, Swim, Walk, WindStep,
)

GAME = SurviveGame()
H = data.INDEX                      # (q, r) -> hex index
TILE0 = 0                        # the land tile at (0, -3), top row of the island
T0 = data.LAND_HEX_INDEX[TILE0]


def hx(q: int, r: int) -> int:
    return H[(q, r)]


def position(players=2, explorers=None, boats=None, creatures=None, sunk=(), hands=None,
             phase="move", turn=0, backs=None, values=None, **more):
    """A state after setup: only the given pieces are on the board (explorers not
    listed are lost, boats in the reserve, creatures out of play)."""
    state = GAME.setup({}, players, 7)
    terrain = list(state.terrain)           # tile 0 (top row, on the coast) is a beach
    swap = terrain.index(data.BEACH)
    terrain[0], terrain[swap] = terrain[swap], terrain[0]
    state = replace(state, terrain=tuple(terrain))
    n = players * data.EXPLORERS_PER_SEAT
    eh, eb = [data.LOST] * n, [-1] * n
    for e, where in (explorers or {}).items():
        h, b = where if isinstance(where, tuple) else (where, -1)
        eh[e], eb[e] = h, b
    bh = [data.NOT_PLACED] * data.BOATS
    for b, h in (boats or {}).items():
        bh[b] = h
    ch = [data.NOT_PLACED] * data.CREATURES
    for c, h in (creatures or {}).items():
        ch[c] = h
    sk = [0] * 40
    for t in sunk:
        sk[t] = 1
    bk = list(state.backs)
    for t, back in (backs or {}).items():
        bk[t] = back
    changes = dict(explorer_hex=tuple(eh), explorer_boat=tuple(eb), boat_hex=tuple(bh),
                   creature_hex=tuple(ch), sunk=tuple(sk), backs=tuple(bk), phase=phase, turn=turn,
                   points=data.MOVE_POINTS if phase == "move" else 0,
                   hands=tuple(hands) if hands else ((),) * players)
    if values is not None:
        changes["values"] = tuple(values)
    changes.update(more)
    return replace(state, **changes)


def legal(state, seat=None):
    seat = state.turn if seat is None else seat
    return GAME.legal(GAME.view(state, seat))


def act(state, action, seat=None):
    seat = sorted(GAME.to_act(state))[0] if seat is None else seat
    return GAME.apply(state, seat, action)


SHARK = data.CREATURE_KIND.index("shark")
WHALE = data.CREATURE_KIND.index("whale")
SERPENT = 0
SEA_A, SEA_B, SEA_C, SEA_D = hx(0, -5), hx(1, -5), hx(2, -5), hx(3, -5)   # a row of open sea


# --- the board as data -----------------------------------------------------------------------
def test_island_is_40_land_tiles_16_beach_16_forest_8_mountain_laid_face_up_at_random():
    a, b = GAME.setup({}, 2, 1), GAME.setup({}, 2, 2)
    assert Counter(a.terrain) == {data.BEACH: 16, data.FOREST: 16, data.MOUNTAIN: 8}
    assert a.terrain != b.terrain
    assert len(data.LAND_HEXES) == 40 and len(set(data.LAND_HEX_INDEX)) == 40


def test_island_rows_are_4_5_8_7_8_5_4_around_a_central_sea_hex_where_a_serpent_starts():
    assert [len(r) for r in data.ISLAND.rows()] == [4, 5, 8, 7, 8, 5, 4]
    assert data.CENTRE not in data.LAND_HEXES and data.CENTRE in data.ISLAND
    state = GAME.setup({}, 3, 1)
    assert state.creature_hex[SERPENT] == data.CENTRE_INDEX and board.is_sea(state, data.CENTRE_INDEX)


def test_four_safe_islands_in_the_corners_each_reached_from_two_entrance_hexes():
    assert len(data.SAFE_INDEX) == 4
    rows = data.BOARD.rows()
    assert set(data.SAFE_HEXES) == {rows[0][0], rows[0][-1], rows[-1][0], rows[-1][-1]}
    for safe, entrances in zip(data.SAFE_INDEX, data.ENTRANCE_INDEX):
        assert len(entrances) == 2 and set(data.NEIGHBOURS[safe]) == set(entrances)


def test_the_other_serpents_start_next_to_each_safe_islands_entrances_not_on_them():
    state = GAME.setup({}, 2, 1)
    starts = [state.creature_hex[c] for c in range(5)]
    assert starts[0] == data.CENTRE_INDEX
    for h, entrances in zip(starts[1:], data.ENTRANCE_INDEX):
        assert h not in entrances and all(e in data.NEIGHBOURS[h] for e in entrances)
    assert all(state.creature_hex[c] == data.NOT_PLACED for c in range(5, data.CREATURES))


def test_open_sea_at_least_three_hexes_wide_around_the_island():
    for h in data.ISLAND.cells:
        for k in range(1, 4):
            for x in hex_ring(h, k):
                assert x in data.BOARD and (x in data.ISLAND or data.SAFE_AT[data.INDEX[x]] < 0)


# --- setup -------------------------------------------------------------------------------------
def test_explorers_are_placed_in_seat_order_one_at_a_time_on_empty_land_tiles():
    state = GAME.setup({}, 3, 5)
    for i in range(6):
        assert GAME.to_act(state) == {i % 3} and state.phase == "place_explorer"
        a = legal(state)[0]
        assert isinstance(a, PlaceExplorer) and a.hex in data.LAND_HEX_INDEX
        state, _ = act(state, a)
    assert sum(h >= 0 for h in state.explorer_hex) == 6


def test_at_setup_one_explorer_per_tile():
    state = GAME.setup({}, 2, 5)
    state, _ = act(state, PlaceExplorer(0, T0))
    assert all(a.hex != T0 for a in legal(state))
    with pytest.raises(IllegalAction):
        act(state, PlaceExplorer(10, T0))


def test_explorers_worth_the_same_are_offered_once():
    state = GAME.setup({}, 2, 5)
    values = {state.values[a.explorer] for a in legal(state)}
    assert len({a.explorer for a in legal(state)}) == 6 and values == {1, 2, 3, 4, 5, 6}


def test_boats_follow_in_seat_order_on_a_free_sea_hex_next_to_land():
    state = GAME.setup({}, 2, 5)
    while state.phase == "place_explorer":
        state, _ = act(state, legal(state)[0])
    for i in range(4):
        assert state.phase == "place_boat" and GAME.to_act(state) == {i % 2}
        options = legal(state)
        for a in options:
            assert board.is_sea(state, a.hex) and a.hex not in state.boat_hex and a.hex not in state.creature_hex
            assert any(board.is_land(state, n) for n in data.NEIGHBOURS[a.hex])
        assert PlaceBoat(data.CENTRE_INDEX) not in options      # the serpent is there
        state, _ = act(state, options[0])
    assert state.phase == "move" and state.turn == 0
    assert sorted(b for b, h in enumerate(state.boat_hex) if h >= 0) == [0, 1, 2, 3]


def test_each_player_has_ten_explorers_worth_1_1_1_2_2_3_3_4_5_6_and_two_boats():
    for n in (2, 3, 4):
        state = GAME.setup({}, n, 9)
        assert len(state.explorer_hex) == 10 * n
        for p in range(n):
            assert sorted(state.values[p * 10:(p + 1) * 10]) == [1, 1, 1, 2, 2, 3, 3, 4, 5, 6]
        assert len(state.boat_hex) == 12


# --- step 1: red tiles --------------------------------------------------------------------------
def test_step_one_a_player_plays_at_most_one_red_tile():
    state = position(explorers={0: SEA_A, 1: SEA_C}, hands=[(1, 2), ()], backs={1: "dolphin", 2: "dolphin"},
                 phase="tile")
    plays = [a for a in legal(state) if isinstance(a, PlayTile)]
    assert plays and NoTile() in legal(state)
    state, ev = act(state, plays[0])
    assert state.phase == "red" and ev[0].kind == "tile_played" and ev[0].to is None
    state, _ = act(state, EndTile())
    assert state.phase == "move" and not any(isinstance(a, PlayTile) for a in legal(state))


def test_a_player_holding_any_tile_is_asked_in_step_one_even_with_only_defensive_tiles():
    state = position(explorers={0: T0}, hands=[(1,), ()], backs={1: "shark_repellent"})
    state = replace(state, turn=1)
    state, _ = GAME.apply(replace(state, phase="creature", creature_kind="shark", after_creature="end",
                              creature_hex=(data.NOT_PLACED,) * data.CREATURES, turn=1), 1, EndCreature())
    assert state.turn == 0 and state.phase == "tile" and legal(state) == [NoTile()]
    empty = position(explorers={0: T0}, phase="creature", creature_kind="shark", after_creature="end", turn=1)
    after, _ = GAME.apply(empty, 1, EndCreature())
    assert after.turn == 0 and after.phase == "move"


def test_tiles_taken_this_turn_wait_for_a_later_turn():
    state = position(explorers={0: T0 + 5}, phase="sink", backs={TILE0: "dolphin"})
    state, _ = act(state, Sink(TILE0))
    assert state.hands[0] == (TILE0,) and state.phase == "roll"


# --- step 2: moving -----------------------------------------------------------------------------
def test_three_move_points_a_turn_shared_among_explorers_and_boats():
    land2 = data.LAND_HEX_INDEX[1]
    state = position(explorers={0: T0, 1: land2}, boats={0: SEA_A})
    state, _ = act(state, Walk(0, data.LAND_HEX_INDEX[4]))
    state, _ = act(state, Walk(1, data.LAND_HEX_INDEX[2]))
    assert state.points == 1
    state, _ = act(state, Sail(0, SEA_B))
    assert state.phase == "sink" and state.points == 0


def test_an_explorer_on_land_walks_to_a_neighbouring_land_tile():
    state = position(explorers={0: T0})
    walks = {a.to for a in legal(state) if isinstance(a, Walk)}
    assert walks == {n for n in data.NEIGHBOURS[T0] if board.is_land(state, n)}
    with pytest.raises(IllegalAction):
        act(state, Walk(0, data.CENTRE_INDEX))


def test_boarding_a_boat_next_to_land_or_next_to_a_boat_costs_one_point():
    sea = hx(0, -4)
    state = position(explorers={0: T0, 1: (hx(1, -4), 1)}, boats={0: sea, 1: hx(1, -4)})
    state, _ = act(state, Board(0, 0))
    assert state.explorer_hex[0] == sea and state.explorer_boat[0] == 0 and state.points == 2
    state, _ = act(state, Board(1, 0))       # from boat 1 into the neighbouring boat 0
    assert state.explorer_boat[1] == 0 and state.points == 1


def test_a_swimmer_boards_a_boat_in_its_own_hex():
    state = position(explorers={0: SEA_A}, boats={0: SEA_A})
    assert Board(0, 0) in legal(state)
    s2 = position(explorers={0: SEA_A}, boats={0: SEA_B})
    assert Board(0, 0) not in legal(s2)


def test_a_swimmer_swims_at_most_one_hex_a_turn():
    state = position(explorers={0: SEA_A})
    state, _ = act(state, Swim(0, SEA_B))
    assert not any(isinstance(a, Swim) for a in legal(state))
    with pytest.raises(IllegalAction):
        act(state, Swim(0, SEA_C))


def test_revised_an_explorer_on_land_may_step_into_a_neighbouring_sea_hex_for_one_point_becoming_a_swimmer():
    coast = hx(0, -4)                                   # open sea next to tile 0
    state = position(explorers={0: T0}, creatures={SHARK: hx(-1, -4)})
    steps = {a.to for a in legal(state) if isinstance(a, Swim)}
    assert coast in steps and hx(-1, -4) not in steps   # never into a creature
    assert steps == {n for n in data.NEIGHBOURS[T0] if board.is_sea(state, n) and n not in state.creature_hex}
    state, ev = act(state, Swim(0, coast))
    assert state.explorer_hex[0] == coast and board.is_swimmer(state, 0) and state.points == 2
    assert ev[0].kind == "swam"


def test_revised_stepping_into_the_sea_is_the_explorers_one_sea_hex_of_the_turn():
    coast = hx(0, -4)
    state, _ = act(position(explorers={0: T0}), Swim(0, coast))
    assert not any(isinstance(a, (Swim, Walk)) and a.explorer == 0 for a in legal(state))
    for n in data.NEIGHBOURS[coast]:
        with pytest.raises(IllegalAction):
            act(state, Swim(0, n))
    later = replace(state, swum=())                         # a later turn: it swims as any swimmer
    assert any(isinstance(a, Swim) and a.explorer == 0 for a in legal(later))


def test_revised_a_swimmer_that_swam_this_turn_cannot_also_step_ashore():
    entrance = data.ENTRANCE_INDEX[0][0]
    before = next(n for n in data.NEIGHBOURS[entrance] if data.ENTRANCE_OF[n] < 0 and data.SAFE_AT[n] < 0)
    state, _ = act(position(explorers={0: before}), Swim(0, entrance))
    assert Ashore(0) not in legal(state)
    with pytest.raises(IllegalAction):
        act(state, Ashore(0))
    fresh = position(explorers={0: entrance})           # one that did not swim may step ashore
    assert Ashore(0) in legal(fresh)


def test_a_boat_carries_at_most_three_explorers_of_any_colours():
    state = position(explorers={0: (SEA_A, 0), 1: (SEA_A, 0), 10: (SEA_A, 0), 2: SEA_A}, boats={0: SEA_A})
    assert Board(2, 0) not in legal(state)


def test_one_boat_per_sea_hex():
    state = position(boats={0: SEA_A, 1: SEA_B})
    assert Sail(0, SEA_B) not in legal(state) and Sail(0, hx(0, -6)) in legal(state)


def test_anyone_moves_an_empty_boat_an_occupied_one_needs_as_many_aboard_as_anyone():
    state = position(explorers={10: (SEA_A, 0), 11: (SEA_C, 1), 0: (SEA_C, 1), 12: (SEA_D, 2), 13: (SEA_D, 2),
                            1: (SEA_D, 2)}, boats={0: SEA_A, 1: SEA_C, 2: SEA_D, 3: hx(0, -6)})
    movable = {a.boat for a in legal(state) if isinstance(a, Sail)}
    assert movable == {1, 3}          # boat 3 empty, boat 1 a tie; not 0 (Blue's), not 2 (Blue 2 v 1)


def test_an_explorer_that_has_left_land_never_returns_to_it():
    state = position(explorers={0: hx(0, -4)})
    assert not any(isinstance(a, Walk) for a in legal(state))
    assert all(not board.is_land(state, a.to) for a in legal(state) if isinstance(a, Swim))


def test_stepping_onto_a_safe_island_from_an_entrance_saves_the_explorer():
    entrance = data.ENTRANCE_INDEX[0][0]
    state = position(explorers={0: entrance, 1: (data.ENTRANCE_INDEX[0][1], 0)}, boats={0: data.ENTRANCE_INDEX[0][1]})
    state, ev = act(state, Ashore(0))
    assert state.explorer_hex[0] == data.SAVED and ev[0].kind == "saved"
    state, _ = act(state, Ashore(1))
    assert state.explorer_hex[1] == data.SAVED and state.explorer_boat[1] == -1 and state.points == 1
    far = position(explorers={0: SEA_A})
    assert Ashore(0) not in legal(far)


def test_no_piece_moves_into_a_hex_that_holds_a_creature():
    state = position(explorers={0: SEA_A, 1: T0}, boats={0: SEA_C, 1: hx(0, -4)},
                 creatures={SHARK: SEA_B, SHARK + 1: hx(0, -4)})
    acts = legal(state)
    assert Swim(0, SEA_B) not in acts and Sail(0, SEA_B) not in acts and Board(1, 1) not in acts


def test_a_boat_sails_with_everyone_in_it():
    state = position(explorers={0: (SEA_A, 0), 10: (SEA_A, 0), 1: (SEA_A, 0)}, boats={0: SEA_A})
    state, _ = act(state, Sail(0, SEA_B))
    assert [state.explorer_hex[e] for e in (0, 1, 10)] == [SEA_B] * 3


# --- step 3: a tile leaves the island -------------------------------------------------------------
def test_the_removed_tile_must_touch_the_sea():
    state = position(phase="sink")
    for a in legal(state):
        assert board.coastal(state, a.tile)
    inland = next(t for t in range(40) if not board.coastal(state, t))
    with pytest.raises(IllegalAction):
        act(state, Sink(inland))


def test_beaches_go_first_then_forests_then_mountains():
    state = position(phase="sink")
    assert {state.terrain[a.tile] for a in legal(state)} == {data.BEACH}
    beaches = [t for t in range(40) if state.terrain[t] == data.BEACH]
    s2 = position(phase="sink", sunk=beaches)
    assert {s2.terrain[a.tile] for a in legal(s2)} == {data.FOREST}
    forests = [t for t in range(40) if state.terrain[t] == data.FOREST]
    s3 = position(phase="sink", sunk=beaches + forests)
    assert {s3.terrain[a.tile] for a in legal(s3)} == {data.MOUNTAIN}


def test_when_no_tile_of_the_lowest_terrain_touches_the_sea_the_next_terrain_goes():
    state = position(phase="sink")
    inland = next(t for t in range(40) if not board.coastal(state, t))
    state = replace(state, terrain=tuple(data.BEACH if t == inland else data.FOREST for t in range(40)))
    options = {a.tile for a in legal(state)}
    assert inland not in options and options == {t for t in range(40) if board.coastal(state, t)}


def test_revised_when_no_tile_of_the_lowest_terrain_left_touches_the_sea_a_coastal_tile_of_the_next_terrain_goes():
    state = position(phase="sink")
    inland = [t for t in range(40) if not board.coastal(state, t)]
    coast = [t for t in range(40) if board.coastal(state, t)]
    # beaches left only inland: a coastal forest goes, the beaches stay
    s1 = replace(state, terrain=tuple(data.BEACH if t in inland else data.FOREST for t in range(40)))
    assert {a.tile for a in legal(s1)} == set(coast)
    with pytest.raises(IllegalAction):
        act(s1, Sink(inland[0]))
    after, _ = act(s1, Sink(coast[0]))
    assert after.sunk[coast[0]]
    # beaches and forests left only inland: a coastal mountain goes
    s2 = replace(state, terrain=tuple((data.BEACH, data.FOREST)[t % 2] if t in inland else data.MOUNTAIN
                                  for t in range(40)))
    assert {s2.terrain[a.tile] for a in legal(s2)} == {data.MOUNTAIN}
    after, _ = act(s2, Sink(coast[-1]))
    assert after.sunk[coast[-1]]


def test_revised_the_help_tells_the_step_into_the_sea_and_the_one_sea_hex_a_turn():
    from engine.survive.text import HELP
    words = " ".join(HELP.split())
    assert "an explorer on land steps into a neighbouring sea hex" in words
    assert "a swimmer moves one sea hex a turn" in words.replace("**", "")
    assert "if no tile of the lowest terrain left touches the sea" in words


def test_explorers_on_a_removed_tile_become_swimmers():
    state = position(explorers={0: T0, 10: T0}, phase="sink", backs={TILE0: "dolphin"})
    state, ev = act(state, Sink(TILE0))
    assert board.is_swimmer(state, 0) and board.is_swimmer(state, 10)
    assert ev[0].data["swimmers"] == (0, 10)


def test_only_the_remover_sees_the_back_of_the_removed_tile():
    state = position(explorers={0: T0 + 9}, phase="sink", backs={TILE0: "wind"})
    _, ev = act(state, Sink(TILE0))
    looked = [e for e in ev if e.kind == "looked"]
    assert looked[0].to == (0,) and looked[0].data["back"] == "wind"
    assert all("wind" not in str(to_data(e)) for e in ev if e.to is None)


def test_green_tiles_act_at_once_and_are_shown_to_all():
    state = position(explorers={1: T0 + 9}, phase="sink", backs={TILE0: "whale"})
    state, ev = act(state, Sink(TILE0))
    shown = [e for e in ev if e.kind == "revealed"]
    assert shown and shown[0].to is None and shown[0].data["back"] == "whale"
    assert state.creature_hex[WHALE] == T0 and state.hands[0] == ()


def test_red_and_defensive_tiles_are_kept_face_down():
    for back in ("move_shark", "shark_repellent"):
        state = position(explorers={1: T0 + 9}, phase="sink", backs={TILE0: back})
        state, ev = act(state, Sink(TILE0))
        assert state.hands[0] == (TILE0,)
        assert [e.kind for e in ev if e.to is None] == ["sank", "kept"]
        assert GAME.view(state, 1).hand == () and GAME.view(state, 1).held[0] == (TILE0,)


def test_a_shark_from_a_tile_attacks_the_swimmers_there_at_once():
    state = position(explorers={0: T0, 1: T0 + 9}, phase="sink", backs={TILE0: "shark"})
    state, ev = act(state, Sink(TILE0))
    assert state.explorer_hex[0] == data.LOST and state.creature_hex[SHARK] == T0 and state.phase == "roll"


def test_a_boat_from_a_tile_takes_up_to_three_swimmers_one_player_at_a_time():
    state = position(players=3, explorers={0: T0, 1: T0, 10: T0, 11: T0, 20: T0}, phase="sink",
                 backs={TILE0: "boat"}, turn=1)
    state, _ = act(state, Sink(TILE0))
    b = state.boat_hex.index(T0)
    assert sorted(e for e in range(30) if state.explorer_boat[e] == b) == [0, 10, 20]


def test_a_whirlpool_takes_every_swimmer_there_and_around_but_no_boat():
    around = hx(0, -4)
    state = position(explorers={0: T0, 10: around, 11: (hx(1, -4), 0), 12: SEA_A}, boats={0: hx(1, -4)},
                 phase="sink", backs={TILE0: "whirlpool"})
    state, _ = act(state, Sink(TILE0))
    assert state.explorer_hex[0] == state.explorer_hex[10] == data.LOST
    assert state.explorer_hex[11] == hx(1, -4) and state.boat_hex[0] == hx(1, -4) and state.explorer_hex[12] == SEA_A


def test_the_volcano_ends_the_game_at_once():
    state = position(explorers={0: T0 + 9}, phase="sink", backs={TILE0: "volcano"})
    state, ev = act(state, Sink(TILE0))
    assert GAME.result(state) is not None and state.phase == "over" and "volcano" in state.end_reason


# --- step 4: the creature die ---------------------------------------------------------------------
def test_the_creature_die_has_two_serpent_two_shark_and_two_whale_faces():
    assert Counter(data.DIE_FACES) == {"serpent": 2, "shark": 2, "whale": 2}
    seen = Counter()
    for seed in range(300):
        state = position(phase="roll", creatures={SERPENT: SEA_A, SHARK: SEA_C, WHALE: hx(0, -6)},
                     explorers={0: T0})
        state = replace(state, rng=GAME.setup({}, 2, seed).rng)
        s2, _ = act(state, Roll())
        seen[s2.die] += 1
    assert set(seen) == {"serpent", "shark", "whale"} and min(seen.values()) > 70


def test_a_serpent_moves_one_hex_and_takes_a_boat_with_passengers_and_every_swimmer_there():
    state = position(explorers={0: (SEA_B, 0), 10: SEA_B, 1: T0}, boats={0: SEA_B}, creatures={SERPENT: SEA_A},
                 phase="creature", creature_kind="serpent", after_creature="end")
    assert EndCreature() not in legal(state)
    state, ev = act(state, CreatureStep(SERPENT, SEA_B))
    assert state.explorer_hex[0] == state.explorer_hex[10] == data.LOST and state.boat_hex[0] == data.LOST
    assert state.turn == 1


def test_a_serpent_leaves_empty_boats_alone():
    state = position(explorers={1: T0}, boats={0: SEA_B}, creatures={SERPENT: SEA_A}, phase="creature",
                 creature_kind="serpent", after_creature="end")
    state, _ = act(state, CreatureStep(SERPENT, SEA_B))
    assert state.boat_hex[0] == SEA_B


def test_a_shark_moves_up_to_two_hexes_may_stay_and_stops_where_it_eats_swimmers():
    state = position(explorers={10: SEA_B, 1: T0}, creatures={SHARK: SEA_A}, phase="creature",
                 creature_kind="shark", after_creature="end")
    assert EndCreature() in legal(state)
    s2, _ = act(state, CreatureStep(SHARK, SEA_B))
    assert s2.explorer_hex[10] == data.LOST and s2.turn == 1        # stopped: the turn passed
    s3 = position(explorers={1: T0}, creatures={SHARK: SEA_A}, phase="creature", creature_kind="shark",
                  after_creature="end")
    s3, _ = act(s3, CreatureStep(SHARK, SEA_B))
    s3, _ = act(s3, CreatureStep(SHARK, SEA_C))
    assert s3.creature_hex[SHARK] == SEA_C and s3.turn == 1       # two hexes, then over


def test_a_shark_leaves_boats_and_their_passengers_alone():
    state = position(explorers={10: (SEA_B, 0), 1: T0}, boats={0: SEA_B}, creatures={SHARK: SEA_A},
                 phase="creature", creature_kind="shark", after_creature="end")
    state, _ = act(state, CreatureStep(SHARK, SEA_B))
    assert state.explorer_hex[10] == SEA_B and state.phase == "creature"


def test_a_whale_moves_up_to_three_and_stops_at_a_boat_with_passengers_who_must_swim():
    state = position(explorers={10: (SEA_C, 0), 1: T0}, boats={0: SEA_C}, creatures={WHALE: SEA_A},
                 phase="creature", creature_kind="whale", after_creature="end")
    assert EndCreature() not in legal(state)
    state, _ = act(state, CreatureStep(WHALE, SEA_B))
    assert EndCreature() in legal(state)
    state, _ = act(state, CreatureStep(WHALE, SEA_C))
    assert state.boat_hex[0] == data.LOST and board.is_swimmer(state, 10) and state.turn == 1


def test_a_whale_leaves_swimmers_and_empty_boats_alone():
    state = position(explorers={10: SEA_B, 1: T0}, boats={0: SEA_C}, creatures={WHALE: SEA_A},
                 phase="creature", creature_kind="whale", after_creature="end")
    state, _ = act(state, CreatureStep(WHALE, SEA_B))
    state, _ = act(state, CreatureStep(WHALE, SEA_C))
    assert state.explorer_hex[10] == SEA_B and state.boat_hex[0] == SEA_C


def test_creatures_never_go_onto_land_or_a_safe_island():
    state = position(explorers={1: T0}, creatures={SHARK: hx(0, -4), SHARK + 1: data.ENTRANCE_INDEX[0][0]},
                 phase="creature", creature_kind="shark", after_creature="end")
    for a in legal(state):
        if isinstance(a, CreatureStep):
            assert board.is_sea(state, a.to)


def test_when_no_creature_of_the_rolled_kind_can_move_the_turn_passes():
    state = position(explorers={0: T0}, phase="roll")
    state, ev = act(state, Roll())
    assert any(e.kind == "no_creature" for e in ev) and state.turn == 1


# --- red tiles ----------------------------------------------------------------------------------
def test_a_dolphin_carries_one_of_your_swimmers_up_to_three_hexes():
    state = position(explorers={0: SEA_A, 1: T0}, hands=[(5,), ()], backs={5: "dolphin"}, phase="tile")
    state, _ = act(state, PlayTile(5, "dolphin"))
    for to in (SEA_B, SEA_C, SEA_D):
        state, _ = act(state, DolphinStep(0, to))
    assert state.explorer_hex[0] == SEA_D and state.phase == "move"
    assert Swim(0, hx(4, -5)) in legal(state)        # the swimmer's own hex is still to come


def test_the_wind_blows_a_boat_you_may_move_up_to_three_hexes():
    state = position(explorers={0: (SEA_A, 0), 1: T0}, boats={0: SEA_A}, hands=[(5,), ()], backs={5: "wind"},
                 phase="tile")
    state, _ = act(state, PlayTile(5, "wind"))
    for to in (SEA_B, SEA_C, SEA_D):
        state, _ = act(state, WindStep(0, to))
    assert state.boat_hex[0] == SEA_D == state.explorer_hex[0] and state.phase == "move" and state.points == 3


def test_a_move_creature_tile_makes_that_creatures_normal_move_with_attacks():
    state = position(explorers={10: SEA_B, 1: T0}, creatures={SHARK: SEA_A}, hands=[(5,), ()],
                 backs={5: "move_shark"}, phase="tile")
    state, _ = act(state, PlayTile(5, "move_shark"))
    assert state.phase == "creature" and state.creature_kind == "shark"
    state, _ = act(state, CreatureStep(SHARK, SEA_B))
    assert state.explorer_hex[10] == data.LOST and state.phase == "move"


def test_a_red_tile_that_can_do_nothing_cannot_be_played():
    state = position(explorers={1: T0}, hands=[(5,), ()], backs={5: "dolphin"}, phase="tile")
    assert legal(state) == [NoTile()]


# --- defensive tiles and the answer window ------------------------------------------------------------
def _shark_attack_on_blue(blue_hand, backs):
    return position(explorers={10: SEA_B, 1: T0}, creatures={SHARK: SEA_A}, phase="creature",
                    creature_kind="shark", after_creature="end", hands=[(), blue_hand], backs=backs)


def test_a_shark_repellent_turns_a_shark_away_and_the_shark_leaves_the_game():
    state, ev = act(_shark_attack_on_blue((5,), {5: "shark_repellent"}), CreatureStep(SHARK, SEA_B))
    assert state.phase == "respond" and GAME.to_act(state) == {1}
    assert Defend(5, "shark_repellent") in legal(state, 1)
    state, ev = GAME.apply(state, 1, Defend(5, "shark_repellent"))
    assert state.explorer_hex[10] == SEA_B and state.creature_hex[SHARK] == data.LOST and state.turn == 1


def test_a_whale_repellent_saves_a_boat_with_your_explorers():
    state = position(explorers={10: (SEA_B, 0), 1: T0}, boats={0: SEA_B}, creatures={WHALE: SEA_A},
                 phase="creature", creature_kind="whale", after_creature="end", hands=[(), (5,)],
                 backs={5: "whale_repellent"})
    state, _ = act(state, CreatureStep(WHALE, SEA_B))
    state, _ = GAME.apply(state, 1, Defend(5, "whale_repellent"))
    assert state.boat_hex[0] == SEA_B and state.explorer_boat[10] == 0 and state.creature_hex[WHALE] == data.LOST


def test_every_attack_on_a_seat_holding_any_tile_asks_it_and_looks_the_same_whatever_it_holds():
    with_rep, ev1 = act(_shark_attack_on_blue((5,), {5: "shark_repellent"}), CreatureStep(SHARK, SEA_B))
    without, ev2 = act(_shark_attack_on_blue((5,), {5: "dolphin"}), CreatureStep(SHARK, SEA_B))
    for seat in (0, None):
        assert to_data(GAME.view(with_rep, seat)) == to_data(GAME.view(without, seat))
    assert [to_data(e) for e in ev1] == [to_data(e) for e in ev2]
    assert legal(without, 1) == [NoDefence()]
    state, _ = GAME.apply(without, 1, NoDefence())
    assert state.explorer_hex[10] == data.LOST


def test_a_seat_holding_no_tile_is_not_asked_and_serpents_ask_nobody():
    state, _ = act(_shark_attack_on_blue((), {}), CreatureStep(SHARK, SEA_B))
    assert state.phase != "respond" and state.explorer_hex[10] == data.LOST
    serp = position(explorers={10: SEA_B, 1: T0}, creatures={SERPENT: SEA_A}, phase="creature",
                    creature_kind="serpent", after_creature="end", hands=[(), (5,)],
                    backs={5: "shark_repellent"})
    serp, _ = act(serp, CreatureStep(SERPENT, SEA_B))
    assert serp.phase != "respond" and serp.explorer_hex[10] == data.LOST


def test_defensive_tiles_are_never_played_on_your_own_turn():
    state = position(explorers={0: SEA_B, 11: T0}, creatures={SHARK: SEA_A}, phase="creature",
                 creature_kind="shark", after_creature="end", hands=[(5,), ()],
                 backs={5: "shark_repellent"})
    state, _ = act(state, CreatureStep(SHARK, SEA_B))
    assert state.phase != "respond" and state.explorer_hex[0] == data.LOST


def test_several_attacked_players_answer_in_seat_order_after_the_mover():
    state = position(players=3, explorers={10: SEA_B, 20: SEA_B, 1: T0}, creatures={SHARK: SEA_A},
                 phase="creature", creature_kind="shark", after_creature="end", turn=2,
                 hands=[(), (5,), (6,)], backs={5: "shark_repellent", 6: "wind"})
    state, _ = GAME.apply(state, 2, CreatureStep(SHARK, SEA_B))
    assert state.responders == (1,)               # seat 2 moves: its own swimmers are not asked about
    s2 = replace(state, turn=0, responders=(1, 2))
    s2, _ = GAME.apply(s2, 1, NoDefence())
    assert GAME.to_act(s2) == {2}


# --- the end ---------------------------------------------------------------------------------------
def test_saved_explorers_values_are_added_up_and_ties_share_the_win():
    values = [1, 1, 1, 2, 2, 3, 3, 4, 5, 6] * 2
    state = position(explorers={0: data.SAVED, 9: data.SAVED, 10: data.SAVED, 19: data.SAVED, 1: T0 + 9},
                 phase="sink", backs={TILE0: "volcano"}, values=values)
    state, _ = act(state, Sink(TILE0))
    r = GAME.result(state)
    assert r.scores == (7.0, 7.0) and r.winners == (0, 1)


def test_explorers_not_saved_score_nothing():
    values = [6, 1, 1, 2, 2, 3, 3, 4, 5, 1] * 2
    state = position(explorers={0: T0 + 9, 10: data.SAVED}, phase="sink", backs={TILE0: "volcano"},
                 values=values)
    state, _ = act(state, Sink(TILE0))
    assert GAME.result(state).scores == (0.0, 6.0) and GAME.result(state).winners == (1,)


def test_the_game_ends_when_no_explorer_is_left_on_the_board():
    state = position(explorers={0: data.SAVED}, phase="roll")
    state, ev = act(state, Roll())
    assert GAME.result(state) is not None and ev[-1].kind == "game_over"


# --- memory ------------------------------------------------------------------------------------
def test_memory_rule_owners_see_their_values_only_during_setup():
    state = GAME.setup({}, 2, 3)
    view = GAME.view(state, 0)
    assert view.values[:10] == state.values[:10] and view.values[10:] == (0,) * 10
    assert GAME.view(state, None).values == (0,) * 20
    played = position()
    assert GAME.view(played, 0).values == (0,) * 20
    off = replace(played, memory=False)
    assert GAME.view(off, 0).values[:10] == off.values[:10] and GAME.view(off, 0).values[10:] == (0,) * 10
    over = replace(played, phase="over")
    assert GAME.view(over, 1).values == over.values


# --- undo, words, the wire ---------------------------------------------------------------------------
def test_undo_never_past_a_tile_back_or_a_die_roll():
    state = position(explorers={0: T0 + 9}, phase="sink", backs={TILE0: "dolphin"})
    after, _ = act(state, Sink(TILE0))
    assert GAME.undo_barrier(state, after, 0, Sink(TILE0))
    rolled, _ = act(after, Roll())
    assert GAME.undo_barrier(after, rolled, 0, Roll())
    m = position(explorers={0: T0})
    step, _ = act(m, Walk(0, data.LAND_HEX_INDEX[4]))
    assert GAME.undo_barrier(m, step, 0, Walk(0, data.LAND_HEX_INDEX[4])) is None


def test_a_refused_action_says_why_in_a_sentence():
    state = position(explorers={0: T0})
    with pytest.raises(IllegalAction) as exc:
        act(state, Roll())
    assert "Step 2 of 4" in exc.value.reason
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, 1, EndMoves())
    assert "not your turn" in exc.value.reason


def test_views_rebuild_from_wire_data_and_actions_round_trip():
    m = Match(GAME, {}, [SeatInfo("A", "bot"), SeatInfo("B", "bot")], 4)
    bots = [GAME.make_bot(i, 4, "random") for i in range(2)]
    for _ in range(200):
        if m.result() is not None:
            break
        seat = min(m.to_act())
        view = m.view(seat)
        assert GAME.view_from_data(GAME.view_to_data(view)) == view
        action = bots[seat].choose(view, m.legal(seat))
        assert GAME.codec.decode(GAME.codec.encode(action)) == action
        m.submit(seat, action)


def test_every_event_has_a_sentence_and_every_action_a_name():
    names = ["Red", "Blue", "Green", "Yellow"]
    for seed in range(6):
        m = Match(GAME, {}, [SeatInfo(n, "bot") for n in names[:2 + seed % 3]], seed)
        bots = [GAME.make_bot(i, seed, "normal") for i in range(len(m.seats))]
        while m.result() is None:
            seat = min(m.to_act())
            action = bots[seat].choose(m.view(seat), m.legal(seat))
            assert not GAME.describe_action(action).startswith(type(action).__name__)
            for e in m.act(seat, action):
                text = GAME.describe(e, seat, names).text
                assert text != e.kind and text[0].isupper(), e
    assert GAME.reveal(m.state, names)
    assert "Our decisions" in GAME.help_markdown()


# --- tile backs as data -------------------------------------------------------------------------
def test_instant_tiles_bring_exactly_6_sharks_5_whales_and_the_4_spare_boats_into_play():
    backs = Counter(b for t, _ in data.TERRAIN_COUNTS for b in data.backs_of(t))
    assert backs["shark"] == Counter(data.CREATURE_KIND)["shark"] == 6
    assert backs["whale"] == Counter(data.CREATURE_KIND)["whale"] == 5
    assert backs["boat"] == data.BOATS - 4 * data.BOATS_PER_SEAT == 4
    assert backs["volcano"] == 1 and "volcano" in data.backs_of(data.MOUNTAIN)
    assert all(data.BACK_KIND[b] for b in backs)


def test_every_terrain_has_as_many_backs_as_tiles_and_each_game_deals_them_at_random():
    for terrain, count in data.TERRAIN_COUNTS:
        assert len(data.backs_of(terrain)) == count
    a, b = GAME.setup({}, 2, 1), GAME.setup({}, 2, 2)
    for state in (a, b):
        for terrain, _ in data.TERRAIN_COUNTS:
            assert sorted(state.backs[t] for t in range(40) if state.terrain[t] == terrain) == list(data.backs_of(terrain))
    assert a.backs != b.backs
