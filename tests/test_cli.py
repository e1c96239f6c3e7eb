"""The `atlantis` command: games, selfplay, replay --verify, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.storage import load_record, save_record
from tui.cli import main
from tui.selfplay import play_one

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, env=full_env,
                          capture_output=True, text=True, timeout=120)


def test_games_lists_pathways(capsys):
    assert main(["games"]) == 0
    assert "pathways" in capsys.readouterr().out


def test_play_unknown_game_lists_known_games_and_exits_2(capsys):
    assert main(["play", "nosuchgame"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'nosuchgame'" in err and "pathways" in err


def test_selfplay_json_has_the_promised_keys(capsys):
    assert main(["selfplay", "pathways", "--games", "2", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"game", "games", "finished", "actions", "seconds", "actions_per_s", "digests"}
    assert out["games"] == 2 and out["finished"] == 2 and len(out["digests"]) == 2


def test_selfplay_digests_equal_across_processes_and_hash_seeds():
    args = ("selfplay", "pathways", "--games", "3", "--seed", "11", "--players", "3", "--json")
    a = run_cli(*args, env={"PYTHONHASHSEED": "1"})
    b = run_cli(*args, env={"PYTHONHASHSEED": "987654"})
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert json.loads(a.stdout)["digests"] == json.loads(b.stdout)["digests"]


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    match = play_one("pathways", seed=5, players=2)
    return save_record(match.record, tmp_path / "game.atlrec")


def test_replay_verify_accepts_a_true_record(record_file, capsys):
    assert main(["replay", str(record_file), "--verify"]) == 0
    assert "every digest matches" in capsys.readouterr().out


def test_replay_verify_names_the_first_move_that_differs(record_file, tmp_path, capsys):
    record = load_record(record_file)
    record.moves[6].digest = "0" * 32
    bad = save_record(record, tmp_path / "bad.atlrec")
    assert main(["replay", str(bad), "--verify"]) == 1
    out = capsys.readouterr().out
    assert "move 7" in out


@pytest.mark.parametrize("mangle", ["truncate", "garbage", "empty", "magic"])
def test_corrupt_record_gives_one_line_reason_and_exit_2(record_file, tmp_path, mangle, capsys):
    data = record_file.read_bytes()
    bad = tmp_path / "bad.atlrec"
    if mangle == "truncate":
        bad.write_bytes(data[: len(data) - 3])
    elif mangle == "garbage":
        bad.write_bytes(b"\xc1\xff\x00garbage" + data)
    elif mangle == "empty":
        bad.write_bytes(b"")
    else:
        bad.write_bytes(data.replace(b"atlantis-record", b"atlantis-recorx"))
    for command in (["replay", str(bad), "--verify"], ["replay", str(bad)], ["play", "--resume", str(bad)]):
        assert main(command) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("atlantis: ") and "\n" not in err, err


def test_a_record_from_an_older_version_is_refused_in_one_line_never_replayed(record_file, tmp_path, capsys):
    """A format-1 record (SplitMix64 shuffles) would replay as a different game."""
    import msgpack

    objs = list(msgpack.Unpacker(open(record_file, "rb"), raw=False))
    header = objs[0] | {"format": 1, "seed": 42, "rules": "pathways-1"}
    header.pop("practice")
    old = tmp_path / "old.atlrec"
    old.write_bytes(b"".join(msgpack.packb(o) for o in [header, *objs[1:]]))
    before = old.read_bytes()
    for command in (["replay", str(old), "--verify"], ["replay", str(old)], ["play", "--resume", str(old)]):
        assert main(command) == 2
        err = capsys.readouterr().err.strip()
        assert "older version" in err and "\n" not in err, err
    assert old.read_bytes() == before


def test_missing_record_file_is_a_clean_error(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.atlrec"), "--verify"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_play_resume_continues_where_the_record_stopped(tmp_path, monkeypatch):
    from engine.core import SeatInfo
    from engine.match import Match
    from engine.registry import get_game
    from tui import app as app_module

    game = get_game("pathways")
    match = Match(game, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 21)
    bots = [game.make_bot(0, 21), game.make_bot(1, 21)]
    for _ in range(7):
        seat = min(match.to_act())
        view = match.view(seat)
        match.submit(seat, bots[seat].choose(view, game.legal(view)))
    path = save_record(match.record, tmp_path / "half.atlrec")
    started = {}

    def fake_run(self):
        started["table"] = self.opens.table
        started["save"] = self.save_path

    monkeypatch.setattr(app_module.AtlantisApp, "run", fake_run)
    assert main(["play", "--resume", str(path)]) == 0
    table = started["table"]
    assert table.match.digest() == match.digest()
    assert started["save"] == path
    # Playing on appends to the same file.
    if not table.step_bot():
        assert table.submit(0, game.legal(table.match.view(0))[0]) is None
    assert len(load_record(path).moves) == len(match.record.moves) + 1


def test_named_setups_load_and_play(monkeypatch, capsys):
    from tui import app as app_module
    from tui.setups import load_setups

    setups = load_setups()
    assert "pathways-duel" in setups
    assert main(["setups"]) == 0
    assert "pathways-duel" in capsys.readouterr().out
    started = {}
    monkeypatch.setattr(app_module.AtlantisApp, "run", lambda self: started.setdefault("table", self.opens.table))
    assert main(["play", "--setup", "pathways-short", "--no-autosave"]) == 0
    match = started["table"].match
    assert match.seed == setups["pathways-short"].seed and match.options.max_rounds == 10
    assert match.practice and match.record.practice  # a named setup's seed is known to all
    started.clear()
    assert main(["play", "pathways", "--no-autosave"]) == 0
    secret = started["table"].match
    assert not secret.practice and secret.seed.bit_length() > 64
    started.clear()
    assert main(["play", "pathways", "--seed", "9", "--no-autosave"]) == 0
    assert started["table"].match.practice and started["table"].match.seed == 9
    assert main(["play", "--setup", "nope"]) == 2


def started_seats(monkeypatch, argv: list[str]) -> list[tuple[str, str]]:
    """The seats ``atlantis play ...`` would open (the app is not run)."""
    from tui import app as app_module

    started = {}
    monkeypatch.setattr(app_module.AtlantisApp, "run", lambda self: started.setdefault("table", self.opens.table))
    assert main([*argv, "--no-autosave"]) == 0
    return [(s.name, s.kind) for s in started["table"].match.seats]


def test_players_without_bots_is_that_many_humans_at_this_keyboard(monkeypatch):
    assert started_seats(monkeypatch, ["play", "pathways", "--players", "2"]) == [("Red", "human"), ("Blue", "human")]
    assert started_seats(monkeypatch, ["play", "pathways", "--players", "3", "--bots", "1"]) == \
        [("Red", "human"), ("Blue", "human"), ("Green", "bot")]
    # neither option: the quick game, you against a bot
    assert started_seats(monkeypatch, ["play", "pathways"]) == [("Red", "human"), ("Blue", "bot")]
    assert started_seats(monkeypatch, ["play", "pathways", "--players", "2", "--names", "Ana,Ben"]) == \
        [("Ana", "human"), ("Ben", "human")]


@pytest.mark.parametrize("argv, why", [
    (["play", "pathways", "--players", "0"], "--players 0: Atlantis: Pathways of the Deep takes 2 to 4"),
    (["play", "pathways", "--players", "5"], "takes 2 to 4 players"),
    (["play", "pathways", "--players", "2", "--bots", "3"], "--bots 3: a table of 2 players takes 0 to 2 bots"),
    (["play", "pathways", "--bots", "-1"], "--bots -1"),
    (["play", "pathways", "--players", "3", "--names", "Ana,Ben"], "2 names for 3 seats"),
    (["play", "pathways", "--names", "Ana,,"], "3 names for 2 seats"),
    (["play", "pathways", "--names", "Ana, "], "a name is empty"),
    (["play", "pathways", "--names", "Ana,ANA"], "'Ana' and 'ANA' count as one name"),
    (["play", "pathways", "--names", "Bo,Bo"], "'Bo' is given twice"),
    (["record", "x.demo", "pathways", "--players", "1"], "takes 2 to 4"),
    (["selfplay", "pathways", "--games", "-1"], "--games -1: play at least 1 game"),
    (["selfplay", "pathways", "--games", "0"], "--games 0"),
    (["selfplay", "pathways", "--players", "0"], "--players 0"),
    (["selfplay", "pathways", "--players", "7"], "takes 2 to 4 players"),
    (["host", "pathways", "--players", "0", "--headless"], "--players 0"),
])
def test_impossible_counts_and_names_are_refused_in_one_line_with_exit_2(argv, why, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert why in err and err.startswith("atlantis: ") and "\n" not in err, err


def test_each_games_screenshot_setup_is_a_named_setup_of_that_game():
    from engine.registry import GAMES
    from tui.screen_entry import screen_entry
    from tui.setups import load_setups

    setups = load_setups()
    for slug in GAMES:
        name = screen_entry(slug).screenshot
        assert name in setups and setups[name].game == slug, slug
    assert {setup.game for setup in setups.values()} <= set(GAMES)
