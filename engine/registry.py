"""The games the engine knows, by slug."""

from __future__ import annotations

from .core import Game


# "module:Class" of every game; add one line per game.
GAME_CLASSES = [
    "engine.pathways.rules:PathwaysGame",
    "engine.end_of_atlantis.rules:EndOfAtlantisGame",
    "engine.finding_atlantis.rules:FindingAtlantisGame",
    "engine.survive.rules:SurviveGame",
    "engine.atlantis.rules:AtlantisGame",
]


def _load() -> dict[str, Game]:
    import importlib

    games: list[Game] = []
    for path in GAME_CLASSES:
        module, _, name = path.partition(":")
        games.append(getattr(importlib.import_module(module), name)())
    return {g.slug: g for g in games}


GAMES: dict[str, Game] = _load()


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"unknown game {slug!r}; known games: {known}") from None
