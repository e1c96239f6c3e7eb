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

#: slug -> manifest of every registered game, sorted by slug (the menu's order).
MANIFESTS: dict[str, GameManifest] = {}


def register_game(package: str) -> GameManifest:
    """Register the game whose package ``package`` exports a ``MANIFEST``; its rules are
    not imported.  Registering a package again changes nothing."""
    manifest: GameManifest = importlib.import_module(package).MANIFEST
    known = MANIFESTS.get(manifest.slug)
    if known is not None and known != manifest:
        raise ValueError(f"two games are called {manifest.slug!r}: {known.package} and {manifest.package}")
    by_slug = sorted({**MANIFESTS, manifest.slug: manifest}.items())
    MANIFESTS.clear()
    MANIFESTS.update(by_slug)
    return manifest


def unregister_game(slug: str) -> None:
    """Forget a game registered with ``register_game`` (a test's own game, after the test)."""
    MANIFESTS.pop(slug)
    GAMES.forget(slug)


class _Games(Mapping[str, "Game"]):
    """slug -> Game; a game's rules module is imported on first access."""

    def __init__(self) -> None:
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, slug: str) -> Game:
        game = self._loaded.get(slug)
        if game is None:
            game = self._loaded[slug] = MANIFESTS[slug].load_rules()  # KeyError: unknown game
        return game

    def __contains__(self, slug: object) -> bool:
        return slug in MANIFESTS

    def __iter__(self) -> Iterator[str]:
        return iter(MANIFESTS)

    def __len__(self) -> int:
        return len(MANIFESTS)

    def loaded(self) -> list[str]:
        """The slugs whose rules are imported so far."""
        return list(self._loaded)

    def forget(self, slug: str) -> None:
        self._loaded.pop(slug, None)


GAMES: _Games = _Games()

for _package in GAME_PACKAGES:
    register_game(_package)


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
