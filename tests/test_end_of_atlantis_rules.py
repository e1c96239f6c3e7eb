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
    s = fresh(4)
    assert all(len(h) == 7 for h in s.hands) and all(len(x) == 2 for x in s.specials)
    assert s.screen == (20,) * 4 and s.vp == (2,) * 4
    assert len(s.deck) == 80 - 28 and len(s.special_deck) == 25 - 8
    assert s.stage == "senate" and s.turn == 1 and s.vote_kind == "hidden"


def test_setup_places_ships_alphabetically_with_two_neutrals_on_the_ark():
    s = fresh(3)
    assert [sh.tile for sh in s.ships] == [A, SCI, ROY, AIR, WAR]
    assert s.ships[0].cubes == cubes(n=2) and s.camp == 8
    assert len(set(s.markers)) == 3  # markers on distinct Faction spaces


def test_two_player_game_has_no_ark_and_neutrals_on_the_science_vessel():
    s = fresh(2)
    assert [sh.tile for sh in s.ships] == [SCI, ROY, AIR, WAR]
    assert s.ships[0].cubes == cubes(n=2)


# --- Senate -------------------------------------------------------------------------------
def test_senate_bids_are_secret_and_simultaneous():
    s = fresh(3)
    assert GAME.to_act(s) == {0, 1, 2}
    s, ev = act(s, 0, Bid(5))
    assert GAME.to_act(s) == {1, 2}
    assert GAME.view(s, 1).bids == (-2, -1, -1) and GAME.view(s, 0).bids[0] == 5
    assert all(e.to == (0,) for e in ev if "n" in e.data)
    assert s.senate_pool == (0, 0, 0) and s.screen[0] == 20  # nothing moves before the reveal
    s, ev = run(s, (1, Bid(3)), (2, Bid(0)))
    assert s.senate_pool == (5, 3, 0) and s.screen == (15, 17, 20)
    assert s.stage == "faction" and s.faction_order == (0, 1, 2)
    assert [e.kind for e in ev if e.to is None][-1] == "revealed"


def test_senate_order_ties_go_to_the_marker_further_left():
    s = fresh(3)
    s = replace(s, senate_pool=(4, 4, 2))
    s = replace(s, markers=(data.DEMIURGOS, data.BASILEUS, data.ARCHONT))
    assert senate_order(s) == [1, 0, 2]


# --- Factions ---------------------------------------------------------------------------------
def test_faction_cost_example_from_the_rule_book():
    """4 players: Martin, Paul, Leopold, Michael in Senate order.  Martin and Paul pass,
    Leopold pays 1 for Basileus (+1 point), Michael takes Demiurgos free, then Martin
    takes Philosophios and Paul Strategos (+1) for free."""
    s = fresh(4)
    s = replace(s, plus_one=tuple(f in (data.BASILEUS, data.STRATEGOS) for f in range(7)))
    s, _ = run(s, (0, Bid(4)), (1, Bid(3)), (2, Bid(2)), (3, Bid(1)))
    martin, paul, leopold, michael = s.faction_order
    assert (martin, paul, leopold, michael) == (0, 1, 2, 3)
    assert Faction(0) in GAME.legal(GAME.view(s, martin))
    s, _ = act(s, martin, Pass())
    s, _ = act(s, paul, Pass())
    screen = s.screen[leopold]
    s, _ = act(s, leopold, Faction(data.BASILEUS))
    assert s.screen[leopold] == screen - 1 and s.buildings[leopold] == 1 and s.vp[leopold] == 3
    assert s.markers[leopold] == data.BASILEUS
    s, _ = act(s, michael, Faction(data.DEMIURGOS))
    assert s.buildings[michael] == 0  # fourth of four pays nothing
    assert GAME.to_act(s) == {martin}
    assert Pass() not in GAME.legal(GAME.view(s, martin))  # passers must take one, free
    s, _ = act(s, martin, Faction(data.PHILOSOPHIOS))
    s, _ = act(s, paul, Faction(data.STRATEGOS))
    assert s.buildings[martin] == 0 and s.buildings[paul] == 0 and s.vp[paul] == 3


@pytest.mark.parametrize("players,costs", [(5, (2, 2, 1, 1, 0)), (4, (2, 1, 1, 0)),
                                            (3, (2, 1, 0)), (2, (1, 0))])
def test_faction_cost_depends_on_position_not_on_earlier_choices(players, costs):
    s = fresh(players, seed=3)
    s, _ = run(s, *[(p, Bid(players - p)) for p in range(players)])
    for pos, p in enumerate(s.faction_order):
        if s.faction_queue[s.faction_pos][0] != p:
            break
        before = s.screen[p]
        s, _ = act(s, p, Faction(next(f for f in range(7) if s.faction_holders[f] < 0)))
        assert before - s.screen[p] == costs[pos]


def test_factions_nobody_took_get_plus_one():
    s = fresh(3)
    s, _ = run(s, (0, Bid(1)), (1, Bid(1)), (2, Bid(1)))
    for p in s.faction_order:
        s, _ = act(s, p, Faction([data.ORAKLOS, data.DEMAGOGOS, data.PHILOSOPHIOS][p]))
    taken = {data.ORAKLOS, data.DEMAGOGOS, data.PHILOSOPHIOS}
    assert all(s.plus_one[f] == (f not in taken) for f in range(7))


def test_two_players_take_two_factions_each_and_pay_only_for_the_first():
    s = fresh(2, seed=5)
    s, _ = run(s, (0, Bid(3)), (1, Bid(1)))
    assert [q for q in s.faction_queue] == [(0, 1), (1, 1), (0, 0), (1, 0)]
    s, _ = run(s, (0, Faction(0)), (1, Faction(2)), (0, Faction(4)), (1, Faction(6)))
    assert s.buildings[0] == 1 and s.buildings[1] == 0
    assert s.faction_holders[0] == s.faction_holders[4] == 0 and s.markers[0] == 4


def test_basileus_puts_a_refugee_on_a_ship_at_the_end_of_the_factions_phase():
    s = fresh(3, seed=2)
    s, _ = run(s, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    s, _ = run(s, (0, Faction(data.BASILEUS)), (1, Faction(data.ORAKLOS)), (2, Faction(data.STRATEGOS)))
    assert s.stage == "ability" and GAME.to_act(s) == {0}
    s, _ = act(s, 0, Target(AIR))
    assert s.ships[AIR].cubes[0] == 1 and s.stage == "order"


def test_archont_draws_five_then_discards_five():
    s = fresh(3, seed=2)
    s, _ = run(s, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    s, _ = run(s, (0, Faction(data.ARCHONT)), (1, Faction(data.ORAKLOS)), (2, Faction(data.STRATEGOS)))
    s, ev = act(s, 0, UseAbility())
    assert len(s.hands[0]) == 12 and s.stage == "archont"
    assert any(e.kind == "drew_cards" and e.to == (0,) for e in ev)
    for c in list(s.hands[0])[:5]:
        s, _ = act(s, 0, Discard(c))
    assert len(s.hands[0]) == 7 and len(s.discard) == 5 and s.stage == "order"


def test_demiurgos_draws_a_special_card():
    s = fresh(3, seed=2)
    s, _ = run(s, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    s, _ = run(s, (0, Faction(data.DEMIURGOS)), (1, Faction(data.ORAKLOS)), (2, Faction(data.STRATEGOS)))
    s, _ = act(s, 0, UseAbility())
    assert len(s.specials[0]) == 3


# --- Voting ------------------------------------------------------------------------------------
def test_voting_cards_are_ordered_in_secret_and_revealed_together():
    s = fresh(2, seed=4)
    s, _ = run(s, (0, Bid(0)), (1, Bid(0)))
    for f in (0, 2, 4, 6):
        s, _ = act(s, s.faction_queue[s.faction_pos][0], Faction(f))
    while s.stage == "ability":
        s, _ = act(s, s.ability_queue[0][0], Pass())
    assert s.stage == "order" and GAME.to_act(s) == {0, 1}
    for c in s.hands[0][:5]:
        s, ev = act(s, 0, LayCard(c))
        assert all(e.data.get("card") is None for e in ev if e.to is None)
    assert GAME.view(s, 1).voting_cards[0] == (-1,) * 5 and GAME.to_act(s) == {1}
    assert len(s.hands[0]) == 7  # refilled at once, for the next turn
    for c in s.hands[1][:5]:
        s, _ = act(s, 1, LayCard(c))
    assert s.cards_revealed and GAME.view(s, 1).voting_cards[0] == s.voting_cards[0]


def test_hidden_voting_example_from_the_rule_book():
    """Paul 16, Leopold 14, Michael 12 tokens; bids 4, 4, 5: Michael first, Paul second
    (higher in Senate order than Leopold), Leopold still spends 4."""
    paul, leopold, michael = 0, 1, 2
    s = voting(3, [["refugees1"], ["support"], ["refugees2"]], screen=(16, 14, 12), pool=(3, 2, 1))
    s, _ = run(s, (paul, Bid(4)), (leopold, Bid(4)), (michael, Bid(5)))
    assert s.vote_winners == (michael, paul)
    assert s.screen == (12, 10, 7) and s.tokens_on_cards[leopold][0] == 4
    assert GAME.to_act(s) == {michael}
    sources = {a.source for a in GAME.legal(GAME.view(s, michael)) if type(a) is Play}
    assert sources == {michael, leopold}  # Paul to his left won too: skip to Leopold
    s, _ = act(s, michael, Play(leopold))
    assert s.played[leopold][0] and len(s.specials[michael]) == 3


def test_open_voting_goes_in_reverse_senate_order_with_distinct_bids():
    s = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1), vote_kind="open")
    assert GAME.to_act(s) == {2}
    s, _ = act(s, 2, Bid(3))
    assert Bid(3) not in GAME.legal(GAME.view(s, 1)) and Bid(0) in GAME.legal(GAME.view(s, 1))
    with pytest.raises(IllegalAction):
        act(s, 1, Bid(3))
    s, _ = run(s, (1, Bid(0)), (0, Bid(0)))  # more than one may pass
    assert s.vote_winners == (2,)  # a pass never wins an open vote


def test_all_bids_are_spent_and_lie_on_the_cards():
    s = voting(3, [["refugees1"]] * 3, screen=(10, 10, 10))
    s, _ = run(s, (0, Bid(1)), (1, Bid(2)), (2, Bid(3)))
    assert s.tokens_on_cards == ((1,), (2,), (3,)) and s.screen == (9, 8, 7)


def test_first_place_may_play_the_card_of_the_player_to_the_left_instead():
    s = voting(4, [["refugees1"], ["support"], ["refugees2"], ["support"]], pool=(4, 3, 2, 1))
    s, _ = run(s, (0, Bid(5)), (1, Bid(0)), (2, Bid(3)), (3, Bid(0)))
    legal = GAME.legal(GAME.view(s, 0))
    assert {a.source for a in legal if type(a) is Play} == {0, 1}
    s, _ = act(s, 0, Pass())
    assert {a.source for a in GAME.legal(GAME.view(s, 2)) if type(a) is Play} == {2}


def test_a_card_must_be_carried_out_in_full_or_not_at_all():
    s = voting(3, [["refugees2"], ["refugees1"], ["refugees1"]])
    s = replace(s, specials=((), (), ()))
    s = replace(s, ships=tuple(sh._replace(cubes=cubes(n=data.capacity(sh.tile) - 1)) for sh in s.ships))
    s, _ = run(s, (0, Bid(3)), (1, Bid(1)), (2, Bid(0)))
    assert [a for a in GAME.legal(GAME.view(s, 0)) if type(a) is Play and a.source == 0] == []
    assert GAME.legal(GAME.view(s, 0)) == [Pass()] or all(a.source != 0 for a in GAME.legal(
        GAME.view(s, 0)) if type(a) is Play)


def test_strategos_gets_two_tokens_back_from_a_vote_without_playing():
    s = voting(3, [["refugees1"] * 2] * 3, screen=(10, 10, 10), pool=(3, 2, 1))
    s = replace(s, faction_holders=tuple(2 if f == data.STRATEGOS else -1 for f in range(7)))
    s, _ = run(s, (0, Bid(4)), (1, Bid(3)), (2, Bid(3)))
    s, _ = run(s, (0, Pass()), (1, Pass()))
    assert s.screen[2] == 7 + 2 and s.tokens_on_cards[2][0] == 1


def test_demagogos_sees_one_bid_only_and_may_change_their_own():
    s = voting(3, [["refugees1"]] * 3, screen=(10, 10, 10))
    s = replace(s, faction_holders=tuple(0 if f == data.DEMAGOGOS else -1 for f in range(7)))
    s, _ = run(s, (0, Bid(1)), (1, Bid(4)), (2, Bid(6)))
    assert s.stage == "peek" and GAME.to_act(s) == {0}
    s, ev = act(s, 0, Demagogos(1))
    assert GAME.view(s, 0).peeked_bid == (1, 4)
    assert GAME.view(s, 0).bids[2] == -2  # the other bid stays hidden
    assert [e for e in ev if e.to == (0,)][0].data["n"] == 4
    assert all("n" not in e.data for e in ev if e.to is None)
    s, _ = act(s, 0, Bid(5))
    assert s.vote_winners == (2, 0) and s.demagogos_used


def test_demagogos_in_an_open_vote_makes_one_player_bid_first():
    s = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1), vote_kind="open")
    s = replace(s, faction_holders=tuple(0 if f == data.DEMAGOGOS else -1 for f in range(7)))
    s = replace(s, stage="call")
    s, _ = act(s, 0, Demagogos(1))
    assert GAME.to_act(s) == {1} and s.open_bidders == (1, 2, 0)


def test_oraklos_cards_stay_face_down_until_their_vote_ends():
    s = voting(2, [["refugees1", "ships"], ["refugees1", "ships"]])
    s = replace(s, face_up=((False, True), (True, True)))
    assert GAME.view(s, 1).voting_cards[0] == (-1, s.voting_cards[0][1])
    s, _ = run(s, (0, Bid(1)), (1, Bid(0)))
    assert GAME.view(s, 1).voting_cards[0][0] == s.voting_cards[0][0]


def test_philosophios_plays_first_when_winning():
    s = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1))
    s = replace(s, faction_holders=tuple(1 if f == data.PHILOSOPHIOS else -1 for f in range(7)))
    s, _ = run(s, (0, Bid(5)), (1, Bid(2)), (2, Bid(0)))
    assert s.vote_winners == (0, 1) and s.play_queue == (1, 0)


def test_five_players_three_win_each_vote():
    s = voting(5, [["refugees1"]] * 5)
    s, _ = run(s, *[(p, Bid(p)) for p in range(5)])
    assert s.vote_winners == (4, 3, 2)


def test_two_players_only_one_wins_each_vote():
    s = voting(2, [["refugees1"]] * 2)
    s, _ = run(s, (0, Bid(2)), (1, Bid(1)))
    assert s.vote_winners == (0,)


# --- cards ----------------------------------------------------------------------------------------
def _winner_plays(kinds, ships=None, players=3, **opts):
    rows = [[kinds]] + [["refugees1"]] * (players - 1)
    s = voting(players, rows, **opts)
    if ships is not None:
        s = replace(s, ships=tuple(ships))
    s, _ = run(s, *[(p, Bid(3 if p == 0 else 0)) for p in range(players)])
    return s


def test_refugees_two_plus_one_puts_two_on_one_ship_and_one_on_another():
    s = _winner_plays("refugees21")
    s, _ = act(s, 0, Play(0))
    s, _ = act(s, 0, Target(SCI))
    assert Target(SCI) not in GAME.legal(GAME.view(s, 0))
    s, _ = act(s, 0, Target(AIR))
    assert s.ships[SCI].cubes[0] == 2 and s.ships[AIR].cubes[0] == 1


def test_aristocracy_pushes_another_cube_off_a_full_ship():
    full = [ship(A, n=2), ship(SCI), ship(ROY), ship(AIR, b=3), ship(WAR, at_sea=True, b=1)]
    s = _winner_plays("aristocracy", full)
    s, _ = act(s, 0, Play(0))
    assert Target(AIR, 1) in GAME.legal(GAME.view(s, 0))
    s, _ = act(s, 0, Target(AIR, 1))
    assert s.ships[AIR].cubes == cubes(r=1, b=2) and s.buildings[1] == 1


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
    s = _winner_plays("ships", ships)
    s = replace(s, ships=tuple(ships))
    vp = s.vp
    s, _ = act(s, martin, Play(martin))
    s, ev = act(s, martin, Target(1))
    gains = tuple(a - b for a, b in zip(s.vp, vp))
    assert gains == (5, 6, 9)
    assert s.promised_land == (1, 2, 3) and s.promised_land_neutrals == 1 and not s.ships[1].at_sea
    assert sum(s.ships[1].cubes) == 0


def test_royal_ship_scores_the_royal_chart():
    ships = [ship(A, n=2), ship(SCI, at_sea=True, r=3), ship(ROY), ship(AIR), ship(WAR)]
    s = _winner_plays("royal", ships)
    s = replace(s, ships=tuple(ships))
    vp = s.vp[0]
    s, _ = run(s, (0, Play(0)), (0, Target(1)))
    assert s.vp[0] - vp == 9 + 1


def test_empty_ships_never_move():
    ships = [ship(A), ship(SCI, r=1), ship(ROY), ship(AIR), ship(WAR)]
    s = _winner_plays("ships", ships)
    s = replace(s, ships=tuple(ships))
    assert not any(type(a) is Play and a.source == 0 for a in GAME.legal(GAME.view(s, 0)))


def test_sabotage_sends_a_ship_on_the_ocean_home_and_discards_everyone():
    ships = [ship(A, n=2), ship(SCI, at_sea=True, b=2, r=1), ship(ROY), ship(AIR), ship(WAR)]
    s = _winner_plays("sabotage", ships)
    s = replace(s, ships=tuple(ships))
    s, _ = run(s, (0, Play(0)), (0, Target(1)))
    assert not s.ships[1].at_sea and sum(s.ships[1].cubes) == 0
    assert s.buildings[1] == 2 and s.buildings[0] == 1


def test_advanced_warship_is_immune_to_red_cards():
    ships = [ship(A, n=2), ship(SCI), ship(ROY), ship(AIR), ship(WAR + ADV, at_sea=True, b=2)]
    s = _winner_plays("sabotage", ships)
    s = replace(s, ships=tuple(ships))
    assert not any(type(a) is Play and a.source == 0 for a in GAME.legal(GAME.view(s, 0)))


def test_betrayal_removes_up_to_four_from_a_ship_or_from_the_senate():
    ships = [ship(A, b=5, n=2), ship(SCI), ship(ROY), ship(AIR), ship(WAR)]
    s = _winner_plays("betrayal", ships, pool=(1, 6, 0))
    s = replace(s, ships=tuple(ships))
    s2, _ = run(s, (0, Play(0)), (0, Target(-1, 1)))
    assert s2.senate_pool[1] == 2 and s2.buildings[1] == 4
    s3, _ = run(s, (0, Play(0)), (0, Target(0)), (0, Target(0, 1)), (0, Target(0, data.NEUTRAL)), (0, Done()))
    assert s3.ships[0].cubes == cubes(b=4, n=1) and s3.camp == s.camp + 1


def test_advanced_airship_flies_straight_to_the_promised_land_and_refuses_royal_ship():
    ships = [ship(A, n=2), ship(SCI), ship(ROY), ship(AIR + ADV, r=2), ship(WAR)]
    s = _winner_plays("royal", ships)
    s = replace(s, ships=tuple(ships))
    s, _ = act(s, 0, Play(0))
    assert Target(3) not in GAME.legal(GAME.view(s, 0)) and Target(0) in GAME.legal(GAME.view(s, 0))
    s = _winner_plays("ships", [ship(A, n=2), ship(SCI, r=1), ship(ROY), ship(AIR + ADV, r=2), ship(WAR)])
    vp = s.vp[0]
    s, _ = run(s, (0, Play(0)), (0, Target(3)))
    assert s.vp[0] - vp == 3 + 1 and s.promised_land[0] == 2


def test_advanced_science_vessel_gives_its_mover_two_more_points():
    s = _winner_plays("royal", [ship(A, n=2), ship(SCI + ADV, at_sea=True, b=1), ship(ROY), ship(AIR),
                                ship(WAR)])
    vp = s.vp[0]
    s, _ = run(s, (0, Play(0)), (0, Target(1)))
    assert s.vp[0] - vp == 1 + 2


def test_advanced_royal_vessel_gives_its_mover_a_special_card():
    s = _winner_plays("royal", [ship(A, n=2), ship(SCI), ship(ROY + ADV, at_sea=True, b=1), ship(AIR),
                                ship(WAR)])
    n = len(s.specials[0])
    s, _ = run(s, (0, Play(0)), (0, Target(2)))
    assert len(s.specials[0]) == n + 1


def test_support_draws_a_special_card():
    s = _winner_plays("support")
    n = len(s.specials[0])
    s, ev = act(s, 0, Play(0))
    assert len(s.specials[0]) == n + 1 and any(e.kind == "my_special" and e.to == (0,) for e in ev)


# --- special cards -------------------------------------------------------------------------------
def _with_special(s, key):
    card = special_of(key)
    for p in range(s.players):
        if card in s.specials[p]:
            s = replace(s, specials=tuple(tuple(c for c in x if c != card) for x in s.specials))
    s = replace(s, special_deck=tuple(c for c in s.special_deck if c != card))
    s = replace(s, specials=(tuple(sorted(s.specials[0] + (card,))),) + s.specials[1:])
    return s, card


def test_special_favourable_winds_moves_three_ships():
    s = _winner_plays("ships", [ship(A, r=1), ship(SCI, r=1), ship(ROY, r=1), ship(AIR), ship(WAR)])
    s, card = _with_special(s, "winds")
    s, _ = run(s, (0, Play(0, card)), (0, Target(0)), (0, Target(1)), (0, Target(2)))
    assert all(sh.at_sea for sh in s.ships[:3]) and card in s.special_discard


def test_special_empath_places_two_refugees_with_aristocracy():
    s = _winner_plays("aristocracy")
    s, card = _with_special(s, "empath")
    s, _ = run(s, (0, Play(0, card)), (0, Target(SCI)), (0, Target(SCI)))
    assert s.ships[SCI].cubes[0] == 2


def test_special_royal_decree_scores_two_with_support():
    s = _winner_plays("support")
    s, card = _with_special(s, "decree")
    vp = s.vp[0]
    s, _ = act(s, 0, Play(0, card))
    assert s.vp[0] == vp + 2


def test_special_senate_favour_makes_the_faction_free():
    s = fresh(3, seed=2)
    s, _ = run(s, (0, Bid(2)), (1, Bid(1)), (2, Bid(0)))
    s, card = _with_special(s, "favour")
    s, _ = run(s, (0, PlaySpecial(card)), (0, Faction(data.ORAKLOS)))
    assert s.buildings[0] == 0 and s.screen[0] == 18


def test_special_cards_score_when_the_game_ends():
    s = fresh(3)
    s = replace(s, specials=((special_of("treasury"),), (), ()))
    s = replace(s, doom_markers=1)
    s = replace(s, turn=5)
    s = replace(s, dooms_left=1, other_events_left=0)
    vp = s.vp
    s = replace(s, stage="doom", voting_cards=((),) * 3, tokens_on_cards=((),) * 3)
    s, _ = doom_phase(s)
    assert s.stage == "over" and s.vp[0] - vp[0] == 3
    assert GAME.result(s).winners == (0,)


# --- Doom phase --------------------------------------------------------------------------------
def _doom_state(event_key: str | None = None, players=3, **opts):
    s = fresh(players, **opts)
    s = replace(s, voting_cards=((),) * players)
    s = replace(s, tokens_on_cards=((),) * players)
    if event_key is not None:
        s = replace(s, other_events=tuple(i for i in data.OTHER_EVENTS if data.EVENT_KEY[i] == event_key))
        s = replace(s, other_events_left=1, dooms_left=0)
    return s


def test_doom_phase_gives_two_points_for_the_promised_land_and_the_senate():
    s = _doom_state("chaos")
    s = replace(s, promised_land=(0, 3, 1), senate_pool=(5, 1, 0))
    vp = s.vp
    s, _ = doom_phase(s)
    assert (s.vp[1] - vp[1], s.vp[0] - vp[0]) == (2, 2)


def test_more_neutrals_in_the_promised_land_deny_the_two_points():
    s = _doom_state("chaos")
    s = replace(s, promised_land=(0, 1, 0), promised_land_neutrals=2)
    vp = s.vp
    s, _ = doom_phase(s)
    assert s.vp[1] == vp[1]


def test_doom_returns_tokens_half_the_senate_pool_rounded_up():
    s = _doom_state("wrath")
    s = replace(s, senate_pool=(5, 2, 0), buildings=(1, 0, 0), screen=(10, 10, 10))
    s, _ = doom_phase(s)
    assert s.senate_pool == (2, 1, 0) and s.screen == (10 + 3 + 1, 10 + 1, 10)
    assert s.stage == "senate" and s.turn == 2 and s.vote_kind == "hidden"


def test_doom_card_upgrades_ships_and_returns_the_whole_senate_pool():
    s = _doom_state(None)
    s = replace(s, other_events_left=0, dooms_left=3)
    s = replace(s, senate_pool=(5, 3, 1))
    s, _ = doom_phase(s)
    assert s.doom_markers == 2 and s.senate_pool == (0, 0, 0)
    assert [sh.tile for sh in s.ships[:2]] == [A + ADV, SCI + ADV]
    assert s.ships[0].cubes[data.NEUTRAL] >= 1
    s, _ = doom_phase(s)
    assert [sh.tile for sh in s.ships[2:]] == [ROY + ADV, AIR + ADV, WAR + ADV]


def test_third_doom_before_turn_four_goes_back_into_the_deck():
    """Whichever card the shuffle turns up (one Doom, one other event left), the game
    goes on with the other event; over a few shuffles the Doom is drawn and returned."""
    from engine.rng import Rng

    returned = 0
    for i in range(16):
        s = _doom_state(None)
        s = replace(s, doom_markers=1, dooms_left=1, other_events_left=0)
        s = replace(s, other_events=(data.EVENT_KEY.index("wrath"),))
        s = replace(s, other_events_left=1)
        s = replace(s, rng=Rng.from_seed(i, "third-doom"))
        ev = []
        s, ev = doom_phase(s)
        assert s.stage != "over" and s.dooms_left == 1 and data.EVENT_KEY[s.event] == "wrath"
        returned += any(e.kind == "doom_returned" for e in ev)
    assert returned > 0


def test_third_doom_ends_the_game_at_once():
    s = _doom_state(None)
    s = replace(s, turn=4)
    s = replace(s, doom_markers=1, dooms_left=1, other_events_left=0)
    ships = s.ships
    s, _ = doom_phase(s)
    assert s.stage == "over" and s.ships == ships  # no ship sails


def test_neutral_refugees_board_the_largest_ship_in_port_first():
    s = _doom_state("wrath")
    s = replace(s, ships=(ship(A, at_sea=True, r=1), ship(SCI), ship(ROY, b=5), ship(AIR), ship(WAR)))
    s = replace(s, turn=2)
    s, _ = doom_phase(s)
    # wrath sends A home empty; 3 neutrals: A (7), B (5), C is full -> D
    aboard_n = [sh.cubes[data.NEUTRAL] for sh in s.ships]
    assert aboard_n[0] == 1 and aboard_n[1] == 1 and aboard_n[3] == 1 or aboard_n[:2] == [0, 0]


def test_aggressive_neutrals_push_off_the_last_player_in_senate_order():
    s = _doom_state("together", aggressive_neutrals=True)
    s = replace(s, ships=(ship(A, r=3, b=4), ship(SCI, at_sea=True, r=1), ship(ROY, at_sea=True, r=1),
                          ship(AIR, at_sea=True, r=1), ship(WAR, at_sea=True, r=1)))
    s = replace(s, senate_pool=(5, 1, 0))
    s = replace(s, screen=(0, 0, 0))
    ev = []
    s, ev = doom_phase(s)
    assert any(e.kind == "pushed_off" and e.data["colour"] == 1 for e in ev)


def test_wrath_of_the_ocean_god_loses_every_ship_on_the_ocean():
    s = _doom_state("wrath")
    s = replace(s, ships=(ship(A, n=2), ship(SCI, at_sea=True, r=2), ship(ROY), ship(AIR), ship(WAR)))
    ev = []
    s, ev = doom_phase(s)
    # the two red cubes were discarded to Red's Faction building, then came home
    assert s.buildings == (0, 0, 0) and s.screen[0] == 22
    assert [e.data for e in ev if e.kind == "wrecked"] == [{"ship": 1, "tile": SCI, "n": 2}]


def test_senate_pays_its_debts_gives_five_and_three():
    s = _doom_state("senate_pays")
    s = replace(s, senate_pool=(1, 6, 3))
    vp = s.vp
    s, _ = doom_phase(s)
    assert tuple(a - b for a, b in zip(s.vp, vp)) == (0, 5 + 2, 3) and s.senate_pool == (0, 0, 0)


def test_chaos_spreads_skips_senate_and_factions_and_keeps_them():
    s = _doom_state("chaos")
    s = replace(s, senate_pool=(4, 2, 0))
    s = replace(s, faction_holders=(0, 1, 2, -1, -1, -1, -1))
    s, _ = doom_phase(s)
    assert s.senate_pool == (4, 2, 0) and s.faction_holders[0] == 0 and s.stage == "order"


def test_we_are_all_doomed_leaves_one_winner():
    s = voting(3, [["refugees1"]] * 3)
    s = replace(s, event=data.EVENT_KEY.index("doomed"))
    s, _ = run(s, (0, Bid(3)), (1, Bid(2)), (2, Bid(1)))
    assert s.vote_winners == (0,)


def test_no_mercy_for_the_weak_costs_the_lowest_bid_a_point():
    s = voting(3, [["refugees1"]] * 3, pool=(3, 2, 1))
    s = replace(s, event=data.EVENT_KEY.index("no_mercy"))
    vp = s.vp
    s, _ = run(s, (0, Bid(3)), (1, Bid(0)), (2, Bid(0)))
    assert s.vp[2] == vp[2] - 1 and s.vp[1] == vp[1]


def test_we_are_all_in_this_together_places_up_to_three_one_at_a_time():
    s = _doom_state("together")
    s = replace(s, senate_pool=(3, 2, 1))
    s, _ = doom_phase(s)
    assert s.stage == "together" and GAME.to_act(s) == {0}
    s, _ = act(s, 0, Target(1))
    assert GAME.to_act(s) == {1}
    s, _ = act(s, 1, Pass())
    assert GAME.to_act(s) == {2}


def test_under_the_senates_leadership_pays_for_neutrals_in_the_promised_land():
    s = _doom_state("wrath")
    s = replace(s, event=data.EVENT_KEY.index("leadership"))
    s = replace(s, senate_pool=(1, 5, 3), promised_land_neutrals=3)
    vp = s.vp
    s, _ = doom_phase(s)
    assert s.vp[1] - vp[1] == 3 + 2 and s.vp[2] - vp[2] == 2


# --- variants ---------------------------------------------------------------------------------------
def test_family_variant_has_no_senate_phase():
    s = fresh(3, family=True)
    assert s.stage == "faction" and s.faction_order == tuple(sorted(range(3), key=lambda p: s.markers[p]))
    s2 = voting(3, [["betrayal"], ["refugees1"], ["refugees1"]], family=True, pool=(0, 0, 0))
    s2 = replace(s2, ships=(ship(A), ship(SCI), ship(ROY), ship(AIR), ship(WAR)))
    s2 = replace(s2, senate_pool=(0, 3, 0))
    s2, _ = run(s2, (0, Bid(2)), (1, Bid(0)), (2, Bid(0)))
    assert not [a for a in GAME.legal(GAME.view(s2, 0)) if type(a) is Play and a.source == 0]


def test_chosen_ships_replace_the_upgrades():
    s = fresh(4, chosen_ships="D,E,D+,E+")
    assert [sh.tile for sh in s.ships] == [AIR, AIR + ADV, WAR, WAR + ADV] and s.ships_chosen  # board order
    s = _doom_state(None, players=4, chosen_ships="A,B")
    s = replace(s, other_events_left=0, dooms_left=3)
    s, _ = doom_phase(s)
    assert [sh.tile for sh in s.ships] == [A, SCI]
    with pytest.raises(ValueError):
        GAME.parse_options({"chosen_ships": "A,A"})


def test_revealed_event_deck_shows_the_next_event():
    s = fresh(3, revealed_events=True)
    assert s.top_event >= 0 and GAME.view(s, 1).top_event == s.top_event
    assert GAME.view(fresh(3), 1).top_event == -1


def test_revealed_special_cards_offer_three_face_up_choices():
    s = _winner_plays("support", revealed_specials=True)
    assert len(s.face_up_specials) == 3
    s, _ = act(s, 0, Play(0))
    legal = GAME.legal(GAME.view(s, 0))
    assert set(legal) == {TakeSpecial(0), TakeSpecial(1), TakeSpecial(2), TakeSpecial(3)}
    face = s.face_up_specials[1]
    s, _ = act(s, 0, TakeSpecial(1))
    assert face in s.specials[0] and len(s.face_up_specials) == 3


def test_philosophios_may_play_the_left_players_card_without_first_place():
    s = voting(3, [["refugees1"], ["support"], ["refugees2"]], pool=(3, 2, 1))
    s = replace(s, faction_holders=tuple(1 if f == data.PHILOSOPHIOS else -1 for f in range(7)))
    s, _ = run(s, (0, Bid(5)), (1, Bid(2)), (2, Bid(0)))
    assert s.play_queue[0] == 1
    assert {a.source for a in GAME.legal(GAME.view(s, 1)) if type(a) is Play} == {1, 2}


def test_two_players_first_place_may_not_take_the_philosophios_card():
    s = voting(2, [["refugees1"], ["support"]])
    s = replace(s, faction_holders=tuple(1 if f == data.PHILOSOPHIOS else -1 for f in range(7)))
    s, _ = run(s, (0, Bid(3)), (1, Bid(1)))
    assert s.vote_winners == (0,)
    assert {a.source for a in GAME.legal(GAME.view(s, 0)) if type(a) is Play} == {0}


def test_two_players_the_demagogos_is_immune_to_red_cards():
    ships = [ship(SCI, at_sea=True, b=2, r=1), ship(ROY), ship(AIR), ship(WAR)]
    s = voting(2, [["sabotage", "support"], ["support", "support"]])
    s = replace(s, ships=tuple(ships))
    s = replace(s, faction_holders=tuple(1 if f == data.DEMAGOGOS else -1 for f in range(7)))
    s, _ = run(s, (0, Bid(3)), (1, Bid(1)), (1, Pass()), (0, Play(0)), (0, Target(0)))
    assert s.ships[0].cubes == cubes(b=2) and not s.ships[0].at_sea and s.buildings[0] == 1


def test_two_players_move_only_two_ships_in_the_doom_phase():
    s = _doom_state("chaos", players=2)
    s = replace(s, ships=(ship(SCI, r=1), ship(ROY, r=1), ship(AIR, r=1), ship(WAR, r=1)))
    s, _ = doom_phase(s)
    assert sum(sh.at_sea for sh in s.ships) == 2


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
        s = _doom_state("chaos", players=4, chosen_ships=spec)
        assert [sh.tile for sh in s.ships] == [SCI, ROY, AIR, WAR]  # A-E from left to right
        s = replace(s, camp=0, ships=tuple(sh._replace(cubes=cubes(r=1)) for sh in s.ships))
        s, _ = doom_phase(s)
        assert [sh.tile for sh in s.ships if sh.at_sea] == [SCI, ROY, AIR]
        digests.add(digest(s))
    assert len(digests) == 1
    assert doom_movers((ship(AIR, r=1), ship(AIR + ADV, r=1), ship(WAR, r=1)), 2) == [0, 1]


def test_a_third_doom_in_game_turns_1_to_3_is_reshuffled_and_from_turn_4_ends_the_game():
    for turn in range(1, 7):
        s = _doom_state(None, revealed_events=True)
        s = replace(s, turn=turn, doom_markers=1, top_event=data.DOOM_EVENTS[0], dooms_left=0)
        s, ev = doom_phase(s)
        kinds = [e.kind for e in ev]
        if turn <= 3:
            assert "doom_returned" in kinds and "game_over" not in kinds
            assert s.stage != "over" and s.doom_markers == 1 and data.EVENT_KEY[s.event] != "doom"
            assert s.dooms_left + (s.top_event in data.DOOM_EVENTS) == 1  # back in the deck
        else:
            assert "doom_returned" not in kinds and kinds[-1] == "game_over"
            assert s.stage == "over" and s.doom_markers == 0 and GAME.result(s) is not None
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
        s = fresh(players, seed, **options)
        bots = [GAME.make_bot(i, seed, "random" if i % 2 else "normal") for i in range(players)]
        while GAME.result(s) is None:
            for p in [*range(players), None]:
                v = GAME.view(s, p)
                assert frozenset(actors(v)) == GAME.to_act(s)
                if p is not None:
                    assert choices(s, p) == GAME.legal(v)
            q = min(GAME.to_act(s))
            legal = GAME.legal(GAME.view(s, q))
            with pytest.raises(IllegalAction):
                act(s, q, Bid(s.screen[q] + 1))  # never offered
            s, _ = act(s, q, bots[q].choose(GAME.view(s, q), legal))
            steps += 1
    assert steps > 1000
    assert set(STAGES) == set(Stage)
