"""The bot levels every game offers: ``easy``, ``normal`` (the game's heuristic bot)
and ``hard`` (ISMCTS, ``engine.search``).

A game's ``bot.make_bot(seat, seed, level)`` makes its own normal bot and hands the
other two levels to ``level_bot`` here, so every game's easy and hard bots are
built the same way.
"""

from __future__ import annotations

from typing import Any, Callable

from .core import Bot, Game, View
from .manifest import load
from .rng import Draws, Rng
from .search import (
    DEFAULT_ITERATIONS, DEFAULT_ROLLOUT_CAP, DEFAULT_THINK, BotPolicy, Evaluate, Policy, Sampler, SearchBot,
    random_policy,
)

LEVELS = ("easy", "normal", "hard")
#: How often the easy bot plays a random legal action instead of the normal bot's.
EASY_MISTAKES = 0.25
#: How the hard bot's rollouts play: "random" (uniform legal actions) or a level
#: whose bots play every seat ("easy", "normal").
ROLLOUTS = ("random", "easy", "normal")
DEFAULT_ROLLOUT = "random"
#: Where the game has an evaluation, a rollout stops after this many actions and the
#: evaluation scores it: an iteration costs about a millisecond instead of a whole
#: game played by normal bots (10-100 times more iterations a second).
DEFAULT_DEPTH = 8


class EasyBot(Bot):
    """The normal bot, except that a quarter of its decisions are a random legal
    action (drawn from the bot's own stream ``"{slug}-easy-{seat}"``): it plays
    sensibly most of the time and makes mistakes a beginner can punish."""

    def __init__(self, normal: Bot, slug: str, seat: int, seed: int, mistakes: float = EASY_MISTAKES):
        self.normal = normal
        self.mistakes = mistakes
        self.draws = Draws(Rng.from_seed(seed, f"{slug}-easy-{seat}"))

    def choose(self, view: View, legal: list[Any]) -> Any:
        if len(legal) > 1 and self.draws.below(1000) < self.mistakes * 1000:
            return legal[self.draws.below(len(legal))]
        action = self.normal.choose(view, legal)
        # (a normal bot may not expect the position its own random moves made)
        return action if action in legal else legal[self.draws.below(len(legal))]


def sampler_of(game: Game) -> Sampler:
    """The game's ``sample_hidden(view, rng)``, as its manifest names it."""
    if game.manifest is None or game.manifest.sample_hidden is None:
        raise ValueError(f"{game.slug} has no hidden-state sampler: its bots cannot search")
    return load(game.manifest.sample_hidden)


def evaluation_of(game: Game) -> Evaluate | None:
    """The game's ``evaluate(state)``, as its manifest names it (None: it has none)."""
    if game.manifest is None or game.manifest.evaluate is None:
        return None
    return load(game.manifest.evaluate)


def rollout_policy(rollout: str) -> Policy:
    if rollout == "random":
        return random_policy
    if rollout in ("easy", "normal"):
        return BotPolicy(rollout)
    raise ValueError(f"unknown rollout {rollout!r}; known: {', '.join(ROLLOUTS)}")


def hard_bot(game: Game, seat: int, seed: int, *, iterations: int | None = None,
             think: float | None = DEFAULT_THINK, rollout: str | None = None,
             depth: int | None = None) -> SearchBot:
    """The hard level: ISMCTS from the bot's view with the game's own sampler, its
    normal bot's move as the search's prior; rollouts of ``depth`` actions played by
    ``rollout`` and scored by the game's evaluation (0, or a game without one: played
    to the end). None takes the game's manifest's ``rollout_depth``, ``rollout`` and
    ``search_iterations``, else ``DEFAULT_DEPTH``, ``DEFAULT_ROLLOUT`` and
    ``DEFAULT_ITERATIONS``."""
    manifest = game.manifest
    if depth is None:
        depth = (manifest.rollout_depth if manifest is not None else None) or DEFAULT_DEPTH
    if rollout is None:
        rollout = (manifest.rollout if manifest is not None else None) or DEFAULT_ROLLOUT
    if iterations is None:
        iterations = (manifest.search_iterations if manifest is not None else None) or DEFAULT_ITERATIONS
    evaluate = evaluation_of(game) if depth > 0 else None
    return SearchBot(game, seat, seed, sampler_of(game), iterations=iterations, think=think,
                     policy=rollout_policy(rollout), guide=game.make_bot(seat, seed, "normal"),
                     rollout_cap=depth if evaluate is not None else DEFAULT_ROLLOUT_CAP, evaluate=evaluate)


def level_bot(slug: str, seat: int, seed: int, level: str, normal: Callable[[], Bot]) -> Bot:
    """An easy or hard bot of the game ``slug`` (``normal`` makes its normal bot)."""
    if level == "easy":
        return EasyBot(normal(), slug, seat, seed)
    if level == "hard":
        from .registry import GAMES

        return hard_bot(GAMES[slug], seat, seed)
    raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
