"""Golden per-seat transcripts of Finding Atlantis (DESIGN.md): for two fixed seeds,
every seat's rendered view (its own chart, hand, position) and the spectator's,
after every move, with the events each was shown.  A change to what any seat
sees shows up as a diff.  Regenerate: ``UPDATE_GOLDEN=1 .venv/bin/python -m pytest
tests/test_finding_atlantis_golden.py`` and read the diff."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from engine.core import SeatInfo
from engine.finding_atlantis import text
from engine.finding_atlantis.rules import FindingAtlantisGame
from engine.match import Match

GOLDEN = Path(__file__).parent / "golden"
GAME = FindingAtlantisGame()
MAX_MOVES = 70
OPTIONS = {1: {}, 2: {"pirate": True, "monsters": "roaming"}}


def transcript(seed: int, max_moves: int = MAX_MOVES) -> str:
    names = ["Red", "Blue"]
    match = Match(GAME, OPTIONS[seed], [SeatInfo(n, "bot") for n in names], seed)
    bots = [GAME.make_bot(i, seed, "normal") for i in range(2)]
    who = [0, 1, None]
    label = {0: "Red", 1: "Blue", None: "spectator"}
    out = [f"# finding-atlantis seed {seed}, options {OPTIONS[seed]}, U-Bots, first {max_moves} moves",
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
    path = GOLDEN / f"finding-atlantis-seed-{seed}.txt"
    got = transcript(seed)
    assert len(got.encode()) < 400_000
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


def test_each_seat_sees_only_its_own_chart_and_hand():
    t = transcript(1, max_moves=20)
    for block in t.split("-- ")[1:]:
        header = block.splitlines()[0]
        mine = [line for line in block.splitlines() if line.startswith("me:")]
        assert (mine == []) == header.startswith("spectator")
    assert "log: Sonar:" not in "\n".join(l for l in t.splitlines() if l.startswith("   spectator"))
