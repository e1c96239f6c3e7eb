"""``serve-ssh``'s fork server: each session's child forked from one warm process (a
zygote), with the same isolation as a child spawned for it: a crashing or hung child
ends only its own session, the front learns every exit, and when the zygote is gone
(or turned off) sessions are spawned as before."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tui.ssh.forkserver import ForkedChild
from tui.ssh.server import SshLimits

from test_ssh_serve import connect, new_key, running_front, until

pytestmark = pytest.mark.timeout(60)


def stat_fields(pid: int) -> list[str]:
    """/proc/PID/stat after the command name: [state, ppid, pgrp, session, tty_nr, ...]."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


async def forking(front) -> None:
    await until(lambda: front.forkserver is not None and front.forkserver.alive, 40, "the fork server warm")


async def test_a_session_forked_by_the_fork_server_reaches_the_lobby_in_a_terminal_of_its_own(tmp_path):
    async with running_front(tmp_path) as front:
        await forking(front)
        p = await connect(front, new_key())
        await p.sees("No tables yet")
        await p.sees("New table")
        (pid,) = front.children
        child = front.children[pid]
        assert isinstance(child, ForkedChild)
        state, ppid, pgrp, session, tty_nr = stat_fields(pid)[:5]
        assert int(ppid) == front.forkserver.proc.pid  # forked by the zygote, not spawned by the front
        assert int(pgrp) == int(session) == pid and int(tty_nr) != 0  # its own session, the PTY its terminal
        p.send("p")  # the same app as a spawned child: play here opens the menu
        await p.sees("Start  (Ctrl+S)", since=len(p.raw))
        await p.close()
        await until(lambda: not front.children, 10, "the child stopped")
        assert child.returncode is not None
        with pytest.raises(ProcessLookupError):  # reaped, not left a zombie
            os.kill(pid, 0)


async def test_a_forked_child_that_crashes_ends_only_its_session_and_a_hung_one_is_reaped(tmp_path):
    hung = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "signal.signal(signal.SIGHUP, signal.SIG_IGN); print('hung', flush=True); time.sleep(600)")
    crash = "import os; print('boom', flush=True); os.kill(os.getpid(), 11)"
    which = {"ana": hung, "bo": crash}
    argv = lambda name: [sys.executable, "-c", which[name]]  # noqa: E731
    async with running_front(tmp_path, child_argv=argv, limits=SshLimits(child_grace=0.5)) as front:
        await forking(front)
        zygote = front.forkserver.proc.pid
        a = await connect(front, new_key(), user="ana")
        await a.sees("hung")
        (hung_pid,) = front.children
        assert isinstance(front.children[hung_pid], ForkedChild)
        b = await connect(front, new_key(), user="bo")
        await b.sees("the game stopped (exit -11)")
        await asyncio.wait_for(b.closed.wait(), 5)
        assert not a.closed.is_set() and list(front.children) == [hung_pid]  # the other session goes on
        assert front.forkserver.alive and front.forkserver.proc.pid == zygote  # and so does the zygote
        await a.close()
        await until(lambda: not front.children, 5, "the hung child reaped")
        assert front.reaped == 1
        with pytest.raises(ProcessLookupError):
            os.kill(hung_pid, 0)
        c = await connect(front, new_key(), user="bo")  # the zygote still forks
        await c.sees("boom")
        await c.close()


async def test_when_the_fork_server_dies_its_sessions_end_and_new_ones_are_spawned(tmp_path):
    quiet = [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(60)"]
    async with running_front(tmp_path, child_argv=lambda name: quiet) as front:
        await forking(front)
        a = await connect(front, new_key(), user="ana")
        await a.sees("up")
        (forked_pid,) = front.children
        os.kill(front.forkserver.proc.pid, signal.SIGKILL)
        await asyncio.wait_for(a.closed.wait(), 10)  # its child is killed: no one could report its exit
        assert not front.forkserver.alive and not front.children
        b = await connect(front, new_key(), user="bo")
        await b.sees("up")
        (pid,) = front.children
        assert not isinstance(front.children[pid], ForkedChild)  # spawned
        assert int(stat_fields(pid)[1]) == os.getpid()
        await b.close()
        await until(lambda: not front.children, 10, "the spawned child stopped")


async def test_no_fork_server_spawns_every_child(tmp_path):
    async with running_front(tmp_path, fork_server=False) as front:
        p = await connect(front, new_key())
        await p.sees("No tables yet")
        (pid,) = front.children
        assert front.forkserver is None and not isinstance(front.children[pid], ForkedChild)
        await p.close()
        await until(lambda: not front.children, 10, "the child stopped")


def test_serve_ssh_takes_no_fork_server():
    from tui.cli import build_parser

    assert build_parser().parse_args(["serve-ssh", "--no-fork-server"]).fork_server is False
    assert build_parser().parse_args(["serve-ssh"]).fork_server is True
