"""The games the engine knows, by slug: one line per game package.

A game package exports its ``MANIFEST`` (``engine.manifest.GameManifest``) from its
``__init__.py``; ``GAME_PACKAGES`` lists the packages, and ``register_game`` adds one
from anywhere else (a plug-in, a test's own game).  The menu, the command line, the tests
and the bench iterate ``GAMES`` (or ``MANIFESTS``).

Each game's rules module is imported the first time its ``Game`` is asked for
(``GAMES[slug]``, ``get_game(slug)``), not when this module is imported: a rules module
costs tens of milliseconds, and the menu needs only each game's manifest (name, seat
counts) and ``option_fields`` (its options as plain data, without pydantic or the rules).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import Game
    from .manifest import GameManifest
    from .options import OptionField

#: One line per game: the package whose ``__init__`` exports its ``MANIFEST``.
GAME_PACKAGES = (
    "engine.atlantis",
    "engine.end_of_atlantis",
    "engine.finding_atlantis",
    "engine.pathways",
    "engine.survive",
)


class GameRegistry(Mapping[str, "Game"]):
    """slug -> Game of every registered game, sorted by slug (the menu's order); a game's
    rules module is imported on first access.  ``manifests`` holds what each game tells
    without its rules."""

    def __init__(self, packages: tuple[str, ...]) -> None:
        self.manifests: dict[str, GameManifest] = {}
        self._loaded: dict[str, Game] = {}
        for package in packages:
            self.register(package)

    def register(self, package: str) -> GameManifest:
        """Register the game whose package ``package`` exports a ``MANIFEST``; its rules are
        not imported.  Registering a package again changes nothing."""
        manifest: GameManifest = importlib.import_module(package).MANIFEST
        known = self.manifests.get(manifest.slug)
        if known is not None and known != manifest:
            raise ValueError(f"two games are called {manifest.slug!r}: {known.package} and {manifest.package}")
        by_slug = sorted({**self.manifests, manifest.slug: manifest}.items())
        self.manifests.clear()
        self.manifests.update(by_slug)
        return manifest

    def unregister(self, slug: str) -> None:
        self.manifests.pop(slug)
        self._loaded.pop(slug, None)

    def __getitem__(self, slug: str) -> Game:
        game = self._loaded.get(slug)
        if game is None:
            game = self._loaded[slug] = self.manifests[slug].load_rules()  # KeyError: unknown game
        return game

    def __contains__(self, slug: object) -> bool:
        return slug in self.manifests

    def __iter__(self) -> Iterator[str]:
        return iter(self.manifests)

    def __len__(self) -> int:
        return len(self.manifests)

    def loaded(self) -> list[str]:
        """The slugs whose rules are imported so far."""
        return list(self._loaded)


GAMES = GameRegistry(GAME_PACKAGES)

#: slug -> manifest of every registered game (the registry's own table: read it, and
#: register a game with ``register_game``).
MANIFESTS = GAMES.manifests


def register_game(package: str) -> GameManifest:
    """Register the game of ``package`` (see ``GameRegistry.register``): a plug-in's, or a
    test's own game."""
    return GAMES.register(package)


def unregister_game(slug: str) -> None:
    """Forget a game registered with ``register_game`` (a test's own game, after the test)."""
    GAMES.unregister(slug)


def manifest(slug: str) -> GameManifest:
    """The manifest of a game (KeyError naming the known games for an unknown one)."""
    try:
        return MANIFESTS[slug]
    except KeyError:
        known = ", ".join(MANIFESTS)
        raise KeyError(f"unknown game {slug!r}; known games: {known}") from None


def option_fields(slug: str) -> tuple[OptionField, ...]:
    """A game's options as plain data, without importing pydantic or the rules: what the
    menu draws."""
    return manifest(slug).option_fields()


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        if slug in MANIFESTS:
            raise  # a KeyError from inside the rules module
        manifest(slug)  # raises, naming the known games
        raise
