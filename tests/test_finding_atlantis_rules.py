"""Finding Atlantis rules, one test per rule (seed 000 + RULES-DECISIONS)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.finding_atlantis import data
from engine.finding_atlantis.knowledge import check_declaration, deduce
from engine.finding_atlantis.actions import (
    Burn, ChooseCaptain, Declare, DropMine, EndTurn, Explore, FirstMove, JellyRod, LongSilent, Periscope,
    PickCell, Silent, Sonar, Surface, UseArtifact, UseCaptain,
)
from engine.components import put
from engine.core import replace

from fa_helpers import GAME, at, cell, chart_at, on_map, started


def private_to(events, seat):
    return [e for e in events if e.to == (seat,)]


def public(events):
    return [e for e in events if e.to is None]


# --- setup ----------------------------------------------------------------------------
def test_deal_two_captains_keep_one_privately():
    state = GAME.setup(GAME.parse_options({}), 3, 4)
    assert state.phase == "captain"
    offered = [o for seat in range(3) for o in state.offers[seat]]
    assert all(len(state.offers[x]) == 2 for x in range(3)) and len(set(offered)) == 6
    seat = state.turn
    keep = state.offers[seat][1]
    s2, ev = GAME.apply(state, seat, ChooseCaptain(keep))
    assert s2.captain[seat] == keep and s2.offers[seat] == ()
    assert all(keep not in str(e.data) for e in public(ev))
    with pytest.raises(IllegalAction):
        GAME.apply(s2, s2.turn, ChooseCaptain("not-a-captain"))


def test_start_positions_are_public_and_the_first_move_is_hidden():
    state = GAME.setup(GAME.parse_options({}), 2, 9)
    while state.phase == "captain":
        state, _ = GAME.apply(state, state.turn, ChooseCaptain(state.offers[state.turn][0]))
    other = 1 - state.turn
    assert GAME.view(state, other).public[state.turn].start == state.starts[state.turn]
    mover = state.turn
    s2, ev = GAME.apply(state, mover, FirstMove(4))
    assert all("dir" not in e.data for e in public(ev))
    assert GAME.view(s2, other) == GAME.view(replace(s2, pos=put(s2.pos, mover, 0)), other)


def test_a_turn_is_two_actions():
    state = on_map(started())
    state = at(state, 0, "B2")
    state, _ = GAME.apply(state, 0, Sonar())
    assert state.turn == 0 and state.actions_left == 1
    state, ev = GAME.apply(state, 0, JellyRod(0))
    assert state.turn == 0 and state.actions_left == 0 and not any(e.kind == "turn" for e in ev)
    assert GAME.legal(GAME.view(state, 0)) == [EndTurn()]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Sonar())
    state, ev = GAME.apply(state, 0, EndTurn())
    assert state.turn == 1 and state.actions_left == 2
    assert any(e.kind == "turn" for e in ev)


def test_every_turn_ends_the_same_way_whatever_the_second_action_was():
    """The turn waits for End turn after an Explore and after any other card alike,
    so pressing End turn after the second action is always right."""
    for second in (Sonar(), Explore(), Surface(), Silent(4)):
        state = at(on_map(started()), 0, "B2")
        state, _ = GAME.apply(state, 0, JellyRod(0))
        state, _ = GAME.apply(state, 0, second)
        assert (state.turn, state.actions_left) == (0, 0), second


# --- actions ---------------------------------------------------------------------------
def test_sonar_reads_the_8_neighbours_including_beyond_the_edge():
    state = on_map(started(), atlantis=("C3", "D3", "D4", "E5"), artifacts=("A1", "F1", "A6", "F6"))
    state = at(state, 0, "B1")
    state, ev = GAME.apply(state, 0, Sonar())
    (res,) = [e for e in private_to(ev, 0) if e.kind == "result"]
    assert len(res.data["cells"]) == 8
    w = state.n + 2
    # the ring cell north of A1 is a seamount (next to the artifact at A1): Sonar says so
    assert state.charts[0][0 * w + 1] & data.SEA
    assert state.charts[0][0 * w + 3] & data.DEEP_F
    assert not [e for e in ev if e.to is None and e.kind == "result"]


def test_jelly_rod_reads_two_opposite_spaces_on_one_of_four_axes():
    state = on_map(started())
    state = at(state, 0, "C2")
    state, ev = GAME.apply(state, 0, JellyRod(0))  # north C1 (no trace), south C3 (Atlantis)
    assert chart_at(state, 0, "C3") & data.TRACE and chart_at(state, 0, "C1") & data.NOTRACE
    state = at(state, 0, "E4")
    state, ev = GAME.apply(state, 0, JellyRod(3))  # NW-SE: D3 and F5
    assert chart_at(state, 0, "D3") & data.TRACE and chart_at(state, 0, "F5") & data.NOTRACE
    with pytest.raises(IllegalAction):
        GAME.apply(state, state.turn, JellyRod(4))


def test_explore_tells_what_lies_beneath():
    s = on_map(started())
    for name, bit in (("C3", data.ATL), ("B2", data.DEEP_F), ("C2", data.SEA | data.NOTRACE)):
        s2, ev = GAME.apply(at(s, 0, name), 0, Explore())
        assert chart_at(s2, 0, name) & bit == bit


def test_explore_on_an_artifact_draws_one_artifact_card_once():
    state = at(on_map(started()), 0, "A1")
    top = state.deck[0]
    state, ev = GAME.apply(state, 0, Explore())
    assert [a for a, _ in state.arts[0]] == [top]
    assert any(e.kind == "artifact_drawn" and e.to is None for e in ev)
    assert any(e.kind == "artifact_card" and e.to == (0,) and e.data["artifact"] == top for e in ev)
    state = at(state, 1, "A1")
    state, ev = GAME.apply(state, 1, Explore())
    assert state.arts[1] == () and any(e.kind == "artifact_gone" for e in ev)


def test_declaring_the_right_set_on_atlantis_wins():
    state = at(on_map(started()), 0, "D4")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, PickCell(0))  # only after exploring Atlantis
    state, _ = GAME.apply(state, 0, Explore())
    assert state.may_declare[0]
    for name in ("C3", "D3", "D4", "E5"):
        state, ev = GAME.apply(state, 0, PickCell(cell(6, name)))
        assert ev == []  # picking is private
    state, ev = GAME.apply(state, 0, Declare())
    assert GAME.result(state).winners == (0,)
    assert any(e.kind == "declared" and e.to is None and e.data["correct"] for e in ev)


def test_a_wrong_declaration_teleports_to_a_space_even_the_player_does_not_know():
    state = at(on_map(started()), 0, "D4")
    state, _ = GAME.apply(state, 0, Explore())
    for name in ("C3", "D3", "D4", "D5"):
        state, _ = GAME.apply(state, 0, PickCell(cell(6, name)))
    state, ev = GAME.apply(state, 0, Declare())
    assert GAME.result(state) is None
    assert state.lost[0] and GAME.view(state, 0).pos == -1
    assert any(e.kind == "declared" and not e.data["correct"] for e in ev)
    assert state.failed == ((0, tuple(sorted(cell(6, c) for c in ("C3", "D3", "D4", "D5")))),)
    assert not any("cell" in e.data and e.kind == "teleported" for e in ev)


def test_a_declaration_must_name_exactly_k_spaces():
    state = at(on_map(started()), 0, "D4")
    state, _ = GAME.apply(state, 0, Explore())
    state, _ = GAME.apply(state, 0, PickCell(cell(6, "D4")))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Declare())


def test_silent_running_moves_1_and_long_silent_running_2_unseen():
    state = at(on_map(started()), 0, "C3")
    s1, ev = GAME.apply(state, 0, Silent(2))
    assert s1.pos[0] == cell(6, "D3")
    s2, ev = GAME.apply(state, 0, LongSilent(3))
    assert s2.pos[0] == cell(6, "E5")
    assert all("dir" not in e.data for e in public(ev))


def test_a_move_that_would_leave_the_map_stops_at_the_edge():
    state = at(on_map(started()), 0, "B1")
    state, ev = GAME.apply(state, 0, LongSilent(0))
    assert state.pos[0] == cell(6, "B1")
    (moved,) = [e for e in ev if e.kind == "moved"]
    assert moved.to == (0,) and moved.data["stop"] == "edge" and moved.data["steps"] == 0


def test_burning_a_card_moves_one_space_in_a_public_direction():
    state = at(on_map(started()), 0, "C3")
    state, ev = GAME.apply(state, 0, Burn("sonar", 2))
    assert state.pos[0] == cell(6, "D3") and "sonar" not in state.hands[0]
    (burn,) = [e for e in ev if e.kind == "burnt"]
    assert burn.to is None and burn.data["dir"] == 2
    assert GAME.view(state, 1).public[0].last_played[-1] == ("sonar", 2)


def test_surface_cannot_be_burnt():
    state = at(on_map(started()), 0, "C3")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Burn("surface", 2))


def test_surface_takes_back_every_card_and_the_captain_and_reveals_the_position():
    state = at(on_map(started()), 0, "C3")
    state, _ = GAME.apply(state, 0, Sonar())
    state, _ = GAME.apply(state, 0, Burn("captain", 2))
    state = at(state, 0, "D3")
    state, ev = GAME.apply(state, 0, Surface())
    assert set(state.hands[0]) == set(data.BASE_CARDS) | {"captain"}
    assert any(e.kind == "surfaced" and e.to is None and e.data["cell"] == cell(6, "D3") for e in ev)
    assert GAME.view(state, 1).public[0].surfaced == cell(6, "D3")


def test_a_played_card_must_be_in_the_hand():
    state = at(on_map(started()), 0, "C3")
    state, _ = GAME.apply(state, 0, Sonar())
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Sonar())


def test_the_last_two_cards_each_player_played_are_public():
    state = at(on_map(started()), 0, "C3")
    for a in (Sonar(), JellyRod(1)):
        state, _ = GAME.apply(state, 0, a)
    state = at(state, 0, "C3")
    state, _ = GAME.apply(state, 0, Explore())
    assert [c for c, _ in GAME.view(state, 1).public[0].last_played] == ["rod", "explore"]


def test_results_are_addressed_to_the_actor_only():
    state = at(on_map(started()), 0, "C2")
    for a in (Sonar(), JellyRod(0)):
        s2, ev = GAME.apply(state, 0, a)
        assert all(e.to == (0,) for e in ev if e.kind in ("result", "moved"))
    assert GAME.view(s2, 1).chart == started().charts[1]


def test_end_turn_gives_up_the_remaining_actions():
    state = at(on_map(started()), 0, "C3")
    state, _ = GAME.apply(state, 0, EndTurn())
    assert state.turn == 1


# --- pirate mode -------------------------------------------------------------------------
def test_pirate_mode_adds_periscope_and_drop_mine():
    assert "periscope" in started(pirate=True).hands[0] and "mine" in started(pirate=True).hands[0]
    state = at(on_map(started()), 0, "C3")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Periscope())


def test_one_mine_per_player_dropping_again_removes_the_old():
    state = at(on_map(started(pirate=True)), 0, "C3")
    state, ev = GAME.apply(state, 0, DropMine(2))
    assert state.mines[0] == cell(6, "C3") and state.pos[0] == cell(6, "D3")
    assert any(e.kind == "mine_dropped" and e.to is None and "cell" not in e.data for e in ev)
    state = at(state, 0, "A3", hands=put(state.hands, 0, state.hands[0] + ("mine",)))
    state, _ = GAME.apply(state, 0, DropMine(4))
    assert state.mines[0] == cell(6, "A3")


def test_moving_into_a_mine_hands_an_artifact_to_its_owner():
    state = at(on_map(started(pirate=True)), 1, "D3")
    state = replace(state, mines=put(state.mines, 0, cell(6, "E3")), arts=put(state.arts, 1, (("trident", 0),)))
    state, ev = GAME.apply(state, 1, Silent(2))
    assert state.arts[0] == (("trident", 0),) and state.arts[1] == ()
    assert state.mines[0] == -1
    assert any(e.kind == "mine_hit" and e.to is None for e in ev)
    (card,) = [e for e in ev if e.kind == "mine_artifact_card"]
    assert card.to == (1, 0)


def test_a_used_artifact_can_still_be_taken_by_a_mine_and_stays_used():
    state = at(on_map(started(pirate=True)), 1, "D3")
    state = replace(state, mines=put(state.mines, 0, cell(6, "E3")), arts=put(state.arts, 1, (("trident", cell(6, "A1")),)))
    state, _ = GAME.apply(state, 1, UseArtifact("trident"))          # wakes a monster on A1
    assert state.arts[1] == () and state.used[1] == ("trident",) and state.monsters == (cell(6, "A1"),)
    hand = state.hands[1]
    state, ev = GAME.apply(state, 1, Silent(2))                      # into Red's mine on E3
    assert state.used[1] == () and state.used[0] == ("trident",)     # it changed hands, still used
    assert state.arts[0] == ()                                    # so Red cannot use it again
    assert state.monsters == (cell(6, "A1"),)                     # the monster it woke stays
    assert state.hands[1] == tuple(c for c in hand if c != "silent")  # no action cards lost instead
    assert state.mines[0] == -1 and not any(e.kind == "mine_cards" for e in ev)
    (moved,) = [e for e in ev if e.kind == "mine_used_artifact"]
    assert moved.to is None and moved.data == {"seat": 1, "owner": 0, "artifact": "trident"}
    assert GAME.view(state, None).public[0].used == ("trident",)
    state = at(state, 0, "A6")
    assert not any(isinstance(a, UseArtifact) for a in GAME.legal(GAME.view(state, 0)))
    with pytest.raises(IllegalAction, match="do not hold"):
        GAME.apply(state, 0, UseArtifact("trident"))


def test_a_mine_takes_one_artifact_card_at_random_used_or_unused():
    outcomes = set()
    for seed in range(1, 25):
        state = at(on_map(started(seed, pirate=True)), 1, "D3")
        state = replace(state, mines=put(state.mines, 0, cell(6, "E3")), arts=put(state.arts, 1, (("orb", 0),)),
                    used=put(state.used, 1, ("trident",)))
        state, _ = GAME.apply(state, 1, Silent(2))
        assert len(state.arts[1]) + len(state.used[1]) == 1 and len(state.arts[0]) + len(state.used[0]) == 1
        outcomes.add((state.arts[0], state.used[0]))
    assert outcomes == {((("orb", 0),), ()), ((), ("trident",))}


def test_a_mine_without_artifacts_costs_up_to_two_action_cards_never_surface():
    state = at(on_map(started(pirate=True)), 1, "D3", )
    state = replace(state, mines=put(state.mines, 0, cell(6, "E3")),
                hands=put(state.hands, 1, ("surface", "silent", "rod")))
    state, ev = GAME.apply(state, 1, Silent(2))
    assert state.hands[1] == ("surface",)
    (lost,) = [e for e in ev if e.kind == "mine_cards"]
    assert sorted(lost.data["cards"]) == ["rod"]  # Silent Running itself was played


def test_your_own_mine_is_harmless():
    state = at(on_map(started(pirate=True)), 0, "D3")
    state = replace(state, mines=put(state.mines, 0, cell(6, "E3")))
    state, ev = GAME.apply(state, 0, Silent(2))
    assert state.mines[0] == cell(6, "E3") and not any(e.kind == "mine_hit" for e in ev)


def test_jelly_rod_confuses_mines_with_traces_in_pirate_mode():
    state = at(on_map(started(pirate=True)), 0, "B2")
    state = replace(state, mines=put(state.mines, 1, cell(6, "B3")))
    state, _ = GAME.apply(state, 0, JellyRod(0))  # B1 nothing, B3 a mine
    assert chart_at(state, 0, "B3") & data.ROD and not chart_at(state, 0, "B3") & data.TRACE


def test_periscope_detects_mines_and_sea_monsters():
    state = at(on_map(started(pirate=True)), 0, "B2")
    state = replace(state, mines=put(state.mines, 1, cell(6, "B3")), monsters=(cell(6, "C1"),))
    state, ev = GAME.apply(state, 0, Periscope())
    assert chart_at(state, 0, "B3") & data.DANGER and chart_at(state, 0, "C1") & data.DANGER
    assert not chart_at(state, 0, "A1") & data.DANGER


# --- sea monsters -------------------------------------------------------------------------
def test_a_sea_monster_wakes_where_a_used_artifact_was_found():
    state = at(on_map(started()), 0, "A1")
    state, _ = GAME.apply(state, 0, Explore())
    art = state.arts[0][0][0]
    state = at(state, 0, "B2", arts=put(state.arts, 0, (("trident", cell(6, "A1")),)))
    state, ev = GAME.apply(state, 0, UseArtifact("trident"))
    assert state.monsters == (cell(6, "A1"),)
    assert any(e.kind == "monster_woke" and e.to is None for e in ev)
    assert art  # a card was drawn


def test_moving_into_a_sea_monster_pushes_back_and_costs_the_next_action():
    state = at(on_map(started()), 0, "B1", monsters=(cell(6, "A1"),))
    state, ev = GAME.apply(state, 0, Silent(6))
    assert state.pos[0] == cell(6, "B1")
    assert any(e.kind == "monster_attack" and e.to is None for e in ev)
    assert state.turn == 0 and state.actions_left == 0  # the second action was lost


def test_roaming_monsters_move_after_each_round_still_ones_do_not():
    for mode, moves in (("roaming", True), ("still", False)):
        state = at(on_map(started(monsters=mode)), 0, "B1", monsters=(cell(6, "C4"),))
        state = replace(state, first=0)
        state, _ = GAME.apply(state, 0, EndTurn())
        state, ev = GAME.apply(state, 1, EndTurn())
        assert (state.monsters != (cell(6, "C4"),)) == moves


# --- captains and artifacts -----------------------------------------------------------------
def test_there_are_8_captains_and_10_artifacts_each_with_a_one_line_effect():
    assert len(data.CAPTAINS) == 8 and len(data.ARTIFACTS) == 10
    assert data.CAPTAINS["navy"][0] == "Navy Captain" and data.ARTIFACTS["seed"][0] == "Seed of Youth"
    for name, text, *_ in list(data.CAPTAINS.values()) + list(data.ARTIFACTS.values()):
        assert name and text and "\n" not in text and len(text) < 100


def test_navy_captain_gives_distances_to_the_nearest_traces_along_an_axis():
    state = at(on_map(started()), 0, "C1", captain=("navy", "geologist"))
    state, ev = GAME.apply(state, 0, UseCaptain(0))
    (res,) = [e for e in ev if e.kind == "result"]
    assert res.data["dists"] == (0, 2)  # none north (edge), C3 two south
    assert chart_at(state, 0, "C2") & data.NOTRACE and chart_at(state, 0, "C3") & data.TRACE


def test_every_captain_works():
    base = on_map(started(players=3))
    for cap in data.CAPTAINS:
        state = at(base, 0, "C2", captain=(cap,) + base.captain[1:])
        view = GAME.view(state, 0)
        acts = [a for a in GAME.legal(view) if type(a) is UseCaptain]
        assert acts, cap
        s2, ev = GAME.apply(state, 0, acts[-1])
        assert "captain" not in s2.hands[0] and s2.captain_shown[0], cap


def test_seed_of_youth_refills_the_hand_without_surfacing_as_a_free_action():
    state = at(on_map(started()), 0, "C2")
    state, _ = GAME.apply(state, 0, Sonar())
    state = replace(state, arts=put(state.arts, 0, (("seed", cell(6, "A1")),)))
    state, ev = GAME.apply(state, 0, UseArtifact("seed"))
    assert "sonar" in state.hands[0] and state.actions_left == 1 and state.surfaced[0] == -1
    assert not any(e.kind == "surfaced" for e in ev)


def test_every_artifact_works():
    base = on_map(started(players=3))
    for art in data.ARTIFACTS:
        state = at(base, 0, "C2", arts=put(base.arts, 0, ((art, cell(6, "A1")),)))
        view = GAME.view(state, 0)
        acts = [a for a in GAME.legal(view) if type(a) is UseArtifact]
        assert acts, art
        s2, ev = GAME.apply(state, 0, acts[len(acts) // 2])
        assert art in s2.used[0] and s2.monsters == (cell(6, "A1"),), art
        assert (s2.actions_left == 2 or s2.turn != 0) == data.ARTIFACTS[art][2] or s2.turn != 0


def test_golden_compass_finds_a_lost_submarine():
    state = at(on_map(started()), 0, "C2", lost=(True, False), arts=((("compass", 0),), ()))
    state, _ = GAME.apply(state, 0, Sonar())
    assert state.lost_obs[0] and chart_at(state, 0, "C1") == 0
    state, ev = GAME.apply(state, 0, UseArtifact("compass"))
    assert not state.lost[0] and any(e.kind == "found_self" for e in ev)
    assert chart_at(state, 0, "C1") != 0  # the notes taken while lost are on the chart now


# --- the chart, the assistant --------------------------------------------------------------------
def test_the_view_holds_the_seats_chart_never_the_map():
    state = started()
    fields = set(type(GAME.view(state, 0)).__dataclass_fields__)
    assert not fields & {"terrain", "rng", "deck", "hands", "mines", "arts"}
    assert GAME.view(state, None).chart == ()


def test_deduction_assistant_works_from_the_chart_alone():
    state = at(on_map(started()), 0, "C2")
    state, _ = GAME.apply(state, 0, JellyRod(0))
    know = deduce(GAME.view(state, 0))
    assert know.trace[cell(6, "C3")] == 1
    assert know.sea[(2 + 1) * 8 + 3 + 1] == 1  # D3 is straight next to the trace at C3: a seamount
    warn = check_declaration(GAME.view(state, 0), (cell(6, "C1"), cell(6, "A6"), cell(6, "F6"), cell(6, "F1")), know)
    assert any("cannot be Atlantis" in w for w in warn) and any("connected" in w for w in warn)


def test_options_size_pirate_monsters_paper_assistant():
    o = GAME.parse_options({"size": "8", "pirate": "true", "monsters": "roaming", "paper": "1"})
    state = GAME.setup(o, 2, 1)
    view = GAME.view(state, 0)
    assert (state.n, state.k, state.pirate, state.roaming, view.paper, view.assistant) == (8, 6, True, True, True, False)
    with pytest.raises(ValueError):
        GAME.parse_options({"size": "7"})


def test_after_an_explore_the_turn_waits_for_the_explorer_whatever_was_found():
    """Passing the turn on at once would tell the table the space was not Atlantis."""
    for name in ("D4", "B2", "A1"):  # Atlantis, deep ocean, an artifact
        state = at(on_map(started()), 0, name)
        state, _ = GAME.apply(state, 0, Sonar())
        state, ev = GAME.apply(state, 0, Explore())
        assert state.turn == 0 and state.actions_left == 0 and not any(e.kind == "turn" for e in ev)
        legal = GAME.legal(GAME.view(state, 0))
        assert EndTurn() in legal and not any(type(a) is Sonar for a in legal)
        state, _ = GAME.apply(state, 0, EndTurn())
        assert state.turn == 1


def test_a_lost_submarine_can_work_out_where_it_is_from_its_notes():
    from engine.finding_atlantis.knowledge import possible_positions

    state = at(on_map(started()), 0, "C2")
    for a in (Sonar(), JellyRod(0)):
        state, _ = GAME.apply(state, 0, a)
    state = at(state, 0, "D4")
    state = replace(state, lost=(True, False), hands=put(state.hands, 0, ("sonar", "rod", "explore", "surface")))
    state, _ = GAME.apply(state, 0, Sonar())
    state, _ = GAME.apply(state, 0, Explore())
    view = GAME.view(state, 0)
    places = possible_positions(view)
    assert view.pos == -1 and state.pos[0] in places and len(places) < 36
