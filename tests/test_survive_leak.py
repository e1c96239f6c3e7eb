"""Secrets stay secret in Survive: explorer values, the backs of the tiles on the island,
the backs of held tiles, and the defensive-tile answer window.

* invariance (the shared ``leakcheck`` harness) over many random and RescueBot games
  with 2-4 players: what a seat sees never depends on what ``rerandomise`` re-draws.
  Some public events reveal a hidden thing *by rule*: a removed tile's back once shown
  (``revealed``), that it was kept (``kept``: so it is not green), and the final values
  (``game_over``); the comparison stops at the first such event of a step, and
  ``test_revealing_events_carry_only_what_the_rule_reveals`` checks what they hold;
* the answer window: every run proves it was opened and compared many times with the
  responder's hand re-drawn, and two leaky variants (a view that tells whether the
  responder holds a repellent, a window that opens only for holders) are caught;
* canaries: recognisable values planted in every secret never reach another seat's view;
* ``Match`` delivers a tile's back to the seat that looked at it, and nobody else.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import msgpack
import pytest

from engine.core import Event, SeatInfo, View, replace, to_data
from engine.match import Match
from engine.record import canonical_bytes
from engine.survive import data
from engine.survive.rules import SurviveGame
from engine.survive.actions import NoDefence
from engine.survive.state import SurviveView

from leakcheck import WrappedGame, assert_no_leak, play_and_check

GAME = SurviveGame()
REVEALING = {"revealed", "kept", "game_over"}
ALLOWED_KEYS = {"revealed": {"seat", "tile", "back"}, "kept": {"seat", "tile"},
                "game_over": {"scores", "winners", "reason", "values"}}


def _truncating_apply(inner, state, seat, action):
    after, events = inner.apply(state, seat, action)
    out = []
    for e in events:
        if e.kind in REVEALING:
            break
        out.append(e)
    return after, out


TRUNCATED = WrappedGame(GAME, apply=_truncating_apply)


def _window_counter():
    seen: Counter = Counter()

    def observe(state, events):
        seen.update(e.kind for e in events)
        seen["respond_states"] += state.phase == "respond"
        seen["over"] += state.phase == "over"
    return seen, observe


# --- invariance --------------------------------------------------------------------------------
def test_random_games_do_not_leak():
    seen, observe = _window_counter()
    report = play_and_check(TRUNCATED, range(8), players=(2, 3, 4), level="random", observe=observe)
    assert_no_leak(report)
    assert report.events_compared > 2000 and report.rerandomised_differs > 0.9 * report.views_compared / 2
    assert seen["over"] == 8 and seen["sank"] > 100 and seen["looked"] > 100
    assert seen["respond_states"] > 5, seen          # windows were opened and checked


def test_games_of_the_strong_bot_do_not_leak():
    seen, observe = _window_counter()
    report = play_and_check(TRUNCATED, range(100, 103), players=(2, 3, 4), level="normal", stride=2,
                            observe=observe)
    assert_no_leak(report)
    assert seen["saved"] > 5


def test_setup_with_values_shown_to_their_owner_does_not_leak():
    report = play_and_check(TRUNCATED, range(30, 40), players=(2, 3, 4), level="random", max_moves=50)
    assert_no_leak(report)


def test_without_the_memory_rule_nothing_leaks_either():
    report = play_and_check(TRUNCATED, range(50, 56), players=(2, 3, 4), options={"memory": False},
                            level="random", stride=3)
    assert_no_leak(report)


def test_revealing_events_carry_only_what_the_rule_reveals():
    for seed in range(10):
        m = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(3)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(3)]
        while m.result() is None:
            seat = min(m.to_act())
            before = m.state
            for e in m.act(seat, bots[seat].choose(m.view(seat), m.legal(seat))):
                if e.kind in ALLOWED_KEYS:
                    assert set(e.data) == ALLOWED_KEYS[e.kind] and e.to is None
                if e.kind == "revealed":
                    assert data.BACK_KIND[e.data["back"]] == "green"
                    assert before.backs[e.data["tile"]] == e.data["back"]
                if e.kind == "kept":
                    assert data.BACK_KIND[before.backs[e.data["tile"]]] != "green"
                if e.kind == "game_over":
                    assert m.state.phase == "over"


# --- the answer window --------------------------------------------------------------------------
def _holds_repellent(state, seat):
    return any(data.BACK_KIND[state.backs[t]] == "defence" for t in state.hands[seat])


@dataclass(frozen=True)
class LeakyView(View):
    inner: SurviveView
    leak: tuple


def test_harness_catches_a_window_that_tells_whether_the_responder_holds_a_repellent():
    def view(inner, state, seat):
        tell = (state.phase == "respond" and _holds_repellent(state, state.responders[0]),)
        return LeakyView(inner.view(state, seat), tell)
    report = play_and_check(WrappedGame(GAME, view=view, apply=_truncating_apply), range(2),
                            players=(4,), level="random")
    assert not report.ok and any("view of seat" in leak for leak in report.leaks), report.summary()


def test_harness_catches_a_window_that_opens_only_for_holders_of_a_repellent():
    def apply(inner, state, seat, action):
        after, events = _truncating_apply(inner, state, seat, action)
        while after.phase == "respond" and not _holds_repellent(after, after.responders[0]):
            after, more = inner.apply(after, after.responders[0], NoDefence())
            events = events + more
        return after, events
    report = play_and_check(WrappedGame(GAME, apply=apply), range(2), players=(4,), level="random")
    assert not report.ok and any("events shown to" in leak for leak in report.leaks), report.summary()


def test_harness_catches_a_leaky_event():
    def apply(inner, state, seat, action):
        after, events = _truncating_apply(inner, state, seat, action)
        return after, [replace(e, to=None) if e.kind == "looked" else e for e in events]
    report = play_and_check(WrappedGame(GAME, apply=apply), range(3), max_moves=120)
    assert any("events shown to" in leak for leak in report.leaks), report.summary()


# --- canaries --------------------------------------------------------------------------------------
CANARY = 0x5EC0_0000


def _canary_state(state, seat):
    """Every secret ``seat`` may not know gets a recognisable value: explorer values it
    does not see, the backs still on the island, the backs the others hold."""
    seen = GAME.visible_values(state, seat)
    values = tuple(v if seen[e] else CANARY + e for e, v in enumerate(state.values))
    mine = set(state.hands[seat]) if seat is not None else set()
    backs = tuple(b if (state.sunk[t] and t not in _held_by_others(state, seat)) or t in mine
                  else f"CANARY-BACK-{t}" for t, b in enumerate(state.backs))
    return replace(state, values=values, backs=backs)


def _held_by_others(state, seat):
    return {t for p, h in enumerate(state.hands) if p != seat for t in h}


def _needles(state):
    out = [msgpack.packb(CANARY + e) for e in range(len(state.values))]
    return out + [f"CANARY-BACK-{t}".encode() for t in range(40)]


def _random_states(seeds, level="random"):
    for seed in seeds:
        n = 2 + seed % 3
        state = GAME.setup(GAME.parse_options({}), n, seed)
        bots = [GAME.make_bot(i, seed, level) for i in range(n)]
        while GAME.result(state) is None:
            q = min(GAME.to_act(state))
            view = GAME.view(state, q)
            yield state
            state, _ = GAME.apply(state, q, bots[q].choose(view, GAME.legal(view)))


def test_canary_no_view_carries_a_hidden_value_or_back():
    checked = 0
    for i, state in enumerate(_random_states(range(10))):
        if i % 4:
            continue
        for seat in [*range(state.players), None]:
            marked = _canary_state(state, seat)
            blob = canonical_bytes(GAME.view(marked, seat))
            for needle in _needles(state):
                assert needle not in blob, f"seat {seat} sees a secret in phase {state.phase}"
            checked += 1
    assert checked > 500


def test_canary_scan_catches_a_leaky_view():
    state = GAME.setup(GAME.parse_options({}), 3, 4)
    marked = _canary_state(state, 1)
    blob = canonical_bytes(LeakyView(GAME.view(marked, 1), (marked.values[0], marked.backs[5])))
    assert any(needle in blob for needle in _needles(state))


def test_view_has_no_field_for_secrets():
    fields = set(SurviveView.__dataclass_fields__)
    assert not fields & {"backs", "hands", "rng"}
    assert {"hand", "held", "values"} <= fields


def test_match_delivers_each_tile_back_to_the_seat_that_looked_and_nobody_else():
    for seed in range(12):
        n = 2 + seed % 3
        match = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "random") for i in range(n)]
        private = 0
        while match.result() is None:
            q = min(match.to_act())
            deliveries = match.submit(q, bots[q].choose(match.view(q), match.legal(q)))
            assert set(deliveries) == {*range(n), None}
            for seat, delivery in deliveries.items():
                assert delivery.view.seat == seat
                for e in delivery.events:
                    assert isinstance(e, Event)
                    if e.kind == "looked":
                        assert seat is not None and e.to == (seat,) == (e.data["seat"],)
                        private += 1
                    else:
                        assert e.to is None, f"unexpected private event {e}"
            blob = msgpack.packb(match.record.moves[-1].to_map())
            assert b"backs" not in blob and b"values" not in blob
        assert private > 10
        for seat in range(n):
            assert all(e.to is None or e.to == (seat,) for e in match.events_for(seat))
