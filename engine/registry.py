"""The games the engine knows, by slug."""

from __future__ import annotations

from .core import Game


def _load() -> dict[str, Game]:
    from .pathways.rules import PathwaysGame

    games: list[Game] = [PathwaysGame()]
    return {g.slug: g for g in games}


GAMES: dict[str, Game] = _load()


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"unknown game {slug!r}; known games: {known}") from None
