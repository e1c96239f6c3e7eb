"""Finding Atlantis bots: U-Bot self-play over many seeds, solo play, options,
determinism across hash seeds through the `atlantis selfplay` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.core import SeatInfo
from engine.finding_atlantis.bot import UBot
from engine.finding_atlantis.knowledge import deduce
from engine.finding_atlantis.rules import FindingAtlantisGame
from engine.match import Match
from engine.storage import load_record, save_record
from tui.selfplay import selfplay

ROOT = Path(__file__).resolve().parents[1]
GAME = FindingAtlantisGame()


def test_ubot_self_play_finishes_without_error_over_many_seeds():
    out = selfplay("finding-atlantis", 20, 1, 2, {})
    assert out["finished"] == 20
    solved = 0
    for seed in range(1, 11):
        match = Match(GAME, {}, [SeatInfo("A", "bot"), SeatInfo("B", "bot")], seed)
        bots = [GAME.make_bot(i, seed) for i in range(2)]
        while match.result() is None:
            (q,) = match.to_act()
            match.submit(q, bots[q].choose(match.view(q), match.legal(q)))
        solved += bool(match.result().winners)
    assert solved >= 8  # the U-Bot really finds Atlantis, it does not just time out


def test_selfplay_with_size_pirate_and_monster_options_and_3_4_players():
    for players, opts in ((3, {"size": 8, "pirate": True}), (4, {"pirate": True, "monsters": "roaming"}),
                          (2, {"size": 8, "monsters": "roaming"})):
        out = selfplay("finding-atlantis", 2, 7, players, opts)
        assert out["finished"] == 2
        out = selfplay("finding-atlantis", 2, 7, players, opts, level="random")
        assert out["finished"] == 2


def test_ubot_reads_only_its_view():
    """The bot's choice is the same for two states that differ only in hidden things."""
    from engine.rng import Rng

    for seed in range(6):
        state = GAME.setup(GAME.parse_options({}), 2, seed)
        bots = [GAME.make_bot(i, seed) for i in range(2)]
        for step in range(60):
            if GAME.result(state) is not None:
                break
            (q,) = GAME.to_act(state)
            s2 = GAME.rerandomise(state, q, Rng.from_seed(step, "x"))
            twin = UBot(q, seed)
            twin.rng = bots[q].rng
            a1 = bots[q].choose(GAME.view(state, q), GAME.legal(GAME.view(state, q)))
            a2 = twin.choose(GAME.view(s2, q), GAME.legal(GAME.view(s2, q)))
            assert a1 == a2
            state, _ = GAME.apply(state, q, a1)


def test_ubot_never_declares_against_its_own_knowledge():
    for seed in range(20, 30):
        state = GAME.setup(GAME.parse_options({}), 2, seed)
        bots = [GAME.make_bot(i, seed) for i in range(2)]
        while GAME.result(state) is None:
            (q,) = GAME.to_act(state)
            view = GAME.view(state, q)
            a = bots[q].choose(view, GAME.legal(view))
            if type(a).__name__ == "Declare":
                assert tuple(view.picks) == deduce(view).solved
            state, _ = GAME.apply(state, q, a)


def test_solo_is_one_human_against_the_ubot():
    from tui.common import seats_for

    seats = seats_for("finding-atlantis", 2, 1)
    assert [s.kind for s in seats] == ["human", "bot"]


def _cli_json(hashseed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    proc = subprocess.run([sys.executable, "-m", "tui.cli", "selfplay", "finding-atlantis", "--games", "4",
                           "--seed", "5", "-o", "pirate=true", "-o", "size=8", "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=50)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_selfplay_digests_are_the_same_under_any_hash_seed():
    a, b = _cli_json("0"), _cli_json("4242")
    assert a["digests"] == b["digests"] and len(a["digests"]) == 4 and a["finished"] == 4


def test_records_replay_with_every_digest(tmp_path):
    from tui.selfplay import play_one

    match = play_one("finding-atlantis", 4, 3, {"pirate": True, "size": 8, "monsters": "roaming"})
    path = save_record(match.record, tmp_path / "fa.atl")
    again = Match.from_record(load_record(path), GAME)
    assert again.digest() == match.digest() and again.result() == match.result()
    assert any(line.startswith("The map") for line in GAME.reveal(match.state, ["A", "B", "C"]))
