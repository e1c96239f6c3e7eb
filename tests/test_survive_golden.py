"""Survive golden transcripts (DESIGN.md: per-seat transcripts in tests/golden/).

For seeds 1 and 2 (three players, random bots), every seat's rendered view and the
spectator's after every move, with the events each was shown, is stored in
``tests/golden/survive-seed-{1,2}.txt``: a change to what any seat sees shows up as a
diff in review.  Regenerate after an intended change with ``UPDATE_GOLDEN=1
.venv/bin/python -m pytest tests/test_survive_golden.py`` and read the diff.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from engine.core import SeatInfo
from engine.match import Match
from engine.survive import text
from engine.survive.rules import SurviveGame

GOLDEN = Path(__file__).parent / "golden"
GAME = SurviveGame()
PLAYERS = 3
MAX_MOVES = 90
MAX_BYTES = 600_000


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
        seat = min(match.to_act())
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
    path = GOLDEN / f"survive-seed-{seed}.txt"
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
    assert transcript(1, max_moves=40) == transcript(1, max_moves=40)


def test_transcript_shows_values_to_their_owner_during_setup_only():
    t = transcript(2, max_moves=45)
    for block in t.split("-- ")[1:]:
        header = block.splitlines()[0]
        value_lines = [line for line in block.splitlines()[1:]
                       if line.split(":")[0] in GAME.seat_names and "=" in line.split("|")[0]]
        if header.startswith("spectator"):
            assert value_lines == []
        else:
            assert all(line.startswith(header.split()[0]) for line in value_lines)
    assert "phase=place_boat" in t and "phase=move" in t
