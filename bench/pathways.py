"""Pathways: self-play speed, bot thinking time, strong bot against random play.

Every game is driven through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``submit``, which digests the state after
every move for the record).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from engine.core import SeatInfo
from engine.match import Match
from engine.pathways.bot import make_bot
from engine.pathways.rules import PathwaysGame

GAME = PathwaysGame()


@dataclass
class SelfPlay:
    label: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    rounds: int = 0
    # per-action time split (seconds, summed): view+legal, bot choice, Match.submit
    t_legal: float = 0.0
    t_choose: float = 0.0
    t_submit: float = 0.0
    choose_times: dict[str, list[float]] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / self.games if self.games else 0.0


def play_games(label: str, levels_for, seeds, **options) -> SelfPlay:
    """Play one game per seed; ``levels_for(seed)`` gives the bot level of every seat."""
    out = SelfPlay(label)
    pc = time.perf_counter
    for seed in seeds:
        levels = levels_for(seed)
        start = pc()
        match = Match(GAME, options, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
        bots = [make_bot(i, seed, lv) for i, lv in enumerate(levels)]
        t_legal = t_choose = t_submit = 0.0
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
            t_legal += t1 - t0
            t_choose += t2 - t1
            t_submit += t3 - t2
            times[levels[seat]].append(t2 - t1)
            n += 1
        out.seconds += pc() - start
        out.games += 1
        out.actions += n
        out.rounds += match.state.round
        out.t_legal += t_legal
        out.t_choose += t_choose
        out.t_submit += t_submit
        result = match.result()
        for w in result.winners:
            out.wins[levels[w]] = out.wins.get(levels[w], 0.0) + 1.0 / len(result.winners)
    return out


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _speed_line(sp: SelfPlay) -> str:
    per = 1e6 / sp.actions if sp.actions else 0.0
    return (f"  {sp.label:<28} {sp.actions_per_s:>9,.0f} actions/s  {sp.ms_per_game:>7.1f} ms/game"
            f"  ({sp.actions / sp.games:.0f} actions, {sp.rounds / sp.games:.1f} rounds a game;"
            f" per action: legal {sp.t_legal * per:.0f} us, bot {sp.t_choose * per:.0f} us,"
            f" submit {sp.t_submit * per:.0f} us)")


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    """Print the Pathways figures; return the headline numbers."""
    n_self = 40 if quick else 200
    n_rand = 20 if quick else 100
    n_multi = 20 if quick else 60
    n_vs = min(seeds, 60) if quick else seeds
    print("Pathways self-play through engine.match.Match")
    normal = play_games("normal vs normal (2p)", lambda s: ["normal", "normal"], range(n_self))
    print(_speed_line(normal))
    multi = play_games("normal x4 (4p)", lambda s: ["normal"] * 4, range(n_multi))
    print(_speed_line(multi))
    rand = play_games("random vs random (2p)", lambda s: ["random", "random"], range(n_rand))
    print(_speed_line(rand))

    vs = play_games("normal vs random (2p)",
                    lambda s: ["normal", "random"] if s % 2 == 0 else ["random", "normal"],
                    range(n_vs))
    print(_speed_line(vs))

    think = normal.choose_times["normal"] + multi.choose_times["normal"] + vs.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot, all games above)")
    print(f"  p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {max(think) * 1e3:.3f} ms"
          f"   mean {statistics.fmean(think) * 1e3:.3f} ms   ({len(think)} decisions)")
    rand_think = rand.choose_times["random"]
    print(f"  random bot: p50 {percentile(rand_think, 0.5) * 1e6:.1f} us"
          f"   p99 {percentile(rand_think, 0.99) * 1e6:.1f} us")

    rate = 100.0 * vs.wins.get("normal", 0.0) / vs.games
    print(f"Strong bot against RandomBot: {rate:.1f}% of {vs.games} two-player games won"
          f" (seats alternate; {vs.rounds / vs.games:.1f} rounds a game)")
    return {
        "normal_actions_per_s": normal.actions_per_s, "normal_ms_per_game": normal.ms_per_game,
        "random_actions_per_s": rand.actions_per_s, "random_ms_per_game": rand.ms_per_game,
        "bot_p50_ms": p50 * 1e3, "bot_p99_ms": p99 * 1e3, "win_rate_vs_random": rate,
    }
