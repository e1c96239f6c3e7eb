"""Survive: self-play speed, bot thinking time, and the strong bot against random play.

Every game is driven through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``submit``, which digests the state after
every move for the record).  The headline win rate is one ``RescueBot`` against three
``RandomBot``s in four-player games, its seat rotating with the seed.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from engine.core import SeatInfo
from engine.match import Match
from engine.survive.bot import make_bot
from engine.survive.rules import SurviveGame

GAME = SurviveGame()


@dataclass
class SelfPlay:
    label: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    t_legal: float = 0.0
    t_choose: float = 0.0
    t_submit: float = 0.0
    choose_times: dict[str, list[float]] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    saved: dict[str, float] = field(default_factory=dict)

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / self.games if self.games else 0.0


def play_games(label: str, levels_for, seeds, **options) -> SelfPlay:
    """One game per seed; ``levels_for(seed)`` gives every seat's bot level."""
    out = SelfPlay(label)
    pc = time.perf_counter
    for seed in seeds:
        levels = levels_for(seed)
        start = pc()
        match = Match(GAME, options, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
        bots = [make_bot(i, seed, lv) for i, lv in enumerate(levels)]
        times = {lv: out.choose_times.setdefault(lv, []) for lv in levels}
        n = 0
        while match.result() is None:
            (seat,) = match.to_act()
            t0 = pc()
            view = match.view(seat)
            legal = GAME.legal(view)
            t1 = pc()
            action = bots[seat].choose(view, legal)
            t2 = pc()
            match.submit(seat, action)
            t3 = pc()
            out.t_legal += t1 - t0
            out.t_choose += t2 - t1
            out.t_submit += t3 - t2
            times[levels[seat]].append(t2 - t1)
            n += 1
        out.seconds += pc() - start
        out.games += 1
        out.actions += n
        result = match.result()
        for w in result.winners:
            out.wins[levels[w]] = out.wins.get(levels[w], 0.0) + 1.0 / len(result.winners)
        for seat, lv in enumerate(levels):
            out.saved[lv] = out.saved.get(lv, 0.0) + result.scores[seat]
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _speed_line(sp: SelfPlay) -> str:
    per = 1e6 / sp.actions if sp.actions else 0.0
    return (f"  {sp.label:<28} {sp.actions_per_s:>9,.0f} actions/s  {sp.ms_per_game:>7.1f} ms/game"
            f"  ({sp.actions / sp.games:.0f} actions a game; per action: legal {sp.t_legal * per:.0f} us,"
            f" bot {sp.t_choose * per:.0f} us, submit {sp.t_submit * per:.0f} us)")


def _one_strong(seed: int) -> list[str]:
    levels = ["random"] * 4
    levels[seed % 4] = "normal"
    return levels


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    """Print the Survive figures; return the headline numbers."""
    n_rand = 20 if quick else 100
    n_norm = 10 if quick else 40
    n_vs = min(seeds, 60) if quick else seeds
    print("Survive self-play through engine.match.Match")
    rand = play_games("random x4 (4p)", lambda s: ["random"] * 4, range(n_rand))
    print(_speed_line(rand))
    rand2 = play_games("random x2 (2p)", lambda s: ["random"] * 2, range(n_rand))
    print(_speed_line(rand2))
    normal = play_games("normal x4 (4p)", lambda s: ["normal"] * 4, range(n_norm))
    print(_speed_line(normal))
    vs = play_games("normal + 3 random (4p)", _one_strong, range(n_vs))
    print(_speed_line(vs))

    think = normal.choose_times["normal"] + vs.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot, all games above)")
    print(f"  p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {max(think) * 1e3:.3f} ms"
          f"   mean {statistics.fmean(think) * 1e3:.3f} ms   ({len(think)} decisions)")
    rate = 100.0 * vs.wins.get("normal", 0.0) / vs.games
    print(f"Strong bot against RandomBot: {rate:.1f}% of {vs.games} four-player games won"
          f" (one RescueBot, three RandomBots, seats rotate; it saves {vs.saved.get('normal', 0) / vs.games:.1f}"
          f" treasure a game, a random bot {vs.saved.get('random', 0) / vs.games / 3:.1f})")
    return {
        "random_actions_per_s": rand.actions_per_s, "random_ms_per_game": rand.ms_per_game,
        "normal_actions_per_s": normal.actions_per_s, "normal_ms_per_game": normal.ms_per_game,
        "bot_p50_ms": p50 * 1e3, "bot_p99_ms": p99 * 1e3, "win_rate_vs_random": rate,
    }


if __name__ == "__main__":
    run(quick=True)
