"""Golden per-seat transcripts of Atlantis (DESIGN.md): for two fixed seeds, every
seat's rendered view (the road, its own hand) and the spectator's, after every move,
with the events each was shown.  A change to what any seat sees shows up as a diff.
Regenerate: ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_atlantis_golden.py``
and read the diff."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from engine.atlantis import text
from engine.atlantis.rules import AtlantisGame
from engine.core import SeatInfo
from engine.match import Match

GOLDEN = Path(__file__).parent / "golden"
GAME = AtlantisGame()
PLAYERS = 2
MAX_MOVES = 60
MAX_BYTES = 400_000
LEVELS = {1: "random", 2: "normal"}


def transcript(seed: int, max_moves: int = MAX_MOVES) -> str:
    names = list(GAME.seat_names[:PLAYERS])
    match = Match(GAME, {}, [SeatInfo(n, "bot") for n in names], seed)
    bots = [GAME.make_bot(i, seed, LEVELS[seed]) for i in range(PLAYERS)]
    who = [*range(PLAYERS), None]
    label = {s: ("spectator" if s is None else names[s]) for s in who}
    out = [f"# {GAME.slug} seed {seed}, {PLAYERS} players ({', '.join(names)}), {LEVELS[seed]} bots,"
           f" first {max_moves} moves",
           f"# start digest {match.digest()}", "== move 0: setup"]
    for s in who:
        out += [f"-- {label[s]} sees", text.render_view(match.view(s), names)]
    for move in range(1, max_moves + 1):
        if match.result() is not None:
            break
        (seat,) = match.to_act()
        action = bots[seat].choose(match.view(seat), match.legal(seat))
        deliveries = match.submit(seat, action)
        out.append(f"== move {move}: {names[seat]}: {GAME.describe_action(action)} [{match.digest()}]")
        for s in who:
            for e in deliveries[s].events:
                out.append(f"   {label[s]} log: {GAME.describe(e, s, names)}")
        for s in who:
            out += [f"-- {label[s]} sees", text.render_view(deliveries[s].view, names)]
    r = match.result()
    out.append(f"== end: {'over: ' + r.reason + ' ' + str(list(r.winners)) if r else 'not over'}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", [1, 2])
def test_golden_transcript(seed):
    path = GOLDEN / f"atlantis-seed-{seed}.txt"
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
    assert transcript(1, max_moves=20) == transcript(1, max_moves=20)


def test_each_seat_sees_only_its_own_hand_and_drawn_cards():
    t = transcript(2, max_moves=30)
    for block in t.split("-- ")[1:]:
        header = block.splitlines()[0]
        hands = [line for line in block.splitlines() if line.startswith("hand=")]
        assert (hands == []) == header.startswith("spectator")
    spectator = [line for line in t.splitlines() if line.startswith("   spectator log")]
    assert spectator and not any(" drew: " in line for line in spectator)
