"""The self-play loop every game's bench shares, and the engine figures of issue 15.

``play_games`` drives ``engine.match.Match`` exactly as ``atlantis selfplay`` and the
hot-seat table drive it (tui/selfplay.py, tui/seat.py: ``view`` -> ``legal`` -> ``choose``
-> ``act``; the network host's ``submit``, which also hands every seat its delivery, is
timed apart: the submit/apply column).  In simultaneous phases (End of Atlantis bids
and orders) the lowest seat still to choose acts first.  With ``reference=True`` every
game's moves are then replayed with ``game.apply`` alone, untimed loop around a timed
call, so each line can say how much a self-play step costs against the rules themselves
(measured on the same games, in the same run).  ``engine_table`` replays them in new
processes instead (``reference="fresh"``, ``fresh_reference``): in the process that has
just played them, the rules' caches remember every position, and apply would be timed
cheaper than self-play paid for it.

``engine_table`` prints, for every game, random self-play actions/s beside its goal
(>= 20,000) and the self-play step over ``apply()`` alone beside its goal (<= 1.5x);
for a game that misses, where the rest of its step goes (``ablate``) beside the floor
every game pays (``loop_floor``: the same loop driving a game that does nothing).
"""

from __future__ import annotations

import gc
import importlib
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from engine.core import SeatInfo
from engine.process import tune as tune_gc
from engine.match import Match
from engine.options import options_class

# slug -> the package of its rules and bots
PACKAGES = {
    "pathways": "pathways", "finding-atlantis": "finding_atlantis",
    "end-of-atlantis": "end_of_atlantis", "survive": "survive", "atlantis": "atlantis",
}
GOAL_ACTIONS_PER_S = 20_000
GOAL_STEP_OVER_APPLY = 1.5


@dataclass
class SelfPlay:
    label: str
    games: int = 0
    actions: int = 0
    seconds: float = 0.0  # the whole loop, setup included
    rounds: int = 0
    # per-action time split (seconds, summed): view + legal, bot choice, Match.act
    t_legal: float = 0.0
    t_choose: float = 0.0
    t_submit: float = 0.0
    t_apply: float = 0.0  # the same moves through game.apply alone (reference=True)
    t_match: float = 0.0  # the same moves through a fresh Match.submit alone (reference=True)
    t_apply_fresh: float = 0.0  # game.apply alone in a new process (fresh_reference)
    choose_times: dict[str, list[float]] = field(default_factory=dict)
    # reference="both": every game's (options, seats, seed, moves), and the warm-up's
    played: list[tuple[Any, list, int, list]] = field(default_factory=list)
    warm: list[tuple[Any, list, int, list]] = field(default_factory=list)
    wins: dict[str, float] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def ms_per_game(self) -> float:
        return 1000 * self.seconds / self.games if self.games else 0.0

    @property
    def step_us(self) -> float:
        return 1e6 * self.seconds / self.actions if self.actions else 0.0

    @property
    def apply_us(self) -> float:
        return 1e6 * self.t_apply / self.actions if self.actions else 0.0

    @property
    def ratio(self) -> float:
        return self.seconds / self.t_apply if self.t_apply else 0.0


def game_and_bots(slug: str) -> tuple[Any, Callable[..., Any]]:
    from engine.registry import get_game

    bots = importlib.import_module(f"engine.{PACKAGES[slug]}.bot")
    return get_game(slug), bots.make_bot


def play_games(game: Any, make_bot: Callable[..., Any], label: str,
               levels_for: Callable[[int], list[str]], seeds: Iterable[int],
               options: dict | None = None, *, reference: bool | str = False,
               bot_for: Callable[[int, int, str], Any] | None = None,
               rounds: Callable[[Any], int] | None = None,
               clock: Callable[[], float] = time.perf_counter, split: bool = True) -> SelfPlay:
    """One game per seed; ``levels_for(seed)`` gives every seat's bot level.
    ``bot_for(seat, seed, level)`` may build bots the game's ``make_bot`` does not know.
    ``clock`` times each whole game (wall time by default; ``time.process_time`` counts
    this process's CPU only); the split between view+legal, bot and act is always
    wall time (``perf_counter``: a CPU clock costs ~0.5 us a read, too much per phase).
    ``split=False`` plays the loop of ``tui/selfplay.py`` with no clock read inside it
    (four reads and the bookkeeping of the split are ~1-2 us a move: part of the bench,
    not of self-play); the split and the bots' thinking times are then not measured."""
    out = SelfPlay(label)
    pc = time.perf_counter
    options = options or {}
    build = bot_for or make_bot
    legal_of = game.legal
    for seed in seeds:
        levels = levels_for(seed)
        start = clock()
        match = Match(game, options, [SeatInfo(f"P{i}", "bot") for i in range(len(levels))], seed)
        bots = [build(i, seed, lv) for i, lv in enumerate(levels)]
        times = {lv: out.choose_times.setdefault(lv, []) for lv in levels}
        t_legal = t_choose = t_submit = 0.0
        moves: list[tuple[int, Any]] = []
        if not split:
            result_of, to_act, view_of, act = match.result, match.to_act, match.view, match.act
            while result_of() is None:
                seat = min(to_act())
                view = view_of(seat)
                act(seat, bots[seat].choose(view, legal_of(view)))
        while split and match.result() is None:
            seat = min(match.to_act())
            t0 = pc()
            view = match.view(seat)
            legal = legal_of(view)
            t1 = pc()
            action = bots[seat].choose(view, legal)
            t2 = pc()
            match.act(seat, action)
            t3 = pc()
            t_legal += t1 - t0
            t_choose += t2 - t1
            t_submit += t3 - t2
            times[levels[seat]].append(t2 - t1)
            moves.append((seat, action))
        out.seconds += clock() - start
        if not split:
            moves = [(step.seat, step.action) for step in match.history]
        out.games += 1
        out.actions += len(moves)
        out.t_legal += t_legal
        out.t_choose += t_choose
        out.t_submit += t_submit
        if rounds is not None:
            out.rounds += rounds(match.state)
        result = match.result()
        for w in result.winners:
            out.wins[levels[w]] = out.wins.get(levels[w], 0.0) + 1.0 / len(result.winners)
        for seat, lv in enumerate(levels):
            out.scores[lv] = out.scores.get(lv, 0.0) + result.scores[seat]
        if reference == "both":  # (and kept for fresh_reference)
            out.played.append((match.options.model_dump(mode="json"), match.seats, match.seed, moves))
        if reference:
            out.t_apply += apply_alone(game, match, moves, clock)
            out.t_match += submit_alone(game, match, moves, clock)
    return out


def fresh_reference(slug: str, kind: str, sp: SelfPlay) -> float:
    """CPU seconds that ``apply()`` alone (``kind`` "apply") or a fresh ``Match.submit``
    ("submit") takes over the moves of ``sp``'s games, in a new process that has not
    played them.  The two references bracket what self-play pays for ``apply``:
    replayed in the process that has just played them (``apply_alone``), the rules'
    caches of pure answers remember every position (End of Atlantis's ``apply`` then
    reads 16-24% fewer instructions than it did in self-play: the cheapest apply); in a
    new process they start cold, as self-play's did, but ``apply`` also works out alone
    what ``legal`` had found for it in self-play (Atlantis checks a move against the
    legal list it then builds itself: the dearest apply).  Like the self-play, it first
    replays one untimed game (the self-play's warm-up): imports and first-use tables
    are not a move's cost."""
    import pickle
    import subprocess
    import sys

    payload = pickle.dumps((slug, kind, sp.warm, sp.played))
    done = subprocess.run([sys.executable, "-m", "bench.selfplay", "--reference"], input=payload,
                          capture_output=True, check=True)
    return float(done.stdout.decode().split()[-1])


def _reference_child() -> None:
    """``python -m bench.selfplay --reference``: the other end of ``fresh_reference``."""
    import pickle
    import sys

    slug, kind, warm, games = pickle.loads(sys.stdin.buffer.read())
    tune_gc()
    game, _ = game_and_bots(slug)
    timer = apply_alone if kind == "apply" else submit_alone
    total = 0.0
    for i, (options, seats, seed, moves) in enumerate(warm + games):
        match = Match(game, options, seats, seed)
        spent = timer(game, match, moves, time.process_time)
        total += spent if i >= len(warm) else 0.0
    print(f"{total!r}")


def submit_alone(game: Any, match: Match, moves: list[tuple[int, Any]],
                 clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds that a fresh ``Match.submit`` takes over the same moves (no views, no bots)."""
    again = Match(game, match.options, match.seats, match.seed)
    submit = again.submit
    t0 = clock()
    for seat, action in moves:
        submit(seat, action)
    return clock() - t0


def apply_alone(game: Any, match: Match, moves: list[tuple[int, Any]],
                clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds that ``game.apply`` alone takes over the same moves from the same start
    (one clock read before and one after: the loop around it costs ~0.05 us a move)."""
    apply = game.apply
    state = game.setup(match.options, len(match.seats), match.seed)
    t0 = clock()
    for seat, action in moves:
        state, _ = apply(state, seat, action)
    return clock() - t0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def speed_line(sp: SelfPlay, width: int = 28) -> str:
    per = 1e6 / sp.actions if sp.actions else 0.0
    extra = f", {sp.rounds / sp.games:.1f} rounds a game" if sp.rounds else ""
    return (f"  {sp.label:<{width}} {sp.actions_per_s:>9,.0f} actions/s  {sp.ms_per_game:>7.1f} ms/game"
            f"  ({sp.actions / sp.games:.0f} actions a game{extra}; per action: legal {sp.t_legal * per:.0f} us,"
            f" bot {sp.t_choose * per:.0f} us, submit {sp.t_submit * per:.0f} us)")


def think_line(think: list[float]) -> str:
    p50, p99 = percentile(think, 0.50), percentile(think, 0.99)
    return (f"  p50 {p50 * 1e3:.3f} ms   p99 {p99 * 1e3:.3f} ms   max {max(think) * 1e3:.3f} ms"
            f"   mean {statistics.fmean(think) * 1e3:.3f} ms   ({len(think)} decisions)")


# --- what a step costs beyond apply, whatever the game (the goal's floor) -----------------
class _NullView(tuple):
    """The null game's view: a tuple (its state), as small as a view can be."""

    __slots__ = ()


_NULL_MOVES = 400  # (about a Pathways game's length)
_NULL_LEGAL = ("a", "b", "c")
_NULL_TO_ACT = tuple(frozenset((i,)) for i in range(4))


class _NullGame:
    """A game that does nothing, driven by the same loop: its view is its state, its
    legal list a copy of three shared actions, its apply one new tuple and no events,
    so what a self-play step of it costs beyond its apply is the loop itself
    (``Match``'s checks and bookkeeping, the calls, and the random bot's one draw from
    its keyed stream), a cost every game pays before its own view and legal list."""

    slug, title, rules_version = "null", "Null", "0"
    min_players = max_players = 4
    options_model = options_class("NullOptions", __name__, ())

    def parse_options(self, raw: Any) -> Any:
        return self.options_model()

    def setup(self, options: Any, seats: int, seed: int) -> tuple:
        return _NullView((0, 0))

    def view(self, state: tuple, seat: int | None) -> tuple:
        return state

    def legal(self, view: tuple) -> list:
        return list(_NULL_LEGAL)

    def apply(self, state: tuple, seat: int, action: Any) -> tuple:
        turn, moves = state
        return _NullView(((turn + 1) % 4, moves + 1)), []

    def to_act(self, state: tuple) -> frozenset:
        return _NULL_TO_ACT[state[0]]

    def result(self, state: tuple) -> Any:
        if state[1] < _NULL_MOVES:
            return None
        from engine.core import Result

        return Result(scores=[0, 0, 0, 0], winners=[0], reason="done")


def loop_floor(games: int = 40) -> SelfPlay:
    """Random self-play of ``_NullGame`` through ``play_games`` (the engine table's own
    loop and clock), with the kit's random bot (every game's draws as it does)."""
    from engine.core import RandomBot

    game = _NullGame()
    make_bot = lambda seat, seed, level: RandomBot(seat, seed)  # noqa: E731
    levels = lambda s: ["random"] * 4  # noqa: E731
    play_games(game, make_bot, "null", levels, [games], reference=True)  # (warm-up)
    best = None
    for _ in range(3):  # best of three: a few ms each
        sp = play_games(game, make_bot, "null", levels, range(games), reference="both",
                        clock=time.process_time, split=False)
        if best is None or sp.seconds - sp.t_apply < best.seconds - best.t_apply:
            best = sp
    return best


def ablate(game: Any, played: list[tuple[Any, list, int, list]], games: int = 12) -> dict[str, float]:
    """Microseconds an action that each part of a step adds, on the moves self-play
    made (its first ``games`` games), replayed through a fresh ``Match`` (best of three,
    CPU time): ``act`` beyond ``apply`` (Match's checks and bookkeeping), then the
    seat's ``view``, then ``legal``; ``first`` is what self-play paid beyond all of them
    and the bot: the first time at each position, when the rules' caches of pure
    answers (and the CPU's) do not yet hold it (these replays find it remembered)."""
    played = played[:games]
    n = sum(len(moves) for _, _, _, moves in played) or 1
    pt = time.process_time

    def replay(mode: int) -> float:
        spent = 0.0
        for options, seats, seed, moves in played:
            match = Match(game, options, seats, seed)
            view_of, legal_of, act, apply = match.view, game.legal, match.act, game.apply
            state = match.state
            t0 = pt()
            if mode == 0:
                for seat, action in moves:
                    state, _ = apply(state, seat, action)
            elif mode == 1:
                for seat, action in moves:
                    act(seat, action)
            elif mode == 2:
                for seat, action in moves:
                    view_of(seat)
                    act(seat, action)
            else:
                for seat, action in moves:
                    legal_of(view_of(seat))
                    act(seat, action)
            spent += pt() - t0
        return spent

    best = [min(replay(mode) for _ in range(3)) * 1e6 / n for mode in range(4)]
    return {"apply": best[0], "act": best[1] - best[0], "view": best[2] - best[1], "legal": best[3] - best[2]}


# --- the engine table (issue 15, item 3) --------------------------------------------------
def random_selfplay(slug: str, games: int, reference: bool | str = True,
                    clock: Callable[[], float] = time.perf_counter, first: int = 0,
                    split: bool = True) -> SelfPlay:
    """Random bots at every player count the game takes, seeds first..first+games-1
    (after one untimed game of another seed: imports and first-use caches are not the
    engine's speed; a second run takes new seeds, so the rules' caches of pure answers
    do not remember its positions from the first)."""
    game, make_bot = game_and_bots(slug)
    counts = list(range(game.min_players, game.max_players + 1))
    levels = lambda s: ["random"] * counts[s % len(counts)]  # noqa: E731
    warm = play_games(game, make_bot, slug, levels, [first + games], reference=reference)
    out = play_games(game, make_bot, slug, levels, range(first, first + games), reference=reference,
                     clock=clock, split=split)
    out.warm = warm.played  # (reference="both": see fresh_reference)
    return out


def engine_table(quick: bool = False) -> dict[str, SelfPlay]:
    games = 15 if quick else 60
    tune_gc()  # as ``atlantis`` does at start (engine/process.py)
    print("Engine: random self-play through Match as `atlantis selfplay` plays (view, legal, RandomBot, act) against"
          f" game.apply() alone on the same moves, replayed in this process after each game (its caches warm: the"
          f" goal's column) and in a new process (caches cold; see bench.selfplay.fresh_reference)"
          f" ({games} games a game, all player counts,"
          f" {'one run' if quick else 'best of two runs, new seeds each'}; CPU time of this process:"
          f" the machine may be shared; gc thresholds {gc.get_threshold()}, as the app sets them)")
    print(f"  {'game':<17} {'actions/s':>9} {'goal':>7}   {'step us':>7} {'apply us':>8}"
          f"  {'step/apply':>10} {'goal':>5}   {'new process: apply us, step/apply':>33}"
          f"   {'submit/apply':>12}   a step: view+legal / bot / act")
    out: dict[str, SelfPlay] = {}
    for run in range(1 if quick else 2):  # best of two, games interleaved: the load varies
        for slug in PACKAGES:
            sp = random_selfplay(slug, games, clock=time.process_time, first=run * (games + 1),
                                 split=False, reference="both")
            if slug not in out or sp.actions_per_s > out[slug].actions_per_s:
                out[slug] = sp
    for slug, sp in out.items():  # apply alone on the best run's moves, in a new process too
        sp.t_apply_fresh = fresh_reference(slug, "apply", sp)
    # the split of a step, from other games played with a clock read around each phase
    # (the timed runs above read no clock inside the loop)
    splits = {slug: random_selfplay(slug, 5 if quick else 10, reference=False, first=3 * games)
              for slug in PACKAGES}
    for slug, sp in out.items():
        part = splits[slug]
        split = (part.t_legal + part.t_choose + part.t_submit) / 100 or 1.0
        ok_rate = "ok" if sp.actions_per_s >= GOAL_ACTIONS_PER_S else "MISS"
        ok_ratio = "ok" if sp.ratio <= GOAL_STEP_OVER_APPLY else "MISS"
        fresh_us = 1e6 * sp.t_apply_fresh / sp.actions
        print(f"  {slug:<17} {sp.actions_per_s:>9,.0f} {GOAL_ACTIONS_PER_S:>7,} {ok_rate:<4}"
              f"{sp.step_us:>6.1f} {sp.apply_us:>8.1f}  {sp.ratio:>9.2f}x {GOAL_STEP_OVER_APPLY:>4}x {ok_ratio:<4}"
              f" {fresh_us:>21.1f} {sp.seconds / sp.t_apply_fresh:>10.2f}x"
              f" {sp.t_match / sp.t_apply:>13.2f}x   {part.t_legal / split:.0f}% / {part.t_choose / split:.0f}%"
              f" / {part.t_submit / split:.0f}%")
    floor = loop_floor(10 if quick else 40)
    floor_us = floor.step_us - floor.apply_us
    print(f"  the floor: a game that does nothing (its view its state, its legal list three actions, its apply one"
          f" tuple), driven by the same loop and random bot: {floor.step_us:.2f} us a step, {floor_us:.2f} us beyond"
          f" its apply (the loop's calls, Match's checks and bookkeeping, the bot's draw from its keyed stream):"
          f" what every game's step costs beyond apply before its own view and legal list")
    for slug, sp in out.items():  # the misses: where the rest of a step goes, beside its room
        if sp.ratio <= GOAL_STEP_OVER_APPLY:
            continue
        game, _ = game_and_bots(slug)
        parts = ablate(game, sp.played, 4 if quick else 12)
        beyond = sp.step_us - sp.apply_us
        room = (GOAL_STEP_OVER_APPLY - 1) * sp.apply_us
        rest = beyond - floor_us - parts["view"] - parts["legal"]
        without = floor_us + parts["view"]
        verdict = (f"the floor and the view alone take {without:.2f} us, more than the {room:.2f} us of room: no"
                   f" legal() can reach the goal" if without > room else
                   f"the floor and the view leave {room - without:.1f} us for legal() and first visits,"
                   f" {parts['legal'] + max(0.0, rest):.1f} us today")
        print(f"  {slug}: for {GOAL_STEP_OVER_APPLY}x, a step may cost {room:.1f} us beyond apply ({sp.apply_us:.1f} us);"
              f" today {beyond:.1f} us = the floor {floor_us:.1f} + its view {parts['view']:.1f} + legal()"
              f" {parts['legal']:.1f} + first visits {rest:.1f} (self-play meets each position once: the rules'"
              f" caches and the CPU's do not hold it yet; replays of the same moves, which the view and legal"
              f" figures come from, find it remembered); {verdict}")
    print("  (the two applies bracket what self-play pays for apply: this process's replay finds every"
          " position's answers remembered, the cheapest apply, so the goal is judged on it; a new process's"
          " apply also works out alone what legal() had found for it in self-play, the dearest)")
    print("  (step: the whole self-play loop a move, setup included; submit/apply: Match.submit,"
          " the host's path -- checks, apply, record, undo step, every seat's delivery -- over"
          " apply alone; the split is of wall time, from other games with a clock read around each"
          " phase: the timed loop reads none)")
    return out


def run(quick: bool = False, seeds: int = 200) -> dict[str, float]:
    table = engine_table(quick)
    return {f"{slug} actions_per_s": sp.actions_per_s for slug, sp in table.items()} | {
        f"{slug} step_over_apply": sp.ratio for slug, sp in table.items()} | {
        f"{slug} submit_over_apply": sp.t_match / sp.t_apply for slug, sp in table.items()}


if __name__ == "__main__":
    import sys

    if "--reference" in sys.argv:
        _reference_child()
    else:
        run(quick="--quick" in sys.argv)
