"""Information-set Monte Carlo tree search: the "hard" bot of every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012).  The searching bot
sees only its view.  Each iteration asks the game's ``sample_hidden(view, rng)``
for one full state consistent with that view (a *determinization*: every card,
tile, map and future draw the bot cannot see, drawn from the bot's own stream),
then walks one tree of action sequences through the real rules (``view``,
``legal``, ``apply``, ``to_act``, ``result``):

* **select**: among the children legal in this determinization, the one with the
  best UCB value for the seat to act there, where a child's *availability* (how
  often it was legal when its parent was visited) stands in for the parent's visit
  count (actions that are rarely legal are not starved);
* **expand** one untried legal action: the one the rollout policy would play there
  if it is untried (at the root, the ``prior``: the normal bot's move), else a
  random one; with a prior the root widens progressively (``WIDEN``) and the prior
  has a bonus that fades with its visits (``PRIOR_WEIGHT``);
* **roll out** with a policy (uniformly random by default, or the game's own
  bots at every seat: ``BotPolicy``), to the end, or for ``rollout_cap`` actions
  where the game's ``evaluate(state)`` then scores the position (the hard level:
  a few actions, so an iteration costs about a millisecond, not a whole game);
* **back up** one value per seat (each seat maximises its own: max^n), so 3-5
  players need nothing special: a seat's share of the win, 1 for a sole winner, or
  the evaluation's value in [0, 1] where the rollout stopped short.

The move is the most visited at the root, ties going to the ``prior``: with a
small budget the search changes the normal bot's move only where it found a
better one more often.  The budget is a number of iterations, so a fixed seed and
view give the same move in any process; a wall-clock cap (``think`` seconds) stops
a slow search early and is the only thing that can make two runs differ.  Where
several seats act at once (secret bids) the searching seat moves first at the root
and the lowest of them below it: each one's choice is made from its own view, so
nothing is learned from the order.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from .core import Bot, Game, IllegalAction, View, replace
from .rng import Draws, Rng

#: ``sample_hidden(view, rng) -> (state, rng)``: one full state whose view for
#: ``view.seat`` is ``view``, drawn from ``rng`` (the bot's stream), and the stream after.
Sampler = Callable[[View, Rng], "tuple[Any, Rng]"]
#: ``policy(game, state, seat, draws) -> action``: a rollout's move for ``seat``
#: (None: it has none, which ends the rollout).  A policy with a ``reset(draws)``
#: method has it called before every iteration.
Policy = Callable[[Game, Any, int, Draws], Any]
#: ``evaluate(state) -> values``: one value per seat in [0, 1] for an unfinished full
#: state (a finished game's share of the win is the scale).
Evaluate = Callable[[Any], "tuple[float, ...]"]

DEFAULT_ITERATIONS = 1000  # about a CPU second with rollouts cut short by an evaluation
DEFAULT_THINK = 1.0        # seconds: the wall-clock cap of one decision
DEFAULT_EXPLORATION = 0.7  # UCB constant for values in [0, 1]
DEFAULT_ROLLOUT_CAP = 600  # actions: a rollout stopped here scores every seat alike
#: With a prior, the root widens slowly: a new action is tried once every ``WIDEN``
#: visits (the prior first), and the prior's UCB value has a bonus of
#: ``PRIOR_WEIGHT / (visits + 1)``; so a small budget deepens the normal bot's move
#: and a few alternatives instead of giving every legal action one rollout.
WIDEN = 2
PRIOR_WEIGHT = 1.0


def random_policy(game: Game, state: Any, seat: int, draws: Draws) -> Any:
    """A uniformly random legal action of ``seat`` (from its view, as a player would)."""
    legal = game.legal(game.view(state, seat))
    return legal[draws.below(len(legal))] if legal else None


def fresh_rng(rng: Rng) -> tuple[Rng, Rng]:
    """A new game stream for a determinization (the real one's future draws are hidden
    too), and the bot's stream after making it."""
    high, rng = rng.next64()
    low, rng = rng.next64()
    return Rng(high.to_bytes(8, "little") + low.to_bytes(8, "little")), rng


def values_of(game: Game, state: Any, players: int, evaluate: Evaluate | None = None) -> tuple[float, ...]:
    """Each seat's share of the win (winners share 1); where the game has not ended (a
    rollout cut short), the evaluation's values, or an even share without one."""
    result = game.result(state)
    if result is None and evaluate is not None:
        return evaluate(state)
    if result is None or not result.winners:
        return (1.0 / players,) * players
    share = 1.0 / len(result.winners)
    return tuple(share if seat in result.winners else 0.0 for seat in range(players))


class Node:
    """One node of the tree: the action that led here, who took it, and the totals."""

    __slots__ = ("action", "actor", "children", "visits", "available", "totals")

    def __init__(self, action: Any, actor: int, players: int):
        self.action = action
        self.actor = actor                 # the seat that chose ``action`` (-1 at the root)
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 1
        self.totals = [0.0] * players


@dataclass
class SearchStats:
    """What the last decision cost (for the arena's figures)."""

    iterations: int = 0
    seconds: float = 0.0
    rollout_steps: int = 0
    capped: bool = False
    visits: dict = field(default_factory=dict)


def search(game: Game, view: View, legal: list[Any], sample_hidden: Sampler, rng: Rng, *,
           iterations: int = DEFAULT_ITERATIONS, think: float | None = DEFAULT_THINK,
           exploration: float = DEFAULT_EXPLORATION, policy: Policy = random_policy,
           rollout_cap: int = DEFAULT_ROLLOUT_CAP, prior: Any = None,
           evaluate: Evaluate | None = None, resample: int = 1,
           stats: SearchStats | None = None) -> tuple[Any, Rng]:
    """The most visited of ``legal`` after ``iterations`` ISMCTS iterations (fewer if
    ``think`` seconds pass first; ties to ``prior``), and the bot's stream after.
    A determinization serves ``resample`` iterations in a row (each with its own
    future draws): where sampling costs more than an iteration, more iterations."""
    seat = view.seat
    players = view.players
    root = Node(None, -1, players)
    start = time.perf_counter()
    deadline = None if think is None else start + think
    done = steps = 0
    draws = Draws(rng)
    reset = getattr(policy, "reset", None)
    sampled = None
    for done in range(1, iterations + 1):
        if (done - 1) % resample == 0:
            sampled, draws.rng = sample_hidden(view, draws.rng)
        game_rng, rng = fresh_rng(draws.rng)
        draws.rng = rng
        state = replace(sampled, rng=game_rng)
        if reset is not None:
            reset(draws)
        path = [root]
        try:
            state, steps = _simulate(game, state, seat, legal, root, path, players, draws, policy,
                                     prior, exploration, rollout_cap, steps)
            values = values_of(game, state, players, evaluate)
        except IllegalAction:  # a legal action the rules refuse (a rules bug): no one's win
            values = (1.0 / players,) * players
        for n in path:
            n.visits += 1
            totals = n.totals
            for p in range(players):
                totals[p] += values[p]
        if deadline is not None and time.perf_counter() > deadline:
            break
    rng = draws.rng
    children = root.children
    best = max(legal, key=lambda a: (children[a].visits if a in children else -1, a == prior))
    if stats is not None:
        stats.iterations = done
        stats.seconds = time.perf_counter() - start
        stats.rollout_steps = steps
        stats.capped = done < iterations
        stats.visits = {a: c.visits for a, c in root.children.items()}
    return best, rng


def _simulate(game: Game, state: Any, seat: int, legal: list[Any], root: Node, path: list[Node],
              players: int, draws: Draws, policy: Policy, prior: Any, exploration: float,
              rollout_cap: int, steps: int) -> tuple[Any, int]:
    """One iteration's walk from the root (select, expand, roll out); the nodes it
    passes are appended to ``path``.  Returns the final state and the rollout steps
    counted so far."""
    log, sqrt = math.log, math.sqrt
    node = root
    # select and expand
    while True:
        if node is root:
            actor, here = seat, legal
        else:
            if game.result(state) is not None:
                break
            actor = min(game.to_act(state))
            here = game.legal(game.view(state, actor))
        if not here:
            break
        children = node.children
        untried = [a for a in here if a not in children]
        if untried and node is root and prior is not None and children:
            if root.visits < WIDEN * len(children):
                untried = []  # (not yet: deepen what is tried)
        if untried:
            action = prior if node is root and prior is not None else policy(game, state, actor, draws)
            if action in children or action not in untried:
                action = untried[draws.below(len(untried))]
            state, _ = game.apply(state, actor, action)
            for a in here:
                child = children.get(a)
                if child is not None:
                    child.available += 1
            child = children[action] = Node(action, actor, players)
            path.append(child)
            break
        best, best_score = None, -1.0
        for a in here:
            child = children.get(a)
            if child is None:  # (an action the widening root has not tried yet)
                continue
            child.available += 1
            score = (child.totals[actor] / child.visits
                     + exploration * sqrt(log(child.available) / child.visits))
            if node is root and a == prior:
                score += PRIOR_WEIGHT / (child.visits + 1)
            if score > best_score:
                best, best_score = child, score
        state, _ = game.apply(state, actor, best.action)
        node = best
        path.append(node)
    # roll out
    length = 0
    while length < rollout_cap and game.result(state) is None:
        actor = min(game.to_act(state))
        action = policy(game, state, actor, draws)
        if action is None:  # (a seat to act without a legal action: a sample the rules did not foresee)
            break
        state, _ = game.apply(state, actor, action)
        length += 1
    return state, steps + length


class SearchBot(Bot):
    """The "hard" level: ISMCTS from the bot's view, on its own stream
    ``"{stream}-hard-{seat}"`` of the seed."""

    slow = True

    def __init__(self, game: Game, seat: int, seed: int, sample_hidden: Sampler, *,
                 iterations: int = DEFAULT_ITERATIONS, think: float | None = DEFAULT_THINK,
                 policy: Policy = random_policy, rollout_cap: int = DEFAULT_ROLLOUT_CAP,
                 guide: Bot | None = None, evaluate: Evaluate | None = None, resample: int = 1):
        self.game = game
        self.seat = seat
        self.sample_hidden = sample_hidden
        self.iterations = iterations
        self.think = think
        self.policy = policy
        self.rollout_cap = rollout_cap
        self.guide = guide  # its move is the search's prior (the first tried, ties go to it)
        self.evaluate = evaluate  # scores a rollout stopped at ``rollout_cap`` actions
        self.resample = resample  # iterations a determinization serves
        self.rng = Rng.from_seed(seed, f"{game.slug}-hard-{seat}")
        self.stats = SearchStats()

    def choose(self, view: View, legal: list[Any]) -> Any:
        self.stats = SearchStats()
        if len(legal) == 1:
            return legal[0]
        prior = None if self.guide is None else self.guide.choose(view, legal)
        action, self.rng = search(self.game, view, legal, self.sample_hidden, self.rng,
                                  iterations=self.iterations, think=self.think,
                                  policy=self.policy, rollout_cap=self.rollout_cap,
                                  prior=prior, evaluate=self.evaluate, resample=self.resample, stats=self.stats)
        return action


class BotPolicy:
    """A rollout policy that plays every seat with one of the game's own bots (for
    example its "normal" one): slower a step than random moves, but a rollout
    then ends the way a game between sensible players would, in fewer steps.
    Every iteration gets new bots (a bot may remember earlier turns: not another
    iteration's), seeded from the searching bot's stream."""

    def __init__(self, level: str = "normal"):
        self.bots: dict[int, Bot] = {}
        self.seed = 0
        self.level = level

    def reset(self, draws: Draws) -> None:
        self.bots = {}
        self.seed = draws.below(1 << 62)

    def __call__(self, game: Game, state: Any, seat: int, draws: Draws) -> Any:
        bot = self.bots.get(seat)
        if bot is None:
            bot = self.bots[seat] = game.make_bot(seat, self.seed, self.level)
        view = game.view(state, seat)
        legal = game.legal(view)
        return bot.choose(view, legal) if legal else None
