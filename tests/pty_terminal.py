"""A command run in a pseudo-terminal of its own, as a player's shell would run it: the
tests read what it draws and type keys into it."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import termios
import time
from pathlib import Path
from typing import Sequence


def private_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a player with folders of their own under ``home``."""
    return {**os.environ, "TERM": "xterm-256color", "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"), **extra}


class Terminal:
    """``argv`` running in an 80x24 pseudo-terminal."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], cwd: Path, size: tuple[int, int] = (80, 24)):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.proc = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd,
                                     start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master
        self.seen = b""

    def read_for(self, seconds: float) -> None:
        """Read what the command draws for ``seconds`` (or until it ends)."""
        deadline = time.monotonic() + seconds
        os.set_blocking(self.master, False)
        while time.monotonic() < deadline:
            try:
                chunk = os.read(self.master, 65536)
            except BlockingIOError:
                time.sleep(0.05)
                continue
            except OSError:  # the command ended and closed the terminal
                return
            if not chunk:
                return
            self.seen += chunk

    def wait_for(self, text: bytes, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.seen and time.monotonic() < deadline and self.proc.poll() is None:
            self.read_for(0.2)
        assert text in self.seen, self.seen[-600:]

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def exit_code(self, timeout: float = 15) -> int:
        """The command's exit code, reading its screen until it ends."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self.read_for(0.2)
        return self.proc.wait(timeout=1)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
