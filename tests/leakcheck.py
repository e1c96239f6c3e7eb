"""A game-agnostic harness proving that secrets stay secret (DESIGN.md,
"Proving that secrets stay secret": the invariance test).

It uses only the Game contract (setup, view, legal, apply, to_act, result,
make_bot, rerandomise), ``engine.core.to_data`` and
``engine.record.canonical_bytes``:

For every state along many bot games, and for every seat ``p``:

* ``s2 = rerandomise(state, p, rng)`` re-draws everything ``p`` may not know (the
  game's manifest names the function: ``GameManifest.rerandomiser``, by default the
  rules object's ``rerandomise``);
  ``view(state, p)`` and ``view(s2, p)`` must encode to the same bytes;
* the spectator view (``seat=None``) must be the same in ``state`` and ``s2``
  (whatever ``p`` does not know, a spectator does not know either);
* when another seat ``q`` acts, the same action is applied to ``s2`` too
  (skipped when it is illegal there: it named something hidden from ``p``), and
  the events addressed to ``p`` (and to spectators) must encode identically.

A harness that cannot fail proves nothing, so it also counts how often the
re-randomised state actually differed from the real one; a ``rerandomise``
that changes nothing is reported as a problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from engine.core import Event, Game, IllegalAction, to_data
from engine.record import canonical_bytes
from engine.rng import Rng


@dataclass
class LeakReport:
    game: str
    games: int = 0
    steps: int = 0
    views_compared: int = 0
    events_compared: int = 0
    rerandomised_differs: int = 0
    actions_skipped: int = 0
    leaks: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.leaks

    def summary(self) -> str:
        head = (f"{self.game}: {self.games} games, {self.steps} steps, {self.views_compared} views and "
                f"{self.events_compared} event lists compared, {self.rerandomised_differs} "
                f"re-randomised states differed, {self.actions_skipped} actions skipped")
        if self.ok:
            return head + ": no leak"
        shown = "\n  ".join(self.leaks[:10])
        more = f"\n  ... and {len(self.leaks) - 10} more" if len(self.leaks) > 10 else ""
        return f"{head}: {len(self.leaks)} LEAKS\n  {shown}{more}"


def encode_events(events: Iterable[Event], seat: int | None) -> bytes:
    """Canonical bytes of the events ``seat`` is shown, in order."""
    return canonical_bytes([to_data(e) for e in events if e.visible_to(seat)])


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two plain-data trees differ, for a readable report."""
    if type(a) is not type(b):
        return f"{path or '<root>'}: {a!r:.60} != {b!r:.60}"
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path or '<root>'}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return f"{path or '<root>'}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
    return f"{path or '<root>'}: {a!r:.60} != {b!r:.60}"


def check_state(game: Game, state: Any, seats: int, rng: Rng, report: LeakReport, where: str,
                action: tuple[int, Any] | None = None, rerandomise: Callable | None = None) -> None:
    """Invariance checks at one state; ``action`` = (seat, action) about to be applied."""
    rerandomise = rerandomise or game.rerandomise
    spectator = to_data(game.view(state, None))
    after_events: list[Event] | None = None
    if action is not None:
        _, after_events = game.apply(state, action[0], action[1])
    for p in range(seats):
        s2 = rerandomise(state, p, rng.fork(f"seat-{p}"))
        if canonical_bytes(s2) != canonical_bytes(state):
            report.rerandomised_differs += 1
        v1 = to_data(game.view(state, p))
        v2 = to_data(game.view(s2, p))
        report.views_compared += 1
        if canonical_bytes(v1) != canonical_bytes(v2):
            report.leaks.append(f"{where}: view of seat {p} depends on what it may not know "
                                f"({_first_difference(v1, v2)})")
        sv2 = to_data(game.view(s2, None))
        report.views_compared += 1
        if canonical_bytes(spectator) != canonical_bytes(sv2):
            report.leaks.append(f"{where}: spectator view depends on seat {p}'s hidden information "
                                f"({_first_difference(spectator, sv2)})")
        if action is None or action[0] == p or after_events is None:
            continue
        q, act = action
        try:
            _, events2 = game.apply(s2, q, act)
        except IllegalAction:
            report.actions_skipped += 1
            continue
        for who in (p, None):
            e1 = encode_events(after_events, who)
            e2 = encode_events(events2, who)
            report.events_compared += 1
            if e1 != e2:
                label = "spectators" if who is None else f"seat {p}"
                a = [to_data(e) for e in after_events if e.visible_to(who)]
                b = [to_data(e) for e in events2 if e.visible_to(who)]
                report.leaks.append(f"{where}: events shown to {label} after seat {q}'s "
                                    f"{act!r:.60} depend on hidden information ({_first_difference(a, b)})")


def play_and_check(game: Game, seeds: Iterable[int], players: Sequence[int] = (2, 3, 4),
                   options: Any = None, level: str = "random", max_moves: int | None = None,
                   stride: int = 1,
                   observe: Callable[[Any, list[Event]], None] | None = None,
                   rerandomise: Callable | None = None, compare_events: bool = True) -> LeakReport:
    """Play one bot game per seed (players cycling through ``players``) and run
    the invariance checks at every ``stride``-th step and at the end.
    ``observe(state, events)`` is called after every move (to prove coverage);
    ``rerandomise``: the game's re-randomiser (None: ``game.rerandomise``); ``compare_events=False``
    compares the views only (for a game whose events may reveal a hidden thing by rule,
    which its own leak test compares with its own filter)."""
    report = LeakReport(game.slug)
    opts = game.parse_options(options)
    for seed in seeds:
        n = players[seed % len(players)]
        state = game.setup(opts, n, seed)
        bots = [game.make_bot(i, seed, level) for i in range(n)]
        rng = Rng.from_seed(seed, "leakcheck")
        report.games += 1
        step = 0
        while game.result(state) is None and (max_moves is None or step < max_moves):
            actors = sorted(game.to_act(state))
            q = actors[step % len(actors)]
            view = game.view(state, q)
            action = bots[q].choose(view, game.legal(view))
            if step % stride == 0:
                check_state(game, state, n, rng.fork(f"step-{step}"), report,
                            f"seed {seed} ({n} players) step {step}", (q, action) if compare_events else None,
                            rerandomise)
            state, events = game.apply(state, q, action)
            if observe is not None:
                observe(state, events)
            step += 1
            report.steps += 1
        check_state(game, state, n, rng.fork("end"), report, f"seed {seed} ({n} players) end",
                    rerandomise=rerandomise)
    if report.steps and not report.rerandomised_differs:
        report.leaks.append("rerandomise never changed a state: the invariance test proved nothing")
    return report


def assert_no_leak(report: LeakReport) -> None:
    assert report.ok, report.summary()


class WrappedGame(Game):
    """Delegates everything to another game; tests override one method to
    inject a deliberate leak and check that the harness catches it."""

    def __init__(self, inner: Game, view: Callable | None = None, apply: Callable | None = None,
                 rerandomise: Callable | None = None):
        self.inner = inner
        self.slug = inner.slug + "-wrapped"
        self.title = inner.title
        self.rules_version = inner.rules_version
        self.options_model = inner.options_model
        self.codec = inner.codec
        self._view, self._apply, self._rerandomise = view, apply, rerandomise

    def setup(self, options, seats, seed):
        return self.inner.setup(options, seats, seed)

    def view(self, state, seat):
        return self._view(self.inner, state, seat) if self._view else self.inner.view(state, seat)

    def legal(self, view):
        return self.inner.legal(getattr(view, "inner", view))

    def apply(self, state, seat, action):
        if self._apply:
            return self._apply(self.inner, state, seat, action)
        return self.inner.apply(state, seat, action)

    def to_act(self, state):
        return self.inner.to_act(state)

    def result(self, state):
        return self.inner.result(state)

    def make_bot(self, seat, seed, level="normal"):
        inner_bot = self.inner.make_bot(seat, seed, level)

        class _Unwrap:
            def choose(self, view, legal):
                return inner_bot.choose(getattr(view, "inner", view), legal)

        return _Unwrap()

    def rerandomise(self, state, seat, rng):
        if self._rerandomise:
            return self._rerandomise(self.inner, state, seat, rng)
        return self.inner.rerandomise(state, seat, rng)
