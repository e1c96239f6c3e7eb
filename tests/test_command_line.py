"""The `atlantis` command behaves like the tools people know: --version, help on every
argument, Ctrl+C leaves with 130 and no traceback, no screen without a terminal, wrong
options listed in our words, logging flags for the servers, shell completion."""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest

from engine.registry import GAMES
from engine.storage import load_record, save_record
from tui.cli import build_parser, main

from pty_terminal import Terminal, private_env

ROOT = Path(__file__).resolve().parent.parent
ATLANTIS = [sys.executable, "-m", "tui.cli"]


def test_version_prints_the_installed_distributions_version():
    out = subprocess.run([*ATLANTIS, "--version"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0
    assert out.stdout.strip() == f"atlantis {version('atlantis-table')}"


def test_games_lists_every_games_rules_version(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for slug, game in GAMES.items():
        assert f"rules {game.rules_version}" in next(line for line in out.splitlines() if line.startswith(slug))


def subparsers(parser: argparse.ArgumentParser, path: str = "atlantis"):
    yield path, parser
    for action in parser._actions:  # noqa: SLF001 (argparse has no public walk of its parsers)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for name, sub in action.choices.items():
                yield from subparsers(sub, f"{path} {name}")


def test_every_argument_of_every_subcommand_says_what_it_is_for():
    missing = [f"{path}: {action.option_strings or action.dest}"
               for path, parser in subparsers(build_parser())
               for action in parser._actions  # noqa: SLF001
               if not isinstance(action, argparse._SubParsersAction) and not action.help]  # noqa: SLF001
    assert missing == []


@pytest.mark.timeout(60)
def test_ctrl_c_in_the_menu_leaves_with_130_and_no_traceback(tmp_path):
    terminal = Terminal(ATLANTIS, private_env(tmp_path), ROOT)
    try:
        terminal.wait_for(b"Start")
        terminal.send(b"\x03")
        assert terminal.exit_code() == 130
        assert b"Traceback" not in terminal.seen
    finally:
        terminal.close()


@pytest.mark.timeout(60)
def test_ctrl_c_in_a_game_leaves_with_130_and_the_game_saved(tmp_path):
    record = tmp_path / "game.atlrec"
    terminal = Terminal([*ATLANTIS, "play", "pathways", "--save", str(record), "--bot-delay", "0"],
                        private_env(tmp_path), ROOT)
    try:
        terminal.wait_for(b"Red")
        terminal.read_for(1.0)
        terminal.send(b"\x03")
        assert terminal.exit_code() == 130
        assert b"Traceback" not in terminal.seen
    finally:
        terminal.close()
    assert load_record(record).game == "pathways"  # resumable with `play --resume`


def interrupted(argv: list[str], tmp_path: Path, ready: str | None) -> subprocess.CompletedProcess:
    """Run ``argv``, wait for its first line (or a moment), press Ctrl+C (SIGINT)."""
    proc = subprocess.Popen([*ATLANTIS, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=private_env(tmp_path), cwd=tmp_path, stdin=subprocess.DEVNULL)
    try:
        if ready is None:
            time.sleep(2.0)
        else:
            line = proc.stdout.readline()
            assert ready in line, line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("argv, ready", [
    (["selfplay", "pathways", "--games", "100000"], None),
    (["host", "pathways", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-advertise"], "Listening"),
    (["serve", "--port", "0", "--bind", "127.0.0.1", "--no-advertise", "--workers", "0"], "Table server"),
    (["serve-ssh", "--port", "0", "--bind", "127.0.0.1"], "key"),
], ids=["selfplay", "host", "serve", "serve-ssh"])
def test_ctrl_c_stops_a_long_command_with_130_and_no_traceback(tmp_path, argv, ready):
    if argv[0] == "serve-ssh":
        argv = [*argv, "--host-key", str(tmp_path / "host_key")]
    done = interrupted(argv, tmp_path, ready)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.timeout(60)
@pytest.mark.parametrize("argv", [["play", "pathways"], [], ["replay", "missing.atlrec"], ["demo", "play", "pathways"]],
                         ids=["play", "menu", "replay", "demo"])
def test_without_a_terminal_a_screen_says_so_and_exits_2_at_once(tmp_path, argv):
    if argv[:1] == ["replay"]:
        from engine.match import Match
        from tui.common import seats_for

        game = GAMES["pathways"]
        match = Match(game, game.parse_options({}), seats_for("pathways", 2, 1), 5)
        argv = ["replay", str(save_record(match.record, tmp_path / "game.atlrec"))]
    out_file = tmp_path / "out.txt"
    with out_file.open("w") as out:
        done = subprocess.run([*ATLANTIS, *argv], stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.PIPE,
                              text=True, env=private_env(tmp_path), cwd=ROOT, timeout=30)
    assert done.returncode == 2
    assert "needs a terminal" in done.stderr
    assert out_file.read_text() == ""  # no escape codes written into the file


@pytest.mark.parametrize("argv, says", [
    (["play", "pathways", "-o", "foo=1"], "Atlantis: Pathways of the Deep has no option 'foo'"),
    (["play", "pathways", "-o", "max_rounds=many"], "max_rounds is a whole number from 5 to 500, not 'many'"),
    (["selfplay", "finding-atlantis", "-o", "monsters=wild"], "monsters is one of still, roaming, not 'wild'"),
    (["selfplay", "finding-atlantis", "-o", "size=7"], "size must be 6 or 8"),
    (["host", "survive", "--headless", "-o", "memory=perhaps"], "memory is on or off, not 'perhaps'"),
    (["play", "atlantis", "-o", "sales_per_turn"], "should look like name=value"),
])
def test_a_wrong_option_is_named_and_the_games_options_listed_in_our_words(capsys, argv, says):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err
    assert "(-o NAME=VALUE):" in err  # every option of the game, with what it takes
    assert "Input should" not in err and "pydantic" not in err and "validation error" not in err


@pytest.mark.parametrize("argv, says", [
    (["play", "pathways", "--bot-delay", "-1"], "argument --bot-delay: -1 is too small: it must be 0 or more"),
    (["play", "pathways", "--seed", "abc"], "argument --seed: 'abc' is not a whole number"),
    (["host", "pathways", "--port", "70000"], "argument --port: 70000 is not a port number (0 to 65535)"),
    (["serve-ssh", "--idle-timeout", "nan"], "argument --idle-timeout: 'nan' is not a number of seconds"),
    (["demo", "play", "pathways", "--speed", "0"], "argument --speed: 0 is too small: it must be more than 0"),
])
def test_a_bad_number_is_refused_in_one_line_that_points_to_help(capsys, argv, says):
    with pytest.raises(SystemExit) as leaving:
        main(argv)
    assert leaving.value.code == 2
    err = capsys.readouterr().err
    assert says in err
    assert "--help` lists the arguments" in err
    assert "usage:" not in err


def test_a_corrupt_record_is_described_without_codec_jargon(tmp_path):
    from engine.match import Match
    from engine.record import GameRecord, RecordError
    from tui.common import seats_for

    game = GAMES["pathways"]
    match = Match(game, game.parse_options({}), seats_for("pathways", 2, 1), 5)
    data = bytearray(match.record.to_bytes())
    at = data.index(b"pathways")
    data[at:at + 2] = b"\xce\x28"  # an invalid UTF-8 sequence inside the game's name
    with pytest.raises(RecordError) as refused:
        GameRecord.from_bytes(bytes(data))
    assert "a text field holds bytes that are not text" in str(refused.value)
    assert "codec" not in str(refused.value)


def test_an_option_listing_names_each_option_its_values_and_default(capsys):
    assert main(["play", "finding-atlantis", "-o", "nope=1"]) == 2
    err = capsys.readouterr().err
    assert "  monsters             one of still, roaming (default still):" in err
    assert "  pirate               on or off (default off):" in err
    assert "  max_rounds           a whole number from 5 to 500 (default 60):" in err


@pytest.mark.timeout(60)
def test_the_servers_log_through_the_standard_loggers_where_the_flags_say(tmp_path):
    log_file = tmp_path / "serve.log"
    done = interrupted(["serve", "--port", "0", "--bind", "127.0.0.1", "--no-advertise", "--workers", "0",
                        "--log-level", "info", "--log-file", str(log_file)], tmp_path, "Table server")
    assert done.returncode == 130
    assert "INFO atlantis.host: listening on 127.0.0.1:" in log_file.read_text()
    quiet = tmp_path / "quiet.log"
    interrupted(["serve", "--port", "0", "--bind", "127.0.0.1", "--no-advertise", "--workers", "0",
                 "--log-file", str(quiet)], tmp_path, "Table server")
    assert "listening" not in quiet.read_text()  # the default level is WARNING
    verbose = tmp_path / "host.log"
    interrupted(["host", "pathways", "--headless", "--port", "0", "--bind", "127.0.0.1", "--no-advertise",
                 "-v", "--log-file", str(verbose)], tmp_path, "Listening")
    assert "listening on 127.0.0.1:" in verbose.read_text()
    for command in ("host", "serve", "serve-ssh"):
        args = build_parser().parse_args([command, "--log-level", "error", "--log-file", "x.log"])
        assert (args.log_level, args.log_file) == ("ERROR", Path("x.log"))


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_completion_script_for_each_shell_completes_from_the_parser(tmp_path, shell):
    script = subprocess.run([*ATLANTIS, "completion", shell], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert script.returncode == 0 and "atlantis" in script.stdout and "complete" in script.stdout
    answer = tmp_path / "answer"
    line = "atlantis sel"
    subprocess.run([*ATLANTIS], env={**private_env(tmp_path), "_ARGCOMPLETE": "1", "COMP_LINE": line,
                                     "COMP_POINT": str(len(line)), "_ARGCOMPLETE_STDOUT_FILENAME": str(answer),
                                     "_ARGCOMPLETE_SHELL": shell},
                   capture_output=True, timeout=60, cwd=ROOT)
    assert "selfplay" in answer.read_text()
