"""Secrets stay secret in Atlantis: the hands and the draw pile.

* invariance over many bot games (the shared harness in ``leakcheck``): other hands
  and the pile are re-dealt; views and the events shown to a seat must not change;
* the harness can fail here too (deliberately leaky wrappers are caught);
* a canary: hidden cards get recognisable values and no byte of another seat's view
  carries them; ``Match`` never delivers one seat's drawn cards to another.

The plates under the tops are no secret to keep: nobody knows them, and they are
drawn from the unseen plates of their half only when uncovered (see ``rules``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import msgpack
import pytest

from engine.atlantis.rules import AtlantisGame
from engine.atlantis.state import AtlantisView
from engine.core import Event, SeatInfo, View
from engine.match import Match
from engine.record import canonical_bytes

from leakcheck import WrappedGame, assert_no_leak, play_and_check

GAME = AtlantisGame()


# --- invariance ---------------------------------------------------------------------
def test_views_and_events_do_not_depend_on_hidden_cards():
    report = play_and_check(GAME, range(40), players=(2, 3, 4), max_moves=150, stride=2)
    assert_no_leak(report)
    assert report.games == 40 and report.events_compared > 1000
    assert report.rerandomised_differs > 0.9 * report.views_compared / 2


def test_whole_games_with_the_strong_bot_do_not_leak():
    seen: Counter = Counter()

    def observe(state, events):
        seen.update(e.kind for e in events)
        seen["over"] += GAME.result(state) is not None

    report = play_and_check(GAME, range(100, 108), players=(2, 3, 4), level="normal", stride=3,
                            observe=observe)
    assert_no_leak(report)
    assert seen["over"] == 8 and seen["took"] > 0 and seen["paid"] > 0, seen


# --- the harness can fail -------------------------------------------------------------
@dataclass(frozen=True)
class LeakyView(View):
    inner: AtlantisView
    leak: tuple


def _leaky_view(what):
    def view(inner, state, seat):
        return LeakyView(inner.view(state, seat), what(state, seat))
    return view


@pytest.mark.parametrize("what", [
    lambda state, seat: state.pile,                                      # what is in the pile
    lambda state, seat: tuple(sorted(c for h in state.hands for c in h)),  # every hand, mixed
    lambda state, seat: (state.hands[((seat or 0) + 1) % state.players][:1],),  # the next seat's card
])
def test_harness_catches_a_leaky_view(what):
    report = play_and_check(WrappedGame(GAME, view=_leaky_view(what)), range(3), max_moves=30)
    assert not report.ok and "view of seat" in report.leaks[0]


def test_harness_catches_a_leaky_event():
    def apply(inner, state, seat, action):
        s, events = inner.apply(state, seat, action)
        return s, [replace(e, to=None) if e.kind == "drew_cards" else e for e in events]
    report = play_and_check(WrappedGame(GAME, apply=apply), range(3), max_moves=60)
    assert any("events shown to" in leak for leak in report.leaks), report.summary()


# --- canary -------------------------------------------------------------------------------
CANARY = 0x5EC0_0000


def _canary_state(state, seat):
    """Every card ``seat`` may not see gets a recognisable value."""
    n = 0

    def mark(cards):
        nonlocal n
        out = tuple(CANARY + n + i for i in range(len(cards)))
        n += len(cards)
        return out

    hands = tuple(h if s == seat else mark(h) for s, h in enumerate(state.hands))
    return replace(state, hands=hands, pile=mark(state.pile)), n


def _random_states(seeds, max_moves):
    for seed in seeds:
        n = 2 + seed % 3
        state = GAME.setup(GAME.parse_options({}), n, seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        for _ in range(max_moves):
            if GAME.result(state) is not None:
                break
            (q,) = GAME.to_act(state)
            view = GAME.view(state, q)
            yield state
            state, _ = GAME.apply(state, q, bots[q].choose(view, GAME.legal(view)))
        yield state


def test_canary_no_view_carries_hidden_cards():
    checked = 0
    for i, state in enumerate(_random_states(range(12), 300)):
        if i % 5:
            continue
        for seat in [*range(state.players), None]:
            marked, count = _canary_state(state, seat)
            blob = canonical_bytes(GAME.view(marked, seat))
            for k in range(count):
                assert msgpack.packb(CANARY + k) not in blob, f"seat {seat} can see a hidden card"
            checked += 1
    assert checked > 100


def test_canary_scan_catches_a_leaky_view():
    state = GAME.setup(GAME.parse_options({}), 3, 4)
    marked, count = _canary_state(state, 0)
    blob = canonical_bytes(LeakyView(GAME.view(marked, 0), marked.pile[-1:]))
    assert any(msgpack.packb(CANARY + k) in blob for k in range(count))


def test_view_has_no_field_for_other_hands_the_pile_or_the_plates_underneath():
    fields = set(AtlantisView.__dataclass_fields__)
    assert not fields & {"hands", "pile", "unseen", "rng"}
    assert {"hand", "hand_sizes", "pile_count", "heights"} <= fields


def test_match_never_delivers_another_seats_drawn_cards():
    for seed in range(12):
        n = 2 + seed % 3
        match = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        private_seen = 0
        while match.result() is None:
            (q,) = match.to_act()
            deliveries = match.submit(q, bots[q].choose(match.view(q), match.legal(q)))
            for seat, delivery in deliveries.items():
                assert delivery.view.seat == seat
                assert (delivery.view.hand is None) == (seat is None)
                for e in delivery.events:
                    assert isinstance(e, Event)
                    if e.kind == "drew_cards":
                        assert seat is not None and e.to == (seat,) and e.data["seat"] == seat
                        private_seen += 1
                    else:
                        assert e.to is None, f"unexpected private event {e}"
            blob = msgpack.packb(match.record.moves[-1].to_map())
            assert b"hands" not in blob and b"drew" not in blob
        assert private_seen > 0
