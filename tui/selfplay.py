"""Bots play whole games through Match (the same path as a real table)."""

from __future__ import annotations

import time
from typing import Any

from engine.core import SeatInfo
from engine.match import Match
from engine.registry import get_game


def play_one(slug: str, seed: int, players: int, options: dict[str, Any] | None = None,
             levels: list[str] | None = None, max_actions: int = 100_000) -> Match:
    game = get_game(slug)
    seats = [SeatInfo(game.seat_names[i], "bot") for i in range(players)]
    match = Match(game, options or {}, seats, seed)
    levels = levels or ["normal"] * players
    bots = [game.make_bot(i, seed, levels[i]) for i in range(players)]
    for _ in range(max_actions):
        if match.result() is not None:
            break
        seat = min(match.to_act())
        view = match.view(seat)
        match.act(seat, bots[seat].choose(view, game.legal(view)))
    return match


def selfplay(slug: str, games: int, seed: int, players: int | None = None,
             options: dict[str, Any] | None = None, level: str = "normal") -> dict[str, Any]:
    game = get_game(slug)
    players = players or game.min_players
    start = time.perf_counter()
    actions = finished = 0
    digests = []
    for i in range(games):
        match = play_one(slug, seed + i, players, options, [level] * players)
        actions += len(match.history)  # (as many as the record's moves: the record is not built)
        finished += match.result() is not None
        digests.append(match.digest())
    seconds = time.perf_counter() - start
    return {
        "game": slug, "games": games, "finished": finished, "actions": actions,
        "seconds": round(seconds, 4), "actions_per_s": round(actions / seconds, 1) if seconds else 0.0,
        "digests": digests,
    }
