"""The bot levels' strength, for every game in the registry (``make bench-bots``).

* The hard bot's speed: ISMCTS iterations per CPU second of this process, at
  positions from normal-bot games (CPU time, so other processes on the machine do
  not change it).  Its budget below is what one CPU second buys: a fixed number of
  iterations (so every game's moves are the same on any machine), with a wall-clock
  cap far above it.
* ``hard`` against ``normal`` with two players (seats rotating): goal >= 60% of the
  wins; with four players (one hard, three normal) where the game takes four:
  goal >= 40% (a fair share is 25%); ``easy`` against ``normal``: easy wins less
  than half.  Each win rate with its 95% interval (Wilson); the verdict reads the
  rate itself, the interval says how far to trust it.
The bench never fails on time: a full run takes long (the hard bot thinks a CPU
second a decision), ``--quick`` is a smoke run (a few games, a tenth of the budget).
"""

from __future__ import annotations

import time

from engine.core import SeatInfo
from engine.levels import hard_bot
from engine.match import Match
from engine.process import tune as tune_collector
from engine.registry import GAMES
from tui.arena import arena

from .report import Row, print_table

GOAL_HARD_2P = 0.60
GOAL_HARD_4P = 0.40
GOAL_EASY = 0.50
PROBE_POSITIONS = 6
PROBE_ITERATIONS = 100
THINK_CAP = 60.0   # seconds: only a safety net, the budget is iterations


def iterations_per_cpu_second(slug: str, seed: int = 5) -> float:
    """The hard bot's iterations per CPU second at a few positions of a normal-bot game."""
    game = GAMES[slug]
    players = game.min_players
    match = Match(game, game.parse_options({}), [SeatInfo("normal", "bot")] * players, seed)
    bots = [game.make_bot(s, seed, "normal") for s in range(players)]
    positions = []
    while match.result() is None:
        seat = min(match.to_act())
        view = match.view(seat)
        legal = game.legal(view)
        if len(legal) > 1:
            positions.append((seat, view, legal))
        match.act(seat, bots[seat].choose(view, legal))
    step = max(1, len(positions) // PROBE_POSITIONS)
    done = spent = 0.0
    for seat, view, legal in positions[::step][:PROBE_POSITIONS]:
        bot = hard_bot(game, seat, seed, iterations=PROBE_ITERATIONS, think=None)
        started = time.process_time()
        bot.choose(view, legal)
        spent += time.process_time() - started
        done += bot.stats.iterations
    return done / spent if spent else 0.0


def win_row(name: str, out: dict, level: str, goal: str, met) -> Row:
    row = out["levels"][level]
    low, high = row["interval95"]
    return Row(name, 100 * row["win_rate"], "%", reference_name=f"[{100 * low:.0f}-{100 * high:.0f}%] of "
               f"{row['seat_games']}", goal=goal, met=met(row["win_rate"]))


def run(quick: bool = False) -> None:
    tune_collector()
    games_2p, games_4p, games_easy, share = (4, 2, 20, 0.1) if quick else (60, 24, 200, 1.0)
    rows: list[Row] = []
    for slug, game in GAMES.items():
        rate = iterations_per_cpu_second(slug)
        budget = max(10, int(rate * share))
        rows.append(Row(f"{slug}: hard iterations per CPU second", rate, "/s",
                        reference_name=f"budget {budget} a decision"))
        out = arena(slug, ["hard", "normal"], games_2p, iterations=budget, think=THINK_CAP)
        rows.append(win_row(f"{slug}: hard vs normal, 2 players", out, "hard", f">= {100 * GOAL_HARD_2P:.0f}%",
                            lambda r: r >= GOAL_HARD_2P))
        if game.max_players >= 4:
            out = arena(slug, ["hard", "normal", "normal", "normal"], games_4p, iterations=budget, think=THINK_CAP)
            rows.append(win_row(f"{slug}: hard vs 3 normal, 4 players", out, "hard",
                                f">= {100 * GOAL_HARD_4P:.0f}%", lambda r: r >= GOAL_HARD_4P))
        out = arena(slug, ["easy", "normal"], games_easy)
        rows.append(win_row(f"{slug}: easy vs normal, 2 players", out, "easy", f"< {100 * GOAL_EASY:.0f}%",
                            lambda r: r < GOAL_EASY))
    print_table("Bots: the hard level's speed and every level's strength", rows,
                f"{games_2p} two-player games hard vs normal, {games_4p} four-player, {games_easy} easy vs normal"
                f" a game, seats rotating; hard's budget: {share:g} CPU second of iterations a decision")


if __name__ == "__main__":
    import sys

    run(quick="--quick" in sys.argv)
