"""Finding Atlantis: map generation, self-play speed, U-Bot thinking time, how fast
the U-Bot solves a 6x6 alone, and the U-Bot against a random-legal bot.

Every game is driven through ``engine.match.Match`` as the app drives it (view ->
legal -> choose -> submit, which digests the state after every move)."""

from __future__ import annotations

import statistics
import time

from engine.core import Bot, SeatInfo
from engine.finding_atlantis.bot import make_bot
from engine.finding_atlantis.mapgen import generate
from engine.finding_atlantis.rules import EndTurn, FindingAtlantisGame
from engine.match import Match
from engine.rng import Rng

GAME = FindingAtlantisGame()


class IdleBot(Bot):
    """A seat that only keeps its captain, dives, and ends its turns (for solo timing)."""

    def choose(self, view, legal):
        return EndTurn() if EndTurn() in legal else legal[0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def play(levels, seed: int, options: dict, times: list[float] | None = None):
    match = Match(GAME, options, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
    bots = [IdleBot() if lv == "idle" else make_bot(i, seed, lv) for i, lv in enumerate(levels)]
    pc = time.perf_counter
    n = 0
    while match.result() is None:
        (seat,) = match.to_act()
        view = match.view(seat)
        legal = GAME.legal(view)
        t0 = pc()
        action = bots[seat].choose(view, legal)
        if times is not None and levels[seat] == "normal":
            times.append(pc() - t0)
        match.submit(seat, action)
        n += 1
    return match, n


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    print("Finding Atlantis")
    maps = 2000 if quick else 10000
    t0 = time.perf_counter()
    rng = Rng.from_seed(1, "bench")
    for _ in range(maps):
        _, rng = generate(8, rng)
    gen_us = (time.perf_counter() - t0) / maps * 1e6
    print(f"  map generation: {gen_us:.0f} us per 8x8 map ({maps} maps)")

    out: dict[str, float] = {"map_us_8x8": gen_us}
    for label, levels, opts, games in (
            ("random vs random (2p)", ["random", "random"], {}, 20 if quick else 100),
            ("random x4, pirate (4p)", ["random"] * 4, {"pirate": True}, 10 if quick else 40),
            ("U-Bot vs U-Bot (2p)", ["normal", "normal"], {}, 20 if quick else 100),
            ("U-Bot x3, 8x8 pirate (3p)", ["normal"] * 3, {"size": 8, "pirate": True}, 5 if quick else 30)):
        start = time.perf_counter()
        actions = 0
        for seed in range(games):
            _, n = play(levels, seed, opts)
            actions += n
        secs = time.perf_counter() - start
        print(f"  self-play {label:<26} {actions / secs:>8,.0f} actions/s ({actions / games:.0f} actions a game)")
        out[f"actions_per_s {label}"] = actions / secs

    times: list[float] = []
    turns = []
    unsolved = 0
    solo_games = 40 if quick else 200
    for seed in range(solo_games):
        match, _ = play(["normal", "idle"], seed, {"max_rounds": 200}, times)
        if match.result().winners == (0,):
            turns.append(match.state.round)
        else:
            unsolved += 1
    mean_turns = statistics.fmean(turns) if turns else 0.0
    print(f"  U-Bot solo on 6x6: solved {len(turns)}/{solo_games}, mean {mean_turns:.1f} turns"
          f" (median {statistics.median(turns) if turns else 0:.0f}, max {max(turns) if turns else 0})")
    n_vs = min(seeds, 60) if quick else seeds
    wins = 0.0
    rounds = 0
    for seed in range(n_vs):
        levels = ["normal", "random"] if seed % 2 == 0 else ["random", "normal"]
        match, _ = play(levels, seed, {}, times)
        r = match.result()
        rounds += match.state.round
        wins += sum(1.0 / len(r.winners) for w in r.winners if levels[w] == "normal")
    rate = 100 * wins / n_vs
    print(f"  U-Bot against a random-legal bot: {rate:.1f}% of {n_vs} games won (seats alternate,"
          f" {rounds / n_vs:.1f} rounds a game)")
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    print(f"  U-Bot time per decision: p50 {p50 * 1e3:.2f} ms  p99 {p99 * 1e3:.2f} ms"
          f"  max {max(times) * 1e3:.2f} ms  ({len(times)} decisions)")
    out.update(solo_mean_turns=mean_turns, win_rate_vs_random=rate, ubot_p99_ms=p99 * 1e3)
    return out
