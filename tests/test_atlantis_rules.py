"""Atlantis, one test per rule (seed 004 and RULES-DECISIONS 'atlantis').

Positions start from a real ``setup`` and get a road laid by ``lay``: a list of
tokens for spaces 0, 1, 2, ... -- ``"A3"`` a single amber plate worth 3, ``"A3:"`` a
stack of two with amber 3 on top, ``"~"`` an empty space -- and every space after the
list a single teal 2 (tests keep teal out of the hands unless they mean it).
Colours: 0 amber A, 1 coral C, 2 jade J, 3 lilac L, 4 navy N, 5 pearl P, 6 teal T.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import msgpack
import pytest

from engine.atlantis import data as atlantis_data
from engine.atlantis import route
from engine.atlantis.actions import (
    NO_BRIDGE, PASS, Bridge, Choose, NoBridge, Pass, PayCard, PayPlate, Play, Sell,
)
from engine.atlantis.rules import AtlantisGame, final_debts
from engine.atlantis.state import AtlantisView
from engine.core import IllegalAction, SeatInfo
from engine.match import Match

GAME = AtlantisGame()
A, C, J, L, N, P, T = range(7)
MAIN = atlantis_data.MAINLAND
ATL = atlantis_data.ATLANTIS
LETTER = {x: i for i, x in enumerate(atlantis_data.LETTERS)}


def plate(colour: int, value: int) -> int:
    half = 0 if value <= 6 else 1
    return half * 42 + colour * 6 + value - atlantis_data.HALF_VALUES[half][0]


def fresh(players: int = 2, seed: int = 1, **options: Any):
    return GAME.setup(GAME.parse_options(options), players, seed)


def lay(state, tokens: list[str]):
    tops, heights = [], []
    for i in range(atlantis_data.SPACES):
        tok = tokens[i] if i < len(tokens) else "T2"
        if tok == "~":
            tops.append(-1)
            heights.append(0)
            continue
        tops.append(plate(LETTER[tok[0]], int(tok[1])))
        heights.append(2 if tok.endswith(":") else 1)
    return replace(state, tops=tuple(tops), heights=tuple(heights))


def with_hand(state, seat: int, cards: list[int]):
    hands = list(state.hands)
    hands[seat] = tuple(sorted(cards))
    return replace(state, hands=tuple(hands))


def with_figures(state, seat: int, positions: list[int]):
    figures = list(state.figures)
    figures[seat] = tuple(positions)
    return replace(state, figures=tuple(figures))


def with_plates(state, seat: int, plates: list[int]):
    out = list(state.plates)
    out[seat] = tuple(sorted(plates))
    return replace(state, plates=tuple(out))


def with_bridge(state, seat: int, space: int):
    return replace(state, bridges=state.bridges[:seat] + (space,) + state.bridges[seat + 1:])


def run(state, seat: int, *actions):
    events = []
    for a in actions:
        state, ev = GAME.apply(state, seat, a)
        events += ev
    return state, events


def legal(state, seat: int | None = None):
    return GAME.legal(GAME.view(state, state.turn if seat is None else seat))


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def simple(players: int = 2, tokens: list[str] | None = None, hand: list[int] | None = None):
    """Seat 0 to play, its figures in Atlantis, the road given, the hand given."""
    s = lay(fresh(players), tokens or [])
    if hand is not None:
        s = with_hand(s, 0, hand)
    return s


# --- components and setup --------------------------------------------------------------------
def test_route_runs_atlantis_10_doubles_10_singles_6_doubles_water_6_doubles_10_singles_10_doubles_mainland():
    runs = []
    for h in atlantis_data.START_HEIGHTS:
        if runs and runs[-1][0] == h:
            runs[-1][1] += 1
        else:
            runs.append([h, 1])
    assert runs == [[2, 10], [1, 10], [2, 6], [0, 1], [2, 6], [1, 10], [2, 10]]
    assert atlantis_data.SPACES == 53 and atlantis_data.ATLANTIS == -1 and atlantis_data.MAINLAND == 53
    state = fresh()
    assert state.heights == atlantis_data.START_HEIGHTS
    assert [i for i in range(atlantis_data.SPACES) if state.tops[i] < 0] == [26]
    assert route.gaps(state) == (route.Gap(26, 26, min(route.top_value(state, 25), route.top_value(state, 27)), False),)


def test_plate_values_are_1_to_6_per_colour_nearer_atlantis_and_2_to_7_nearer_the_mainland():
    assert atlantis_data.PLATES == 84
    for half, values in enumerate(((1, 2, 3, 4, 5, 6), (2, 3, 4, 5, 6, 7))):
        got = Counter((atlantis_data.COLOUR_OF[p], atlantis_data.VALUE_OF[p]) for p in atlantis_data.HALF_PLATES[half])
        assert got == Counter((c, v) for c in range(7) for v in values)
    for seed in range(5):
        state = fresh(seed=seed)
        for half, spaces in enumerate(atlantis_data.HALF_SPACES):
            laid = [state.tops[i] for i in spaces if state.tops[i] >= 0]
            assert sorted(laid + list(state.unseen[half])) == list(atlantis_data.HALF_PLATES[half])
            assert len(state.unseen[half]) == sum(1 for i in spaces if state.heights[i] == 2)


def test_105_cards_15_of_each_colour_in_a_hidden_pile():
    assert len(atlantis_data.CARDS) == 105 and Counter(atlantis_data.CARDS) == {c: 15 for c in range(7)}
    state = fresh(4)
    assert Counter(state.pile + sum(state.hands, ())) == Counter(atlantis_data.CARDS)
    view = GAME.view(state, 0)
    assert view.pile_count == len(state.pile) and not {"pile", "hands", "unseen", "rng"} & set(AtlantisView.__dataclass_fields__)


def test_starting_hands_are_4_5_6_7_cards_in_seat_order():
    for n in (2, 3, 4):
        assert tuple(map(len, fresh(n).hands)) == (4, 5, 6, 7)[:n]


def test_everyone_has_3_figures_in_atlantis_and_1_bridge():
    state = fresh(3)
    assert state.figures == ((ATL,) * 3,) * 3 and state.bridges == (-1, -1, -1)


# --- moving ------------------------------------------------------------------------------------
def test_a_card_moves_the_figure_to_the_next_plate_of_its_colour():
    state = simple(tokens=["A1:", "C2:", "J3:", "C4:"], hand=[J, C])
    state, ev = run(state, 0, Choose(0), Play(J))
    assert state.figures[0][0] == 2 and kinds(ev)[:3] == ["chose", "played", "moved"]
    assert ev[1].data == {"seat": 0, "figure": 0, "colour": J, "to": 2}
    assert state.discard == (J,) and C in state.hands[0]


def test_an_occupied_plate_makes_the_figure_play_another_card_and_jump_on():
    state = with_figures(simple(tokens=["A1:", "C2:", "J3:", "C4:"], hand=[C, J, L]), 1, [1, ATL, ATL])
    state, ev = run(state, 0, Choose(0), Play(C))
    assert state.phase == "move" and state.cursor == 1 and state.figures[0][0] == ATL  # standing on Blue's plate
    assert set(legal(state)) == {Play(J), Play(L)}   # lilac: no lilac ahead, the mainland
    state, _ = run(state, 0, Play(J))
    assert state.figures[0][0] == 2


def test_two_figures_never_share_a_plate():
    # the only coral plate ahead is taken and there is no card to go on with
    state = with_figures(simple(tokens=["A1:", "C2:", "J3:"], hand=[C]), 1, [1, ATL, ATL])
    state = lay(state, ["A1:", "C2:", "J3:"] + ["J2"] * 50)
    assert Play(C) not in GAME.legal(replace(GAME.view(state, 0), phase="move", mover=0, start=ATL, cursor=ATL))
    assert legal(state) == [PASS]
    for seed in range(30):
        st = fresh(2 + seed % 3, seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(st.players)]
        while GAME.result(st) is None:
            (q,) = GAME.to_act(st)
            view = GAME.view(st, q)
            st, _ = GAME.apply(st, q, bots[q].choose(view, GAME.legal(view)))
            spots = [p for fs in st.figures for p in fs if 0 <= p < MAIN]
            assert len(spots) == len(set(spots))


def test_with_no_plate_of_the_colour_ahead_the_figure_reaches_the_mainland_which_holds_any_number():
    state = simple(tokens=["A1:", "C2:"] + ["J2"] * 51, hand=[L, L])
    state = with_figures(state, 1, [MAIN, MAIN, ATL])
    state, ev = run(state, 0, Choose(0), Play(L))
    assert state.figures[0][0] == MAIN and state.figures[1][:2] == (MAIN, MAIN)


# --- taking plates -------------------------------------------------------------------------------
def test_after_moving_the_figure_takes_the_first_free_plate_behind_it():
    state = simple(tokens=["A1", "C2", "J3", "L4", "N5"], hand=[N])
    state = with_figures(state, 1, [3, ATL, ATL])               # Blue on L4
    state, ev = run(state, 0, Choose(0), Play(N))
    took = [e for e in ev if e.kind == "took"][0]
    assert took.data["space"] == 2 and state.plates[0] == (plate(J, 3),)  # skips Blue, takes J3


def test_taking_skips_water_and_bridges():
    state = simple(tokens=["A1", "C2", "~", "~", "J3", "L4", "N5"], hand=[L, C, C])
    state = with_figures(state, 1, [4, ATL, ATL])
    state = with_bridge(state, 1, 2)
    state, ev = run(state, 0, Choose(0), Play(L))                # lands on L4... behind: Blue on J3, bridge, C2
    assert state.figures[0][0] == 5 and state.plates[0] == (plate(C, 2),)


def test_taking_the_top_of_a_double_stack_uncovers_the_plate_below_and_leaves_no_gap():
    state = simple(tokens=["A1:", "C2:"], hand=[C])
    state, ev = run(state, 0, Choose(0), Play(C))
    took = [e for e in ev if e.kind == "took"][0]
    assert took.data["space"] == 0 and state.heights[0] == 1 and state.tops[0] == took.data["uncovered"] >= 0
    assert atlantis_data.HALF_OF[state.tops[0]] == 0 and state.tops[0] not in state.unseen[0]
    assert route.gaps(state) == () or all(g.first != 0 for g in route.gaps(state))


def test_an_emptied_single_space_becomes_water():
    state = simple(tokens=["A1:", "C2", "J3"], hand=[J])
    state = with_figures(state, 1, [0, ATL, ATL])
    state, _ = run(state, 0, Choose(0), Play(J))
    assert state.heights[1] == 0 and route.gaps(state)[0][:2] == (1, 1) and route.gaps(state)[0].cost == 1


def test_a_space_emptied_next_to_atlantis_or_the_mainland_shortens_the_route():
    state = simple(tokens=["A1", "C2"], hand=[C])
    state, _ = run(state, 0, Choose(0), Play(C))
    assert state.heights[0] == 0 and route.ends(state.heights)[0] == 1 and all(g.first > 0 for g in route.gaps(state))
    tail = ["J2"] * 52 + ["C3"]
    state = with_figures(simple(tokens=tail, hand=[L]), 1, [MAIN, MAIN, 10])
    state, _ = run(state, 0, Choose(0), Play(L))                 # to the mainland: takes space 52
    assert state.heights[52] == 0 and route.ends(state.heights)[1] == 51
    assert not any(g.last == 52 for g in route.gaps(state))


# --- water ---------------------------------------------------------------------------------------
def test_crossing_a_gap_costs_the_lower_of_the_two_plates_beside_it():
    state = with_bridge(simple(tokens=["A1", "C6", "~", "J4", "L5"], hand=[L, N]), 0, 40)
    state = with_plates(state, 0, [plate(A, 5)])
    state, ev = run(state, 0, Choose(0), Play(L))
    assert state.phase == "pay" and state.owed == 4


def test_every_gap_crossed_in_one_move_is_paid():
    state = with_bridge(simple(tokens=["A1", "C6", "~", "J4", "~", "L3", "N5"], hand=[N, T, T, T, T, T, T, T]), 0, 40)
    state, ev = run(state, 0, Choose(0), Play(N))
    assert state.owed == 4 + 3


def test_touching_water_spaces_are_one_gap():
    s = simple(tokens=["A1", "C6", "~", "~", "~", "J4", "L5"])
    assert route.gaps(s)[0] == route.Gap(2, 4, 4, False)


def test_a_bridge_makes_its_gap_free_for_everyone():
    state = with_bridge(simple(tokens=["A1", "C6", "~", "J4", "L5"], hand=[L]), 1, 2)
    state, ev = run(state, 0, Choose(0), Play(L))
    assert "water" not in kinds(ev) and state.turn == 1


def test_a_bridge_grows_with_its_gap():
    state = with_bridge(simple(tokens=["A1", "C6", "~", "J4", "~", "L5", "N5"], hand=[N, T, T, T, T]), 1, 2)
    state = with_bridge(with_figures(state, 1, [5, ATL, ATL]), 0, 40)
    state, ev = run(state, 0, Choose(0), Play(N))     # pays 4 for the gap at 4 (the one at 2 is bridged)
    assert state.owed == 4
    state, ev = run(state, 0, *[PayCard(T)] * 4)      # takes J4 (Blue stands on L5): the two gaps join
    assert state.heights[3] == 0 and route.gaps(state) == (route.Gap(2, 4, 5, True),)


def test_your_bridge_goes_on_a_gap_crossed_in_the_move_once_in_the_game():
    state = simple(tokens=["A1", "C6", "~", "J4", "~", "L3", "N5"], hand=[N] + [T] * 8)
    state, ev = run(state, 0, Choose(0), Play(N))
    assert state.phase == "bridge" and set(legal(state)) == {Bridge(2), Bridge(4), NO_BRIDGE}
    state, ev = run(state, 0, Bridge(2))
    assert state.bridges[0] == 2 and state.owed == 3
    state, _ = run(state, 0, PayCard(T), PayCard(T), PayCard(T))
    state = replace(state, turn=0, phase="start")
    state = with_hand(with_figures(state, 0, [ATL, ATL, ATL]), 0, [N] + [T] * 5)
    state, _ = run(state, 0, Choose(0), Play(N))
    assert state.phase == "pay"  # no second bridge
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Bridge(4))


def test_the_seeds_worked_example_gaps_2_5_bridged_and_5_7_cost_7():
    # Blue's figure before the road; gaps 2|5, bridged (Red's bridge), 5|7; pearl 4 ahead
    road = ["A1", "C2", "~", "J5", "~", "L3", "N5", "~", "J7", "P4"]
    state = with_bridge(simple(tokens=road), 0, 4)
    state = with_hand(replace(state, turn=1), 1, [P, A, C])
    state = with_plates(state, 1, [plate(N, 5), plate(L, 6)])
    state = with_figures(state, 1, [0, MAIN, MAIN])
    v = GAME.view(state, 1)
    dest = {d.space: d for d in route.destinations(v, 0)}[9]
    assert dest.water == 7 and dest.bridge_water == 2 and [(g.cost, g.bridged) for g in dest.gaps] == [(2, False), (3, True), (5, False)]
    state, ev = run(state, 1, Choose(0), Play(P), NoBridge())
    assert state.owed == 7 and [e.data["cost"] for e in ev if e.kind == "water"] == [7]
    # as in the seed: the (navy) five and two cards
    state, ev = run(state, 1, PayPlate(5), PayCard(A), PayCard(C))
    assert kinds(ev).count("paid") == 3 and "overpaid" not in kinds(ev)
    assert state.plates[1] == tuple(sorted((plate(L, 6), plate(J, 7)))) and state.turn == 0


# --- paying ----------------------------------------------------------------------------------------
def test_water_is_paid_with_plates_and_or_cards_until_covered_and_no_change_is_given():
    state = with_bridge(simple(tokens=["A1", "C6", "~", "J4", "L5"], hand=[L, N]), 0, 40)
    state = with_plates(state, 0, [plate(A, 6), plate(C, 1)])
    state, _ = run(state, 0, Choose(0), Play(L))
    assert set(legal(state)) == {PayPlate(6), PayPlate(1), PayCard(N)}
    state, ev = run(state, 0, PayPlate(1))
    assert state.owed == 3 and state.phase == "pay"
    state, ev = run(state, 0, PayPlate(6))
    assert [e.data for e in ev if e.kind == "overpaid"] == [{"seat": 0, "by": 3}]
    assert N in state.hands[0] and len(state.hands[0]) == 2 and plate(A, 6) not in state.plates[0] and state.turn == 1


def test_a_move_whose_water_cannot_be_paid_is_not_offered():
    # lilac reaches L5 over a gap costing 4 (C6|J4), with only 1 card left to pay with
    state = with_bridge(simple(tokens=["A1", "N1", "C6", "~", "J4", "L5"], hand=[L, N]), 0, 40)
    s2, _ = run(state, 0, Choose(0))
    assert legal(s2) == [Play(N)]
    with pytest.raises(IllegalAction, match="pay"):
        GAME.apply(s2, 0, Play(L))


# --- selling, passing, drawing -----------------------------------------------------------------------
def test_a_plate_can_be_sold_at_the_start_of_a_turn_for_half_its_value_in_cards():
    state = with_plates(simple(hand=[A]), 0, [plate(A, 5), plate(C, 1)])
    assert Sell(5) in legal(state) and Sell(1) not in legal(state)   # a 1 would bring nothing
    state, ev = run(state, 0, Sell(5))
    assert len(state.hands[0]) == 3 and state.plates[0] == (plate(C, 1),)
    assert [e.data["cards"] for e in ev if e.kind == "sold"] == [2]
    assert not any(isinstance(a, Sell) for a in legal(state))    # one a turn
    state, _ = run(state, 0, Choose(0))
    with pytest.raises(IllegalAction, match="start of your turn"):
        GAME.apply(state, 0, Sell(5))


def test_a_player_who_cannot_move_passes_and_draws_2():
    state = simple(hand=[])
    state = with_figures(state, 0, [ATL, MAIN, MAIN])
    assert legal(state) == [PASS]
    state, ev = run(state, 0, PASS)
    assert len(state.hands[0]) == 2 and state.turn == 1 and kinds(ev)[:2] == ["passed", "drew"]
    s2 = simple(hand=[A])
    with pytest.raises(IllegalAction, match="pass only"):
        GAME.apply(s2, 0, Pass())


@pytest.mark.parametrize("home, drawn", [(0, 1), (1, 2), (2, 3)])
def test_the_turn_ends_drawing_1_card_or_2_or_3_with_figures_on_the_mainland(home, drawn):
    state = simple(tokens=["A1:", "C2:"], hand=[C, C, C, C])
    state = with_figures(state, 0, [ATL] + [MAIN] * home + [10] * (2 - home))
    state = replace(state, figures=(tuple(sorted(state.figures[0], key=lambda p: p != ATL)),) + state.figures[1:])
    state, ev = run(state, 0, Choose(0), Play(C))
    assert [e.data["count"] for e in ev if e.kind == "drew"] == [drawn]


def test_the_used_cards_are_shuffled_into_a_new_pile_when_it_runs_out():
    state = replace(simple(tokens=["A1:", "C2:"], hand=[C]), pile=(), discard=(A, A, J))
    state, ev = run(state, 0, Choose(0), Play(C))
    assert "reshuffled" in kinds(ev) and len(state.hands[0]) == 1 and len(state.pile) + len(state.discard) == 3


# --- the end -----------------------------------------------------------------------------------------
def test_the_third_figure_on_the_mainland_ends_the_game_and_its_player_draws_4():
    state = with_figures(simple(tokens=["A1", "C2"], hand=[L]), 0, [MAIN, MAIN, 1])
    state, ev = run(state, 0, Choose(2), Play(L))
    assert state.phase == "over" and [e.data["count"] for e in ev if e.kind == "drew"] == [4]
    assert GAME.result(state) is not None and GAME.to_act(state) == frozenset()


def test_revised_the_third_figure_reaching_the_mainland_ends_the_game_at_once_with_no_plate_for_that_move():
    state = with_figures(simple(tokens=["A1", "C2", "J3"], hand=[L]), 0, [MAIN, MAIN, 2])
    state = with_plates(state, 0, [plate(A, 1)])
    state = with_figures(state, 1, [0, 1, ATL])
    state = replace(state, pile=(J, J, J, J, J))
    road = (state.tops, state.heights)
    state, ev = run(state, 0, Choose(2), Play(L))   # no lilac ahead: the mainland
    assert "took" not in kinds(ev) and state.plates[0] == (plate(A, 1),) and (state.tops, state.heights) == road
    assert state.phase == "over" and [e.data["count"] for e in ev if e.kind == "drew"] == [4]
    assert GAME.result(state).scores[0] == 1 + 4
    assert state.plates[1] == () and state.figures[1] == (MAIN,) * 3     # the others take no plates either
    # a move that brings a first or second figure home still takes its plate
    s2 = with_figures(simple(tokens=["A1", "C2", "J3"], hand=[L]), 0, [MAIN, ATL, 2])
    s2, ev2 = run(s2, 0, Choose(2), Play(L))
    assert "took" in kinds(ev2) and len(s2.plates[0]) == 1 and s2.phase == "start"


def test_the_other_figures_pay_their_way_in_and_what_they_owe_is_minus_points():
    road = ["A1", "C3", "~", "J4", "~", "L6", "N7"]
    state = with_figures(simple(tokens=road, hand=[A]), 0, [MAIN, MAIN, 20])
    state = with_figures(state, 1, [0, 4 - 1, MAIN])     # one before both gaps (3 + 4), one before the second
    state = with_hand(with_plates(state, 1, [plate(A, 2)]), 1, [A])
    assert final_debts(state)[1] == (3 + 4) + 4
    state, ev = run(state, 0, Choose(2), Play(A))   # no amber ahead of space 20: the mainland
    final = [e for e in ev if e.kind == "final"][0].data
    assert final["debts"][1] == 11 and state.debts[1] == 11
    assert GAME.result(state).scores[1] == 2 + 1 - 11
    assert state.figures == ((MAIN,) * 3,) * 2 and state.plates[1] == (plate(A, 2),)  # no plates taken


def test_score_is_plate_values_plus_one_per_card_and_ties_share_the_win():
    state = with_figures(simple(tokens=["A1", "C2"], hand=[L]), 0, [MAIN, MAIN, 1])
    state = with_plates(state, 0, [])
    state = with_plates(with_hand(with_figures(state, 1, [MAIN] * 3), 1, [A, A]), 1, [plate(C, 1), plate(A, 2)])
    state = replace(state, pile=(J, J, J, J))
    state, ev = run(state, 0, Choose(2), Play(L))  # no plate on the last move; draws 4: 4 vs 1 + 2 + 2 = 5
    assert GAME.result(state).scores == (4.0, 5.0) and state.winners == (1,)
    state = with_figures(simple(tokens=["A1", "C2"], hand=[L]), 0, [MAIN, MAIN, 1])
    state = with_plates(state, 0, [])
    state = with_plates(with_hand(with_figures(state, 1, [MAIN] * 3), 1, [A]), 1, [plate(C, 1), plate(A, 2)])
    state = replace(state, pile=(J, J, J, J))
    state, _ = run(state, 0, Choose(2), Play(L))
    assert GAME.result(state).scores == (4.0, 4.0) and state.winners == (0, 1)


def test_the_game_ends_when_everyone_passes_twice_in_a_row():
    state = replace(simple(hand=[]), pile=(), discard=())
    state = with_hand(state, 1, [])
    for _ in range(2 * 2):
        state, ev = run(state, state.turn, PASS)
    assert state.phase == "over" and "nobody could move" in state.end_reason


# --- small steps, undo, the view, the destinations helper -----------------------------------------
def test_a_turn_is_small_steps_and_legal_stays_small():
    biggest = 0
    for seed in range(20):
        st = fresh(2 + seed % 3, seed)
        bots = [GAME.make_bot(i, seed, "normal") for i in range(st.players)]
        while GAME.result(st) is None:
            (q,) = GAME.to_act(st)
            view = GAME.view(st, q)
            acts = GAME.legal(view)
            biggest = max(biggest, len(acts))
            assert acts and len(set(acts)) == len(acts)
            st, _ = GAME.apply(st, q, bots[q].choose(view, acts))
    assert biggest <= 7 + 7 + 3


def test_undo_never_goes_past_a_card_shown_or_a_draw():
    match = Match(GAME, {}, [SeatInfo("Red"), SeatInfo("Blue")], seed=3)
    match.state = with_bridge(lay(match.state, ["A1", "C6", "~", "J4", "L5"]), 0, 40)
    match.state = with_plates(with_hand(match.state, 0, [L, N, A]), 0, [plate(A, 3)])
    match.submit(0, Choose(0))
    assert match.undo_reason(0) is None            # choosing a figure can be taken back
    match.undo(0)
    match.submit(0, Choose(0))
    match.submit(0, Play(L))
    assert "seen the card" in match.undo_reason(0)
    match.submit(0, PayPlate(3))
    assert match.undo_reason(0) is None            # the plate given for water, not yet covered
    match.submit(0, PayCard(A))                    # covered: plate taken, card drawn
    assert match.undo_reason(1) is not None and "drew" in match.undo_reason(0)


def test_the_view_is_whitelisted_and_rebuilds_from_wire_data():
    state = fresh(3, 4)
    for seat in (0, 1, 2, None):
        view = GAME.view(state, seat)
        assert isinstance(view, AtlantisView) and view.seat == seat
        assert view.hand == (state.hands[seat] if seat is not None else None)
        data = msgpack.unpackb(msgpack.packb(GAME.view_to_data(view)))
        rebuilt = GAME.view_from_data(data)
        assert rebuilt == view
        if seat is not None:  # a LAN client works out the same destinations
            assert route.destinations(rebuilt, 0) == route.destinations(view, 0) != ()


def test_illegal_actions_are_refused_with_a_sentence():
    state = simple(hand=[A])
    for action, words in [(Play(A), "Choose a figure"), (PayCard(A), "no water"),
                          (Bridge(26), "crosses water"), (Choose(5), "cannot move")]:
        with pytest.raises(IllegalAction, match=words):
            GAME.apply(state, 0, action)
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 1, Choose(0))


def test_destinations_shows_every_reachable_space_with_its_cards_and_water():
    # the seed's picture: pink (lilac here) leads onto an occupied plate, then on
    road = ["A1", "C2", "L2", "J3", "C4", "N7", "~", "P5", "T6"]
    state = with_bridge(simple(tokens=road, hand=[C, L, J, N]), 0, 40)
    state = with_figures(state, 1, [2, ATL, ATL])
    v = GAME.view(state, 0)
    got = {d.space: [w.cards for w in d.ways] for d in route.destinations(v, 0)}
    assert got[1] == [(C,)]
    assert got[3] == [(J,), (L, J)]                  # direct, or via Blue's lilac 2
    assert got[4] == [(L, C)]                       # lilac to Blue's plate, coral on to C4
    assert 2 not in got                             # never stop on Blue
    assert got[5] == [(N,), (L, N)]
    water = {d.space: (d.water, d.bridge_water) for d in route.destinations(v, 0)}
    assert water[5] == (0, 0)
    # mainland (no lilac after 2... the lilac card from Blue's plate) crosses the gap at 6: 5|7 -> 5
    dests = {d.space: d for d in route.destinations(v, 0)}
    for d in dests.values():
        if d.space > 6:
            assert d.water == 5 and [g.first for g in d.gaps] == [6]


def test_destinations_mid_move_goes_on_from_where_the_figure_stands():
    road = ["A1", "C2", "L2", "J3", "C4"]
    state = with_figures(simple(tokens=road, hand=[L, J, C]), 1, [2, ATL, ATL])
    state, _ = run(state, 0, Choose(0), Play(L))
    got = {d.space: [w.cards for w in d.ways] for d in route.destinations(GAME.view(state, 0), 0)}
    assert got[3] == [(J,)] and got[4] == [(C,)]
    assert all(set(c) <= {J, C} for ways in got.values() for c in ways)


def test_destinations_marks_ways_that_cannot_pay_the_water():
    state = with_bridge(simple(tokens=["A1", "C6", "~", "J4", "L5"], hand=[L, N]), 0, 40)
    d = {d.space: d for d in route.destinations(GAME.view(state, 0), 0)}[4]
    assert d.water == 4 and d.ways == (route.Way((L,), False),)
    state = with_plates(state, 0, [plate(A, 3)])
    d = {d.space: d for d in route.destinations(GAME.view(state, 0), 0)}[4]
    assert d.ways == (route.Way((L,), True),)
    assert route.destinations(GAME.view(state, None), 0) == ()


def test_legal_and_destinations_agree():
    """A figure can be chosen exactly when destinations() lists a payable way for it."""
    for seed in range(10):
        st = fresh(2 + seed % 3, seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(st.players)]
        while GAME.result(st) is None:
            (q,) = GAME.to_act(st)
            view = GAME.view(st, q)
            acts = GAME.legal(view)
            if view.phase == "start":
                for f in range(3):
                    pos = view.figures[q][f]
                    if pos == MAIN or pos in view.figures[q][:f]:
                        continue
                    payable = any(w.payable for d in route.destinations(view, f) for w in d.ways)
                    assert payable == (Choose(f) in acts)
            st, _ = GAME.apply(st, q, bots[q].choose(view, acts))


def test_no_sale_when_the_pile_and_the_used_cards_are_both_empty():
    state = with_plates(simple(hand=[A]), 0, [plate(A, 5)])
    state = replace(state, pile=(), discard=())
    assert not any(isinstance(a, Sell) for a in legal(state))


def test_revised_the_help_says_the_last_move_takes_no_plate_and_draws_4():
    from engine.atlantis.text import HELP
    words = " ".join(HELP.split())
    assert "the game ends at once: that player takes no plate for the move and draws 4 cards" in words
    assert "as usual, takes **no plate** for it" in words
