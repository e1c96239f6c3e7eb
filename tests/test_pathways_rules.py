"""Pathways of the Deep, one test per rule (seed 001 and RULES-DECISIONS 'pathways').

Positions are built from a real setup with ``dataclasses.replace`` (see
``pathways_helpers``).  Board cells are numbered row * 10 + column; seat 0
starts in the top-left corner (cell 0), seat 1 bottom-right (99), seat 2
top-right (9), seat 3 bottom-left (90); Atlantis is cells 44, 45, 54, 55.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine.core import Event, IllegalAction, to_data
from engine.pathways import data as pathways_data
from engine.pathways.actions import (
    END_MOVE, END_PLAYS, EndMove, EndPlays, Place, Remove, Rotate, Special, Step,
)
from engine.pathways.board import IN_ATLANTIS
from engine.pathways.state import PathwaysView
from engine.record import canonical_bytes, digest
from engine.rng import Rng

from pathways_helpers import (
    ATLANTIS,
    EMPTY,
    GAME,
    E_,
    N_,
    S_,
    W_,
    assert_tiles_conserved,
    blank_board,
    cell,
    corridor,
    fresh,
    hand_tile,
    in_move_phase,
    kinds,
    rot_for,
    run,
    tile_place,
    with_hand,
    with_pods,
    with_tiles,
)

CORNERS = {0, 9, 90, 99}


def legal_of(state, seat=None):
    seat = state.turn if seat is None else seat
    return GAME.legal(GAME.view(state, seat))


def refused(state, seat, action, *words: str) -> str:
    """Assert ``action`` is illegal, the reason is a sentence, and nothing changed."""
    before = canonical_bytes(state)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    reason = info.value.reason
    assert isinstance(reason, str) and reason[:1].isupper() and reason.endswith("."), reason
    assert "\n" not in reason
    for w in words:
        assert w.lower() in reason.lower(), f"{w!r} not in {reason!r}"
    assert canonical_bytes(state) == before
    return reason


# =============================================================================
# Components and set-up
# =============================================================================
def test_tile_set_is_100_tiles_as_decided():
    count = Counter(pathways_data.TILE_KIND)
    assert len(pathways_data.TILE_KIND) == 100
    assert count == {"start": 4, "straight": 20, "elbow": 24, "tee": 24, "cross": 12,
                     "trade": 4, "move_other_3": 4, "play_2_more": 4, "move_own_3": 4}


def test_board_is_10x10_with_atlantis_the_centre_2x2():
    state = fresh()
    assert len(state.cells) == 100
    assert [c for c in range(100) if state.cells[c] == ATLANTIS] == [44, 45, 54, 55]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_places_start_elbows_in_corners_opening_inward(players):
    state = fresh(players)
    assert len(set(state.pods)) == players
    for seat in range(players):
        corner = state.pods[seat]
        assert corner in CORNERS
        assert state.cells[corner] == seat and pathways_data.TILE_KIND[seat] == "start"
        mask = state.masks[corner]
        assert mask in pathways_data.rotations("elbow")
        for i, side in enumerate(pathways_data.SIDES):
            if mask & side:
                assert pathways_data.NEIGHBOURS[corner][i] >= 0, "a start elbow opens onto the border"
    for corner in CORNERS - set(state.pods):
        assert state.cells[corner] == EMPTY
    assert_tiles_conserved(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_hidden_tiles_each(players):
    state = fresh(players, seed=7)
    assert [len(h) for h in state.hands] == [4] * players
    assert len(state.draw) == 100 - players - 4 * players  # unused start elbows join the pile
    assert state.discard == ()
    for h in state.hands:
        assert all(pathways_data.TILE_KIND[t] != "start" for t in h)
    for seat in range(players):
        view = GAME.view(state, seat)
        assert view.hand == state.hands[seat]
        assert view.hand_sizes == (4,) * players
        assert view.draw_count == len(state.draw)
    assert GAME.view(state, None).hand is None


def test_draw_pile_is_shuffled_by_the_seed():
    assert fresh(seed=1).draw == fresh(seed=1).draw
    assert fresh(seed=1).draw != fresh(seed=2).draw
    assert fresh(seed=1).hands != fresh(seed=2).hands


def test_pathways_takes_two_to_four_players():
    for n in (1, 5):
        with pytest.raises(ValueError):
            fresh(n)


def test_first_seat_starts_and_play_passes_clockwise():
    state = fresh(3)
    assert state.turn == 0 and state.round == 1 and GAME.to_act(state) == frozenset({0})
    seen = []
    for _ in range(4):
        state = in_move_phase(state)
        state, _ = GAME.apply(state, state.turn, END_MOVE)
        seen.append((state.turn, state.round))
    assert seen == [(1, 1), (2, 1), (0, 2), (1, 2)]


# =============================================================================
# 1. Play tiles
# =============================================================================
def test_turn_plays_two_tiles_then_moves():
    state = with_hand(fresh(), 0, ["straight", "straight", "elbow", "tee"])
    a, b = [t for t in state.hands[0] if pathways_data.TILE_KIND[t] == "straight"]
    state, ev = run(state, 0, Place(a, rot_for("straight", pathways_data.E | pathways_data.W), 1))
    assert state.phase == "play" and state.plays_made == 1 and state.cells[1] == a
    state, ev2 = run(state, 0, Place(b, rot_for("straight", pathways_data.E | pathways_data.W), 2))
    assert state.phase == "move" and state.plays_made == 2 and state.cells[2] == b
    assert len(state.hands[0]) == 2
    assert kinds(ev + ev2) == ["placed", "placed"]
    assert all(e.to is None for e in ev + ev2)


def test_ending_plays_early_is_refused_while_a_tile_can_be_played():
    s = fresh()
    assert END_PLAYS not in legal_of(s)
    refused(s, 0, END_PLAYS, "two tiles")


def test_rotate_replaces_playing_tiles():
    state = with_tiles(fresh(), {1: ("elbow", pathways_data.S | pathways_data.W)})
    hand = state.hands[0]
    rot = Rotate(1, rot_for("elbow", pathways_data.N | pathways_data.W))
    assert rot in legal_of(state)
    s2, ev = run(state, 0, rot)
    assert s2.masks[1] == pathways_data.N | pathways_data.W
    assert s2.phase == "move" and s2.plays_made == 0
    assert s2.hands[0] == hand
    assert kinds(ev) == ["rotated"]
    # once a tile has been played, rotating is no longer possible
    s3 = with_hand(state, 0, ["straight", "straight", "straight", "straight"])
    s3, _ = run(s3, 0, Place(s3.hands[0][0], rot_for("straight", pathways_data.N | pathways_data.S), 10))
    assert not any(isinstance(a, Rotate) for a in legal_of(s3))
    refused(s3, 0, rot, "already played")


def test_rotate_may_turn_a_start_tile_or_a_tile_with_a_subpod():
    state = with_tiles(fresh(), {1: ("cross", 15)})
    rot = Rotate(0, rot_for("start", pathways_data.N | pathways_data.E))  # opens east onto the cross
    s2, _ = run(state, 0, rot)
    assert s2.masks[0] == pathways_data.N | pathways_data.E and s2.pods[0] == 0


def test_rotated_tile_must_still_connect_to_a_path():
    s = with_tiles(fresh(), {1: ("elbow", pathways_data.S | pathways_data.W)})
    bad = Rotate(1, rot_for("elbow", pathways_data.N | pathways_data.E))  # north is the border, east is empty
    assert bad not in legal_of(s)
    refused(s, 0, bad, "join")


def test_rotation_must_change_the_tile():
    s = with_tiles(fresh(), {1: ("straight", pathways_data.E | pathways_data.W)})
    same = Rotate(1, rot_for("straight", pathways_data.E | pathways_data.W) + 2)  # a half turn of a straight
    refused(s, 0, same, "already")
    assert all(not (isinstance(a, Rotate) and a.cell == 1) for a in legal_of(s))


def test_rotate_needs_a_tile_there():
    s = fresh()
    refused(s, 0, Rotate(33, 1), "no tile")
    refused(s, 0, Rotate(44, 1), "no tile")  # Atlantis cannot be turned


def test_placed_tile_must_connect_to_a_path_end():
    state = with_hand(fresh(), 0, ["straight", "straight", "cross", "tee"])
    straight = hand_tile(state, 0, "straight")
    # far from every path
    refused(state, 0, Place(straight, 0, cell(3, 3)), "join")
    # next to the start elbow but with its closed side towards it
    refused(state, 0, Place(straight, rot_for("straight", pathways_data.N | pathways_data.S), 1), "join")
    # next to a tile, but that tile's side is closed
    s2 = with_tiles(state, {1: ("straight", pathways_data.E | pathways_data.W)})
    refused(s2, 0, Place(straight, rot_for("straight", pathways_data.N | pathways_data.S), 11), "join")
    # joined: fine
    s3, _ = run(state, 0, Place(straight, rot_for("straight", pathways_data.E | pathways_data.W), 1))
    assert s3.cells[1] == straight


def test_placed_tile_needs_only_one_end_to_connect():
    state = with_hand(fresh(), 0, ["cross", "tee", "tee", "tee"])
    cross = hand_tile(state, 0, "cross")
    s2, _ = run(state, 0, Place(cross, 0, 10))  # only its north end meets a path
    assert s2.masks[10] == 15


def test_tile_cannot_be_placed_on_a_tile_or_on_atlantis():
    s = with_hand(fresh(), 0, ["cross", "tee", "tee", "tee"])
    s = corridor(s, [0, 10, 20, 30, 40, 41, 42, 43])
    cross = hand_tile(s, 0, "cross")
    refused(s, 0, Place(cross, 0, 0), "already")
    refused(s, 0, Place(cross, 0, 44), "Atlantis")
    refused(s, 0, Place(cross, 0, 100), "not a space")
    refused(s, 0, Place(cross, 0, -1), "not a space")


def test_only_tiles_in_your_hand_can_be_played():
    state = fresh()
    other = state.hands[1][0]
    refused(state, 0, Place(other, 0, 1), "not in your hand")
    refused(state, 0, Special(other), "not in your hand")


def test_special_tiles_are_played_not_placed():
    s = with_hand(fresh(), 0, ["play_2_more", "straight", "tee", "tee"])
    refused(s, 0, Place(hand_tile(s, 0, "play_2_more"), 0, 1), "special")
    refused(s, 0, Special(hand_tile(s, 0, "straight")), "path tile")
    assert all(not isinstance(a, Place) or pathways_data.TILE_KIND[a.tile] not in pathways_data.SPECIAL_KINDS
               for a in legal_of(s))


def test_used_special_goes_face_up_to_the_used_pile():
    state = with_hand(fresh(), 0, ["play_2_more", "straight", "tee", "tee"])
    tile = hand_tile(state, 0, "play_2_more")
    s2, ev = run(state, 0, Special(tile))
    assert s2.discard == (tile,)
    assert tile not in s2.hands[0]
    assert ev == [Event("special", {"seat": 0, "tile": tile, "kind": "play_2_more"})]
    for seat in (0, 1, None):
        assert GAME.view(s2, seat).discard == (tile,)


def test_play_2_more_tiles():
    state = with_hand(fresh(), 0, ["play_2_more", "straight", "straight", "straight"])
    state, _ = run(state, 0, Special(hand_tile(state, 0, "play_2_more")))
    assert (state.plays_made, state.plays_allowed) == (1, 4)
    a, b, c = state.hands[0]
    ew = rot_for("straight", pathways_data.E | pathways_data.W)
    state, _ = run(state, 0, Place(a, ew, 1), Place(b, ew, 2))
    assert state.phase == "play" and state.plays_made == 3
    # the extra tiles are optional ("up to two more")
    assert END_PLAYS in legal_of(state)
    s_end, _ = run(state, 0, END_PLAYS)
    assert s_end.phase == "move"
    s_all, _ = run(state, 0, Place(c, ew, 3))
    assert s_all.phase == "move" and s_all.plays_made == 4


def test_play_2_more_still_requires_the_second_play():
    state = with_hand(fresh(), 0, ["play_2_more", "straight", "straight", "straight"])
    state, _ = run(state, 0, Special(hand_tile(state, 0, "play_2_more")))
    assert END_PLAYS not in legal_of(state)
    refused(state, 0, END_PLAYS)


def test_playing_all_four_tiles_ends_play_phase():
    state = with_hand(fresh(), 0, ["play_2_more", "play_2_more", "straight", "straight"])
    p1, p2 = [t for t in state.hands[0] if pathways_data.TILE_KIND[t] == "play_2_more"]
    state, _ = run(state, 0, Special(p1), Special(p2))
    assert (state.plays_made, state.plays_allowed) == (2, 6)
    a, b = state.hands[0]
    ew = rot_for("straight", pathways_data.E | pathways_data.W)
    state, _ = run(state, 0, Place(a, ew, 1), Place(b, ew, 2))
    assert state.hands[0] == ()
    assert state.phase == "move", "an empty hand ends the play phase"
    # the hand is not refilled before the end of the turn
    assert GAME.view(state, 0).hand == ()
    draw_before = len(state.draw)
    state, _ = run(state, 0, END_MOVE)
    assert len(state.hands[0]) == 4 and len(state.draw) == draw_before - 4


def test_trade_special_takes_an_unlocked_empty_tile_off_the_board():
    state = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    state = with_tiles(state, {1: ("straight", pathways_data.E | pathways_data.W)})
    trade = hand_tile(state, 0, "trade")
    state, ev = run(state, 0, Special(trade))
    assert state.pending == "trade" and state.discard == (trade,) and state.phase == "play"
    assert legal_of(state) == [Remove(1)]  # the start tiles hold subpods
    refused(state, 0, Place(hand_tile(state, 0, "straight"), 0, 10), "trade away")
    refused(state, 0, Remove(cell(5, 5)), "no tile")
    state, ev2 = run(state, 0, Remove(1))
    assert state.cells[1] == EMPTY and state.masks[1] == 0 and state.pending == ""
    assert state.plays_made == 1 and state.phase == "play"
    assert kinds(ev + ev2) == ["special", "removed"]
    assert_tiles_conserved(state)


def test_trade_special_is_refused_when_no_tile_can_be_removed():
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])  # only start tiles, with subpods
    trade = hand_tile(s, 0, "trade")
    assert Special(trade) not in legal_of(s)
    refused(s, 0, Special(trade), "traded")


def test_removed_path_tile_returns_to_draw_pile():
    state = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    state = with_tiles(state, {1: ("straight", pathways_data.E | pathways_data.W)})
    tile = state.cells[1]
    draw = len(state.draw)
    state, _ = run(state, 0, Special(hand_tile(state, 0, "trade")), Remove(1))
    assert tile_place(state, tile) == "draw"
    assert len(state.draw) == draw + 1
    assert tile not in state.discard


def test_start_tile_left_by_its_subpod_can_be_traded():
    state = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    state = corridor(state, [0, 10])
    state = with_pods(state, p0=10)
    state, _ = run(state, 0, Special(hand_tile(state, 0, "trade")))
    assert Remove(0) in legal_of(state)
    state, _ = run(state, 0, Remove(0))
    assert tile_place(state, 0) == "draw"


def test_tile_with_subpod_cannot_be_removed():
    state = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    state = with_tiles(state, {1: ("straight", pathways_data.E | pathways_data.W)})
    state = with_pods(state, p1=1)
    state = with_tiles(state, {2: ("straight", pathways_data.E | pathways_data.W)})
    state, _ = run(state, 0, Special(hand_tile(state, 0, "trade")))
    assert Remove(1) not in legal_of(state) and Remove(0) not in legal_of(state)
    refused(state, 0, Remove(1), "subpod")
    refused(state, 0, Remove(0), "subpod")


def _locked_position():
    """A tee at C2 (cell 12) with tiles on all four sides; the cross at B2 opens
    towards it, so only the lock stops it from being turned."""
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    return with_tiles(s, {12: ("tee", pathways_data.N | pathways_data.E | pathways_data.S), 2: ("cross", 15), 11: ("cross", 15),
                          13: ("cross", 15), 22: ("cross", 15)})


def test_locked_tile_cannot_be_rotated():
    state = _locked_position()
    turn = Rotate(12, rot_for("tee", pathways_data.E | pathways_data.S | pathways_data.W))
    assert all(not (isinstance(a, Rotate) and a.cell == 12) for a in legal_of(state))
    refused(state, 0, turn, "locked")
    # with one side free again the same turn is allowed
    unlocked = replace(state, cells=state.cells[:22] + (EMPTY,) + state.cells[23:],
                       masks=state.masks[:22] + (0,) + state.masks[23:])
    assert turn in legal_of(unlocked)
    GAME.apply(unlocked, 0, turn)


def test_locked_tile_cannot_be_removed():
    state = _locked_position()
    state, _ = run(state, 0, Special(hand_tile(state, 0, "trade")))
    assert Remove(12) not in legal_of(state)
    refused(state, 0, Remove(12), "locked")


def test_border_and_atlantis_count_as_locking_sides():
    s = fresh()
    # the corner start tile: border north and west, tiles east and south
    s1 = with_tiles(s, {1: ("cross", 15), 10: ("cross", 15)})
    assert all(not (isinstance(a, Rotate) and a.cell == 0) for a in legal_of(s1))
    refused(s1, 0, Rotate(0, rot_for("start", pathways_data.N | pathways_data.E)), "locked")
    # a tile touching Atlantis on one side and tiles on the three others
    s2 = corridor(s, [0, 1, 2, 3, 4, 14, 24, 34])
    s2 = with_tiles(s2, {33: ("cross", 15), 35: ("cross", 15)})
    assert s2.cells[44] == ATLANTIS
    refused(s2, 0, Rotate(34, 1), "locked")


# =============================================================================
# Special moves
# =============================================================================
def test_move_someone_3():
    state = with_hand(fresh(), 0, ["move_other_3", "straight", "tee", "tee"])
    state = corridor(state, [99, 89, 79, 69, 59])
    state, ev = run(state, 0, Special(hand_tile(state, 0, "move_other_3")))
    assert state.pending == "move_other_3" and state.phase == "play"
    assert all(isinstance(a, (Step, EndMove)) for a in legal_of(state))
    assert all(a.pod == 1 for a in legal_of(state) if isinstance(a, Step))
    refused(state, 0, Step(0, S_), "another player")
    state, ev2 = run(state, 0, Step(1, N_), Step(1, N_), Step(1, N_))
    assert state.pods[1] == 69
    assert state.pending == "" and state.phase == "play" and state.plays_made == 1
    assert kinds(ev2) == ["step", "step", "step", "special_done"]
    assert state.turn == 0  # still seat 0's play phase: one more tile to play


def test_move_someone_3_may_stop_early():
    state = with_hand(fresh(), 0, ["move_other_3", "straight", "tee", "tee"])
    state = corridor(state, [99, 89, 79, 69, 59])
    state, _ = run(state, 0, Special(hand_tile(state, 0, "move_other_3")), Step(1, N_), END_MOVE)
    assert state.pods[1] == 89 and state.pending == "" and state.phase == "play"


def test_move_up_to_3():
    state = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    state = corridor(state, [0, 10, 20, 30, 40])
    state, _ = run(state, 0, Special(hand_tile(state, 0, "move_own_3")))
    assert state.pending == "move_own_3"
    refused(state, 0, Step(1, N_), "your own")
    state, ev = run(state, 0, Step(0, S_), Step(0, S_), Step(0, S_))
    assert state.pods[0] == 30
    assert kinds(ev)[-1] == "special_done" and state.phase == "play" and state.plays_made == 1


def test_move_up_to_3_may_stop_early():
    state = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    state = corridor(state, [0, 10, 20, 30, 40])
    state, _ = run(state, 0, Special(hand_tile(state, 0, "move_own_3")), Step(0, S_), END_MOVE)
    assert state.pods[0] == 10 and state.phase == "play"


def test_special_move_as_second_play_leads_into_the_move_phase():
    state = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    state = corridor(state, [0, 10, 20, 30, 40])
    state, _ = run(state, 0, Place(hand_tile(state, 0, "straight"), rot_for("straight", pathways_data.E | pathways_data.W), 1))
    state, _ = run(state, 0, Special(hand_tile(state, 0, "move_own_3")), Step(0, S_))
    assert state.phase == "play" and state.pending == "move_own_3"
    state, _ = run(state, 0, END_MOVE)
    assert state.phase == "move" and state.pending == "" and state.mover == -1
    # and the normal move follows, counted from where the special move ended
    state, _ = run(state, 0, Step(0, S_), Step(0, S_))
    assert state.pods[0] == 30 and state.turn == 1


def test_special_move_never_returns_to_its_start_space():
    state = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    state = corridor(state, [0, 10, 20])
    state, _ = run(state, 0, Special(hand_tile(state, 0, "move_own_3")), Step(0, S_))
    assert Step(0, N_) not in legal_of(state)
    refused(state, 0, Step(0, N_), "began")


# =============================================================================
# 2. Move subpods
# =============================================================================
def test_own_subpod_moves_up_to_two_along_paths():
    state = in_move_phase(corridor(fresh(), [0, 10, 20, 30, 40]))
    state, ev = run(state, 0, Step(0, S_))
    assert state.pods[0] == 10 and state.mover == 0 and state.steps_left == 1 and state.turn == 0
    state, ev2 = run(state, 0, Step(0, S_))
    assert state.pods[0] == 20
    assert state.turn == 1 and state.phase == "play", "the second step ends the move and the turn"
    assert kinds(ev + ev2)[:2] == ["step", "step"]


def test_subpods_move_only_along_connected_paths():
    s = in_move_phase(with_tiles(fresh(), {10: ("straight", pathways_data.E | pathways_data.W)}))
    refused(s, 0, Step(0, S_), "no path")   # the tile below turns its closed side up
    refused(s, 0, Step(0, E_), "no path")   # no tile there
    refused(s, 0, Step(0, N_), "no path")   # the border
    refused(s, 0, Step(0, W_), "no path")
    assert [a for a in legal_of(s) if isinstance(a, Step) and a.pod == 0] == []


def test_other_subpod_moves_one():
    state = in_move_phase(corridor(fresh(), [99, 89, 79, 69]))
    assert Step(1, N_) in legal_of(state)
    state, ev = run(state, 0, Step(1, N_))
    assert state.pods[1] == 89
    assert state.turn == 1, "moving another subpod ends the move after one space"
    assert kinds(ev)[0] == "step" and ev[0].data == {"seat": 0, "pod": 1, "from": 99, "to": 89}


def test_move_continues_with_the_subpod_it_began_with():
    state = in_move_phase(corridor(corridor(fresh(), [0, 10, 20]), [99, 89, 79]))
    state, _ = run(state, 0, Step(0, S_))
    assert all(a.pod == 0 for a in legal_of(state) if isinstance(a, Step))
    refused(state, 0, Step(1, N_), "Finish moving")


def test_move_never_returns_to_its_start_space():
    state = in_move_phase(corridor(fresh(), [0, 10, 20]))
    state, _ = run(state, 0, Step(0, S_))
    assert Step(0, N_) not in legal_of(state)
    refused(state, 0, Step(0, N_), "began")


def test_move_may_stop_early_or_not_move_at_all():
    state = in_move_phase(corridor(fresh(), [0, 10, 20]))
    assert END_MOVE in legal_of(state)
    s1, _ = run(state, 0, END_MOVE)
    assert s1.pods == state.pods and s1.turn == 1
    s2, _ = run(state, 0, Step(0, S_), END_MOVE)
    assert s2.pods[0] == 10 and s2.turn == 1


def test_subpods_may_share_a_tile():
    state = in_move_phase(corridor(fresh(), [0, 10, 20]))
    state = with_pods(state, p1=10)
    state, _ = run(state, 0, Step(0, S_))
    assert state.pods == (10, 10)
    state, _ = run(state, 0, Step(0, S_))  # and pass through / off again
    assert state.pods == (20, 10)


def test_subpod_may_pass_through_another_subpod():
    state = in_move_phase(corridor(fresh(), [0, 10, 20]))
    state = with_pods(state, p1=10)
    state, _ = run(state, 0, Step(0, S_), Step(0, S_))
    assert state.pods == (20, 10)


def test_tiles_cannot_be_played_in_the_move_phase():
    state = in_move_phase(fresh())
    refused(state, 0, Place(state.hands[0][0], 0, 1), "moving")
    refused(state, 0, END_PLAYS, "moving")


def test_steps_cannot_be_taken_in_the_play_phase():
    s = corridor(fresh(), [0, 10, 20])
    refused(s, 0, Step(0, S_), "Play a tile")
    refused(s, 0, END_MOVE, "Play a tile")


# =============================================================================
# 3. Draw new tiles
# =============================================================================
def test_draw_back_to_four_at_end_of_turn():
    state = with_hand(fresh(), 0, ["straight", "straight", "tee", "tee"])
    a, b = state.hands[0][:2]
    ew = rot_for("straight", pathways_data.E | pathways_data.W)
    state, _ = run(state, 0, Place(a, ew, 1), Place(b, ew, 2))
    top = state.draw[:2]
    discard = state.discard
    state, ev = run(state, 0, END_MOVE)
    assert len(state.hands[0]) == 4 and state.hands[0][2:] == top
    assert state.discard == discard, "tiles are drawn from the draw pile, never the used pile"
    drew = [e for e in ev if e.kind == "drew"]
    secret = [e for e in ev if e.kind == "drew_tiles"]
    assert drew == [Event("drew", {"seat": 0, "count": 2})]
    assert secret == [Event("drew_tiles", {"seat": 0, "tiles": top}, to=(0,))]
    assert_tiles_conserved(state)


def test_empty_draw_pile_reshuffles_used_specials():
    state = with_hand(fresh(), 0, ["straight", "straight", "tee", "tee"])
    specials = tuple(t for t in state.draw if pathways_data.TILE_KIND[t] in pathways_data.SPECIAL_KINDS)[:5]
    rest = tuple(t for t in state.draw if t not in specials)
    # the rest of the pile is out on the board (tiles are only counted here)
    state = replace(in_move_phase(state), hands=((state.hands[0][0], state.hands[0][1]), state.hands[1]),
                draw=(), discard=specials)
    state, ev = run(state, 0, END_MOVE)
    assert "reshuffled" in kinds(ev)
    assert [e for e in ev if e.kind == "reshuffled"][0].data == {"count": 5}
    assert len(state.hands[0]) == 4
    assert sorted(state.hands[0][2:] + state.draw) == sorted(specials)
    assert state.discard == ()
    assert rest  # (the pile held other tiles before we emptied it)


def test_empty_draw_pile_and_no_used_specials_leaves_the_hand_short():
    state = fresh()
    state = replace(in_move_phase(state), hands=((state.hands[0][0],), state.hands[1]), draw=(), discard=())
    state, ev = run(state, 0, END_MOVE)
    assert state.hands[0] == (state.hands[0][0],) and len(state.hands[0]) == 1
    assert "drew" not in kinds(ev) and state.turn == 1


def test_no_legal_play_allows_ending_plays():
    state = with_hand(fresh(), 0, ["trade", "trade", "trade", "trade"])  # nothing can be traded
    assert legal_of(state) == [EndPlays()]
    state, ev = run(state, 0, END_PLAYS)
    assert state.phase == "move" and kinds(ev) == ["end_plays"]


def test_no_legal_play_with_an_empty_hand_allows_ending_plays():
    state = fresh()
    state = replace(state, draw=state.draw + state.hands[0], hands=((),) + state.hands[1:])
    assert END_PLAYS in legal_of(state)
    state, _ = run(state, 0, END_PLAYS)
    assert state.phase == "move"


# =============================================================================
# Winning
# =============================================================================
APPROACHES = [(34, S_), (35, S_), (43, E_), (53, E_), (46, W_), (56, W_), (64, N_), (65, N_)]


@pytest.mark.parametrize("start,side", APPROACHES)
def test_first_into_atlantis_wins(start, side):
    """From any direction, and on the first of two steps (no exact count)."""
    state = in_move_phase(with_pods(with_tiles(fresh(), {start: ("cross", 15)}), p0=start))
    assert Step(0, side) in legal_of(state)
    state, ev = run(state, 0, Step(0, side))
    assert state.pods[0] == IN_ATLANTIS
    assert state.phase == "over" and state.winners == (0,)
    assert GAME.result(state).winners == (0,) and GAME.result(state).scores == (1.0, 0.0)
    assert kinds(ev) == ["step", "atlantis"]


def test_atlantis_may_be_entered_on_the_second_step():
    state = in_move_phase(with_pods(corridor(fresh(), [24, 34]), p0=24))
    state = replace(state, masks=state.masks[:34] + (pathways_data.N | pathways_data.S,) + state.masks[35:])
    state, _ = run(state, 0, Step(0, S_), Step(0, S_))
    assert state.winners == (0,)


def test_atlantis_may_be_entered_with_a_special_move():
    state = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    state = with_pods(with_tiles(state, {34: ("straight", pathways_data.N | pathways_data.S)}), p0=34)
    state, _ = run(state, 0, Special(hand_tile(state, 0, "move_own_3")), Step(0, S_))
    assert state.phase == "over" and state.winners == (0,)


def test_a_path_closed_towards_atlantis_cannot_enter_it():
    s = in_move_phase(with_pods(with_tiles(fresh(), {34: ("straight", pathways_data.E | pathways_data.W)}), p0=34))
    refused(s, 0, Step(0, S_), "no path")


def test_pushing_another_into_atlantis_makes_them_win():
    state = in_move_phase(with_pods(with_tiles(fresh(), {64: ("cross", 15)}), p1=64))
    state, ev = run(state, 0, Step(1, N_))
    assert state.winners == (1,) and GAME.result(state).winners == (1,)
    assert ev[-1] == Event("atlantis", {"pod": 1})


def test_move_someone_3_into_atlantis_makes_them_win():
    state = with_hand(fresh(), 0, ["move_other_3", "straight", "tee", "tee"])
    state = with_pods(corridor(state, [24, 34]), p1=24)
    state = replace(state, masks=state.masks[:34] + (pathways_data.N | pathways_data.S,) + state.masks[35:])
    state, _ = run(state, 0, Special(hand_tile(state, 0, "move_other_3")), Step(1, S_), Step(1, S_))
    assert state.winners == (1,)


def test_game_over_refuses_every_action():
    state = in_move_phase(with_pods(with_tiles(fresh(), {34: ("cross", 15)}), p0=34))
    state, _ = run(state, 0, Step(0, S_))
    assert GAME.to_act(state) == frozenset()
    assert legal_of(state, 0) == [] and legal_of(state, 1) == []
    refused(state, 0, END_MOVE, "over")
    refused(state, 1, END_MOVE, "over")


def test_round_limit_nearest_wins():
    state = fresh(2, max_rounds=5)
    state = with_pods(replace(in_move_phase(state), round=5, turn=1), p0=cell(3, 3), p1=cell(8, 8))
    state, ev = run(state, 1, END_MOVE)
    assert state.phase == "over" and state.winners == (0,)
    assert ev[-1] == Event("round_limit", {"winners": (0,)})
    assert "round limit" in GAME.result(state).reason


def test_round_limit_ties_share_the_win():
    state = fresh(3, max_rounds=5)
    state = with_pods(replace(in_move_phase(state), round=5, turn=2), p0=34, p1=65, p2=9)
    state, _ = run(state, 2, END_MOVE)
    assert state.winners == (0, 1)
    assert GAME.result(state).scores == (1.0, 1.0, 0.0)


def test_round_limit_waits_for_the_last_seat_of_the_round():
    state = fresh(2, max_rounds=5)
    state = replace(in_move_phase(state), round=5, turn=0)
    state, _ = run(state, 0, END_MOVE)
    assert state.phase == "play" and GAME.result(state) is None


def test_round_limit_is_an_option_with_bounds():
    assert fresh(max_rounds=7).max_rounds == 7
    assert fresh().max_rounds == 60
    for bad in (4, 501, "x"):
        with pytest.raises(ValueError):
            GAME.parse_options({"max_rounds": bad})
    with pytest.raises(ValueError):
        GAME.parse_options({"no_such_option": 1})


# =============================================================================
# The contract, over hand-made positions and random games
# =============================================================================
def test_acting_out_of_turn_is_illegal():
    s = fresh()
    refused(s, 1, END_PLAYS, "not your turn")
    assert legal_of(s, 1) == []


def test_illegal_action_raises_with_reason_and_changes_nothing():
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "move_own_3"])
    cases = [
        (s, 1, END_PLAYS),
        (s, 0, Place(hand_tile(s, 0, "straight"), 0, 55)),
        (s, 0, Place(hand_tile(s, 0, "straight"), 7, 1)),
        (s, 0, Place(99, 0, 1)),
        (s, 0, Special(hand_tile(s, 0, "trade"))),
        (s, 0, Rotate(0, 9)),
        (s, 0, Remove(0)),
        (s, 0, Step(0, S_)),
        (in_move_phase(s), 0, Step(7, S_)),
        (in_move_phase(s), 0, Step(0, 9)),
        (in_move_phase(s), 0, Rotate(0, 1)),
        (s, 0, "not an action"),
    ]
    for state, seat, action in cases:
        refused(state, seat, action)


def random_states(seeds, max_moves, players=(2, 3, 4), **options):
    """Yield (state, seat, legal) along random-bot games."""
    for seed in seeds:
        n = players[seed % len(players)]
        state = fresh(n, seed=seed, **options)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        for _ in range(max_moves):
            if GAME.result(state) is not None:
                break
            (seat,) = GAME.to_act(state)
            legal = GAME.legal(GAME.view(state, seat))
            yield state, seat, legal
            state, _ = GAME.apply(state, seat, bots[seat].choose(GAME.view(state, seat), legal))
        yield state, None, []


def test_legal_actions_are_all_accepted_by_apply():
    checked = 0
    for state, seat, legal in random_states(range(12), 150, max_rounds=8):
        if seat is None:
            continue
        assert legal, "a seat to act always has at least one legal action"
        assert len(set(legal)) == len(legal), "legal() lists an action twice"
        for action in legal:
            GAME.apply(state, seat, action)
            checked += 1
    assert checked > 10_000


def test_apply_never_mutates_its_input():
    for state, seat, legal in random_states(range(4), 120):
        if seat is None:
            continue
        before = canonical_bytes(state)
        for action in legal[:: max(1, len(legal) // 15)]:
            after, _ = GAME.apply(state, seat, action)
            assert canonical_bytes(state) == before
            assert after is not state


def _effect_key(state, action):
    """What an action does, so that duplicates (same kind of tile, equal
    rotations) compare equal."""
    if isinstance(action, Place):
        return ("place", pathways_data.TILE_KIND[action.tile], pathways_data.rotate(pathways_data.SHAPES[pathways_data.TILE_KIND[action.tile]], action.rot), action.cell)
    if isinstance(action, Special):
        return ("special", pathways_data.TILE_KIND[action.tile])
    if isinstance(action, Rotate):
        return ("rotate", action.cell, pathways_data.rotate(pathways_data.SHAPES[pathways_data.TILE_KIND[state.cells[action.cell]]], action.rot))
    return action


def test_legal_lists_every_accepted_action():
    """legal() and apply() agree: anything apply accepts is in legal() (up to
    equivalent duplicates), checked by trying every action of every kind."""
    seen = set()
    for i, (state, seat, legal) in enumerate(random_states(range(8), 300)):
        if seat is None:
            continue
        situation = (state.phase, state.pending, state.mover >= 0)
        if i % 9 and not (state.pending and i % 2 == 0):  # every 9th state, half the special ones
            continue
        seen.add(situation)
        candidates = [END_PLAYS, END_MOVE]
        candidates += [Place(t, r, c) for t in state.hands[seat] for r in range(4) for c in range(100)]
        candidates += [Special(t) for t in state.hands[seat]]
        candidates += [Rotate(c, r) for c in range(100) if state.cells[c] >= 0 for r in range(4)]
        candidates += [Remove(c) for c in range(100)]
        candidates += [Step(p, d) for p in range(state.players) for d in range(4)]
        accepted = set()
        for a in candidates:
            try:
                GAME.apply(state, seat, a)
            except IllegalAction:
                continue
            accepted.add(_effect_key(state, a))
        assert accepted == {_effect_key(state, a) for a in legal}
    assert len(seen) == 8, seen  # every kind of situation was tried


def test_tiles_are_conserved():
    for s, _, _ in random_states(range(10), 400):
        assert_tiles_conserved(s)


def test_to_act_is_the_seat_whose_turn_it_is():
    for state, seat, _ in random_states(range(5), 200):
        if seat is not None:
            assert GAME.to_act(state) == frozenset({state.turn}) and GAME.result(state) is None


def test_random_games_end_with_a_result():
    for seed in range(6):
        last = None
        for s, seat, _ in random_states([seed], 10_000, max_rounds=10):
            last = s
        r = GAME.result(last)
        assert r is not None and r.winners and r.reason
        assert len(r.scores) == last.players


def test_views_are_whitelisted_and_encodable():
    fields = set(PathwaysView.__dataclass_fields__)
    assert "hands" not in fields and "draw" not in fields and "rng" not in fields
    for state, _, _ in random_states(range(3), 100):
        for seat in [*range(state.players), None]:
            v = GAME.view(state, seat)
            assert isinstance(v, PathwaysView) and v.seat == seat
            canonical_bytes(v)


def test_actions_round_trip_through_the_codec():
    for s, seat, legal in random_states(range(3), 80):
        for a in legal:
            data = GAME.codec.encode(a)
            assert GAME.codec.decode(data) == a
            assert type(GAME.codec.decode(data)) is type(a)


@pytest.mark.parametrize("data", [
    {"k": "nope"}, {"tile": 1}, [1, 2], {"k": "place", "tile": 1, "rot": 0},
    {"k": "place", "tile": 1, "rot": 0, "cell": 1, "x": 2},
    {"k": "place", "tile": "x", "rot": 0, "cell": 1}, {"k": "step", "pod": [1], "side": 0},
])
def test_codec_refuses_malformed_actions(data):
    with pytest.raises(IllegalAction):
        GAME.codec.decode(data)


def test_events_are_plain_data():
    for state, seat, legal in random_states(range(3), 150):
        if seat is None:
            continue
        _, events = GAME.apply(state, seat, legal[0])
        for e in events:
            assert isinstance(e, Event)
            to_data(e)


def test_undo_barrier_blocks_steps_that_drew_or_showed_tiles():
    state = with_hand(fresh(), 0, ["straight", "straight", "tee", "tee"])
    place = Place(state.hands[0][0], rot_for("straight", pathways_data.E | pathways_data.W), 1)
    after, _ = GAME.apply(state, 0, place)
    assert GAME.undo_barrier(state, after, 0, place)
    s2 = with_tiles(fresh(), {1: ("elbow", pathways_data.S | pathways_data.W)})
    turn = Rotate(1, rot_for("elbow", pathways_data.N | pathways_data.W))
    after2, _ = GAME.apply(s2, 0, turn)
    assert GAME.undo_barrier(s2, after2, 0, turn) is None
    m = in_move_phase(fresh())
    after3, _ = GAME.apply(m, 0, END_MOVE)  # draws nothing (hand is full) ...
    assert after3.draw == m.draw
    m2 = replace(m, hands=((m.hands[0][0],), m.hands[1]))
    after4, _ = GAME.apply(m2, 0, END_MOVE)  # ... this one draws
    assert GAME.undo_barrier(m2, after4, 0, END_MOVE)


def test_rerandomise_keeps_what_the_seat_knows():
    state = fresh(3, seed=5)
    for seat in range(3):
        s2 = GAME.rerandomise(state, seat, Rng.from_seed(9, "t"))
        assert s2.hands[seat] == state.hands[seat]
        assert [len(h) for h in s2.hands] == [len(h) for h in state.hands]
        assert len(s2.draw) == len(state.draw) and s2.cells == state.cells and s2.discard == state.discard
        assert s2.hands != state.hands or s2.draw != state.draw
        assert_tiles_conserved(s2)
        assert digest(s2) != digest(state)
