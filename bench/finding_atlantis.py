"""Finding Atlantis: map generation, self-play speed, U-Bot thinking time, how fast
the U-Bot solves a 6x6 alone, and the U-Bot against a random-legal bot.

Every game is driven through ``engine.match.Match`` as the app drives it (view ->
legal -> choose -> act; the loop is ``bench.selfplay``)."""

from __future__ import annotations

import statistics
import time

from engine.core import Bot
from engine.finding_atlantis.actions import EndTurn
from engine.finding_atlantis.bot import make_bot
from engine.finding_atlantis.mapgen import generate
from engine.finding_atlantis.rules import FindingAtlantisGame
from engine.rng import Rng

from .selfplay import percentile, play_games

GAME = FindingAtlantisGame()


class IdleBot(Bot):
    """A seat that only keeps its captain, dives, and ends its turns (for solo timing)."""

    def choose(self, view, legal):
        return EndTurn() if EndTurn() in legal else legal[0]


def _bot(seat: int, seed: int, level: str) -> Bot:
    return IdleBot() if level == "idle" else make_bot(seat, seed, level)


def play(label: str, levels, seeds, options: dict):
    return play_games(GAME, make_bot, label, lambda s: levels(s) if callable(levels) else levels,
                      seeds, options, bot_for=_bot, rounds=lambda s: s.round)


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
    times: list[float] = []
    for label, levels, opts, games in (
            ("random vs random (2p)", ["random", "random"], {}, 20 if quick else 100),
            ("random x4, pirate (4p)", ["random"] * 4, {"pirate": True}, 10 if quick else 40),
            ("U-Bot vs U-Bot (2p)", ["normal", "normal"], {}, 20 if quick else 100),
            ("U-Bot x3, 8x8 pirate (3p)", ["normal"] * 3, {"size": 8, "pirate": True}, 5 if quick else 30)):
        sp = play(label, levels, range(games), opts)
        print(f"  self-play {label:<26} {sp.actions_per_s:>8,.0f} actions/s ({sp.actions / games:.0f} actions a game)")
        out[f"actions_per_s {label}"] = sp.actions_per_s

    solo_games = 40 if quick else 100
    turns = []
    unsolved = 0
    for seed in range(solo_games):  # one game at a time: the turns of each solved game
        sp = play("solo", ["normal", "idle"], [seed], {"max_rounds": 200})
        times += sp.choose_times["normal"]
        if sp.wins.get("normal", 0.0) == 1.0:
            turns.append(sp.rounds)
        else:
            unsolved += 1
    mean_turns = statistics.fmean(turns) if turns else 0.0
    print(f"  U-Bot solo on 6x6: solved {len(turns)}/{solo_games}, mean {mean_turns:.1f} turns"
          f" (median {statistics.median(turns) if turns else 0:.0f}, max {max(turns) if turns else 0})")
    n_vs = min(seeds, 60) if quick else seeds
    vs = play("vs", lambda s: ["normal", "random"] if s % 2 == 0 else ["random", "normal"], range(n_vs), {})
    times += vs.choose_times["normal"]
    rate = 100 * vs.wins.get("normal", 0.0) / n_vs
    print(f"  U-Bot against a random-legal bot: {rate:.1f}% of {n_vs} games won (seats alternate,"
          f" {vs.rounds / n_vs:.1f} rounds a game)")
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    print(f"  U-Bot time per decision: p50 {p50 * 1e3:.2f} ms  p99 {p99 * 1e3:.2f} ms"
          f"  max {max(times) * 1e3:.2f} ms  ({len(times)} decisions)")
    out.update(solo_mean_turns=mean_turns, win_rate_vs_random=rate, ubot_p99_ms=p99 * 1e3)
    return out
