"""Pathways: self-play speed, bot thinking time, strong bot against random play.

Every game is driven through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``act``; the loop is ``bench.selfplay``).
"""

from __future__ import annotations

from engine.pathways.bot import make_bot
from engine.pathways.rules import PathwaysGame

from .selfplay import percentile, play_games as _play, speed_line, think_line

GAME = PathwaysGame()


def play_games(label: str, levels_for, seeds, **options):
    """One game per seed; ``levels_for(seed)`` gives the bot level of every seat."""
    return _play(GAME, make_bot, label, levels_for, seeds, options, rounds=lambda s: s.round)


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    """Print the Pathways figures; return the headline numbers."""
    n_self = 40 if quick else 200
    n_rand = 20 if quick else 100
    n_multi = 20 if quick else 60
    n_vs = min(seeds, 60) if quick else seeds
    print("Pathways self-play through engine.match.Match")
    normal = play_games("normal vs normal (2p)", lambda s: ["normal", "normal"], range(n_self))
    print(speed_line(normal))
    multi = play_games("normal x4 (4p)", lambda s: ["normal"] * 4, range(n_multi))
    print(speed_line(multi))
    rand = play_games("random vs random (2p)", lambda s: ["random", "random"], range(n_rand))
    print(speed_line(rand))
    vs = play_games("normal vs random (2p)",
                    lambda s: ["normal", "random"] if s % 2 == 0 else ["random", "normal"],
                    range(n_vs))
    print(speed_line(vs))

    think = normal.choose_times["normal"] + multi.choose_times["normal"] + vs.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot, all games above)")
    print(think_line(think))
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
