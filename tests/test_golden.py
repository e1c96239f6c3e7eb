"""Golden transcripts (DESIGN.md: per-seat transcripts in tests/golden/).

For two fixed seeds, every seat's rendered view (and the spectator's) after every
move, with the events each seat was shown, is stored in ``tests/golden/``.  A
change to what any seat sees shows up as a diff in review.

Regenerate after an intended change with ``UPDATE_GOLDEN=1 make test`` (or
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py``) and read the diff.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from engine.core import SeatInfo
from engine.match import Match
from engine.pathways import text
from engine.pathways.rules import PathwaysGame

GOLDEN = Path(__file__).parent / "golden"
GAME = PathwaysGame()
PLAYERS = 2
MAX_MOVES = 120
MAX_BYTES = 300_000


def transcript(seed: int, players: int = PLAYERS, max_moves: int = MAX_MOVES) -> str:
    names = list(GAME.seat_names[:players])
    match = Match(GAME, {}, [SeatInfo(n, "bot") for n in names], seed)
    bots = [GAME.make_bot(i, seed, "random") for i in range(players)]
    who = [*range(players), None]
    label = {s: ("spectator" if s is None else names[s]) for s in who}
    out = [f"# {GAME.slug} seed {seed}, {players} players ({', '.join(names)}), random bots,"
           f" first {max_moves} moves",
           f"# start digest {match.digest()}"]

    def views(deliveries=None):
        for s in who:
            view = deliveries[s].view if deliveries else match.view(s)
            out.append(f"-- {label[s]} sees")
            out.append(text.render_view(view, names))

    out.append("== move 0: setup")
    views()
    for move in range(1, max_moves + 1):
        if match.result() is not None:
            break
        (seat,) = match.to_act()
        action = bots[seat].choose(match.view(seat), match.legal(seat))
        deliveries = match.submit(seat, action)
        out.append(f"== move {move}: {names[seat]}: {GAME.describe_action(action)}"
                   f" [{match.digest()}]")
        for s in who:
            for e in deliveries[s].events:
                out.append(f"   {label[s]} log: {GAME.describe(e, s, names)}")
        views(deliveries)
    r = match.result()
    out.append(f"== end: {'over: ' + r.reason + ' ' + str(list(r.winners)) if r else 'not over'}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", [1, 2])
def test_golden_transcript(seed):
    path = GOLDEN / f"pathways-seed-{seed}.txt"
    got = transcript(seed)
    assert len(got.encode()) < MAX_BYTES, "golden transcript too big: lower MAX_MOVES"
    if os.environ.get("UPDATE_GOLDEN") == "1" or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
        if os.environ.get("UPDATE_GOLDEN") != "1":
            pytest.fail(f"{path.name} did not exist and was written; check it in and run again")
        return
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(list(difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), f"golden/{path.name}", "now", n=2))[:80])
        pytest.fail(f"what a seat sees has changed (UPDATE_GOLDEN=1 to accept):\n{diff}")


def test_transcript_is_stable_within_a_process():
    assert transcript(1, max_moves=30) == transcript(1, max_moves=30)


def test_transcript_shows_each_seat_only_its_own_hand():
    t = transcript(2, max_moves=12)
    blocks = t.split("-- ")
    for block in blocks[1:]:
        header = block.splitlines()[0]
        hands = [line for line in block.splitlines() if line.startswith("hand=")]
        if header.startswith("spectator"):
            assert hands == []
        else:
            assert len(hands) == 1
