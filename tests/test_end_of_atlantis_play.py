"""End of Atlantis played whole: bots over many seeds and every variant, records and
replay, determinism across processes, and golden per-seat transcripts.

Regenerate the transcripts after an intended change with
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_end_of_atlantis_play.py``.
"""

from __future__ import annotations

import difflib
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.core import SeatInfo
from engine.end_of_atlantis import text
from engine.match import Match
from engine.match import replay_states
from engine.record import GameRecord
from tui.cli import main
from tui.selfplay import play_one

from eoa_helpers import GAME

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden"
SLUG = "end-of-atlantis"
VARIANTS = [
    {}, {"family": True}, {"chosen_ships": "D,E,D+,E+"}, {"revealed_events": True},
    {"revealed_specials": True}, {"aggressive_neutrals": True},
    {"family": True, "revealed_events": True, "revealed_specials": True, "aggressive_neutrals": True,
     "chosen_ships": "A+,B,C+,D+,E"},
]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o) or "standard")
def test_bots_finish_every_variant_with_every_player_count(options):
    kinds: Counter = Counter()
    for seed in range(8):
        players = 2 + seed % 4
        level = "normal" if seed % 2 else "random"
        match = play_one(SLUG, seed, players, options, [level] * players)
        assert match.result() is not None, (options, seed)
        assert 4 <= match.state.turn <= 8
        kinds[players] += 1
    assert set(kinds) == {2, 3, 4, 5}


def test_a_record_replays_with_every_digest_and_through_the_cli(tmp_path, capsys):
    match = play_one(SLUG, seed=5, players=4, options={"revealed_specials": True})
    path = match.record.save(tmp_path / "eoa.atlrec")
    record = GameRecord.load(path)
    last = None
    for _, state, problem in replay_states(record, GAME):
        assert problem is None
        last = state
    assert GAME.result(last) == match.result()
    assert main(["replay", str(path), "--verify"]) == 0
    assert "every digest matches" in capsys.readouterr().out


def test_selfplay_is_deterministic_across_processes_and_hash_seeds():
    args = [sys.executable, "-m", "tui.cli", "selfplay", SLUG, "--games", "3", "--seed", "7",
            "--players", "4", "--json"]
    outs = []
    for hashseed in ("0", "4242"):
        proc = subprocess.run(args, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": hashseed},
                              capture_output=True, text=True, timeout=55)
        assert proc.returncode == 0, proc.stderr
        outs.append(json.loads(proc.stdout))
    assert outs[0]["digests"] == outs[1]["digests"] and outs[0]["finished"] == 3
    assert len(set(outs[0]["digests"])) == 3


def test_selfplay_cli_takes_variant_options(capsys):
    assert main(["selfplay", SLUG, "--games", "1", "--players", "5", "-o", "family=true",
                 "-o", "chosen_ships=A+,B,C,D,E+", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 1


# --- golden transcripts ---------------------------------------------------------------------
PLAYERS = 3
MAX_MOVES = 70
MAX_BYTES = 400_000


def transcript(seed: int, max_moves: int = MAX_MOVES) -> str:
    names = list(GAME.seat_names[:PLAYERS])
    match = Match(GAME, {}, [SeatInfo(n, "bot") for n in names], seed)
    bots = [GAME.make_bot(i, seed, "random") for i in range(PLAYERS)]
    who = [*range(PLAYERS), None]
    label = {s: ("spectator" if s is None else names[s]) for s in who}
    out = [f"# {SLUG} seed {seed}, {PLAYERS} players, random bots, first {max_moves} moves",
           f"# start digest {match.digest()}", "== move 0: setup"]
    for s in who:
        out += [f"-- {label[s]} sees", text.render_view(match.view(s), names)]
    for move in range(1, max_moves + 1):
        if match.result() is not None:
            break
        seat = min(match.to_act())
        action = bots[seat].choose(match.view(seat), match.legal(seat))
        deliveries = match.submit(seat, action)
        out.append(f"== move {move}: {names[seat]}: {GAME.describe_action(action)} [{match.digest()}]")
        for s in who:
            for e in deliveries[s].events:
                out.append(f"   {label[s]} log: {GAME.describe(e, s, names)}")
        for s in who:
            out += [f"-- {label[s]} sees", text.render_view(deliveries[s].view, names)]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", [1, 2])
def test_golden_transcript(seed):
    path = GOLDEN / f"end-of-atlantis-seed-{seed}.txt"
    got = transcript(seed)
    assert len(got.encode()) < MAX_BYTES
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


def test_transcripts_show_each_seat_only_its_own_hand_and_bid():
    t = transcript(2, max_moves=25)
    for block in t.split("-- ")[1:]:
        header = block.splitlines()[0]
        hands = [line for line in block.splitlines() if line.startswith("hand=")]
        assert (hands == []) == header.startswith("spectator")


@pytest.mark.parametrize("options", VARIANTS[:3] + VARIANTS[5:], ids=lambda o: ",".join(o) or "standard")
def test_every_cube_card_and_special_card_stays_in_exactly_one_place(options):
    """20 cubes a player (screen, Senate, buildings, cards, Promised Land, ships), 10
    neutrals, 80 Politics and 25 special cards are conserved after every action."""
    for seed in range(3):
        n = 2 + (seed * 3 + len(options)) % 4
        s = GAME.setup(GAME.parse_options(options), n, seed)
        bots = [GAME.make_bot(i, seed, "random" if (seed + i) % 2 else "normal") for i in range(n)]
        while GAME.result(s) is None:
            q = min(GAME.to_act(s))
            v = GAME.view(s, q)
            s, _ = GAME.apply(s, q, bots[q].choose(v, GAME.legal(v)))
            for p in range(n):
                assert (s.screen[p] + s.senate_pool[p] + s.buildings[p] + sum(s.tokens_on_cards[p])
                        + s.promised_land[p] + sum(sh.cubes[p] for sh in s.ships)) == 20
            assert s.camp + s.promised_land_neutrals + sum(sh.cubes[5] for sh in s.ships) == 10
            cards = [*s.deck, *s.discard, *(c for h in s.hands for c in h),
                     *(c for r in s.voting_cards for c in r)]
            assert sorted(cards) == list(range(80))
            specials = [*s.special_deck, *s.special_discard, *s.face_up_specials,
                        *(c for h in s.specials for c in h)]
            assert sorted(specials) == list(range(25))
            assert min(s.screen) >= 0 and min(s.vp) >= 0
