"""End of Atlantis: self-play speed, bot thinking time, the strong bot against
random play (one SenatorBot against three RandomBots, 4 players).

Every game runs through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``submit``, which digests the state after
every move).  Simultaneous phases: the lowest seat still to choose acts first.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from engine.core import SeatInfo
from engine.end_of_atlantis.bot import make_bot
from engine.end_of_atlantis.rules import EndOfAtlantisGame
from engine.match import Match

GAME = EndOfAtlantisGame()


@dataclass
class SelfPlay:
    label: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    choose_times: dict[str, list[float]] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


def play_games(label: str, levels_for, seeds, options=None) -> SelfPlay:
    out = SelfPlay(label)
    pc = time.perf_counter
    for seed in seeds:
        levels = levels_for(seed)
        start = pc()
        match = Match(GAME, options or {}, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
        bots = [make_bot(i, seed, lv) for i, lv in enumerate(levels)]
        times = {lv: out.choose_times.setdefault(lv, []) for lv in levels}
        n = 0
        while match.result() is None:
            seat = min(match.to_act())
            view = match.view(seat)
            legal = GAME.legal(view)
            t1 = pc()
            action = bots[seat].choose(view, legal)
            times[levels[seat]].append(pc() - t1)
            match.submit(seat, action)
            n += 1
        out.seconds += pc() - start
        out.games += 1
        out.actions += n
        for w in match.result().winners:
            out.wins[levels[w]] = out.wins.get(levels[w], 0.0) + 1.0
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    n_self = 20 if quick else 100
    n_vs = min(seeds, 60) if quick else seeds
    print("End of Atlantis self-play through engine.match.Match")
    normal = play_games("normal x4 (4p)", lambda s: ["normal"] * 4, range(n_self))
    rand = play_games("random x4 (4p)", lambda s: ["random"] * 4, range(n_self))
    for sp in (normal, rand):
        print(f"  {sp.label:<22} {sp.actions_per_s:>9,.0f} actions/s"
              f"  ({sp.actions / sp.games:.0f} actions a game, {1000 * sp.seconds / sp.games:.1f} ms/game)")
    vs = play_games("normal vs 3 random (4p)",
                    lambda s: ["random"] * (s % 4) + ["normal"] + ["random"] * (3 - s % 4),
                    range(n_vs))
    think = normal.choose_times["normal"] + vs.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot)")
    print(f"  p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {max(think) * 1e3:.3f} ms"
          f"   mean {statistics.fmean(think) * 1e3:.3f} ms   ({len(think)} decisions)")
    rate = 100.0 * vs.wins.get("normal", 0.0) / vs.games
    print(f"Strong bot against three RandomBots: {rate:.1f}% of {vs.games} four-player games won"
          f" (its seat rotates; goal >= 70%)")
    return {"normal_actions_per_s": normal.actions_per_s, "random_actions_per_s": rand.actions_per_s,
            "bot_p50_ms": p50 * 1e3, "bot_p99_ms": p99 * 1e3, "win_rate_vs_random": rate}
