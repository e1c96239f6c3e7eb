"""Survive: self-play speed, bot thinking time, and the strong bot against random play.

Every game is driven through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``act``; the loop is ``bench.selfplay``).
The headline win rate is one ``RescueBot`` against three ``RandomBot``s in four-player
games, its seat rotating with the seed.
"""

from __future__ import annotations

from engine.survive.bot import make_bot
from engine.survive.rules import SurviveGame

from .selfplay import percentile, play_games as _play, speed_line, think_line

GAME = SurviveGame()


def play_games(label: str, levels_for, seeds, **options):
    """One game per seed; ``levels_for(seed)`` gives every seat's bot level."""
    return _play(GAME, make_bot, label, levels_for, seeds, options)


def _one_strong(seed: int) -> list[str]:
    levels = ["random"] * 4
    levels[seed % 4] = "normal"
    return levels


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    """Print the Survive figures; return the headline numbers."""
    n_rand = 20 if quick else 100
    n_norm = 10 if quick else 16  # (four thinking bots: ~0.23 s a game; their decisions: ~5,000)
    n_vs = min(seeds, 60) if quick else seeds
    print("Survive self-play through engine.match.Match")
    rand = play_games("random x4 (4p)", lambda s: ["random"] * 4, range(n_rand))
    print(speed_line(rand))
    rand2 = play_games("random x2 (2p)", lambda s: ["random"] * 2, range(n_rand))
    print(speed_line(rand2))
    normal = play_games("normal x4 (4p)", lambda s: ["normal"] * 4, range(n_norm))
    print(speed_line(normal))
    vs = play_games("normal + 3 random (4p)", _one_strong, range(n_vs))
    print(speed_line(vs))

    think = normal.choose_times["normal"] + vs.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot, all games above)")
    print(think_line(think))
    rate = 100.0 * vs.wins.get("normal", 0.0) / vs.games
    print(f"Strong bot against RandomBot: {rate:.1f}% of {vs.games} four-player games won"
          f" (one RescueBot, three RandomBots, seats rotate; it saves {vs.scores.get('normal', 0) / vs.games:.1f}"
          f" treasure a game, a random bot {vs.scores.get('random', 0) / vs.games / 3:.1f})")
    return {
        "random_actions_per_s": rand.actions_per_s, "random_ms_per_game": rand.ms_per_game,
        "normal_actions_per_s": normal.actions_per_s, "normal_ms_per_game": normal.ms_per_game,
        "bot_p50_ms": p50 * 1e3, "bot_p99_ms": p99 * 1e3, "win_rate_vs_random": rate,
    }


if __name__ == "__main__":
    run(quick=True)
