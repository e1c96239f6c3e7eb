"""Secrets stay secret in Finding Atlantis: the map, every submarine's position,
mines, captains, artifact cards and every private result.

* invariance (the shared ``leakcheck`` harness) over many random and U-Bot games,
  plain and pirate mode with roaming monsters: what a seat sees never depends on
  what ``rerandomise`` re-draws.  Some public events reveal hidden things *by rule*
  (a surfacing position, a declaration's verdict, a monster attack, a mine going
  off, an artifact card drawn, a captain shown when played, a push felt by the
  pushed); the comparison stops at the first such event of a step
  (``REVEALING``), and ``test_revealing_events_carry_only_what_the_rule_reveals``
  checks what those events hold;
* canaries: recognisable values planted in every secret never reach another
  seat's view;
* ``Match`` delivers private results to their owner only.
"""

from __future__ import annotations

import msgpack

from engine.core import SeatInfo
from engine.finding_atlantis import data
from engine.finding_atlantis.rules import FindingAtlantisGame
from engine.core import replace
from engine.match import Match
from engine.record import canonical_bytes

from leakcheck import WrappedGame, assert_no_leak, play_and_check

GAME = FindingAtlantisGame()
REVEALING = {"surfaced", "declared", "teleported", "monster_attack", "mine_hit", "artifact_drawn"}
ALLOWED_KEYS = {
    "surfaced": {"seat", "cell", "n"}, "declared": {"seat", "cells", "correct", "n"},
    "teleported": {"seat"}, "monster_attack": {"seat", "monster", "n"}, "mine_hit": {"seat", "owner"},
    "artifact_drawn": {"seat"},
}


# Actions whose public outcome may depend, by rule, on something hidden: a move can
# run into a sea monster or a mine (which also changes whose turn it is), Explore
# draws an artifact card in public, Surface shows the position, Declare the verdict.
OUTCOME_ACTIONS = {"Silent", "LongSilent", "DropMine", "Burn", "FirstMove", "Explore", "Surface",
                   "Declare", "UseCaptain", "UseArtifact"}
ANNOUNCEMENTS = {"played", "burnt", "mine_dropped", "first_move", "artifact_used", "whirlpool",
                 "sabotaged", "siren", "took_back"}


def _revealing(event, actor) -> bool:
    if event.kind in REVEALING:
        return True
    if event.kind in ("played", "burnt") and "captain" in event.data:
        return True
    return event.kind == "moved" and event.data["seat"] != actor


def _truncating_apply(inner, state, seat, action):
    """The events compared: all of them, except that for an action whose outcome
    may reveal something by rule only its public announcement is compared (and
    never an event that reveals by rule)."""
    s, events = inner.apply(state, seat, action)
    outcome = type(action).__name__ in OUTCOME_ACTIONS
    out = []
    for e in events:
        if _revealing(e, seat):
            break
        if outcome and e.kind not in ANNOUNCEMENTS:
            break
        out.append(e)
    return s, out


TRUNCATED = WrappedGame(GAME, apply=_truncating_apply)


def test_random_games_do_not_leak():
    report = play_and_check(TRUNCATED, range(12), players=(2, 3, 4), level="random", max_moves=120,
                            options={"max_rounds": 8})
    assert_no_leak(report)
    assert report.events_compared > 500 and report.rerandomised_differs > 100


def test_pirate_games_with_roaming_monsters_do_not_leak():
    report = play_and_check(TRUNCATED, range(100, 106), players=(2, 3, 4), level="random", max_moves=150,
                            options={"pirate": True, "monsters": "roaming", "max_rounds": 10})
    assert_no_leak(report)


def test_ubot_games_do_not_leak():
    report = play_and_check(TRUNCATED, range(200, 206), players=(2, 3), level="normal", stride=2,
                            options={"size": 6})
    assert_no_leak(report)


def test_the_harness_catches_a_view_that_shows_the_map():
    from dataclasses import dataclass

    from engine.core import View

    @dataclass(frozen=True)
    class Leaky(View):
        inner: object
        leak: tuple

    def view(inner, state, seat):
        return Leaky(inner.view(state, seat), state.terrain)

    report = play_and_check(WrappedGame(GAME, view=view, apply=_truncating_apply), range(2),
                            level="random", max_moves=10)
    assert not report.ok


def test_the_harness_catches_a_public_sonar_result():
    def apply(inner, state, seat, action):
        s, events = _truncating_apply(inner, state, seat, action)
        return s, [replace_to(e) for e in events]

    def replace_to(e):
        from dataclasses import replace as dc_replace

        return dc_replace(e, to=None) if e.kind == "result" else e

    report = play_and_check(WrappedGame(GAME, apply=apply), range(6), level="random", max_moves=80)
    assert any("events shown to" in leak for leak in report.leaks), report.summary()


def test_revealing_events_carry_only_what_the_rule_reveals():
    seen = set()
    for seed in range(30):
        n = 2 + seed % 3
        match = Match(GAME, {"pirate": seed % 2 == 0, "max_rounds": 25},
                      [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "normal" if seed % 3 else "random") for i in range(n)]
        while match.result() is None:
            (q,) = match.to_act()
            deliveries = match.submit(q, bots[q].choose(match.view(q), match.legal(q)))
            for e in deliveries[None].events:
                if e.kind in ALLOWED_KEYS:
                    seen.add(e.kind)
                    assert set(e.data) <= ALLOWED_KEYS[e.kind], e
                assert e.kind not in ("result", "artifact_card", "your_captain", "moved", "found_self")
    assert {"surfaced", "artifact_drawn", "declared"} <= seen


# --- canaries ----------------------------------------------------------------------------
CANARY = 0x5EC0_0000


def _canary(state, seat):
    """Every secret ``seat`` may not know gets a recognisable value."""
    n = 0
    marks = []

    def mark():
        nonlocal n
        n += 1
        marks.append(CANARY + n)
        return CANARY + n

    terrain = tuple(mark() for _ in state.terrain)
    pos = tuple(p if s == seat and not state.lost[s] else mark() for s, p in enumerate(state.pos))
    mines = tuple(m if s == seat else mark() for s, m in enumerate(state.mines))
    arts = tuple(a if s == seat else tuple((f"CANARY{mark()}", mark()) for _ in a) for s, a in enumerate(state.arts))
    deck = tuple(f"CANARY{mark()}" for _ in state.deck)
    captain = tuple(c if s == seat or state.captain_shown[s] else f"CANARY{mark()}" for s, c in enumerate(state.captain))
    offers = tuple(o if s == seat else tuple(f"CANARY{mark()}" for _ in o) for s, o in enumerate(state.offers))
    charts = tuple(c if s == seat else tuple(mark() for _ in c) for s, c in enumerate(state.charts))
    lost_obs = tuple(o if s == seat else tuple((mark(), mark(), mark()) for _ in o) for s, o in enumerate(state.lost_obs))
    picks = tuple(p if s == seat else tuple(mark() for _ in p) for s, p in enumerate(state.picks))
    marked = replace(state, terrain=terrain, pos=pos, mines=mines, arts=arts, deck=deck, captain=captain,
                     offers=offers, charts=charts, lost_obs=lost_obs, picks=picks)
    return marked, marks


def _needles(marks):
    return [msgpack.packb(m) for m in marks] + [f"CANARY{m}".encode() for m in marks]


def test_canary_no_view_carries_another_seats_secrets():
    checked = 0
    for seed in range(8):
        n = 2 + seed % 3
        state = GAME.setup(GAME.parse_options({"pirate": seed % 2 == 0, "max_rounds": 12}), n, seed)
        bots = [GAME.make_bot(i, seed, "normal") for i in range(n)]
        step = 0
        while GAME.result(state) is None:
            if step % 7 == 0:
                for seat in [*range(n), None]:
                    marked, marks = _canary(state, seat)
                    blob = canonical_bytes(GAME.view(marked, seat))
                    for needle in _needles(marks):
                        assert needle not in blob, f"seed {seed} step {step}: seat {seat} sees a secret"
                    checked += 1
            (q,) = GAME.to_act(state)
            view = GAME.view(state, q)
            state, _ = GAME.apply(state, q, bots[q].choose(view, GAME.legal(view)))
            step += 1
    assert checked > 100


def test_canary_scan_catches_a_leak():
    s = GAME.setup(GAME.parse_options({}), 2, 1)
    marked, marks = _canary(s, 0)
    blob = canonical_bytes((GAME.view(marked, 0), marked.pos[1]))
    assert any(needle in blob for needle in _needles(marks))


def test_match_delivers_private_results_to_their_owner_only():
    for seed in range(10):
        n = 2 + seed % 3
        match = Match(GAME, {"pirate": True, "max_rounds": 15}, [SeatInfo(f"P{i}", "bot") for i in range(n)], seed)
        bots = [GAME.make_bot(i, seed, "normal") for i in range(n)]
        private = 0
        while match.result() is None:
            (q,) = match.to_act()
            deliveries = match.submit(q, bots[q].choose(match.view(q), match.legal(q)))
            for seat, d in deliveries.items():
                for e in d.events:
                    if e.to is not None:
                        assert seat in e.to
                        private += 1
                        if e.kind == "result":
                            assert e.to == (q,)
        assert private > 0
        for seat in range(n):
            assert all(e.to is None or seat in e.to for e in match.events_for(seat))
        blob = msgpack.packb([m.to_map() for m in match.record.moves])
        assert b"terrain" not in blob


def test_rerandomise_redraws_the_map_consistently_with_what_the_seat_learned():
    from engine.finding_atlantis.mapgen import check_map
    from engine.finding_atlantis.secrets import consistent
    from engine.rng import Rng

    total = redrawn = 0
    for seed in range(4):
        state = GAME.setup(GAME.parse_options({}), 2, seed)
        bots = [GAME.make_bot(i, seed, "normal") for i in range(2)]
        step = 0
        while GAME.result(state) is None:
            for p in range(2):
                s2 = GAME.rerandomise(state, p, Rng.from_seed(step, "redraw"))
                assert not check_map(s2.terrain, state.n)
                assert state.lost_obs[p] or consistent(s2.terrain, state, p)
                assert s2.charts == state.charts and s2.hands == state.hands and s2.played == state.played
                total += 1
                redrawn += s2.terrain != state.terrain
            (q,) = GAME.to_act(state)
            view = GAME.view(state, q)
            state, _ = GAME.apply(state, q, bots[q].choose(view, GAME.legal(view)))
            step += 1
    assert redrawn > 0.3 * total
