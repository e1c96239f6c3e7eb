"""Atlantis: self-play speed, bot thinking time, the strong bot against random play.

Every game is driven through ``engine.match.Match`` exactly as the app drives it
(``view`` -> ``legal`` -> ``choose`` -> ``act``; the loop is ``bench.selfplay``).
"""

from __future__ import annotations

from engine.atlantis.bot import make_bot
from engine.atlantis.rules import AtlantisGame

from .selfplay import percentile, play_games as _play, speed_line, think_line

GAME = AtlantisGame()


def play_games(label: str, levels_for, seeds):
    return _play(GAME, make_bot, label, levels_for, seeds)


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
        print(speed_line(sp, 30))
    vs_random = play_games("normal vs random (2p)", _alternate("random"), range(n_vs))
    vs_move = play_games("normal vs random-move (2p)", _alternate("random-move"), range(n_vs))
    think = normal.choose_times["normal"] + multi.choose_times["normal"] + vs_random.choose_times["normal"]
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    print("Bot time per decision (normal bot)")
    print(think_line(think))
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
