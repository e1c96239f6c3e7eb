"""Secrets stay secret in Pathways: the hands of 4 tiles and the draw pile.

* invariance over many random bot games (the shared harness in ``leakcheck``),
  including long games that empty the draw pile and reshuffle the used specials;
* the harness itself can fail (deliberately leaky wrappers are caught);
* a canary: hidden tiles get recognisable values and no byte of another
  seat's view carries them; ``Match`` never delivers one seat's drawn tiles to
  another.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import msgpack
import pytest

from engine.core import Event, SeatInfo, View, to_data
from engine.match import Match
from engine.pathways.rules import PathwaysGame
from engine.pathways.state import PathwaysView
from engine.record import canonical_bytes

from leakcheck import WrappedGame, assert_no_leak, play_and_check

GAME = PathwaysGame()


# --- invariance ---------------------------------------------------------------------
def test_views_and_events_do_not_depend_on_hidden_tiles():
    """40 games, 2-4 players, every step of the first 90 moves (a short round
    limit makes many of them end, so final positions are checked too)."""
    report = play_and_check(GAME, range(40), players=(2, 3, 4), options={"max_rounds": 6},
                            max_moves=90)
    assert_no_leak(report)
    assert report.games == 40 and report.events_compared > 1000
    assert report.rerandomised_differs > 0.9 * report.views_compared / 2


def test_long_games_that_reshuffle_the_used_specials_do_not_leak():
    """Full-length games reach an empty draw pile; check every 3rd step."""
    seen: Counter = Counter()

    def observe(state, events):
        seen.update(e.kind for e in events)
        seen["over"] += GAME.result(state) is not None

    report = play_and_check(GAME, range(1000, 1006), players=(2, 3, 4), stride=3, observe=observe)
    assert_no_leak(report)
    assert seen["reshuffled"] > 0 and seen["removed"] > 0 and seen["over"] == 6, seen


# --- the harness can fail -------------------------------------------------------------
@dataclass(frozen=True)
class LeakyView(View):
    inner: PathwaysView
    leak: tuple


def _leaky_view(what):
    def view(inner, state, seat):
        return LeakyView(inner.view(state, seat), what(state, seat))
    return view


@pytest.mark.parametrize("what", [
    lambda state, seat: state.draw[:1],                               # the next tile
    lambda state, seat: tuple(sorted(t for h in state.hands for t in h)),  # every hand, mixed
    lambda state, seat: (len(state.draw) and state.draw[-1] % 2,),    # one bit of the pile
])
def test_harness_catches_a_leaky_view(what):
    leaky = WrappedGame(GAME, view=_leaky_view(what))
    report = play_and_check(leaky, range(3), max_moves=30)
    assert not report.ok
    assert "view of seat" in report.leaks[0]
    assert "LEAKS" in report.summary()


def test_harness_catches_a_leaky_spectator_view():
    def view(inner, state, seat):
        if seat is None:
            return LeakyView(inner.view(state, None), state.hands[0])
        return inner.view(state, seat)
    report = play_and_check(WrappedGame(GAME, view=view), range(2), max_moves=20)
    assert any("spectator view" in leak for leak in report.leaks)


def test_harness_catches_a_leaky_event():
    def apply(inner, state, seat, action):
        s, events = inner.apply(state, seat, action)
        return s, [replace(e, to=None) if e.kind == "drew_tiles" else e for e in events]
    report = play_and_check(WrappedGame(GAME, apply=apply), range(3), max_moves=60)
    assert any("events shown to" in leak for leak in report.leaks), report.summary()


# --- canary -------------------------------------------------------------------------------
CANARY = 0x5EC0_0000


def _canary_state(state, seat):
    """Every tile ``seat`` may not see gets a recognisable id."""
    n = 0

    def mark(tiles):
        nonlocal n
        out = tuple(CANARY + n + i for i in range(len(tiles)))
        n += len(tiles)
        return out

    hands = tuple(h if s == seat else mark(h) for s, h in enumerate(state.hands))
    return replace(state, hands=hands, draw=mark(state.draw)), n


def _canary_needles(count):
    return [msgpack.packb(CANARY + i) for i in range(count)]


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


def test_canary_no_view_carries_hidden_tiles():
    for i, state in enumerate(_random_states(range(12), 300)):
        if i % 5:
            continue
        for seat in [*range(state.players), None]:
            marked, count = _canary_state(state, seat)
            blob = canonical_bytes(GAME.view(marked, seat))
            for needle in _canary_needles(count):
                assert needle not in blob, f"seat {seat} can see a hidden tile"


def test_canary_scan_catches_a_leaky_view():
    state = GAME.setup(GAME.parse_options({}), 3, 4)
    marked, count = _canary_state(state, 0)
    blob = canonical_bytes(LeakyView(GAME.view(marked, 0), marked.draw[-1:]))
    assert any(needle in blob for needle in _canary_needles(count))


def test_view_has_no_field_for_other_hands_or_the_draw_order():
    fields = set(PathwaysView.__dataclass_fields__)
    assert not fields & {"hands", "draw", "rng"}
    assert {"hand", "hand_sizes", "draw_count"} <= fields
    state = GAME.setup(GAME.parse_options({}), 4, 3)
    for seat in range(4):
        view = GAME.view(state, seat)
        assert view.hand == state.hands[seat]
        visible = set(view.hand) | {c for c in view.cells if c >= 0} | set(view.discard)
        others = {t for s, h in enumerate(state.hands) if s != seat for t in h}
        assert not visible & (others | set(state.draw))


def test_match_never_delivers_another_seats_drawn_tiles():
    for seed in range(20):
        n = 2 + seed % 3
        match = Match(GAME, {"max_rounds": 8}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        private_seen = 0
        while match.result() is None:
            (q,) = match.to_act()
            action = bots[q].choose(match.view(q), match.legal(q))
            deliveries = match.submit(q, action)
            assert set(deliveries) == {*range(n), None}
            for seat, delivery in deliveries.items():
                assert delivery.view.seat == seat
                assert (delivery.view.hand is None) == (seat is None)
                for e in delivery.events:
                    assert isinstance(e, Event)
                    if e.kind == "drew_tiles":
                        assert seat is not None and e.to == (seat,) and e.data["seat"] == seat
                        assert set(e.data["tiles"]) <= set(match.state.hands[seat])
                        private_seen += 1
                    else:
                        assert e.to is None, f"unexpected private event {e}"
            # the record stores actions only, never hands
            blob = msgpack.packb(match.record.moves[-1].to_map())
            assert b"hands" not in blob and b"drew" not in blob
        assert private_seen > 0
        # the log each seat is shown holds only its own private events
        for seat in range(n):
            for e in match.events_for(seat):
                assert e.to is None or e.to == (seat,)
        assert all(e.to is None for e in match.events_for(None))
