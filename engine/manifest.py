"""What a game package tells the table about itself: its manifest.

Each game package exports one ``MANIFEST`` from its ``__init__.py`` and the registry
(``engine.registry``) lists the packages, so a game is registered once.  A manifest is
plain data that imports nothing of the game: the menu lists every game, its seats and its
options without loading a single rules module.  What it names by ``"module:attribute"``
is imported the first time it is asked for.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core import Game
    from .options import OptionField

#: The seat names a game takes unless its manifest names its own.
SEAT_COLOURS = ("Red", "Blue", "Green", "Yellow", "Purple", "White")


def load(target: str) -> Any:
    """The object a ``"package.module:Name"`` (or ``"...:Name.attribute"``) names."""
    module, _, name = target.partition(":")
    found: Any = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


@dataclass(frozen=True)
class GameManifest:
    """One game: what the menu, the command line, the tests and the bench need of it."""

    slug: str
    title: str
    min_players: int
    max_players: int
    #: ``"module:Class"`` of its rules object (a ``engine.core.Game``).
    rules: str
    #: The package of its screen entry (``SCREEN`` in its ``__init__``): a name only,
    #: the engine never imports it.
    screen: str
    seat_names: tuple[str, ...] = SEAT_COLOURS
    #: The levels ``make_bot`` takes, the default bot's first.
    bot_levels: tuple[str, ...] = ("normal", "random")
    #: ``"module:function"`` of the leak harness's re-randomiser, a function
    #: ``(state, seat, rng) -> state`` that re-draws everything ``seat`` may not know;
    #: None: the rules object's own ``rerandomise``.
    rerandomise: str | None = None
    #: ``"module:function"`` that samples the hidden state a seat may not see, for bots
    #: that search; None: the game has none yet.
    sample_hidden: str | None = None
    #: ``"module:function"`` of ``evaluate(state) -> per-seat values in [0, 1]``: how an
    #: unfinished (sampled) state stands, where the hard bot's search cuts a rollout
    #: short; None: its rollouts play to the end.
    evaluate: str | None = None
    #: Actions a hard bot's rollout plays before ``evaluate`` scores it, where the
    #: game measured better with its own; None: ``engine.levels.DEFAULT_DEPTH``.
    rollout_depth: int | None = None
    #: How a hard bot's rollouts play ("random", or a level whose bots play every seat:
    #: "easy", "normal"), where the game measured better with its own; None:
    #: ``engine.levels.DEFAULT_ROLLOUT``.
    rollout: str | None = None
    #: A hard bot's iterations a decision (about a CPU second with this game's rollouts);
    #: None: ``engine.search.DEFAULT_ITERATIONS``.
    search_iterations: int | None = None

    @property
    def package(self) -> str:
        """The game's engine package (the one its rules module is in)."""
        return self.rules.partition(":")[0].rpartition(".")[0]

    def load_rules(self) -> Game:
        """A new rules object (the registry keeps one per game: ``engine.registry.GAMES``)."""
        return load(self.rules)()

    def option_fields(self) -> tuple[OptionField, ...]:
        """Its options as plain data: ``FIELDS`` of its ``options`` module, which imports
        neither pydantic nor the rules (what the menu draws)."""
        return tuple(importlib.import_module(f"{self.package}.options").FIELDS)

    def rerandomiser(self, game: Game) -> Any:
        """The leak harness's ``(state, seat, rng) -> state`` for ``game``, its rules object."""
        return load(self.rerandomise) if self.rerandomise else game.rerandomise
