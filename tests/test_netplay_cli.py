"""The LAN commands as a player types them: host, join --bot --headless, bad arguments."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from engine.storage import load_record
from tui.cli import main

from netplay_helpers import LOOPBACK

ATLANTIS = [sys.executable, "-m", "tui.cli"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def test_a_headless_host_and_two_headless_bot_clients_play_to_the_end(tmp_path):
    log = tmp_path / "cli.atlrec"
    host = subprocess.Popen([*ATLANTIS, "host", "pathways", "--players", "3", "--bots", "1", "--port", "0",
                             "--bind", LOOPBACK, "--headless", "--no-advertise", "--exit-when-done",
                             "--log", str(log), "--seed", "8", "--bot-delay", "0"], stdout=subprocess.PIPE, text=True)
    try:
        first = host.stdout.readline()
        assert first.startswith(f"Listening on {LOOPBACK}:") and "Green: normal bot" in first
        address = first.split()[2]
        assert host.stdout.readline().strip() == f"Players join with: atlantis join {address}"
        joins = [subprocess.Popen([*ATLANTIS, "join", address, "--bot", "--headless", "--name", f"B{i}"],
                                  stdout=subprocess.PIPE, text=True) for i in range(2)]
        outs = [j.communicate(timeout=50)[0] for j in joins]
        assert [j.returncode for j in joins] == [0, 0], outs
        for out in outs:
            assert "Joined" in out and "token" in out and "Game over" in out and "Verified" in out
        rest = host.communicate(timeout=20)[0]
        assert host.returncode == 0 and "Game over" in rest
    finally:
        host.kill()
    assert main(["replay", str(log), "--verify"]) == 0
    assert [s.kind for s in load_record(log).seats] == ["remote", "remote", "bot"]


@pytest.mark.parametrize("argv, why", [
    (["host", "nosuchgame", "--headless"], "unknown game"),
    (["host", "pathways", "--players", "2", "--bots", "2", "--headless"], "no seat is open"),
    (["host", "pathways", "--players", "9", "--headless"], "takes 2-4"),
    (["host", "--resume", "/nonexistent.atlrec", "--headless"], "cannot read"),
    (["join", "--headless"], "needs --bot"),
    (["join", "somewhere:notaport", "--bot", "--headless"], "bad port"),
    (["join", "notanaddress"], "There is no host 'notanaddress'"),
    (["join", "notanaddress", "--bot", "--headless"], "There is no host 'notanaddress'"),
    (["join", f"{LOOPBACK}:{_free_port()}"], "Nothing is listening at 127.0.0.1:"),
])
def test_bad_lan_command_lines_say_why_in_one_line_and_exit_2(argv, why, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert why in err and "\n" not in err, err
