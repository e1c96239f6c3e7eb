"""One golden-transcript harness for every game (DESIGN.md, "Proving that secrets stay
secret"): for two fixed seeds, every seat's rendered view (and the spectator's) after
every move, with the events each seat was shown, stored in ``tests/golden/``.  A change
to what any seat sees shows up as a diff in review.

A game takes part with one ``Golden`` entry in ``tests/test_golden.py``.  Regenerate
after an intended change with ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest
tests/test_golden.py`` and read the diff.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from engine.core import SeatInfo
from engine.match import Match
from engine.registry import get_game

GOLDEN_DIR = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Golden:
    slug: str
    players: int
    level: str | dict[int, str]      # the bots' level ("random", "normal"), or one per seed
    max_moves: int
    max_bytes: int
    header: Callable[[int, int, list[str], dict], str]  # (seed, max_moves, names, options)
    # (the bots' level, when it varies by seed, is in the header too: see test_golden)
    options: dict[int, dict] = field(default_factory=dict)  # per seed; {} when absent
    end_line: bool = True            # finish with "== end: ..."
    private_prefix: str = "hand="    # a line only a seat (never the spectator) sees

    @property
    def game(self) -> Any:
        return get_game(self.slug)

    def path(self, seed: int) -> Path:
        return GOLDEN_DIR / f"{self.slug}-seed-{seed}.txt"


def transcript(spec: Golden, seed: int, max_moves: int | None = None) -> str:
    game = spec.game
    render = game._part("text").render_view
    max_moves = spec.max_moves if max_moves is None else max_moves
    options = spec.options.get(seed, {})
    names = list(game.seat_names[:spec.players])
    match = Match(game, options, [SeatInfo(n, "bot") for n in names], seed)
    level = spec.level.get(seed, "random") if isinstance(spec.level, dict) else spec.level
    bots = [game.make_bot(i, seed, level) for i in range(spec.players)]
    who = [*range(spec.players), None]
    label = {s: ("spectator" if s is None else names[s]) for s in who}
    out = [spec.header(seed, max_moves, names, options), f"# start digest {match.digest()}",
           "== move 0: setup"]
    for s in who:
        out += [f"-- {label[s]} sees", render(match.view(s), names)]
    for move in range(1, max_moves + 1):
        if match.result() is not None:
            break
        seat = min(match.to_act())
        view = match.view(seat)
        action = bots[seat].choose(view, match.legal(seat))
        deliveries = match.submit(seat, action)
        out.append(f"== move {move}: {names[seat]}: {game.describe_action(action, view)} [{match.digest()}]")
        for s in who:
            for e in deliveries[s].events:
                out.append(f"   {label[s]} log: {game.describe(e, s, names).text}")
        for s in who:
            out += [f"-- {label[s]} sees", render(deliveries[s].view, names)]
    if spec.end_line:
        r = match.result()
        out.append(f"== end: {'over: ' + r.reason + ' ' + str(list(r.winners)) if r else 'not over'}")
    return "\n".join(out) + "\n"


def check(spec: Golden, seed: int) -> None:
    """Compare with the stored transcript (or write it under UPDATE_GOLDEN=1)."""
    path = spec.path(seed)
    got = transcript(spec, seed)
    assert len(got.encode()) < spec.max_bytes, "golden transcript too big: lower max_moves"
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
        if os.environ.get("UPDATE_GOLDEN") != "1":
            pytest.fail(f"{path.name} did not exist and was written; check it in and run again")
        return
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(list(difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), f"golden/{path.name}", "now", n=2))[:80])
        pytest.fail(f"what a seat sees has changed (UPDATE_GOLDEN=1 to accept):\n{diff}")


def private_lines_by_viewer(spec: Golden, seed: int, max_moves: int) -> list[tuple[str, int]]:
    """(viewer, count of private lines) for every rendered view in a short transcript."""
    out = []
    for block in transcript(spec, seed, max_moves).split("-- ")[1:]:
        lines = block.splitlines()
        out.append((lines[0].removesuffix(" sees"), sum(l.startswith(spec.private_prefix) for l in lines)))
    return out
