"""End of Atlantis: one test per rule, named after it, and the rule book's worked
examples (faction costs, hidden voting, ship movement, scoring 9 / 6 / 5)."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from engine.core import IllegalAction, replace
from engine.end_of_atlantis import data
from engine.end_of_atlantis.options import EndOfAtlantisOptions
from engine.end_of_atlantis.actions import (
    Bid, Demagogos, Discard, Done, Faction, LayCard, Pass, Play, PlaySpecial, TakeSpecial, Target, UseAbility,
)
from engine.end_of_atlantis.doom import doom_movers
from engine.end_of_atlantis.rules import STAGES, doom_phase
from engine.end_of_atlantis.state import Stage, senate_order
from engine.end_of_atlantis.text import HELP
from engine.options import outside_model
from engine.record import digest

from eoa_helpers import GAME, act, cubes, fresh, run, ship, special_of, voting

R, B, G, Y, P = range(5)
A, SCI, ROY, AIR, WAR = range(5)
ADV = data.ADVANCED


# --- components ---------------------------------------------------------------------------
def test_politics_deck_has_80_cards_in_seven_kinds_with_the_printed_counts():
    counts = {k: data.CARD_KIND.count(k) for k in set(data.CARD_KIND)}
    assert counts == {"refugees1": 24, "refugees2": 12, "refugees21": 4, "aristocracy": 8, "ships": 12,
                      "royal": 8, "support": 4, "sabotage": 4, "betrayal": 4}
    kinds = {"refugees" if k.startswith("refugees") else k for k in counts}
    assert len(kinds) == 7


def test_components_special_cards_events_ships_and_charts():
    assert len(data.SPECIAL_KEY) == 25 and len(data.SPECIALS) == 10
    assert [data.EVENT_KEY.count("doom"), len(data.EVENTS)] == [3, 10]
    assert dict(zip(data.EVENT_KEY, data.EVENT_VOTE))["wrath"] == "hidden"
    assert data.BASIC_CAPACITY == (7, 5, 5, 3, 3) and data.ADVANCED_CAPACITY[A] == 8
    assert data.CHART == (1, 3, 6, 10, 15) and data.ROYAL_CHART == (2, 5, 9, 14, 20)
    assert data.FACTIONS[1] == "Basileus" and data.FACTIONS[3] == "Demiurgos"


# --- setup ----------------------------------------------------------------------------------
def test_setup_deals_7_politics_cards_2_specials_20_cubes_and_2_points():
    state = fresh(4)
    assert all(len(h) == 7 for h in state.hands) and all(len(x) == 2 for x in state.specials)
    assert state.screen == (20,) * 4 and state.vp == (2,) * 4
    assert len(state.deck) == 80 - 28 and len(state.special_deck) == 25 - 8
    assert state.stage == "senate" and state.turn == 1 and state.vote_kind == "hidden"


def test_setup_places_ships_alphabetically_with_two_neutrals_on_the_ark():
    state = fresh(3)
    assert [sh.tile for sh in state.ships] == [A, SCI, ROY, AIR, WAR]
    assert state.ships[0].cubes == cubes(n=2) and state.camp == 8
    assert len(set(state.markers)) == 3  # markers on distinct Faction spaces


def test_two_player_game_has_no_ark_and_neutrals_on_the_science_vessel():
    state = fresh(2)
    assert [sh.tile for sh in state.ships] == [SCI, ROY, AIR, WAR]
    assert state.ships[0].cubes == cubes(n=2)


# --- Senate -------------------------------------------------------------------------------
def test_senate_bids_are_secret_and_simultaneous():
    state = fresh(3)
    assert GAME.to_act(state) == {0, 1, 2}
    state, ev = act(state, 0, Bid(5))
    assert GAME.to_act(state) == {1, 2}
    assert GAME.view(state, 1).bids == (-2, -1, -1) and GAME.view(state, 0).bids[0] == 5
    assert all(e.to == (0,) for e in ev if "n" in e.data)
    assert state.senate_pool == (0, 0, 0) and state.screen[0] == 20  # nothing moves before the reveal
    state, ev = run(state, (1, Bid(3)), (2, Bid(0)))
    assert state.senate_pool == (5, 3, 0) and state.screen == (15, 17, 20)
    assert state.stage == "faction" and state.faction_order == (0, 1, 2)
    assert [e.kind for e in ev if e.to is None][-1] == "revealed"


def test_senate_order_ties_go_to_the_marker_further_left():
    state = fresh(3)
    state = replace(state, senate_pool=(4, 4, 2))
    state = replace(state, markers=(data.DEMIURGOS, data.BASILEUS, data.ARCHONT))
    assert senate_order(state) == [1, 0, 2]


# --- Factions ---------------------------------------------------------------------------------
def test_faction_cost_example_from_the_rule_book():
    """4 players: Martin, Paul, Leopold, Michael in Senate order.  Martin and Paul pass,
    Leopold pays 1 for Basileus (+1 point), Michael takes Demiurgos free, then Martin
    takes Philosophios and Paul Strategos (+1) for free."""
    state = fresh(4)
    state = replace(state, plus_one=tuple(f in (data.BASILEUS, data.STRATEGOS) for f in range(7)))
    state, _ = run(state, (0, Bid(4)), (1, Bid(3)), (2, Bid(2)), (3, Bid(1)))
    martin, paul, leopold, michael = state.faction_order
    assert (martin, paul, leopold, michael) == (0, 1, 2, 3)
    assert Faction(0) in GAME.legal(GAME.view(state, martin))
    state, _ = act(state, martin, Pass())
    state, _ = act(state, paul, Pass())
    screen = state.screen[leopold]
    state, _ = act(state, leopold, Faction(data.BASILEUS))
    assert state.screen[leopold] == screen - 1 and state.buildings[leopold] == 1 and state.vp[leopold] == 3
    assert state.markers[leopold] == data.BASILEUS
    state, _ = act(state, michael, Faction(data.DEMIURGOS))
    assert state.buildings[michael] == 0  # fourth of four pays nothing
    assert GAME.to_act(state) == {martin}
    assert Pass() not in GAME.legal(GAME.view(state, martin))  # passers must take one, free
    state, _ = act(state, martin, Faction(data.PHILOSOPHIOS))
    state, _ = act(state, paul, Faction(data.STRATEGOS))
    assert state.buildings[martin] == 0 and state.buildings[paul] == 0 and state.vp[paul] == 3


@pytest.mark.parametrize("players,costs", [(5, (2, 2, 1, 1, 0)), (4, (2, 1, 1, 0)),
                                            (3, (2, 1, 0)), (2, (1, 0))])
def test_faction_cost_depends_on_position_not_on_earlier_choices(players, costs):
    state = fresh(players, seed=3)
    state, _ = run(state, *[(p, Bid(players - p)) for p in range(players)])
    for pos, p in enumerate(state.faction_order):
        if state.faction_queue[state.faction_pos][0] != p:
            break
        before = state.screen[p]
        state, _ = act(state, p, Faction(next(f for f in range(7) if state.faction_holders[f] < 0)))
        assert before - state.screen[p] == costs[pos]


def test_factions_nobody_took_get_plus_one():
    state = fresh(3)
    state, _ = run(state, (0, Bid(1)), (1, Bid(1)), (2, Bid(1)))
    for p in state.faction_order:
        state, _ = act(state, p, Faction([data.ORAKLOS, data.DEMAGOGOS, data.PHILOSOPHIOS][p]))
    taken = {data.ORAKLOS, data.DEMAGOGOS, data.PHILOSOPHIOS}
    assert all(state.plus_one[f] == (f not in taken) for f in range(7))


def test_two_players_take_two_factions_each_and_pay_only_for_the_first():
    state = fresh(2, seed=5)
    state, _ = run(state, (0, Bid(3)), (1, Bid(1)))
    assert [q for q in state.faction_queue] == [(0, 1), (1, 1), (0, 0), (1, 0)]
    state, _ = run(state, (0, Faction(0)), (1, Faction(2)), (0, Faction(4)), (1, Faction(6)))
    assert state.buildings[0] == 1 and state.buildings[1] == 0
    assert state.faction_holders[0] == state.faction_holders[4] == 0 and state.markers[0] == 4


def test_basileus_puts_a_refugee_on_a_ship_at_the_end_of_the_factions_phase():
    state = fresh(3, seed=2)
    state, _ = run(state, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    state, _ = run(state, (0, Faction(data.BASILEUS)), (1, Faction(data.ORAKLOS)), (2, Faction(data.STRATEGOS)))
    assert state.stage == "ability" and GAME.to_act(state) == {0}
    state, _ = act(state, 0, Target(AIR))
    assert state.ships[AIR].cubes[0] == 1 and state.stage == "order"


def test_archont_draws_five_then_discards_five():
    state = fresh(3, seed=2)
    state, _ = run(state, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    state, _ = run(state, (0, Faction(data.ARCHONT)), (1, Faction(data.ORAKLOS)), (2, Faction(data.STRATEGOS)))
    state, ev = act(state, 0, UseAbility())
    assert len(state.hands[0]) == 12 and state.stage == "archont"
    assert any(e.kind == "drew_cards" and e.to == (0,) for e in ev)
    for c in list(state.hands[0])[:5]:
        state, _ = act(state, 0, Discard(c))
    assert len(state.hands[0]) == 7 and len(state.discard) == 5 and state.stage == "order"


def test_demiurgos_draws_a_special_card():
    state = fresh(3, seed=2)
    state, _ = run(state, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    state, _ = run(state, (0, Faction(data.DEMIURGOS)), (1, Faction(data.ORAKLOS)), (2, Faction(data.STRATEGOS)))
    state, _ = act(state, 0, UseAbility())
    assert len(state.specials[0]) == 3


# --- Voting ------------------------------------------------------------------------------------
def test_voting_cards_are_ordered_in_secret_and_revealed_together():
    state = fresh(2, seed=4)
    state, _ = run(state, (0, Bid(0)), (1, Bid(0)))
    for f in (0, 2, 4, 6):
        state, _ = act(state, state.faction_queue[state.faction_pos][0], Faction(f))
    while state.stage == "ability":
        state, _ = act(state, state.ability_queue[0][0], Pass())
    assert state.stage == "order" and GAME.to_act(state) == {0, 1}
    for c in state.hands[0][:5]:
        state, ev = act(state, 0, LayCard(c))
        assert all(e.data.get("card") is None for e in ev if e.to is None)
    assert GAME.view(state, 1).voting_cards[0] == (-1,) * 5 and GAME.to_act(state) == {1}
    assert len(state.hands[0]) == 7  # refilled at once, for the next turn
    for c in state.hands[1][:5]:
        state, _ = act(state, 1, LayCard(c))
    assert state.cards_revealed and GAME.view(state, 1).voting_cards[0] == state.voting_cards[0]


def test_hidden_voting_example_from_the_rule_book():
    """Paul 16, Leopold 14, Michael 12 tokens; bids 4, 4, 5: Michael first, Paul second
    (higher in Senate order than Leopold), Leopold still spends 4."""
    paul, leopold, michael = 0, 1, 2
    state = voting(3, [["refugees1"], ["support"], ["refugees2"]], screen=(16, 14, 12), pool=(3, 2, 1))
    state, _ = run(state, (paul, Bid(4)), (leopold, Bid(4)), (michael, Bid(5)))
    assert state.vote_winners == (michael, paul)
    assert state.screen == (12, 10, 7) and state.tokens_on_cards[leopold][0] == 4
    assert GAME.to_act(state) == {michael}
    sources = {a.source for a in GAME.legal(GAME.view(state, michael)) if type(a) is Play}
    assert sources == {michael, leopold}  # Paul to his left won too: skip to Leopold
    state, _ = act(state, michael, Play(leopold))
    assert state.played[leopold][0] and len(state.specials[michael]) == 3


def test_open_voting_goes_in_reverse_senate_order_with_distinct_bids():
    state = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1), vote_kind="open")
    assert GAME.to_act(state) == {2}
    state, _ = act(state, 2, Bid(3))
    assert Bid(3) not in GAME.legal(GAME.view(state, 1)) and Bid(0) in GAME.legal(GAME.view(state, 1))
    with pytest.raises(IllegalAction):
        act(state, 1, Bid(3))
    state, _ = run(state, (1, Bid(0)), (0, Bid(0)))  # more than one may pass
    assert state.vote_winners == (2,)  # a pass never wins an open vote


def test_all_bids_are_spent_and_lie_on_the_cards():
    state = voting(3, [["refugees1"]] * 3, screen=(10, 10, 10))
    state, _ = run(state, (0, Bid(1)), (1, Bid(2)), (2, Bid(3)))
    assert state.tokens_on_cards == ((1,), (2,), (3,)) and state.screen == (9, 8, 7)


def test_first_place_may_play_the_card_of_the_player_to_the_left_instead():
    state = voting(4, [["refugees1"], ["support"], ["refugees2"], ["support"]], pool=(4, 3, 2, 1))
    state, _ = run(state, (0, Bid(5)), (1, Bid(0)), (2, Bid(3)), (3, Bid(0)))
    legal = GAME.legal(GAME.view(state, 0))
    assert {a.source for a in legal if type(a) is Play} == {0, 1}
    state, _ = act(state, 0, Pass())
    assert {a.source for a in GAME.legal(GAME.view(state, 2)) if type(a) is Play} == {2}


def test_a_card_must_be_carried_out_in_full_or_not_at_all():
    state = voting(3, [["refugees2"], ["refugees1"], ["refugees1"]])
    state = replace(state, specials=((), (), ()))
    state = replace(state, ships=tuple(sh._replace(cubes=cubes(n=data.capacity(sh.tile) - 1)) for sh in state.ships))
    state, _ = run(state, (0, Bid(3)), (1, Bid(1)), (2, Bid(0)))
    assert [a for a in GAME.legal(GAME.view(state, 0)) if type(a) is Play and a.source == 0] == []
    assert GAME.legal(GAME.view(state, 0)) == [Pass()] or all(a.source != 0 for a in GAME.legal(
        GAME.view(state, 0)) if type(a) is Play)


def test_strategos_gets_two_tokens_back_from_a_vote_without_playing():
    state = voting(3, [["refugees1"] * 2] * 3, screen=(10, 10, 10), pool=(3, 2, 1))
    state = replace(state, faction_holders=tuple(2 if f == data.STRATEGOS else -1 for f in range(7)))
    state, _ = run(state, (0, Bid(4)), (1, Bid(3)), (2, Bid(3)))
    state, _ = run(state, (0, Pass()), (1, Pass()))
    assert state.screen[2] == 7 + 2 and state.tokens_on_cards[2][0] == 1


def test_demagogos_sees_one_bid_only_and_may_change_their_own():
    state = voting(3, [["refugees1"]] * 3, screen=(10, 10, 10))
    state = replace(state, faction_holders=tuple(0 if f == data.DEMAGOGOS else -1 for f in range(7)))
    state, _ = run(state, (0, Bid(1)), (1, Bid(4)), (2, Bid(6)))
    assert state.stage == "peek" and GAME.to_act(state) == {0}
    state, ev = act(state, 0, Demagogos(1))
    assert GAME.view(state, 0).peeked_bid == (1, 4)
    assert GAME.view(state, 0).bids[2] == -2  # the other bid stays hidden
    assert [e for e in ev if e.to == (0,)][0].data["n"] == 4
    assert all("n" not in e.data for e in ev if e.to is None)
    state, _ = act(state, 0, Bid(5))
    assert state.vote_winners == (2, 0) and state.demagogos_used


def test_demagogos_in_an_open_vote_makes_one_player_bid_first():
    state = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1), vote_kind="open")
    state = replace(state, faction_holders=tuple(0 if f == data.DEMAGOGOS else -1 for f in range(7)))
    state = replace(state, stage="call")
    state, _ = act(state, 0, Demagogos(1))
    assert GAME.to_act(state) == {1} and state.open_bidders == (1, 2, 0)


def test_oraklos_cards_stay_face_down_until_their_vote_ends():
    state = voting(2, [["refugees1", "ships"], ["refugees1", "ships"]])
    state = replace(state, face_up=((False, True), (True, True)))
    assert GAME.view(state, 1).voting_cards[0] == (-1, state.voting_cards[0][1])
    state, _ = run(state, (0, Bid(1)), (1, Bid(0)))
    assert GAME.view(state, 1).voting_cards[0][0] == state.voting_cards[0][0]


def test_philosophios_plays_first_when_winning():
    state = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1))
    state = replace(state, faction_holders=tuple(1 if f == data.PHILOSOPHIOS else -1 for f in range(7)))
    state, _ = run(state, (0, Bid(5)), (1, Bid(2)), (2, Bid(0)))
    assert state.vote_winners == (0, 1) and state.play_queue == (1, 0)


def test_five_players_three_win_each_vote():
    state = voting(5, [["refugees1"]] * 5)
    state, _ = run(state, *[(p, Bid(p)) for p in range(5)])
    assert state.vote_winners == (4, 3, 2)


def test_two_players_only_one_wins_each_vote():
    state = voting(2, [["refugees1"]] * 2)
    state, _ = run(state, (0, Bid(2)), (1, Bid(1)))
    assert state.vote_winners == (0,)


# --- cards ----------------------------------------------------------------------------------------
def _winner_plays(kinds, ships=None, players=3, **opts):
    rows = [[kinds]] + [["refugees1"]] * (players - 1)
    state = voting(players, rows, **opts)
    if ships is not None:
        state = replace(state, ships=tuple(ships))
    state, _ = run(state, *[(p, Bid(3 if p == 0 else 0)) for p in range(players)])
    return state


def test_refugees_two_plus_one_puts_two_on_one_ship_and_one_on_another():
    state = _winner_plays("refugees21")
    state, _ = act(state, 0, Play(0))
    state, _ = act(state, 0, Target(SCI))
    assert Target(SCI) not in GAME.legal(GAME.view(state, 0))
    state, _ = act(state, 0, Target(AIR))
    assert state.ships[SCI].cubes[0] == 2 and state.ships[AIR].cubes[0] == 1


def test_aristocracy_pushes_another_cube_off_a_full_ship():
    full = [ship(A, n=2), ship(SCI), ship(ROY), ship(AIR, b=3), ship(WAR, at_sea=True, b=1)]
    state = _winner_plays("aristocracy", full)
    state, _ = act(state, 0, Play(0))
    assert Target(AIR, 1) in GAME.legal(GAME.view(state, 0))
    state, _ = act(state, 0, Target(AIR, 1))
    assert state.ships[AIR].cubes == cubes(r=1, b=2) and state.buildings[1] == 1


def test_ship_movement_example_from_the_rule_book():
    ships = (ship(A, r=7), ship(SCI, b=5), ship(ROY), ship(AIR, g=2), ship(WAR, y=2))
    assert doom_movers(ships, 3) == [0, 1, 3]
    ships = (ship(A), ship(SCI), ship(ROY), ship(AIR, g=2), ship(WAR, y=2))
    assert doom_movers(ships, 3) == [3, 4]


def test_scoring_example_from_the_rule_book_9_6_5():
    """Michael 3, Paul 2, Martin 1 and a neutral aboard; Martin moves it with Ships."""
    martin, paul, michael = 0, 1, 2
    ships = [ship(A, n=2), ship(SCI, at_sea=True, r=1, b=2, g=3), ship(ROY, r=1), ship(AIR), ship(WAR)]
    ships[1] = ships[1]._replace(cubes=(1, 2, 3, 0, 0, 1), tile=SCI)
    state = _winner_plays("ships", ships)
    state = replace(state, ships=tuple(ships))
    vp = state.vp
    state, _ = act(state, martin, Play(martin))
    state, ev = act(state, martin, Target(1))
    gains = tuple(a - b for a, b in zip(state.vp, vp))
    assert gains == (5, 6, 9)
    assert state.promised_land == (1, 2, 3) and state.promised_land_neutrals == 1 and not state.ships[1].at_sea
    assert sum(state.ships[1].cubes) == 0


def test_royal_ship_scores_the_royal_chart():
    ships = [ship(A, n=2), ship(SCI, at_sea=True, r=3), ship(ROY), ship(AIR), ship(WAR)]
    state = _winner_plays("royal", ships)
    state = replace(state, ships=tuple(ships))
    vp = state.vp[0]
    state, _ = run(state, (0, Play(0)), (0, Target(1)))
    assert state.vp[0] - vp == 9 + 1


def test_empty_ships_never_move():
    ships = [ship(A), ship(SCI, r=1), ship(ROY), ship(AIR), ship(WAR)]
    state = _winner_plays("ships", ships)
    state = replace(state, ships=tuple(ships))
    assert not any(type(a) is Play and a.source == 0 for a in GAME.legal(GAME.view(state, 0)))


def test_sabotage_sends_a_ship_on_the_ocean_home_and_discards_everyone():
    ships = [ship(A, n=2), ship(SCI, at_sea=True, b=2, r=1), ship(ROY), ship(AIR), ship(WAR)]
    state = _winner_plays("sabotage", ships)
    state = replace(state, ships=tuple(ships))
    state, _ = run(state, (0, Play(0)), (0, Target(1)))
    assert not state.ships[1].at_sea and sum(state.ships[1].cubes) == 0
    assert state.buildings[1] == 2 and state.buildings[0] == 1


def test_advanced_warship_is_immune_to_red_cards():
    ships = [ship(A, n=2), ship(SCI), ship(ROY), ship(AIR), ship(WAR + ADV, at_sea=True, b=2)]
    state = _winner_plays("sabotage", ships)
    state = replace(state, ships=tuple(ships))
    assert not any(type(a) is Play and a.source == 0 for a in GAME.legal(GAME.view(state, 0)))


def test_betrayal_removes_up_to_four_from_a_ship_or_from_the_senate():
    ships = [ship(A, b=5, n=2), ship(SCI), ship(ROY), ship(AIR), ship(WAR)]
    state = _winner_plays("betrayal", ships, pool=(1, 6, 0))
    state = replace(state, ships=tuple(ships))
    s2, _ = run(state, (0, Play(0)), (0, Target(-1, 1)))
    assert s2.senate_pool[1] == 2 and s2.buildings[1] == 4
    s3, _ = run(state, (0, Play(0)), (0, Target(0)), (0, Target(0, 1)), (0, Target(0, data.NEUTRAL)), (0, Done()))
    assert s3.ships[0].cubes == cubes(b=4, n=1) and s3.camp == state.camp + 1


def test_advanced_airship_flies_straight_to_the_promised_land_and_refuses_royal_ship():
    ships = [ship(A, n=2), ship(SCI), ship(ROY), ship(AIR + ADV, r=2), ship(WAR)]
    state = _winner_plays("royal", ships)
    state = replace(state, ships=tuple(ships))
    state, _ = act(state, 0, Play(0))
    assert Target(3) not in GAME.legal(GAME.view(state, 0)) and Target(0) in GAME.legal(GAME.view(state, 0))
    state = _winner_plays("ships", [ship(A, n=2), ship(SCI, r=1), ship(ROY), ship(AIR + ADV, r=2), ship(WAR)])
    vp = state.vp[0]
    state, _ = run(state, (0, Play(0)), (0, Target(3)))
    assert state.vp[0] - vp == 3 + 1 and state.promised_land[0] == 2


def test_advanced_science_vessel_gives_its_mover_two_more_points():
    state = _winner_plays("royal", [ship(A, n=2), ship(SCI + ADV, at_sea=True, b=1), ship(ROY), ship(AIR),
                                ship(WAR)])
    vp = state.vp[0]
    state, _ = run(state, (0, Play(0)), (0, Target(1)))
    assert state.vp[0] - vp == 1 + 2


def test_advanced_royal_vessel_gives_its_mover_a_special_card():
    state = _winner_plays("royal", [ship(A, n=2), ship(SCI), ship(ROY + ADV, at_sea=True, b=1), ship(AIR),
                                ship(WAR)])
    n = len(state.specials[0])
    state, _ = run(state, (0, Play(0)), (0, Target(2)))
    assert len(state.specials[0]) == n + 1


def test_support_draws_a_special_card():
    state = _winner_plays("support")
    n = len(state.specials[0])
    state, ev = act(state, 0, Play(0))
    assert len(state.specials[0]) == n + 1 and any(e.kind == "my_special" and e.to == (0,) for e in ev)


# --- special cards -------------------------------------------------------------------------------
def _with_special(state, key):
    card = special_of(key)
    for p in range(state.players):
        if card in state.specials[p]:
            state = replace(state, specials=tuple(tuple(c for c in x if c != card) for x in state.specials))
    state = replace(state, special_deck=tuple(c for c in state.special_deck if c != card))
    state = replace(state, specials=(tuple(sorted(state.specials[0] + (card,))),) + state.specials[1:])
    return state, card


def test_special_favourable_winds_moves_three_ships():
    state = _winner_plays("ships", [ship(A, r=1), ship(SCI, r=1), ship(ROY, r=1), ship(AIR), ship(WAR)])
    state, card = _with_special(state, "winds")
    state, _ = run(state, (0, Play(0, card)), (0, Target(0)), (0, Target(1)), (0, Target(2)))
    assert all(sh.at_sea for sh in state.ships[:3]) and card in state.special_discard


def test_special_empath_places_two_refugees_with_aristocracy():
    state = _winner_plays("aristocracy")
    state, card = _with_special(state, "empath")
    state, _ = run(state, (0, Play(0, card)), (0, Target(SCI)), (0, Target(SCI)))
    assert state.ships[SCI].cubes[0] == 2


def test_special_royal_decree_scores_two_with_support():
    state = _winner_plays("support")
    state, card = _with_special(state, "decree")
    vp = state.vp[0]
    state, _ = act(state, 0, Play(0, card))
    assert state.vp[0] == vp + 2


def test_special_senate_favour_makes_the_faction_free():
    state = fresh(3, seed=2)
    state, _ = run(state, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    state, card = _with_special(state, "favour")
    state, _ = run(state, (0, PlaySpecial(card)), (0, Faction(data.ORAKLOS)))
    assert state.buildings[0] == 0 and state.screen[0] == 18


def test_special_cards_score_when_the_game_ends():
    state = fresh(3)
    state = replace(state, specials=((special_of("treasury"),), (), ()))
    state = replace(state, doom_markers=1)
    state = replace(state, turn=5)
    state = replace(state, dooms_left=1, other_events_left=0)
    vp = state.vp
    state = replace(state, stage="doom", voting_cards=((),) * 3, tokens_on_cards=((),) * 3)
    state, _ = doom_phase(state)
    assert state.stage == "over" and state.vp[0] - vp[0] == 3
    assert GAME.result(state).winners == (0,)


# --- Doom phase --------------------------------------------------------------------------------
def _doom_state(event_key: str | None = None, players=3, **opts):
    state = fresh(players, **opts)
    state = replace(state, voting_cards=((),) * players)
    state = replace(state, tokens_on_cards=((),) * players)
    if event_key is not None:
        state = replace(state, other_events=tuple(i for i in data.OTHER_EVENTS if data.EVENT_KEY[i] == event_key))
        state = replace(state, other_events_left=1, dooms_left=0)
    return state


def test_doom_phase_gives_two_points_for_the_promised_land_and_the_senate():
    state = _doom_state("chaos")
    state = replace(state, promised_land=(0, 3, 1), senate_pool=(5, 1, 0))
    vp = state.vp
    state, _ = doom_phase(state)
    assert (state.vp[1] - vp[1], state.vp[0] - vp[0]) == (2, 2)


def test_more_neutrals_in_the_promised_land_deny_the_two_points():
    state = _doom_state("chaos")
    state = replace(state, promised_land=(0, 1, 0), promised_land_neutrals=2)
    vp = state.vp
    state, _ = doom_phase(state)
    assert state.vp[1] == vp[1]


def test_doom_returns_tokens_half_the_senate_pool_rounded_up():
    state = _doom_state("wrath")
    state = replace(state, senate_pool=(5, 2, 0), buildings=(1, 0, 0), screen=(10, 10, 10))
    state, _ = doom_phase(state)
    assert state.senate_pool == (2, 1, 0) and state.screen == (10 + 3 + 1, 10 + 1, 10)
    assert state.stage == "senate" and state.turn == 2 and state.vote_kind == "hidden"


def test_doom_card_upgrades_ships_and_returns_the_whole_senate_pool():
    state = _doom_state(None)
    state = replace(state, other_events_left=0, dooms_left=3)
    state = replace(state, senate_pool=(5, 3, 1))
    state, _ = doom_phase(state)
    assert state.doom_markers == 2 and state.senate_pool == (0, 0, 0)
    assert [sh.tile for sh in state.ships[:2]] == [A + ADV, SCI + ADV]
    assert state.ships[0].cubes[data.NEUTRAL] >= 1
    state, _ = doom_phase(state)
    assert [sh.tile for sh in state.ships[2:]] == [ROY + ADV, AIR + ADV, WAR + ADV]


def test_third_doom_before_turn_four_goes_back_into_the_deck():
    """Whichever card the shuffle turns up (one Doom, one other event left), the game
    goes on with the other event; over a few shuffles the Doom is drawn and returned."""
    from engine.rng import Rng

    returned = 0
    for i in range(16):
        state = _doom_state(None)
        state = replace(state, doom_markers=1, dooms_left=1, other_events_left=0)
        state = replace(state, other_events=(data.EVENT_KEY.index("wrath"),))
        state = replace(state, other_events_left=1)
        state = replace(state, rng=Rng.from_seed(i, "third-doom"))
        ev = []
        state, ev = doom_phase(state)
        assert state.stage != "over" and state.dooms_left == 1 and data.EVENT_KEY[state.event] == "wrath"
        returned += any(e.kind == "doom_returned" for e in ev)
    assert returned > 0


def test_third_doom_ends_the_game_at_once():
    state = _doom_state(None)
    state = replace(state, turn=4)
    state = replace(state, doom_markers=1, dooms_left=1, other_events_left=0)
    ships = state.ships
    state, _ = doom_phase(state)
    assert state.stage == "over" and state.ships == ships  # no ship sails


def test_neutral_refugees_board_the_largest_ship_in_port_first():
    state = _doom_state("wrath")
    state = replace(state, ships=(ship(A, at_sea=True, r=1), ship(SCI), ship(ROY, b=5), ship(AIR), ship(WAR)))
    state = replace(state, turn=2)
    state, _ = doom_phase(state)
    # wrath sends A home empty; 3 neutrals: A (7), B (5), C is full -> D
    aboard_n = [sh.cubes[data.NEUTRAL] for sh in state.ships]
    assert aboard_n[0] == 1 and aboard_n[1] == 1 and aboard_n[3] == 1 or aboard_n[:2] == [0, 0]


def test_aggressive_neutrals_push_off_the_last_player_in_senate_order():
    state = _doom_state("together", aggressive_neutrals=True)
    state = replace(state, ships=(ship(A, r=3, b=4), ship(SCI, at_sea=True, r=1), ship(ROY, at_sea=True, r=1),
                          ship(AIR, at_sea=True, r=1), ship(WAR, at_sea=True, r=1)))
    state = replace(state, senate_pool=(5, 1, 0))
    state = replace(state, screen=(0, 0, 0))
    ev = []
    state, ev = doom_phase(state)
    assert any(e.kind == "pushed_off" and e.data["colour"] == 1 for e in ev)


def test_wrath_of_the_ocean_god_loses_every_ship_on_the_ocean():
    state = _doom_state("wrath")
    state = replace(state, ships=(ship(A, n=2), ship(SCI, at_sea=True, r=2), ship(ROY), ship(AIR), ship(WAR)))
    ev = []
    state, ev = doom_phase(state)
    # the two red cubes were discarded to Red's Faction building, then came home
    assert state.buildings == (0, 0, 0) and state.screen[0] == 22
    assert [e.data for e in ev if e.kind == "wrecked"] == [{"ship": 1, "tile": SCI, "n": 2}]


def test_senate_pays_its_debts_gives_five_and_three():
    state = _doom_state("senate_pays")
    state = replace(state, senate_pool=(1, 6, 3))
    vp = state.vp
    state, _ = doom_phase(state)
    assert tuple(a - b for a, b in zip(state.vp, vp)) == (0, 5 + 2, 3) and state.senate_pool == (0, 0, 0)


def test_chaos_spreads_skips_senate_and_factions_and_keeps_them():
    state = _doom_state("chaos")
    state = replace(state, senate_pool=(4, 2, 0))
    state = replace(state, faction_holders=(0, 1, 2, -1, -1, -1, -1))
    state, _ = doom_phase(state)
    assert state.senate_pool == (4, 2, 0) and state.faction_holders[0] == 0 and state.stage == "order"


def test_we_are_all_doomed_leaves_one_winner():
    state = voting(3, [["refugees1"]] * 3)
    state = replace(state, event=data.EVENT_KEY.index("doomed"))
    state, _ = run(state, (0, Bid(3)), (1, Bid(2)), (2, Bid(1)))
    assert state.vote_winners == (0,)


def test_no_mercy_for_the_weak_costs_the_lowest_bid_a_point():
    state = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1))
    state = replace(state, event=data.EVENT_KEY.index("no_mercy"))
    vp = state.vp
    state, _ = run(state, (0, Bid(3)), (1, Bid(0)), (2, Bid(0)))
    assert state.vp[2] == vp[2] - 1 and state.vp[1] == vp[1]


def test_we_are_all_in_this_together_places_up_to_three_one_at_a_time():
    state = _doom_state("together")
    state = replace(state, senate_pool=(3, 2, 1))
    state, _ = doom_phase(state)
    assert state.stage == "together" and GAME.to_act(state) == {0}
    state, _ = act(state, 0, Target(1))
    assert GAME.to_act(state) == {1}
    state, _ = act(state, 1, Pass())
    assert GAME.to_act(state) == {2}


def test_under_the_senates_leadership_pays_for_neutrals_in_the_promised_land():
    state = _doom_state("wrath")
    state = replace(state, event=data.EVENT_KEY.index("leadership"))
    state = replace(state, senate_pool=(1, 5, 3), promised_land_neutrals=3)
    vp = state.vp
    state, _ = doom_phase(state)
    assert state.vp[1] - vp[1] == 3 + 2 and state.vp[2] - vp[2] == 2


# --- variants ---------------------------------------------------------------------------------------
def test_family_variant_has_no_senate_phase():
    state = fresh(3, family=True)
    assert state.stage == "faction" and state.faction_order == tuple(sorted(range(3), key=lambda p: state.markers[p]))
    s2 = voting(3, [["betrayal"], ["refugees1"], ["refugees1"]], family=True, pool=(0, 0, 0))
    s2 = replace(s2, ships=(ship(A), ship(SCI), ship(ROY), ship(AIR), ship(WAR)))
    s2 = replace(s2, senate_pool=(0, 3, 0))
    s2, _ = run(s2, (0, Bid(2)), (1, Bid(0)), (2, Bid(0)))
    assert not [a for a in GAME.legal(GAME.view(s2, 0)) if type(a) is Play and a.source == 0]


def test_chosen_ships_replace_the_upgrades():
    state = fresh(4, chosen_ships="D,E,D+,E+")
    assert [sh.tile for sh in state.ships] == [AIR, AIR + ADV, WAR, WAR + ADV] and state.ships_chosen  # board order
    state = _doom_state(None, players=4, chosen_ships="A,B")
    state = replace(state, other_events_left=0, dooms_left=3)
    state, _ = doom_phase(state)
    assert [sh.tile for sh in state.ships] == [A, SCI]
    with pytest.raises(ValueError):
        GAME.parse_options({"chosen_ships": "A,A"})


def test_revealed_event_deck_shows_the_next_event():
    state = fresh(3, revealed_events=True)
    assert state.top_event >= 0 and GAME.view(state, 1).top_event == state.top_event
    assert GAME.view(fresh(3), 1).top_event == -1


def test_revealed_special_cards_offer_three_face_up_choices():
    state = _winner_plays("support", revealed_specials=True)
    assert len(state.face_up_specials) == 3
    state, _ = act(state, 0, Play(0))
    legal = GAME.legal(GAME.view(state, 0))
    assert set(legal) == {TakeSpecial(0), TakeSpecial(1), TakeSpecial(2), TakeSpecial(3)}
    face = state.face_up_specials[1]
    state, _ = act(state, 0, TakeSpecial(1))
    assert face in state.specials[0] and len(state.face_up_specials) == 3


def test_philosophios_may_play_the_left_players_card_without_first_place():
    state = voting(3, [["refugees1"], ["support"], ["refugees2"]], pool=(3, 2, 1))
    state = replace(state, faction_holders=tuple(1 if f == data.PHILOSOPHIOS else -1 for f in range(7)))
    state, _ = run(state, (0, Bid(5)), (1, Bid(2)), (2, Bid(0)))
    assert state.play_queue[0] == 1
    assert {a.source for a in GAME.legal(GAME.view(state, 1)) if type(a) is Play} == {1, 2}


def test_two_players_first_place_may_not_take_the_philosophios_card():
    state = voting(2, [["refugees1"], ["support"]])
    state = replace(state, faction_holders=tuple(1 if f == data.PHILOSOPHIOS else -1 for f in range(7)))
    state, _ = run(state, (0, Bid(3)), (1, Bid(1)))
    assert state.vote_winners == (0,)
    assert {a.source for a in GAME.legal(GAME.view(state, 0)) if type(a) is Play} == {0}


def test_two_players_the_demagogos_is_immune_to_red_cards():
    ships = [ship(SCI, at_sea=True, b=2, r=1), ship(ROY), ship(AIR), ship(WAR)]
    state = voting(2, [["sabotage", "support"], ["support", "support"]])
    state = replace(state, ships=tuple(ships))
    state = replace(state, faction_holders=tuple(1 if f == data.DEMAGOGOS else -1 for f in range(7)))
    state, _ = run(state, (0, Bid(3)), (1, Bid(1)), (1, Pass()), (0, Play(0)), (0, Target(0)))
    assert state.ships[0].cubes == cubes(b=2) and not state.ships[0].at_sea and state.buildings[0] == 1


def test_two_players_move_only_two_ships_in_the_doom_phase():
    state = _doom_state("chaos", players=2)
    state = replace(state, ships=(ship(SCI, r=1), ship(ROY, r=1), ship(AIR, r=1), ship(WAR, r=1)))
    state, _ = doom_phase(state)
    assert sum(sh.at_sea for sh in state.ships) == 2


# --- rules decisions (RULES-DECISIONS.md, end-of-atlantis) ------------------------------------------
@pytest.mark.parametrize("spec,named", [("A,B,A", "ship A is listed twice"), ("A+,C,a+", "ship A+ is listed twice"),
                                        ("A,F", "'F' is not a ship"), ("B,x+", "'X' is not a ship"),
                                        ("A,B+-", "'B+-'")])
def test_chosen_ships_refuse_a_duplicate_or_unknown_letter_and_name_it(spec, named):
    with pytest.raises(ValueError) as refused:
        GAME.parse_options({"chosen_ships": spec})
    assert str(refused.value).startswith("bad option chosen_ships: ") and named in str(refused.value)
    assert "Value error" not in str(refused.value)  # the sentence alone
    with pytest.raises(ValidationError, match=re.escape(named)):
        outside_model(EndOfAtlantisOptions).model_validate({"chosen_ships": spec})
    assert GAME.parse_options({"chosen_ships": "a+, b"}).chosen_ships == "A+,B"  # spaces and case are fine


def test_doom_phase_moves_ships_by_board_position_whatever_order_they_were_chosen_in():
    """Four ships with one refugee each: the three on the left sail (B, C, D), for every
    order the ships were listed in, and the whole position is the same."""
    digests = set()
    for spec in ("E,D,C,B", "B,C,D,E", "C,E,B,D"):
        state = _doom_state("chaos", players=4, chosen_ships=spec)
        assert [sh.tile for sh in state.ships] == [SCI, ROY, AIR, WAR]  # A-E from left to right
        state = replace(state, camp=0, ships=tuple(sh._replace(cubes=cubes(r=1)) for sh in state.ships))
        state, _ = doom_phase(state)
        assert [sh.tile for sh in state.ships if sh.at_sea] == [SCI, ROY, AIR]
        digests.add(digest(state))
    assert len(digests) == 1
    assert doom_movers((ship(AIR, r=1), ship(AIR + ADV, r=1), ship(WAR, r=1)), 2) == [0, 1]


def test_a_third_doom_in_game_turns_1_to_3_is_reshuffled_and_from_turn_4_ends_the_game():
    for turn in range(1, 7):
        state = _doom_state(None, revealed_events=True)
        state = replace(state, turn=turn, doom_markers=1, top_event=data.DOOM_EVENTS[0], dooms_left=0)
        state, ev = doom_phase(state)
        kinds = [e.kind for e in ev]
        if turn <= 3:
            assert "doom_returned" in kinds and "game_over" not in kinds
            assert state.stage != "over" and state.doom_markers == 1 and data.EVENT_KEY[state.event] != "doom"
            assert state.dooms_left + (state.top_event in data.DOOM_EVENTS) == 1  # back in the deck
        else:
            assert "doom_returned" not in kinds and kinds[-1] == "game_over"
            assert state.stage == "over" and state.doom_markers == 0 and GAME.result(state) is not None
    help_text = " ".join(HELP.split())
    assert "third Doom! comes too early in game turns 1-3" in help_text
    assert "From turn 4 on it ends the game at once." in help_text


# --- one statement of legality ------------------------------------------------------------------------
def test_apply_accepts_exactly_what_each_seats_view_offers():
    """The stage table is read on the state (inside ``apply``) and on every seat's view
    (``legal``): both give the same actions, and the same seats to act."""
    from engine.end_of_atlantis.rules import actors, choices

    steps = 0
    for seed, (players, options) in enumerate([(2, {}), (3, {"revealed_specials": True}),
                                               (4, {"family": True}), (5, {"revealed_events": True})]):
        state = fresh(players, seed, **options)
        bots = [GAME.make_bot(i, seed, "random" if i % 2 else "normal") for i in range(players)]
        while GAME.result(state) is None:
            for p in [*range(players), None]:
                view = GAME.view(state, p)
                assert frozenset(actors(view)) == GAME.to_act(state)
                if p is not None:
                    assert choices(state, p) == GAME.legal(view)
            q = min(GAME.to_act(state))
            legal = GAME.legal(GAME.view(state, q))
            with pytest.raises(IllegalAction):
                act(state, q, Bid(state.screen[q] + 1))  # never offered
            state, _ = act(state, q, bots[q].choose(GAME.view(state, q), legal))
            steps += 1
    assert steps > 1000
    assert set(STAGES) == set(Stage)
