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
    s = fresh()
    assert len(s.cells) == 100
    assert [c for c in range(100) if s.cells[c] == ATLANTIS] == [44, 45, 54, 55]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_places_start_elbows_in_corners_opening_inward(players):
    s = fresh(players)
    assert len(set(s.pods)) == players
    for seat in range(players):
        corner = s.pods[seat]
        assert corner in CORNERS
        assert s.cells[corner] == seat and pathways_data.TILE_KIND[seat] == "start"
        mask = s.masks[corner]
        assert mask in pathways_data.rotations("elbow")
        for i, side in enumerate(pathways_data.SIDES):
            if mask & side:
                assert pathways_data.NEIGHBOURS[corner][i] >= 0, "a start elbow opens onto the border"
    for corner in CORNERS - set(s.pods):
        assert s.cells[corner] == EMPTY
    assert_tiles_conserved(s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_hidden_tiles_each(players):
    s = fresh(players, seed=7)
    assert [len(h) for h in s.hands] == [4] * players
    assert len(s.draw) == 100 - players - 4 * players  # unused start elbows join the pile
    assert s.discard == ()
    for h in s.hands:
        assert all(pathways_data.TILE_KIND[t] != "start" for t in h)
    for seat in range(players):
        v = GAME.view(s, seat)
        assert v.hand == s.hands[seat]
        assert v.hand_sizes == (4,) * players
        assert v.draw_count == len(s.draw)
    assert GAME.view(s, None).hand is None


def test_draw_pile_is_shuffled_by_the_seed():
    assert fresh(seed=1).draw == fresh(seed=1).draw
    assert fresh(seed=1).draw != fresh(seed=2).draw
    assert fresh(seed=1).hands != fresh(seed=2).hands


def test_pathways_takes_two_to_four_players():
    for n in (1, 5):
        with pytest.raises(ValueError):
            fresh(n)


def test_first_seat_starts_and_play_passes_clockwise():
    s = fresh(3)
    assert s.turn == 0 and s.round == 1 and GAME.to_act(s) == frozenset({0})
    seen = []
    for _ in range(4):
        s = in_move_phase(s)
        s, _ = GAME.apply(s, s.turn, END_MOVE)
        seen.append((s.turn, s.round))
    assert seen == [(1, 1), (2, 1), (0, 2), (1, 2)]


# =============================================================================
# 1. Play tiles
# =============================================================================
def test_turn_plays_two_tiles_then_moves():
    s = with_hand(fresh(), 0, ["straight", "straight", "elbow", "tee"])
    a, b = [t for t in s.hands[0] if pathways_data.TILE_KIND[t] == "straight"]
    s, ev = run(s, 0, Place(a, rot_for("straight", pathways_data.E | pathways_data.W), 1))
    assert s.phase == "play" and s.plays_made == 1 and s.cells[1] == a
    s, ev2 = run(s, 0, Place(b, rot_for("straight", pathways_data.E | pathways_data.W), 2))
    assert s.phase == "move" and s.plays_made == 2 and s.cells[2] == b
    assert len(s.hands[0]) == 2
    assert kinds(ev + ev2) == ["placed", "placed"]
    assert all(e.to is None for e in ev + ev2)


def test_ending_plays_early_is_refused_while_a_tile_can_be_played():
    s = fresh()
    assert END_PLAYS not in legal_of(s)
    refused(s, 0, END_PLAYS, "two tiles")


def test_rotate_replaces_playing_tiles():
    s = with_tiles(fresh(), {1: ("elbow", pathways_data.S | pathways_data.W)})
    hand = s.hands[0]
    rot = Rotate(1, rot_for("elbow", pathways_data.N | pathways_data.W))
    assert rot in legal_of(s)
    s2, ev = run(s, 0, rot)
    assert s2.masks[1] == pathways_data.N | pathways_data.W
    assert s2.phase == "move" and s2.plays_made == 0
    assert s2.hands[0] == hand
    assert kinds(ev) == ["rotated"]
    # once a tile has been played, rotating is no longer possible
    s3 = with_hand(s, 0, ["straight", "straight", "straight", "straight"])
    s3, _ = run(s3, 0, Place(s3.hands[0][0], rot_for("straight", pathways_data.N | pathways_data.S), 10))
    assert not any(isinstance(a, Rotate) for a in legal_of(s3))
    refused(s3, 0, rot, "already played")


def test_rotate_may_turn_a_start_tile_or_a_tile_with_a_subpod():
    s = with_tiles(fresh(), {1: ("cross", 15)})
    rot = Rotate(0, rot_for("start", pathways_data.N | pathways_data.E))  # opens east onto the cross
    s2, _ = run(s, 0, rot)
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
    s = with_hand(fresh(), 0, ["straight", "straight", "cross", "tee"])
    straight = hand_tile(s, 0, "straight")
    # far from every path
    refused(s, 0, Place(straight, 0, cell(3, 3)), "join")
    # next to the start elbow but with its closed side towards it
    refused(s, 0, Place(straight, rot_for("straight", pathways_data.N | pathways_data.S), 1), "join")
    # next to a tile, but that tile's side is closed
    s2 = with_tiles(s, {1: ("straight", pathways_data.E | pathways_data.W)})
    refused(s2, 0, Place(straight, rot_for("straight", pathways_data.N | pathways_data.S), 11), "join")
    # joined: fine
    s3, _ = run(s, 0, Place(straight, rot_for("straight", pathways_data.E | pathways_data.W), 1))
    assert s3.cells[1] == straight


def test_placed_tile_needs_only_one_end_to_connect():
    s = with_hand(fresh(), 0, ["cross", "tee", "tee", "tee"])
    cross = hand_tile(s, 0, "cross")
    s2, _ = run(s, 0, Place(cross, 0, 10))  # only its north end meets a path
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
    s = fresh()
    other = s.hands[1][0]
    refused(s, 0, Place(other, 0, 1), "not in your hand")
    refused(s, 0, Special(other), "not in your hand")


def test_special_tiles_are_played_not_placed():
    s = with_hand(fresh(), 0, ["play_2_more", "straight", "tee", "tee"])
    refused(s, 0, Place(hand_tile(s, 0, "play_2_more"), 0, 1), "special")
    refused(s, 0, Special(hand_tile(s, 0, "straight")), "path tile")
    assert all(not isinstance(a, Place) or pathways_data.TILE_KIND[a.tile] not in pathways_data.SPECIAL_KINDS
               for a in legal_of(s))


def test_used_special_goes_face_up_to_the_used_pile():
    s = with_hand(fresh(), 0, ["play_2_more", "straight", "tee", "tee"])
    tile = hand_tile(s, 0, "play_2_more")
    s2, ev = run(s, 0, Special(tile))
    assert s2.discard == (tile,)
    assert tile not in s2.hands[0]
    assert ev == [Event("special", {"seat": 0, "tile": tile, "kind": "play_2_more"})]
    for seat in (0, 1, None):
        assert GAME.view(s2, seat).discard == (tile,)


def test_play_2_more_tiles():
    s = with_hand(fresh(), 0, ["play_2_more", "straight", "straight", "straight"])
    s, _ = run(s, 0, Special(hand_tile(s, 0, "play_2_more")))
    assert (s.plays_made, s.plays_allowed) == (1, 4)
    a, b, c = s.hands[0]
    ew = rot_for("straight", pathways_data.E | pathways_data.W)
    s, _ = run(s, 0, Place(a, ew, 1), Place(b, ew, 2))
    assert s.phase == "play" and s.plays_made == 3
    # the extra tiles are optional ("up to two more")
    assert END_PLAYS in legal_of(s)
    s_end, _ = run(s, 0, END_PLAYS)
    assert s_end.phase == "move"
    s_all, _ = run(s, 0, Place(c, ew, 3))
    assert s_all.phase == "move" and s_all.plays_made == 4


def test_play_2_more_still_requires_the_second_play():
    s = with_hand(fresh(), 0, ["play_2_more", "straight", "straight", "straight"])
    s, _ = run(s, 0, Special(hand_tile(s, 0, "play_2_more")))
    assert END_PLAYS not in legal_of(s)
    refused(s, 0, END_PLAYS)


def test_playing_all_four_tiles_ends_play_phase():
    s = with_hand(fresh(), 0, ["play_2_more", "play_2_more", "straight", "straight"])
    p1, p2 = [t for t in s.hands[0] if pathways_data.TILE_KIND[t] == "play_2_more"]
    s, _ = run(s, 0, Special(p1), Special(p2))
    assert (s.plays_made, s.plays_allowed) == (2, 6)
    a, b = s.hands[0]
    ew = rot_for("straight", pathways_data.E | pathways_data.W)
    s, _ = run(s, 0, Place(a, ew, 1), Place(b, ew, 2))
    assert s.hands[0] == ()
    assert s.phase == "move", "an empty hand ends the play phase"
    # the hand is not refilled before the end of the turn
    assert GAME.view(s, 0).hand == ()
    draw_before = len(s.draw)
    s, _ = run(s, 0, END_MOVE)
    assert len(s.hands[0]) == 4 and len(s.draw) == draw_before - 4


def test_trade_special_takes_an_unlocked_empty_tile_off_the_board():
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    s = with_tiles(s, {1: ("straight", pathways_data.E | pathways_data.W)})
    trade = hand_tile(s, 0, "trade")
    s, ev = run(s, 0, Special(trade))
    assert s.pending == "trade" and s.discard == (trade,) and s.phase == "play"
    assert legal_of(s) == [Remove(1)]  # the start tiles hold subpods
    refused(s, 0, Place(hand_tile(s, 0, "straight"), 0, 10), "trade away")
    refused(s, 0, Remove(cell(5, 5)), "no tile")
    s, ev2 = run(s, 0, Remove(1))
    assert s.cells[1] == EMPTY and s.masks[1] == 0 and s.pending == ""
    assert s.plays_made == 1 and s.phase == "play"
    assert kinds(ev + ev2) == ["special", "removed"]
    assert_tiles_conserved(s)


def test_trade_special_is_refused_when_no_tile_can_be_removed():
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])  # only start tiles, with subpods
    trade = hand_tile(s, 0, "trade")
    assert Special(trade) not in legal_of(s)
    refused(s, 0, Special(trade), "traded")


def test_removed_path_tile_returns_to_draw_pile():
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    s = with_tiles(s, {1: ("straight", pathways_data.E | pathways_data.W)})
    tile = s.cells[1]
    draw = len(s.draw)
    s, _ = run(s, 0, Special(hand_tile(s, 0, "trade")), Remove(1))
    assert tile_place(s, tile) == "draw"
    assert len(s.draw) == draw + 1
    assert tile not in s.discard


def test_start_tile_left_by_its_subpod_can_be_traded():
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    s = corridor(s, [0, 10])
    s = with_pods(s, p0=10)
    s, _ = run(s, 0, Special(hand_tile(s, 0, "trade")))
    assert Remove(0) in legal_of(s)
    s, _ = run(s, 0, Remove(0))
    assert tile_place(s, 0) == "draw"


def test_tile_with_subpod_cannot_be_removed():
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    s = with_tiles(s, {1: ("straight", pathways_data.E | pathways_data.W)})
    s = with_pods(s, p1=1)
    s = with_tiles(s, {2: ("straight", pathways_data.E | pathways_data.W)})
    s, _ = run(s, 0, Special(hand_tile(s, 0, "trade")))
    assert Remove(1) not in legal_of(s) and Remove(0) not in legal_of(s)
    refused(s, 0, Remove(1), "subpod")
    refused(s, 0, Remove(0), "subpod")


def _locked_position():
    """A tee at C2 (cell 12) with tiles on all four sides; the cross at B2 opens
    towards it, so only the lock stops it from being turned."""
    s = with_hand(fresh(), 0, ["trade", "straight", "tee", "tee"])
    return with_tiles(s, {12: ("tee", pathways_data.N | pathways_data.E | pathways_data.S), 2: ("cross", 15), 11: ("cross", 15),
                          13: ("cross", 15), 22: ("cross", 15)})


def test_locked_tile_cannot_be_rotated():
    s = _locked_position()
    turn = Rotate(12, rot_for("tee", pathways_data.E | pathways_data.S | pathways_data.W))
    assert all(not (isinstance(a, Rotate) and a.cell == 12) for a in legal_of(s))
    refused(s, 0, turn, "locked")
    # with one side free again the same turn is allowed
    unlocked = replace(s, cells=s.cells[:22] + (EMPTY,) + s.cells[23:],
                       masks=s.masks[:22] + (0,) + s.masks[23:])
    assert turn in legal_of(unlocked)
    GAME.apply(unlocked, 0, turn)


def test_locked_tile_cannot_be_removed():
    s = _locked_position()
    s, _ = run(s, 0, Special(hand_tile(s, 0, "trade")))
    assert Remove(12) not in legal_of(s)
    refused(s, 0, Remove(12), "locked")


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
    s = with_hand(fresh(), 0, ["move_other_3", "straight", "tee", "tee"])
    s = corridor(s, [99, 89, 79, 69, 59])
    s, ev = run(s, 0, Special(hand_tile(s, 0, "move_other_3")))
    assert s.pending == "move_other_3" and s.phase == "play"
    assert all(isinstance(a, (Step, EndMove)) for a in legal_of(s))
    assert all(a.pod == 1 for a in legal_of(s) if isinstance(a, Step))
    refused(s, 0, Step(0, S_), "another player")
    s, ev2 = run(s, 0, Step(1, N_), Step(1, N_), Step(1, N_))
    assert s.pods[1] == 69
    assert s.pending == "" and s.phase == "play" and s.plays_made == 1
    assert kinds(ev2) == ["step", "step", "step", "special_done"]
    assert s.turn == 0  # still seat 0's play phase: one more tile to play


def test_move_someone_3_may_stop_early():
    s = with_hand(fresh(), 0, ["move_other_3", "straight", "tee", "tee"])
    s = corridor(s, [99, 89, 79, 69, 59])
    s, _ = run(s, 0, Special(hand_tile(s, 0, "move_other_3")), Step(1, N_), END_MOVE)
    assert s.pods[1] == 89 and s.pending == "" and s.phase == "play"


def test_move_up_to_3():
    s = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    s = corridor(s, [0, 10, 20, 30, 40])
    s, _ = run(s, 0, Special(hand_tile(s, 0, "move_own_3")))
    assert s.pending == "move_own_3"
    refused(s, 0, Step(1, N_), "your own")
    s, ev = run(s, 0, Step(0, S_), Step(0, S_), Step(0, S_))
    assert s.pods[0] == 30
    assert kinds(ev)[-1] == "special_done" and s.phase == "play" and s.plays_made == 1


def test_move_up_to_3_may_stop_early():
    s = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    s = corridor(s, [0, 10, 20, 30, 40])
    s, _ = run(s, 0, Special(hand_tile(s, 0, "move_own_3")), Step(0, S_), END_MOVE)
    assert s.pods[0] == 10 and s.phase == "play"


def test_special_move_as_second_play_leads_into_the_move_phase():
    s = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    s = corridor(s, [0, 10, 20, 30, 40])
    s, _ = run(s, 0, Place(hand_tile(s, 0, "straight"), rot_for("straight", pathways_data.E | pathways_data.W), 1))
    s, _ = run(s, 0, Special(hand_tile(s, 0, "move_own_3")), Step(0, S_))
    assert s.phase == "play" and s.pending == "move_own_3"
    s, _ = run(s, 0, END_MOVE)
    assert s.phase == "move" and s.pending == "" and s.mover == -1
    # and the normal move follows, counted from where the special move ended
    s, _ = run(s, 0, Step(0, S_), Step(0, S_))
    assert s.pods[0] == 30 and s.turn == 1


def test_special_move_never_returns_to_its_start_space():
    s = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    s = corridor(s, [0, 10, 20])
    s, _ = run(s, 0, Special(hand_tile(s, 0, "move_own_3")), Step(0, S_))
    assert Step(0, N_) not in legal_of(s)
    refused(s, 0, Step(0, N_), "began")


# =============================================================================
# 2. Move subpods
# =============================================================================
def test_own_subpod_moves_up_to_two_along_paths():
    s = in_move_phase(corridor(fresh(), [0, 10, 20, 30, 40]))
    s, ev = run(s, 0, Step(0, S_))
    assert s.pods[0] == 10 and s.mover == 0 and s.steps_left == 1 and s.turn == 0
    s, ev2 = run(s, 0, Step(0, S_))
    assert s.pods[0] == 20
    assert s.turn == 1 and s.phase == "play", "the second step ends the move and the turn"
    assert kinds(ev + ev2)[:2] == ["step", "step"]


def test_subpods_move_only_along_connected_paths():
    s = in_move_phase(with_tiles(fresh(), {10: ("straight", pathways_data.E | pathways_data.W)}))
    refused(s, 0, Step(0, S_), "no path")   # the tile below turns its closed side up
    refused(s, 0, Step(0, E_), "no path")   # no tile there
    refused(s, 0, Step(0, N_), "no path")   # the border
    refused(s, 0, Step(0, W_), "no path")
    assert [a for a in legal_of(s) if isinstance(a, Step) and a.pod == 0] == []


def test_other_subpod_moves_one():
    s = in_move_phase(corridor(fresh(), [99, 89, 79, 69]))
    assert Step(1, N_) in legal_of(s)
    s, ev = run(s, 0, Step(1, N_))
    assert s.pods[1] == 89
    assert s.turn == 1, "moving another subpod ends the move after one space"
    assert kinds(ev)[0] == "step" and ev[0].data == {"seat": 0, "pod": 1, "from": 99, "to": 89}


def test_move_continues_with_the_subpod_it_began_with():
    s = in_move_phase(corridor(corridor(fresh(), [0, 10, 20]), [99, 89, 79]))
    s, _ = run(s, 0, Step(0, S_))
    assert all(a.pod == 0 for a in legal_of(s) if isinstance(a, Step))
    refused(s, 0, Step(1, N_), "Finish moving")


def test_move_never_returns_to_its_start_space():
    s = in_move_phase(corridor(fresh(), [0, 10, 20]))
    s, _ = run(s, 0, Step(0, S_))
    assert Step(0, N_) not in legal_of(s)
    refused(s, 0, Step(0, N_), "began")


def test_move_may_stop_early_or_not_move_at_all():
    s = in_move_phase(corridor(fresh(), [0, 10, 20]))
    assert END_MOVE in legal_of(s)
    s1, _ = run(s, 0, END_MOVE)
    assert s1.pods == s.pods and s1.turn == 1
    s2, _ = run(s, 0, Step(0, S_), END_MOVE)
    assert s2.pods[0] == 10 and s2.turn == 1


def test_subpods_may_share_a_tile():
    s = in_move_phase(corridor(fresh(), [0, 10, 20]))
    s = with_pods(s, p1=10)
    s, _ = run(s, 0, Step(0, S_))
    assert s.pods == (10, 10)
    s, _ = run(s, 0, Step(0, S_))  # and pass through / off again
    assert s.pods == (20, 10)


def test_subpod_may_pass_through_another_subpod():
    s = in_move_phase(corridor(fresh(), [0, 10, 20]))
    s = with_pods(s, p1=10)
    s, _ = run(s, 0, Step(0, S_), Step(0, S_))
    assert s.pods == (20, 10)


def test_tiles_cannot_be_played_in_the_move_phase():
    s = in_move_phase(fresh())
    refused(s, 0, Place(s.hands[0][0], 0, 1), "moving")
    refused(s, 0, END_PLAYS, "moving")


def test_steps_cannot_be_taken_in_the_play_phase():
    s = corridor(fresh(), [0, 10, 20])
    refused(s, 0, Step(0, S_), "Play a tile")
    refused(s, 0, END_MOVE, "Play a tile")


# =============================================================================
# 3. Draw new tiles
# =============================================================================
def test_draw_back_to_four_at_end_of_turn():
    s = with_hand(fresh(), 0, ["straight", "straight", "tee", "tee"])
    a, b = s.hands[0][:2]
    ew = rot_for("straight", pathways_data.E | pathways_data.W)
    s, _ = run(s, 0, Place(a, ew, 1), Place(b, ew, 2))
    top = s.draw[:2]
    discard = s.discard
    s, ev = run(s, 0, END_MOVE)
    assert len(s.hands[0]) == 4 and s.hands[0][2:] == top
    assert s.discard == discard, "tiles are drawn from the draw pile, never the used pile"
    drew = [e for e in ev if e.kind == "drew"]
    secret = [e for e in ev if e.kind == "drew_tiles"]
    assert drew == [Event("drew", {"seat": 0, "count": 2})]
    assert secret == [Event("drew_tiles", {"seat": 0, "tiles": top}, to=(0,))]
    assert_tiles_conserved(s)


def test_empty_draw_pile_reshuffles_used_specials():
    s = with_hand(fresh(), 0, ["straight", "straight", "tee", "tee"])
    specials = tuple(t for t in s.draw if pathways_data.TILE_KIND[t] in pathways_data.SPECIAL_KINDS)[:5]
    rest = tuple(t for t in s.draw if t not in specials)
    # the rest of the pile is out on the board (tiles are only counted here)
    s = replace(in_move_phase(s), hands=((s.hands[0][0], s.hands[0][1]), s.hands[1]),
                draw=(), discard=specials)
    s, ev = run(s, 0, END_MOVE)
    assert "reshuffled" in kinds(ev)
    assert [e for e in ev if e.kind == "reshuffled"][0].data == {"count": 5}
    assert len(s.hands[0]) == 4
    assert sorted(s.hands[0][2:] + s.draw) == sorted(specials)
    assert s.discard == ()
    assert rest  # (the pile held other tiles before we emptied it)


def test_empty_draw_pile_and_no_used_specials_leaves_the_hand_short():
    s = fresh()
    s = replace(in_move_phase(s), hands=((s.hands[0][0],), s.hands[1]), draw=(), discard=())
    s, ev = run(s, 0, END_MOVE)
    assert s.hands[0] == (s.hands[0][0],) and len(s.hands[0]) == 1
    assert "drew" not in kinds(ev) and s.turn == 1


def test_no_legal_play_allows_ending_plays():
    s = with_hand(fresh(), 0, ["trade", "trade", "trade", "trade"])  # nothing can be traded
    assert legal_of(s) == [EndPlays()]
    s, ev = run(s, 0, END_PLAYS)
    assert s.phase == "move" and kinds(ev) == ["end_plays"]


def test_no_legal_play_with_an_empty_hand_allows_ending_plays():
    s = fresh()
    s = replace(s, draw=s.draw + s.hands[0], hands=((),) + s.hands[1:])
    assert END_PLAYS in legal_of(s)
    s, _ = run(s, 0, END_PLAYS)
    assert s.phase == "move"


# =============================================================================
# Winning
# =============================================================================
APPROACHES = [(34, S_), (35, S_), (43, E_), (53, E_), (46, W_), (56, W_), (64, N_), (65, N_)]


@pytest.mark.parametrize("start,side", APPROACHES)
def test_first_into_atlantis_wins(start, side):
    """From any direction, and on the first of two steps (no exact count)."""
    s = in_move_phase(with_pods(with_tiles(fresh(), {start: ("cross", 15)}), p0=start))
    assert Step(0, side) in legal_of(s)
    s, ev = run(s, 0, Step(0, side))
    assert s.pods[0] == IN_ATLANTIS
    assert s.phase == "over" and s.winners == (0,)
    assert GAME.result(s).winners == (0,) and GAME.result(s).scores == (1.0, 0.0)
    assert kinds(ev) == ["step", "atlantis"]


def test_atlantis_may_be_entered_on_the_second_step():
    s = in_move_phase(with_pods(corridor(fresh(), [24, 34]), p0=24))
    s = replace(s, masks=s.masks[:34] + (pathways_data.N | pathways_data.S,) + s.masks[35:])
    s, _ = run(s, 0, Step(0, S_), Step(0, S_))
    assert s.winners == (0,)


def test_atlantis_may_be_entered_with_a_special_move():
    s = with_hand(fresh(), 0, ["move_own_3", "straight", "tee", "tee"])
    s = with_pods(with_tiles(s, {34: ("straight", pathways_data.N | pathways_data.S)}), p0=34)
    s, _ = run(s, 0, Special(hand_tile(s, 0, "move_own_3")), Step(0, S_))
    assert s.phase == "over" and s.winners == (0,)


def test_a_path_closed_towards_atlantis_cannot_enter_it():
    s = in_move_phase(with_pods(with_tiles(fresh(), {34: ("straight", pathways_data.E | pathways_data.W)}), p0=34))
    refused(s, 0, Step(0, S_), "no path")


def test_pushing_another_into_atlantis_makes_them_win():
    s = in_move_phase(with_pods(with_tiles(fresh(), {64: ("cross", 15)}), p1=64))
    s, ev = run(s, 0, Step(1, N_))
    assert s.winners == (1,) and GAME.result(s).winners == (1,)
    assert ev[-1] == Event("atlantis", {"pod": 1})


def test_move_someone_3_into_atlantis_makes_them_win():
    s = with_hand(fresh(), 0, ["move_other_3", "straight", "tee", "tee"])
    s = with_pods(corridor(s, [24, 34]), p1=24)
    s = replace(s, masks=s.masks[:34] + (pathways_data.N | pathways_data.S,) + s.masks[35:])
    s, _ = run(s, 0, Special(hand_tile(s, 0, "move_other_3")), Step(1, S_), Step(1, S_))
    assert s.winners == (1,)


def test_game_over_refuses_every_action():
    s = in_move_phase(with_pods(with_tiles(fresh(), {34: ("cross", 15)}), p0=34))
    s, _ = run(s, 0, Step(0, S_))
    assert GAME.to_act(s) == frozenset()
    assert legal_of(s, 0) == [] and legal_of(s, 1) == []
    refused(s, 0, END_MOVE, "over")
    refused(s, 1, END_MOVE, "over")


def test_round_limit_nearest_wins():
    s = fresh(2, max_rounds=5)
    s = with_pods(replace(in_move_phase(s), round=5, turn=1), p0=cell(3, 3), p1=cell(8, 8))
    s, ev = run(s, 1, END_MOVE)
    assert s.phase == "over" and s.winners == (0,)
    assert ev[-1] == Event("round_limit", {"winners": (0,)})
    assert "round limit" in GAME.result(s).reason


def test_round_limit_ties_share_the_win():
    s = fresh(3, max_rounds=5)
    s = with_pods(replace(in_move_phase(s), round=5, turn=2), p0=34, p1=65, p2=9)
    s, _ = run(s, 2, END_MOVE)
    assert s.winners == (0, 1)
    assert GAME.result(s).scores == (1.0, 1.0, 0.0)


def test_round_limit_waits_for_the_last_seat_of_the_round():
    s = fresh(2, max_rounds=5)
    s = replace(in_move_phase(s), round=5, turn=0)
    s, _ = run(s, 0, END_MOVE)
    assert s.phase == "play" and GAME.result(s) is None


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
        s = fresh(n, seed=seed, **options)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        for _ in range(max_moves):
            if GAME.result(s) is not None:
                break
            (seat,) = GAME.to_act(s)
            legal = GAME.legal(GAME.view(s, seat))
            yield s, seat, legal
            s, _ = GAME.apply(s, seat, bots[seat].choose(GAME.view(s, seat), legal))
        yield s, None, []


def test_legal_actions_are_all_accepted_by_apply():
    checked = 0
    for s, seat, legal in random_states(range(12), 150, max_rounds=8):
        if seat is None:
            continue
        assert legal, "a seat to act always has at least one legal action"
        assert len(set(legal)) == len(legal), "legal() lists an action twice"
        for action in legal:
            GAME.apply(s, seat, action)
            checked += 1
    assert checked > 10_000


def test_apply_never_mutates_its_input():
    for s, seat, legal in random_states(range(4), 120):
        if seat is None:
            continue
        before = canonical_bytes(s)
        for action in legal[:: max(1, len(legal) // 15)]:
            after, _ = GAME.apply(s, seat, action)
            assert canonical_bytes(s) == before
            assert after is not s


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
    for i, (s, seat, legal) in enumerate(random_states(range(8), 300)):
        if seat is None:
            continue
        situation = (s.phase, s.pending, s.mover >= 0)
        if i % 9 and not (s.pending and i % 2 == 0):  # every 9th state, half the special ones
            continue
        seen.add(situation)
        candidates = [END_PLAYS, END_MOVE]
        candidates += [Place(t, r, c) for t in s.hands[seat] for r in range(4) for c in range(100)]
        candidates += [Special(t) for t in s.hands[seat]]
        candidates += [Rotate(c, r) for c in range(100) if s.cells[c] >= 0 for r in range(4)]
        candidates += [Remove(c) for c in range(100)]
        candidates += [Step(p, d) for p in range(s.players) for d in range(4)]
        accepted = set()
        for a in candidates:
            try:
                GAME.apply(s, seat, a)
            except IllegalAction:
                continue
            accepted.add(_effect_key(s, a))
        assert accepted == {_effect_key(s, a) for a in legal}
    assert len(seen) == 8, seen  # every kind of situation was tried


def test_tiles_are_conserved():
    for s, _, _ in random_states(range(10), 400):
        assert_tiles_conserved(s)


def test_to_act_is_the_seat_whose_turn_it_is():
    for s, seat, _ in random_states(range(5), 200):
        if seat is not None:
            assert GAME.to_act(s) == frozenset({s.turn}) and GAME.result(s) is None


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
    for s, _, _ in random_states(range(3), 100):
        for seat in [*range(s.players), None]:
            v = GAME.view(s, seat)
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
    for s, seat, legal in random_states(range(3), 150):
        if seat is None:
            continue
        _, events = GAME.apply(s, seat, legal[0])
        for e in events:
            assert isinstance(e, Event)
            to_data(e)


def test_undo_barrier_blocks_steps_that_drew_or_showed_tiles():
    s = with_hand(fresh(), 0, ["straight", "straight", "tee", "tee"])
    place = Place(s.hands[0][0], rot_for("straight", pathways_data.E | pathways_data.W), 1)
    after, _ = GAME.apply(s, 0, place)
    assert GAME.undo_barrier(s, after, 0, place)
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
    s = fresh(3, seed=5)
    for seat in range(3):
        s2 = GAME.rerandomise(s, seat, Rng.from_seed(9, "t"))
        assert s2.hands[seat] == s.hands[seat]
        assert [len(h) for h in s2.hands] == [len(h) for h in s.hands]
        assert len(s2.draw) == len(s.draw) and s2.cells == s.cells and s2.discard == s.discard
        assert s2.hands != s.hands or s2.draw != s.draw
        assert_tiles_conserved(s2)
        assert digest(s2) != digest(s)
