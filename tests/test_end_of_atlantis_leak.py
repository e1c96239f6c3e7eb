"""Secrets stay secret in End of Atlantis: hands, special cards, pending bids, pending
card orders, the Oraklos's face-down cards, and the tokens in a closed fist.

* invariance over bot games of every size and several variants (tests/leakcheck.py);
* canaries: pending bids and card orders get recognisable values, and no byte of
  another seat's view (or of the events it is shown) carries them;
* tokens behind a screen are public (everything else on the table can be counted),
  but a bid not yet revealed never moves them.
"""

from __future__ import annotations

from collections import Counter

import msgpack
import pytest

from engine.core import SeatInfo, replace
from engine.end_of_atlantis.actions import Bid, Faction, LayCard, Pass
from engine.end_of_atlantis.state import EoaView
from engine.match import Match
from engine.record import canonical_bytes

from eoa_helpers import GAME, fresh, run
from leakcheck import WrappedGame, assert_no_leak, encode_events, play_and_check


@pytest.mark.parametrize("options", [
    {}, {"family": True}, {"revealed_events": True, "revealed_specials": True},
    {"aggressive_neutrals": True, "chosen_ships": "A+,B,C+,D,E+"},
])
def test_views_and_events_do_not_depend_on_what_a_seat_cannot_see(options):
    seen: Counter = Counter()

    def observe(state, events):
        seen.update(e.kind for e in events)
        seen["over"] += GAME.result(state) is not None

    report = play_and_check(GAME, range(3), players=(2, 4, 5), options=options, stride=4,
                            observe=observe)
    assert_no_leak(report)
    assert report.rerandomised_differs > 0.8 * report.views_compared / 2
    assert seen["over"] == 3 and seen["revealed"] > 10 and seen["drew_cards"] > 5


def test_a_view_that_shows_a_pending_bid_is_caught():
    def view(inner, state, seat):
        v = inner.view(state, seat)
        if state.stage in ("senate", "vote"):
            return v.__class__(**{**{f: getattr(v, f) for f in v.__dataclass_fields__},
                                  "bids": state.bids})
        return v
    report = play_and_check(WrappedGame(GAME, view=view), range(2), players=(3,), max_moves=40)
    assert not report.ok and "view of seat" in report.leaks[0]


def test_a_view_that_shows_another_card_order_is_caught():
    def view(inner, state, seat):
        v = inner.view(state, seat)
        return v.__class__(**{**{f: getattr(v, f) for f in v.__dataclass_fields__},
                              "voting_cards": state.voting_cards})
    report = play_and_check(WrappedGame(GAME, view=view), range(2), players=(3,), max_moves=80)
    assert not report.ok and "view of seat" in report.leaks[0]


# --- canaries -------------------------------------------------------------------------------
CANARY_BID = 0x5EC0BEEF
CANARY_CARD = 0x5EC0CA7D


def _needles(*values):
    return [msgpack.packb(v) for v in values]


def test_canary_pending_bid_never_reaches_another_seat():
    state = fresh(4, seed=9)
    state, _ = run(state, (0, Bid(3)))
    state = replace(state, bids=(CANARY_BID,) + state.bids[1:])
    for seat in (1, 2, 3, None):
        assert not any(n in canonical_bytes(GAME.view(state, seat)) for n in _needles(CANARY_BID))
    assert any(n in canonical_bytes(GAME.view(state, 0)) for n in _needles(CANARY_BID))


def test_canary_pending_card_order_never_reaches_another_seat():
    state = fresh(3, seed=2)
    state, _ = run(state, (0, Bid(0)), (1, Bid(0)), (2, Bid(0)))
    for p in state.faction_order:
        state, _ = run(state, (p, Faction(p)))
    while state.stage == "ability":
        state, _ = run(state, (state.ability_queue[0][0], Pass()))
    card = state.hands[0][0]
    state, events = run(state, (0, LayCard(card)))
    marked = replace(state, voting_cards=((CANARY_CARD,),) + state.voting_cards[1:])
    for seat in (1, 2, None):
        blob = canonical_bytes(GAME.view(marked, seat))
        assert not any(n in blob for n in _needles(CANARY_CARD))
        assert encode_events(events, seat).count(msgpack.packb(card)) == 0 or \
            card in state.hands[seat or 0]
    assert any(n in canonical_bytes(GAME.view(marked, 0)) for n in _needles(CANARY_CARD))
    # the public event says only that a card went down
    assert [e.data for e in events if e.to is None] == [{"seat": 0, "slot": 0}]


def test_view_has_no_field_for_other_hands_bids_or_decks():
    fields = set(EoaView.__dataclass_fields__)
    assert not fields & {"hands", "deck", "special_deck", "specials", "rng", "face_down", "demagogos_look"}
    assert {"hand", "hand_sizes", "deck_count", "my_specials", "special_counts", "my_face_down"} <= fields


def test_tokens_behind_a_screen_do_not_move_before_the_reveal():
    state = fresh(3, seed=4)
    state, _ = run(state, (1, Bid(7)))
    assert GAME.view(state, 0).screen == (20, 20, 20)
    state, _ = run(state, (0, Bid(1)), (2, Bid(2)))
    assert GAME.view(state, 0).screen == (19, 13, 18)


def test_match_delivers_private_events_only_to_their_owner():
    for seed in range(4):
        n = 2 + seed % 4
        match = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        private = Counter()
        while match.result() is None:
            q = min(match.to_act())
            deliveries = match.submit(q, bots[q].choose(match.view(q), match.legal(q)))
            for seat, d in deliveries.items():
                for e in d.events:
                    if e.to is not None:
                        assert seat is not None and e.to == (seat,) and e.data["seat"] == seat
                        private[e.kind] += 1
        assert private["my_bid"] and private["my_order"] and private["drew_cards"]
        blob = msgpack.packb([m.to_map() for m in match.record.moves])
        assert b"hands" not in blob


def test_a_ship_events_tile_is_the_one_every_seat_sees_at_that_place():
    """Ship events name the ship by its tile: public (on the board), so no seat learns
    anything from it; the spectator's view shows that tile at that place."""
    for n, options in ((3, {"chosen_ships": "B,D,D+,E+"}), (4, {})):
        match = Match(GAME, options, [SeatInfo(f"P{i}", "bot") for i in range(n)], 7)
        bots = [GAME.make_bot(i, 7, "random") for i in range(n)]
        checked = 0
        while match.result() is None:
            was = [sh.tile for sh in match.view(None).ships]
            q = min(match.to_act())
            delivery = match.submit(q, bots[q].choose(match.view(q), match.legal(q)))[None]
            for e in delivery.events:
                if e.data.get("ship", -1) >= 0 or "tiles" in e.data:
                    assert e.to is None
                    places = e.data.get("ships") or (e.data["ship"],)
                    for i, tile in zip(places, e.data.get("tiles") or (e.data["tile"],)):
                        assert tile in (was[i], delivery.view.ships[i].tile), (e, was)
                        checked += 1
        assert checked > 10
