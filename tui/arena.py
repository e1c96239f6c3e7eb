"""``atlantis arena GAME --seats hard,normal``: bots of given levels play each other.

Seats rotate between games (game ``i`` moves every level ``i`` seats on), so no
seat order favours a level.  It reports, per level, the win rate with a 95%
interval (Wilson), the mean score and the decision time (p50/p99), the win rate
by seat position, and what the hard bots' searches cost (iterations per second,
rollout length).  A shared win counts as a share (two winners: half a win each).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections import defaultdict
from typing import Any

from .common import positive_number, whole_number

LEVEL_NAMES = ("easy", "normal", "hard", "random")


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a win rate (Wilson's score interval)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def make_bots(game: Any, levels: list[str], seed: int, iterations: int | None,
              think: float | None, rollout: str | None = None, depth: int | None = None) -> list[Any]:
    from engine.levels import hard_bot
    from engine.search import DEFAULT_THINK

    bots = []
    for seat, level in enumerate(levels):
        if level == "hard" and (iterations is not None or think is not None or rollout is not None
                                or depth is not None):
            bots.append(hard_bot(game, seat, seed, iterations=iterations,
                                 think=DEFAULT_THINK if think is None else think,
                                 rollout=rollout, depth=depth))
        else:
            bots.append(game.make_bot(seat, seed, level))
    return bots


def arena(slug: str, entries: list[str], games: int, seed: int = 1, options: dict | None = None,
          iterations: int | None = None, think: float | None = None, rollout: str | None = None,
          max_actions: int = 20_000, depth: int | None = None) -> dict[str, Any]:
    """Play ``games`` games among the levels ``entries`` (one a seat, rotated)."""
    from engine.core import IllegalAction, SeatInfo
    from engine.match import Match
    from engine.registry import get_game

    game = get_game(slug)
    players = len(entries)
    opts = game.parse_options(options or {})
    wins: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    scores: dict[str, list[float]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    seat_wins = [0.0] * players
    seat_level_wins: dict[str, list[float]] = defaultdict(lambda: [0.0] * players)
    seat_level_games: dict[str, list[int]] = defaultdict(lambda: [0] * players)
    search = {"iterations": 0, "seconds": 0.0, "rollout_steps": 0, "decisions": 0, "capped": 0}
    unfinished = 0
    refused: list[str] = []  # a legal action the rules refused (a rules bug): the game stops there
    for i in range(games):
        levels = [entries[(p - i) % players] for p in range(players)]
        bots = make_bots(game, levels, seed + i, iterations, think, rollout, depth)
        match = Match(game, opts, [SeatInfo(level, "bot") for level in levels], seed + i)
        for _ in range(max_actions):
            if match.result() is not None:
                break
            seat = min(match.to_act())
            view = match.view(seat)
            legal = game.legal(view)
            start = time.perf_counter()
            action = bots[seat].choose(view, legal)
            times[levels[seat]].append(time.perf_counter() - start)
            stats = getattr(bots[seat], "stats", None)
            if stats is not None and stats.iterations:
                search["iterations"] += stats.iterations
                search["seconds"] += stats.seconds
                search["rollout_steps"] += stats.rollout_steps
                search["decisions"] += 1
                search["capped"] += stats.capped
            try:
                match.act(seat, action)
            except IllegalAction as exc:
                refused.append(f"game {i} (seed {seed + i}), {levels[seat]} seat {seat}: {action!r}: {exc.reason}")
                break
        result = match.result()
        if result is None:
            unfinished += 1
        winners = result.winners if result is not None else ()
        for p, level in enumerate(levels):
            share = 1.0 / len(winners) if p in winners else 0.0
            wins[level] += share
            played[level] += 1
            seat_wins[p] += share
            seat_level_wins[level][p] += share
            seat_level_games[level][p] += 1
            if result is not None:
                scores[level].append(result.scores[p])
    out: dict[str, Any] = {"game": slug, "seats": entries, "games": games, "seed": seed,
                           "unfinished": unfinished, "refused": refused, "iterations": iterations, "think": think, "rollout": rollout, "depth": depth,
                           "levels": {}, "seat_win_rate": [round(w / games, 3) for w in seat_wins]}
    for level in dict.fromkeys(entries):
        low, high = wilson(wins[level], played[level])
        out["levels"][level] = {
            "seat_games": played[level], "wins": round(wins[level], 2),
            "win_rate": round(wins[level] / played[level], 3), "interval95": [round(low, 3), round(high, 3)],
            "mean_score": round(sum(scores[level]) / len(scores[level]), 2) if scores[level] else None,
            "decision_ms_p50": round(percentile(times[level], 0.5) * 1000, 3),
            "decision_ms_p99": round(percentile(times[level], 0.99) * 1000, 3),
            "win_rate_by_seat": [round(w / g, 3) if g else None
                                 for w, g in zip(seat_level_wins[level], seat_level_games[level])],
        }
    if search["decisions"]:
        out["search"] = {
            "decisions": search["decisions"],
            "iterations_per_decision": round(search["iterations"] / search["decisions"], 1),
            "iterations_per_s": round(search["iterations"] / search["seconds"], 1) if search["seconds"] else 0.0,
            "rollout_length": round(search["rollout_steps"] / max(1, search["iterations"]), 1),
            "capped_by_time": search["capped"],
        }
    return out


def report_lines(out: dict[str, Any]) -> list[str]:
    lines = [f"{out['game']}: {out['games']} games, seats {','.join(out['seats'])} (rotated)"
             + (f", {out['unfinished']} unfinished" if out["unfinished"] else "")]
    lines += [f"  refused: {line}" for line in out["refused"]]
    for level, row in out["levels"].items():
        low, high = row["interval95"]
        lines.append(f"  {level:<7} wins {row['win_rate']:.0%} (95% {low:.0%}-{high:.0%}) of "
                     f"{row['seat_games']} seat-games, mean score {row['mean_score']}, "
                     f"decision p50 {row['decision_ms_p50']} ms p99 {row['decision_ms_p99']} ms")
    lines.append("  win rate by seat position: " + ", ".join(
        f"seat {p}: {rate:.0%}" for p, rate in enumerate(out["seat_win_rate"])))
    if "search" in out:
        s = out["search"]
        lines.append(f"  search: {s['iterations_per_s']} iterations/s, {s['iterations_per_decision']} a decision, "
                     f"rollouts {s['rollout_length']} actions, {s['capped_by_time']} of {s['decisions']} "
                     f"decisions stopped by the time cap")
    return lines


def add_parsers(sub: Any) -> None:
    ap = sub.add_parser("arena", help="bots of given levels play each other (win rates, decision times)")
    ap.add_argument("game", help="game slug (see `atlantis games`)")
    ap.add_argument("--seats", default="hard,normal",
                    help="one level a seat, e.g. hard,normal,normal,normal (easy, normal, hard, random)")
    ap.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    ap.add_argument("--seed", type=whole_number, default=1, help="game i uses seed + i (default 1)")
    ap.add_argument("--iterations", type=int, default=None, help="the hard bots' iterations a decision")
    ap.add_argument("--think", type=positive_number, default=None,
                    help="the hard bots' wall-clock cap a decision, in seconds (default 1)")
    ap.add_argument("--rollout", choices=["random", "easy", "normal"], default=None,
                    help="how the hard bots' rollouts play (default random; normal: the normal bot at every seat)")
    ap.add_argument("--depth", type=int, default=None,
                    help="the hard bots' rollout length before the game's evaluation scores it (default: the game's; 0: play to the end)")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                    help="a game option (repeatable)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    ap.set_defaults(run=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    import sys

    from engine.registry import GAMES

    from .common import game_options

    def die(message: str) -> int:
        print(f"atlantis: {message}", file=sys.stderr)
        return 2

    if args.game not in GAMES:
        return die(f"unknown game {args.game!r} (see `atlantis games`)")
    game = GAMES[args.game]
    entries = [s.strip() for s in args.seats.split(",") if s.strip()]
    bad = [s for s in entries if s not in LEVEL_NAMES]
    if bad:
        return die(f"--seats: unknown level {bad[0]!r}; known: {', '.join(LEVEL_NAMES)}")
    if not game.min_players <= len(entries) <= game.max_players:
        return die(f"--seats: {game.title} takes {game.min_players}-{game.max_players} players, not {len(entries)}")
    if args.games < 1:
        return die("--games: play at least 1 game")
    if args.iterations is not None and args.iterations < 1:
        return die("--iterations: at least 1")
    if args.depth is not None and args.depth < 0:
        return die("--depth: 0 (play to the end) or more")
    try:
        options = game_options(game.slug, args.option)
    except ValueError as exc:
        return die(str(exc))
    out = arena(game.slug, entries, args.games, args.seed, options, args.iterations, args.think, args.rollout,
                depth=args.depth)
    if args.json:
        print(json.dumps(out))
    else:
        print("\n".join(report_lines(out)))
    return 0
