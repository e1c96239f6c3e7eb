"""End of Atlantis played whole: bots over many seeds and every variant, records and
replay, and determinism across processes.

(The golden transcripts are in tests/test_golden.py, through the shared harness.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.match import replay_states
from engine.storage import load_record, save_record
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
    path = save_record(match.record, tmp_path / "eoa.atlrec")
    record = load_record(path)
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


@pytest.mark.parametrize("options", VARIANTS[:3] + VARIANTS[5:], ids=lambda o: ",".join(o) or "standard")
def test_every_cube_card_and_special_card_stays_in_exactly_one_place(options):
    """20 cubes a player (screen, Senate, buildings, cards, Promised Land, ships), 10
    neutrals, 80 Politics and 25 special cards are conserved after every action."""
    for seed in range(3):
        n = 2 + (seed * 3 + len(options)) % 4
        state = GAME.setup(GAME.parse_options(options), n, seed)
        bots = [GAME.make_bot(i, seed, "random" if (seed + i) % 2 else "normal") for i in range(n)]
        while GAME.result(state) is None:
            q = min(GAME.to_act(state))
            view = GAME.view(state, q)
            state, _ = GAME.apply(state, q, bots[q].choose(view, GAME.legal(view)))
            for p in range(n):
                assert (state.screen[p] + state.senate_pool[p] + state.buildings[p] + sum(state.tokens_on_cards[p])
                        + state.promised_land[p] + sum(sh.cubes[p] for sh in state.ships)) == 20
            assert state.camp + state.promised_land_neutrals + sum(sh.cubes[5] for sh in state.ships) == 10
            cards = [*state.deck, *state.discard, *(c for h in state.hands for c in h),
                     *(c for r in state.voting_cards for c in r)]
            assert sorted(cards) == list(range(80))
            specials = [*state.special_deck, *state.special_discard, *state.face_up_specials,
                        *(c for h in state.specials for c in h)]
            assert sorted(specials) == list(range(25))
            assert min(state.screen) >= 0 and min(state.vp) >= 0
