"""Atlantis: self-play speed, bot thinking time, the strong bot against random play.

Every game runs through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``submit``, which digests the state after
every move for the record).  Goals (issue 12): >= 20,000 actions/s, < 50 ms a game,
bot p99 < 100 ms, >= 70% of two-player games won against a random-legal bot.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from engine.atlantis.bot import make_bot
from engine.atlantis.rules import AtlantisGame
from engine.core import SeatInfo
from engine.match import Match

GAME = AtlantisGame()


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

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / self.games if self.games else 0.0


def play_games(label: str, levels_for, seeds) -> SelfPlay:
    out = SelfPlay(label)
    pc = time.perf_counter
    for seed in seeds:
        levels = levels_for(seed)
        start = pc()
        match = Match(GAME, {}, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
        bots = [make_bot(i, seed, lv) for i, lv in enumerate(levels)]
        times = {lv: out.choose_times.setdefault(lv, []) for lv in levels}
        n = 0
        while match.result() is None:
            (seat,) = match.to_act()
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
        result = match.result()
        for w in result.winners:
            out.wins[levels[w]] = out.wins.get(levels[w], 0.0) + 1.0 / len(result.winners)
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(sp: SelfPlay) -> str:
    return (f"  {sp.label:<30} {sp.actions_per_s:>9,.0f} actions/s  {sp.ms_per_game:>6.1f} ms/game"
            f"  ({sp.actions / sp.games:.0f} actions a game)")


def _alternate(opponent: str):
    return lambda s: ["normal", opponent] if s % 2 == 0 else [opponent, "normal"]


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    n_self = 40 if quick else 200
    n_vs = min(seeds, 60) if quick else seeds
    print("Atlantis self-play through engine.match.Match")
    normal = play_games("normal vs normal (2p)", lambda s: ["normal"] * 2, range(n_self))
    multi = play_games("normal x4 (4p)", lambda s: ["normal"] * 4, range(n_self // 2))
    rand = play_games("random vs random (2p)", lambda s: ["random"] * 2, range(n_self))
    for sp in (normal, multi, rand):
        print(_line(sp))
    vs_random = play_games("normal vs random (2p)", _alternate("random"), range(n_vs))
    vs_move = play_games("normal vs random-move (2p)", _alternate("random-move"), range(n_vs))
    think = normal.choose_times["normal"] + multi.choose_times["normal"] + vs_random.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot)")
    print(f"  p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {max(think) * 1e3:.3f} ms"
          f"   mean {statistics.fmean(think) * 1e3:.3f} ms   ({len(think)} decisions)")
    rate = 100.0 * vs_random.wins.get("normal", 0.0) / vs_random.games
    rate_move = 100.0 * vs_move.wins.get("normal", 0.0) / vs_move.games
    print(f"Strong bot against RandomBot (random legal step): {rate:.1f}% of {vs_random.games}"
          f" two-player games won (seats alternate; goal >= 70%)")
    print(f"Strong bot against RandomMoveBot (random whole move, sensible payment): {rate_move:.1f}%"
          f" of {vs_move.games} two-player games won")
    return {"normal_actions_per_s": normal.actions_per_s, "normal_ms_per_game": normal.ms_per_game,
            "random_actions_per_s": rand.actions_per_s, "random_ms_per_game": rand.ms_per_game,
            "bot_p50_ms": p50 * 1e3, "bot_p99_ms": p99 * 1e3, "win_rate_vs_random": rate,
            "win_rate_vs_random_move": rate_move}


if __name__ == "__main__":
    run()
