"""Play over SSH: the fork server (``tui/ssh/forkserver.py``) beside a child spawned per
session.

Everything runs on 127.0.0.1, in this process: an ``SshFront`` (the table server and
the asyncssh server, two tables in its lobby) and asyncssh's own clients.  For each way
of starting a session (the fork server, then spawn):

* Arriving together: N players (1, 16, 32) connect at once; each one's time from
  connecting to a full lobby (its table list drawn).  Goals: one alone within a local
  start's time (the lobby in a PTY, no SSH); every one of 32 within 2 s.
* Memory: the private memory (USS: Private_Clean + Private_Dirty of
  /proc/PID/smaps_rollup) of a session in the lobby and in a Pathways game against a
  bot.  Goal: <= 25 MiB in a game.
* Keys: N sessions (8, 32, and with the fork server 64) in the lobby, each pressing one
  key a second at its own phase: key to the first byte of the answer, p50 and p99.
  Goal: p99 < 100 ms at 32 sessions.

A quick run: the fork server alone, 1 and 4 players, no game.
"""

from __future__ import annotations

import asyncio
import os
import pty
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .report import Row, percentile, print_table, uss_mib

LOOPBACK = "127.0.0.1"
KEYS = {"up": b"\x1b[A", "down": b"\x1b[B", "enter": b"\r"}
GOAL_CROWD_S = 2.0
GOAL_GAME_USS_MIB = 25.0
GOAL_KEY_P99_MS = 100.0


class Screen:
    """Output arriving from a terminal, with the time of each chunk."""

    def __init__(self) -> None:
        self.raw = bytearray()
        self.last = time.perf_counter()
        self.changed = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.raw.extend(data)
        self.last = time.perf_counter()
        self.changed.set()

    async def quiet(self, gap: float = 0.06, timeout: float = 5.0) -> None:
        end = time.perf_counter() + timeout
        while time.perf_counter() - self.last < gap and time.perf_counter() < end:
            await asyncio.sleep(gap / 3)

    async def sees(self, text: bytes, timeout: float = 20.0) -> None:
        end = time.perf_counter() + timeout
        while text not in self.raw:
            if time.perf_counter() > end:
                raise TimeoutError(f"never saw {text!r}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 0.2)
            except asyncio.TimeoutError:
                pass


class LocalPty:
    """The app in a PTY opened here (no SSH)."""

    def __init__(self, argv: list[str], env: dict[str, str], size: tuple[int, int] = (100, 30)):
        from tui.ssh.server import set_winsize

        self.screen = Screen()
        self.master, slave = pty.openpty()
        set_winsize(self.master, *size)
        os.set_blocking(self.master, False)
        import subprocess

        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        asyncio.get_running_loop().add_reader(self.master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, OSError):
            return
        if data:
            self.screen.feed(data)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        asyncio.get_running_loop().remove_reader(self.master)
        self.proc.terminate()
        try:
            self.proc.wait(3)
        except Exception:
            self.proc.kill()
        os.close(self.master)


class SshSession:
    def __init__(self, conn: Any, proc: Any):
        self.conn, self.proc = conn, proc
        self.screen = Screen()
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.proc.stdout.read(65536)
                if not data:
                    return
                self.screen.feed(data)
        except Exception:
            return

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)

    async def close(self) -> None:
        self.conn.close()
        try:
            await asyncio.wait_for(self.conn.wait_closed(), 3)
        except Exception:
            pass


async def ssh_session(front: Any, user: str = "bench", size: tuple[int, int] = (100, 30)) -> SshSession:
    import asyncssh

    conn = await asyncssh.connect(LOOPBACK, front.port, known_hosts=None, username=user, agent_path=None,
                                  client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
    proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None,
                                     env={"COLORTERM": "truecolor"})
    return SshSession(conn, proc)



# --- the fronts and their players ---------------------------------------------------------
FULL_LOBBY = b". Enter joins"  # (the status line once the table list is in)


async def bench_front(tmp: Path, fork_server: bool, child_argv: Any = None) -> Any:
    """A front with two tables in its lobby, its fork server (if any) warm (``child_argv``:
    what each session's child runs, if not the app's lobby)."""
    from netplay import messages
    from tui.ssh.server import SshFront, SshLimits, load_host_key

    key, _ = load_host_key(tmp / "host_key")
    front = SshFront(key, bind=LOOPBACK, port=0, records=tmp / f"records-{fork_server}", bot_delay=0.0,
                     fork_server=fork_server, child_argv=child_argv,
                     limits=SshLimits(max_sessions=128, max_per_address=128, rate=10000, child_grace=1.0))
    await front.start()
    if fork_server:
        end = time.perf_counter() + 60
        while (front.forkserver is None or not front.forkserver.alive) and time.perf_counter() < end:
            await asyncio.sleep(0.05)
    front.tables.register_identity("bench-identity-0", "bench")
    for _ in range(2):
        front.tables.open_table("bench", messages.OpenTable(game="pathways", players=2, bots=0, name="Bench"))
    return front


async def close_all(front: Any, sessions: list[SshSession]) -> None:
    await asyncio.gather(*(s.close() for s in sessions))
    end = time.perf_counter() + 10
    while front.children and time.perf_counter() < end:
        await asyncio.sleep(0.05)


async def arrive_together(front: Any, n: int, tag: str) -> tuple[list[float], list[SshSession]]:
    """``n`` players connect at once: each one's seconds from connecting to a full lobby,
    and their sessions."""
    async def one(i: int) -> tuple[float, SshSession]:
        started = time.perf_counter()
        session = await ssh_session(front, user=f"{tag}{i}")
        await session.screen.sees(FULL_LOBBY, timeout=90)
        return time.perf_counter() - started, session

    done = await asyncio.gather(*(one(i) for i in range(n)))
    return [t for t, _ in done], [s for _, s in done]


async def open_game(front: Any, session: SshSession, user: str) -> bool:
    """From the lobby, a Pathways table against a bot, its game screen drawn (the open
    form's first choices are these: Ctrl+S opens it)."""
    before = set(front.tables.tables)
    session.send(b"n")
    await session.screen.sees(b"Open a table")
    await asyncio.sleep(0.5)
    session.send(b"\x13")
    end = time.perf_counter() + 15
    while time.perf_counter() < end:
        if any(tid not in before and t.slots[0].player == user and t.slots[0].conn is not None
               for tid, t in front.tables.tables.items()):
            await session.screen.quiet(0.5, 5)
            return True
        await asyncio.sleep(0.05)
    return False


async def keys_each_second(sessions: list[SshSession], seconds: float) -> list[float]:
    """Every session presses one key a second (down, up, ...) at its own phase: each
    key's ms to the first byte of its answer (5000 when none came)."""
    import random

    times: list[float] = []
    end = time.perf_counter() + seconds

    async def presser(i: int, s: SshSession) -> None:
        await asyncio.sleep(random.random())
        n = 0
        while time.perf_counter() < end:
            tick = time.perf_counter()
            s.screen.changed.clear()
            s.send(KEYS["down" if n % 2 == 0 else "up"])
            n += 1
            try:
                await asyncio.wait_for(s.screen.changed.wait(), 5)
                times.append((s.screen.last - tick) * 1000)
            except asyncio.TimeoutError:
                times.append(5000.0)
            await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - tick)))

    await asyncio.gather(*(presser(i, s) for i, s in enumerate(sessions)))
    return times


async def local_start(front: Any) -> float:
    """Seconds from starting the lobby locally in a PTY (no SSH) to a full lobby."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV")}
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
    started = time.perf_counter()
    local = LocalPty(front.child_argv("local"), env)
    await local.screen.sees(FULL_LOBBY, timeout=60)
    took = time.perf_counter() - started
    local.close()
    return took


async def measure(fork_server: bool, crowds: tuple[int, ...], keys_at: tuple[int, ...], quick: bool,
                  tmp: Path) -> dict[str, float]:
    """One front's figures (seconds, MiB, ms), by name."""
    out: dict[str, float] = {}
    front = await bench_front(tmp, fork_server)
    try:
        if fork_server:
            out["local start"] = await local_start(front)
        game = await ssh_session(front, user="gamer")
        await game.screen.sees(FULL_LOBBY, timeout=60)
        (pid,) = front.children
        out["uss lobby"] = uss_mib(pid)
        if not quick and await open_game(front, game, "gamer"):
            out["uss game"] = uss_mib(pid)
        await close_all(front, [game])
        sessions: list[SshSession] = []
        for n in crowds:
            await close_all(front, sessions)
            times, sessions = await arrive_together(front, n, f"c{n}-")
            out[f"crowd {n}"] = max(times)
        for n in keys_at:
            if n > len(sessions):
                _, joined = await arrive_together(front, n - len(sessions), f"more{n}-")
                sessions += joined
            await asyncio.sleep(1.0)  # (the last to arrive have drawn their lobby: let them settle)
            times = await keys_each_second(sessions[:n], 3.0 if quick else 5.0)
            out[f"keys {n} p50"], out[f"keys {n} p99"] = percentile(times, 0.5), percentile(times, 0.99)
        await close_all(front, sessions)
    finally:
        await front.close()
    return out


async def _rows(quick: bool) -> list[Row]:
    tmp = Path(tempfile.mkdtemp(prefix="atlantis-bench-ssh-"))
    crowds, keys_at = ((1, 4), (4,)) if quick else ((1, 16, 32), (8, 32, 64))
    fork = await measure(True, crowds, keys_at, quick, tmp)
    spawn = {} if quick else await measure(False, crowds, keys_at[:-1], quick, tmp)
    rows = [Row("local start, lobby in a PTY", fork["local start"], "s")]
    for n in crowds:
        goal = ("<= local start" if n == 1 else f"< {GOAL_CROWD_S:g} s" if n == 32 else "")
        met = (fork[f"crowd {n}"] <= fork["local start"] if n == 1
               else fork[f"crowd {n}"] < GOAL_CROWD_S if n == 32 else None)
        rows.append(Row("1 alone: to a full lobby" if n == 1 else f"{n} arriving together: slowest to a full lobby", fork[f"crowd {n}"], "s",
                        spawn.get(f"crowd {n}"), "spawn" if spawn else "", goal, met))
    rows.append(Row("USS per session, lobby", fork["uss lobby"], "MiB", spawn.get("uss lobby"), "spawn" if spawn else ""))
    if "uss game" in fork:
        rows.append(Row("USS per session, a game", fork["uss game"], "MiB", spawn.get("uss game"), "spawn",
                        f"<= {GOAL_GAME_USS_MIB:g} MiB", fork["uss game"] <= GOAL_GAME_USS_MIB))
    for n in keys_at:
        for q in ("p50", "p99"):
            name = f"keys {n} {q}"
            goal = f"< {GOAL_KEY_P99_MS:g} ms" if (n == 32 and q == "p99") else ""
            rows.append(Row(f"{n} sessions, a key a second: key to screen {q}", fork[name], "ms", spawn.get(name),
                            "spawn" if name in spawn else "", goal, fork[name] < GOAL_KEY_P99_MS if goal else None))
    return rows


def run(quick: bool = False) -> None:
    import warnings

    try:
        with warnings.catch_warnings():  # (asyncssh's import warns that DSA keys are deprecated)
            warnings.simplefilter("ignore")
            import asyncssh  # noqa: F401
    except ImportError:
        print("\nSSH: skipped (asyncssh is not installed)")
        return
    print_table("SSH: the fork server (value) beside a child spawned per session (reference)", asyncio.run(_rows(quick)),
                "quick run: the fork server alone, 1 and 4 players" if quick else "")


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
