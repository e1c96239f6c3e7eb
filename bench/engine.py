"""The rules' speed and the bots', for every game in the registry.

* Random self-play: random bots at every player count the game takes, played by
  ``tui.selfplay.play_one`` (the loop of ``atlantis selfplay``: view, legal, choose, act
  through ``Match``), in actions per CPU second of this process, after one untimed game
  (imports and first-use tables are not a move's cost).  Goal: >= 20,000 actions/s.
* The normal bot: one normal bot against random ones, the player count cycling over the
  game's and its seat rotating; each of its decisions timed (``choose`` alone).  Goal:
  p99 < 100 ms.  Its share of wins beside a random bot's fair share at the same tables:
  goal >= 70%.
"""

from __future__ import annotations

import time

from engine.core import SeatInfo
from engine.match import Match
from engine.process import tune as tune_collector
from engine.registry import GAMES
from tui.selfplay import play_one

from .report import Row, percentile, print_table

GOAL_ACTIONS_PER_S = 20_000
GOAL_DECISION_P99_MS = 100
GOAL_WIN_SHARE = 0.70


def random_selfplay(slug: str, games: int) -> float:
    """Actions per CPU second of random self-play, games spread over the player counts."""
    game = GAMES[slug]
    counts = range(game.min_players, game.max_players + 1)
    play_one(slug, games, game.min_players, levels=["random"] * game.min_players)  # (untimed)
    actions, started = 0, time.process_time()
    for seed in range(games):
        players = counts[seed % len(counts)]
        actions += len(play_one(slug, seed, players, levels=["random"] * players).history)
    return actions / (time.process_time() - started)


def normal_against_random(slug: str, games: int) -> tuple[list[float], float, float]:
    """The normal bot's decision times (seconds), its share of wins against random bots,
    and a random bot's fair share at the same tables."""
    game = GAMES[slug]
    counts = range(game.min_players, game.max_players + 1)
    decisions: list[float] = []
    wins = fair = 0.0
    for seed in range(games):
        players = counts[seed % len(counts)]
        strong = seed % players
        fair += 1 / players
        levels = ["random"] * players
        levels[strong] = "normal"
        match = Match(game, {}, [SeatInfo(f"P{i}", "bot") for i in range(players)], seed)
        bots = [game.make_bot(i, seed, level) for i, level in enumerate(levels)]
        while match.result() is None:
            seat = min(match.to_act())
            view = match.view(seat)
            legal = game.legal(view)
            started = time.perf_counter()
            action = bots[seat].choose(view, legal)
            if seat == strong:
                decisions.append(time.perf_counter() - started)
            match.act(seat, action)
        winners = match.result().winners  # (none when every seat lost: the game beat them all)
        wins += (strong in winners) / len(winners) if winners else 0.0
    return decisions, wins / games, fair / games


def run(quick: bool = False) -> None:
    tune_collector()  # (as ``atlantis`` does at start)
    selfplay_games, bot_games = (6, 6) if quick else (60, 48)
    rows: list[Row] = []
    for slug in GAMES:
        rate = random_selfplay(slug, selfplay_games)
        decisions, share, fair = normal_against_random(slug, bot_games)
        p99 = percentile(decisions, 0.99) * 1e3
        rows += [
            Row(f"{slug}: random self-play", rate, "actions/s", goal=f">= {GOAL_ACTIONS_PER_S:,}/s",
                met=rate >= GOAL_ACTIONS_PER_S),
            Row(f"{slug}: normal bot decision p50", percentile(decisions, 0.5) * 1e3, "ms"),
            Row(f"{slug}: normal bot decision p99", p99, "ms", goal=f"< {GOAL_DECISION_P99_MS} ms",
                met=p99 < GOAL_DECISION_P99_MS),
            Row(f"{slug}: normal bot's wins vs random", 100 * share, "%", 100 * fair, "(a random bot's)",
                goal=f">= {100 * GOAL_WIN_SHARE:.0f}%", met=share >= GOAL_WIN_SHARE),
        ]
    print_table("Engine: self-play and the normal bot, every game", rows,
                f"random self-play: {selfplay_games} games a game over its player counts, CPU time;"
                f" the normal bot: {bot_games} games against random bots, over the player counts")
if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
