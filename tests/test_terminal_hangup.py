"""A terminal that hangs up without a SIGHUP reaching the app (under ``make play`` none
does) must not leave the app behind: Textual's input thread then reads nothing forever, at
half a core.  The app checks its terminal once a second and leaves when it is gone."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(60)
def test_the_app_leaves_when_its_terminal_hangs_up_without_a_sighup(tmp_path):
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "PYTHONPATH": str(ROOT)}

    def child_setup() -> None:  # a session of its own on the pty, deaf to SIGHUP (as under make)
        os.setsid()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    proc = subprocess.Popen([sys.executable, "-c", "from tui.cli import main; main([])"], stdin=slave,
                            stdout=slave, stderr=slave, env=env, cwd=ROOT, preexec_fn=child_setup,
                            close_fds=True)
    os.close(slave)
    try:
        seen = b""
        deadline = time.monotonic() + 30
        while b"Start" not in seen and time.monotonic() < deadline:  # the menu is up
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
        assert b"Start" in seen, seen[-300:]
        os.close(master)  # the terminal goes away; no SIGHUP reaches the app
        master = -1
        assert proc.wait(timeout=15) is not None
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
