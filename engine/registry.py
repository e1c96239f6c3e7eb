"""The games the engine knows, by slug.

Each game's rules module is imported the first time its ``Game`` is asked for
(``GAMES[slug]``, ``get_game(slug)``), not when this module is imported: a rules module
costs tens of milliseconds (and pulls in pydantic for its options), and the menu needs
only each game's name and seat counts, which ``GAME_INFO`` holds without importing
anything (``tests/test_registry.py`` checks that it agrees with the rules classes), and
``option_fields`` gives a game's options as plain data (without pydantic or the rules).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .core import Game
    from .options import OptionField

_COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "White")  # Game.seat_names' default


class GameInfo(NamedTuple):
    """What the menu shows of a game before its rules are loaded."""

    slug: str
    title: str
    min_players: int
    max_players: int
    seat_names: tuple[str, ...]
    path: str  # "module:Class" of its rules object


# One line per game (sorted by slug: the menu's order).
GAME_INFO: dict[str, GameInfo] = {i.slug: i for i in (
    GameInfo("atlantis", "Atlantis", 2, 4, _COLOURS, "engine.atlantis.rules:AtlantisGame"),
    GameInfo("end-of-atlantis", "End of Atlantis", 2, 5, _COLOURS[:5],
             "engine.end_of_atlantis.rules:EndOfAtlantisGame"),
    GameInfo("finding-atlantis", "Finding Atlantis", 2, 4, _COLOURS,
             "engine.finding_atlantis.rules:FindingAtlantisGame"),
    GameInfo("pathways", "Atlantis: Pathways of the Deep", 2, 4, _COLOURS, "engine.pathways.rules:PathwaysGame"),
    GameInfo("survive", "Survive: Escape from Atlantis", 2, 4, _COLOURS, "engine.survive.rules:SurviveGame"),
)}

# "module:Class" of every game (kept for callers that list the rules classes).
GAME_CLASSES = [i.path for i in GAME_INFO.values()]


class _Games(Mapping[str, "Game"]):
    """slug -> Game; a game's rules module is imported on first access."""

    def __init__(self) -> None:
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, slug: str) -> Game:
        game = self._loaded.get(slug)
        if game is None:
            import importlib

            module, _, name = GAME_INFO[slug].path.partition(":")  # KeyError: unknown game
            game = self._loaded[slug] = getattr(importlib.import_module(module), name)()
        return game

    def __contains__(self, slug: object) -> bool:
        return slug in GAME_INFO

    def __iter__(self) -> Iterator[str]:
        return iter(GAME_INFO)

    def __len__(self) -> int:
        return len(GAME_INFO)

    def loaded(self) -> list[str]:
        """The slugs whose rules are imported so far."""
        return list(self._loaded)


GAMES: _Games = _Games()


def option_fields(slug: str) -> tuple[OptionField, ...]:
    """A game's options as plain data (``FIELDS`` of its ``options`` module, next to its
    rules module), without importing pydantic or the rules: what the menu draws."""
    import importlib

    package = GAME_INFO[slug].path.partition(":")[0].rpartition(".")[0]  # KeyError: unknown game
    return tuple(importlib.import_module(f"{package}.options").FIELDS)


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        if slug in GAME_INFO:
            raise  # a KeyError from inside the rules module
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"unknown game {slug!r}; known games: {known}") from None
