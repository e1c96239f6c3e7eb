"""End of Atlantis: self-play speed, bot thinking time, the strong bot against
random play (one SenatorBot against three RandomBots, 4 players).

Every game runs through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``act``; the loop is ``bench.selfplay``).
Simultaneous phases: the lowest seat still to choose acts first.
"""

from __future__ import annotations

from engine.end_of_atlantis.bot import make_bot
from engine.end_of_atlantis.rules import EndOfAtlantisGame

from .selfplay import percentile, play_games as _play, speed_line, think_line

GAME = EndOfAtlantisGame()


def play_games(label: str, levels_for, seeds, options=None):
    return _play(GAME, make_bot, label, levels_for, seeds, options)


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    n_self = 20 if quick else 100
    n_vs = min(seeds, 60) if quick else seeds
    print("End of Atlantis self-play through engine.match.Match")
    normal = play_games("normal x4 (4p)", lambda s: ["normal"] * 4, range(n_self))
    rand = play_games("random x4 (4p)", lambda s: ["random"] * 4, range(n_self))
    for sp in (normal, rand):
        print(speed_line(sp, 22))
    vs = play_games("normal vs 3 random (4p)",
                    lambda s: ["random"] * (s % 4) + ["normal"] + ["random"] * (3 - s % 4),
                    range(n_vs))
    think = normal.choose_times["normal"] + vs.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot)")
    print(think_line(think))
    rate = 100.0 * vs.wins.get("normal", 0.0) / vs.games
    print(f"Strong bot against three RandomBots: {rate:.1f}% of {vs.games} four-player games won"
          f" (its seat rotates; goal >= 70%)")
    return {"normal_actions_per_s": normal.actions_per_s, "random_actions_per_s": rand.actions_per_s,
            "bot_p50_ms": p50 * 1e3, "bot_p99_ms": p99 * 1e3, "win_rate_vs_random": rate}
