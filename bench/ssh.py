"""Play over SSH: key-to-screen latency through ``atlantis serve-ssh`` next to the same
app run locally in a PTY, memory per session, and sessions playing at once; and the fork
server (``tui/ssh/forkserver.py``) beside a child spawned per session: players arriving
together, private memory per session, and many sessions each pressing a key a second.

Everything runs on 127.0.0.1, in this process: an ``SshFront`` (the table server and
the asyncssh server) and asyncssh's own client.

* Latency: the app is the server lobby (``tui.cli join 127.0.0.1:PORT --server-lobby``,
  the very command an SSH session's child runs) holding two tables; a key (down / up,
  alternately) moves the table cursor, and the time from writing the key to the first
  byte of the redraw is measured.  "local" runs that command in a PTY this process
  opens (no SSH); "ssh" goes through the SSH server and its PTY child.  Keys are pressed
  only after the screen has been quiet for 60 ms.
* Memory: the resident size (VmRSS) of each session's child once its lobby is drawn,
  and the growth of this process (the front) per session.
* Load: N sessions at once (2 and 4; not in a quick run), each opens a Pathways table
  against a bot (max_rounds=5) and plays it by keys as fast as its screen answers;
  reported: each move's key-to-accepted time (p50/p99 across sessions), moves/s in all,
  and the CPU the children and the front used.  The machine "holds" N when p99 stays
  under 50 ms; this is a bounded sample, not a search for the breaking point.
* Fork server against spawn (one front of each): N players connect at once (1, 16, 32)
  and each one's time from connecting to a full lobby (its table list) is taken; the
  private memory (USS: Private_Clean + Private_Dirty of /proc/PID/smaps_rollup) of a
  session in the lobby and in a Pathways game against a bot; and N sessions (8, 32,
  64; spawn: 8 and 32, 64 of them take 35 s to start) in the lobby each pressing one
  key a second, at its own phase, key-to-first-byte p50/p99.  Goals (issue 29, item 7): every one of 32 sees a full lobby within 2 s, one
  alone within a local start's time; <= 25 MiB in a game; p99 < 100 ms at 32 sessions.
  A quick run: the fork server alone, 1 and 4 players, no game.
"""

from __future__ import annotations

import asyncio
import os
import pty
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LOOPBACK = "127.0.0.1"
KEYS = {"up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D", "enter": b"\r"}
SHIFT_ARROWS = (b"\x1b[1;2A", b"\x1b[1;2C", b"\x1b[1;2B", b"\x1b[1;2D")


def pct(values: list[float], p: float) -> float:
    data = sorted(values)
    if not data:
        return float("nan")
    return data[min(len(data) - 1, max(0, round(p / 100 * (len(data) - 1))))]


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def uss_kib(pid: int) -> int:
    """The memory only this process holds (Private_Clean + Private_Dirty), in KiB."""
    total = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                total += int(line.split()[1])
    except OSError:
        return 0
    return total


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


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

    async def key_to_screen(self, send: Any, key: bytes, timeout: float = 5.0) -> float:
        await self.quiet()
        self.changed.clear()
        started = time.perf_counter()
        send(key)
        await asyncio.wait_for(self.changed.wait(), timeout)
        return (self.last - started) * 1000


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


def child_pid(front: Any, before: set[int]) -> int | None:
    new = set(front.children) - before
    return next(iter(new), None)


# --- key plans for pathways (the tests' planner, kept here for the load run) ----------------
_SLOTS: dict[tuple[int, int], list[int | None]] = {}


def keys_for_turn(table: Any, seat: int) -> list[bytes] | None:
    from engine.pathways import data as D
    from engine.pathways.actions import EndMove, EndPlays, Place, Remove, Special, Step

    def corner_then(cell: int) -> list[bytes]:
        r, c = divmod(cell, D.SIZE)
        return [KEYS["up"]] * D.SIZE + [KEYS["left"]] * D.SIZE + [KEYS["right"]] * c + [KEYS["down"]] * r

    from tui.pathways.slots import keep_slots

    view, legal = table.match.view(seat), table.match.legal(seat)
    slots = _SLOTS[(id(table), seat)] = keep_slots(_SLOTS.get((id(table), seat), []), tuple(view.hand or ()))

    def slot_key(tile: int) -> bytes:  # the screen keeps a played tile's number empty
        return str(slots.index(tile) + 1).encode()

    places = [a for a in legal if type(a) is Place]
    if places:
        a = min(places, key=lambda a: (a.rot, a.cell))
        return [slot_key(a.tile)] + [b"r"] * a.rot + corner_then(a.cell) + [KEYS["enter"]]
    if any(type(a) is EndPlays for a in legal):
        return [b"e"]
    steps = [a for a in legal if type(a) is Step and a.pod == seat]
    if steps and view.phase == "move" and not view.pending:
        return [SHIFT_ARROWS[steps[0].side]]
    if any(type(a) is EndMove for a in legal):
        return [b"e"]
    removes = [a for a in legal if type(a) is Remove]
    if removes:
        return corner_then(removes[0].cell) + [KEYS["enter"]]
    specials = [a for a in legal if type(a) is Special]
    if specials:
        return [slot_key(specials[0].tile), KEYS["enter"]]
    return None


async def play_session(front: Any, session: SshSession, user: str, deadline: float) -> tuple[list, list]:
    """Open a table against a bot and play it by keys: per move, the time from the keys
    to the host accepting the move, and to the first byte of the screen's answer (ms)."""
    await session.screen.sees(b"table(s)")
    before = set(front.tables.tables)
    session.send(b"n")
    await session.screen.sees(b"Open a table")
    await asyncio.sleep(0.5)
    for group in ([b"\t", b"\t", b"\t"], [b"max_rounds=5"], [b"\r"]):
        for k in group:
            session.send(k)
        await asyncio.sleep(0.3)
    def mine() -> Any:
        return next((t for tid, t in front.tables.tables.items()
                     if tid not in before and t.slots[0].player == user), None)

    while mine() is None:
        if time.perf_counter() > deadline:
            return [], []
        await asyncio.sleep(0.02)
    table = mine()
    times: list[float] = []
    firsts: list[float] = []
    while table.match.result() is None and time.perf_counter() < deadline:
        if 0 not in table.match.to_act() or table.slots[0].conn is None:
            await asyncio.sleep(0.005)
            continue
        n = len(table.match.record.moves)
        keys = keys_for_turn(table, 0)
        if keys is None:
            break
        await session.screen.quiet(0.03, 1.0)
        session.screen.changed.clear()
        started = time.perf_counter()
        session.send(b"".join(keys))
        first = None
        while len(table.match.record.moves) == n and time.perf_counter() < deadline:
            if first is None and session.screen.changed.is_set():
                first = session.screen.last
            await asyncio.sleep(0.002)
        first = first or session.screen.last
        times.append((time.perf_counter() - started) * 1000)
        firsts.append((first - started) * 1000)
    return times, firsts


# --- the runs ----------------------------------------------------------------------------------
async def _bench(quick: bool) -> None:
    from netplay import messages as M
    from tui.ssh.server import SshFront, SshLimits, load_host_key

    tmp = Path(tempfile.mkdtemp(prefix="atlantis-bench-ssh-"))
    key, _ = load_host_key(tmp / "host_key")
    front = SshFront(key, bind=LOOPBACK, port=0, records=tmp / "records", bot_delay=0.0,
                     limits=SshLimits(max_sessions=64, max_per_address=64, rate=1000, child_grace=1.0))
    await front.start()
    samples = 10 if quick else 40  # (the time budget: ``make bench`` < 3 min, ``--quick`` ~30 s)
    try:
        # two tables for the cursor to move between
        front.tables.register_identity("bench-identity-0", "bench")
        for _ in range(2):
            front.tables.open_table("bench", M.OpenTable(game="pathways", players=2, bots=0, name="Bench"))
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV")}
        env.update(TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8")
        argv = front.child_argv("local")

        results: dict[str, list[float]] = {}
        local = LocalPty(argv, env)
        await local.screen.sees(b"2 table(s)")
        results["local"] = [await local.screen.key_to_screen(local.send, KEYS["down" if i % 2 == 0 else "up"])
                            for i in range(samples)]
        local.close()

        before = set(front.children)
        rss_front0 = rss_kib(os.getpid())
        s = await ssh_session(front)
        await s.screen.sees(b"2 table(s)")
        pid = child_pid(front, before)
        results["ssh"] = [await s.screen.key_to_screen(s.send, KEYS["down" if i % 2 == 0 else "up"])
                          for i in range(samples)]
        child_rss = rss_kib(pid) if pid else 0
        await s.close()

        print("ssh: key-to-screen (ms), lobby cursor key, first redraw byte")
        for name in ("local", "ssh"):
            v = results[name]
            print(f"  {name:<6} p50 {pct(v, 50):6.1f}  p90 {pct(v, 90):6.1f}  p99 {pct(v, 99):6.1f}  (n={len(v)})")
        ratio = pct(results["ssh"], 50) / max(0.01, pct(results["local"], 50))
        print(f"  ssh/local p50 ratio {ratio:.2f} (goal <= 1.5), ssh p99 {pct(results['ssh'], 99):.1f} ms "
              f"(goal < 50)")
        print(f"ssh: memory per session: child RSS {child_rss / 1024:.1f} MiB; front RSS was "
              f"{rss_front0 / 1024:.1f} MiB before the session")

        for n in (() if quick else (2, 4)):  # (quick: no load run, the time budget)
            await asyncio.sleep(0.5)
            front_cpu0 = cpu_seconds(os.getpid())
            before = set(front.children)
            sessions = [await ssh_session(front, user=f"p{i}") for i in range(n)]
            await asyncio.sleep(0.2)
            pids = list(set(front.children) - before)
            cpu0 = {p: cpu_seconds(p) for p in pids}
            started = time.perf_counter()
            deadline = started + (6 if quick else 15)
            times = await asyncio.gather(*(play_session(front, s, f"p{i}", deadline)
                                           for i, s in enumerate(sessions)))
            wall = time.perf_counter() - started
            rss = [rss_kib(p) for p in pids]
            cpu = sum(cpu_seconds(p) - cpu0.get(p, 0) for p in pids)
            front_cpu = cpu_seconds(os.getpid()) - front_cpu0
            every = [t for ts, _ in times for t in ts]
            firsts = [t for _, fs in times for t in fs]
            done = sum(1 for ts, _ in times if ts)
            print(f"ssh: {n} sessions ({done} played) each against a bot by keys: {len(every)} moves in {wall:.1f} s "
                  f"({len(every) / wall:.1f}/s); keys-to-screen p50 {pct(firsts, 50):.1f} ms, "
                  f"p99 {pct(firsts, 99):.1f} ms; keys-to-move-accepted (a move is up to ~25 keys) p50 "
                  f"{pct(every, 50):.0f} ms, p99 {pct(every, 99):.0f} ms; children RSS {statistics.mean(rss) / 1024 if rss else 0:.1f} MiB "
                  f"each; CPU children {cpu:.1f} s + front {front_cpu:.1f} s "
                  f"({(cpu + front_cpu) / wall * 100:.0f}% of one core)")
            for s in sessions:
                await s.close()
            while front.children:
                await asyncio.sleep(0.05)
    finally:
        await front.close()


# --- the fork server beside spawn-per-session ------------------------------------------------------
FULL_LOBBY = b"table(s). Enter"  # (the status line once the table list is in)


async def bench_front(tmp: Path, fork_server: bool) -> Any:
    """A front with two tables in its lobby, its fork server (if any) warm."""
    from netplay import messages as M
    from tui.ssh.server import SshFront, SshLimits, load_host_key

    key, _ = load_host_key(tmp / "host_key")
    front = SshFront(key, bind=LOOPBACK, port=0, records=tmp / f"records-{fork_server}", bot_delay=0.0,
                     fork_server=fork_server,
                     limits=SshLimits(max_sessions=128, max_per_address=128, rate=10000, child_grace=1.0))
    await front.start()
    if fork_server:
        end = time.perf_counter() + 60
        while (front.forkserver is None or not front.forkserver.alive) and time.perf_counter() < end:
            await asyncio.sleep(0.05)
    front.tables.register_identity("bench-identity-0", "bench")
    for _ in range(2):
        front.tables.open_table("bench", M.OpenTable(game="pathways", players=2, bots=0, name="Bench"))
    return front


async def close_all(front: Any, sessions: list[SshSession]) -> None:
    await asyncio.gather(*(s.close() for s in sessions))
    end = time.perf_counter() + 10
    while front.children and time.perf_counter() < end:
        await asyncio.sleep(0.05)


async def arrive_together(front: Any, n: int, tag: str) -> tuple[list[float], list[SshSession], list[float]]:
    """``n`` players connect at once: each one's seconds from connecting to a full lobby,
    the sessions, and each one's seconds to its SSH session (logged in, PTY granted)."""
    async def one(i: int) -> tuple[float, SshSession, float]:
        started = time.perf_counter()
        session = await ssh_session(front, user=f"{tag}{i}")
        logged_in = time.perf_counter() - started
        await session.screen.sees(FULL_LOBBY, timeout=90)
        return time.perf_counter() - started, session, logged_in

    done = await asyncio.gather(*(one(i) for i in range(n)))
    return [t for t, _, _ in done], [s for _, s, _ in done], [t for _, _, t in done]


async def open_game(front: Any, session: SshSession, user: str) -> bool:
    """From the lobby, a Pathways table against a bot, its game screen drawn."""
    before = set(front.tables.tables)
    session.send(b"n")
    await session.screen.sees(b"Open a table")
    await asyncio.sleep(0.5)
    for k in (b"\t", b"\t", b"\t", b"max_rounds=5", b"\r"):
        session.send(k)
        await asyncio.sleep(0.3)
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


async def _bench_fork_server(quick: bool) -> None:
    """The crowd of the last arrival stays for the key runs (8 of it, then all of it;
    with the fork server 32 more join for 64): starting 32 spawned children again would
    cost 15 s, and 64 of them 35 s, of a bench that has about 90 s for all this."""
    tmp = Path(tempfile.mkdtemp(prefix="atlantis-bench-zygote-"))
    crowds = (1, 4) if quick else (1, 16, 32)
    press_seconds = 3.0 if quick else 5.0
    print("ssh fork server (zygote) beside a child spawned per session (players arriving together: "
          "connect to a full lobby)")

    async def press(mode: str, sessions: list[SshSession]) -> None:
        await asyncio.sleep(1.0)  # (the last to arrive have drawn their lobby: let them settle)
        times = await keys_each_second(sessions, press_seconds)
        n = len(sessions)
        print(f"  {mode} {n:>2} sessions, a key a second each: key-to-screen p50 {pct(times, 50):6.1f} ms, "
              f"p99 {pct(times, 99):6.1f} ms (n={len(times)}{'; goal p99 < 100 ms' if n == 32 else ''})")

    for fork_server in ((True,) if quick else (True, False)):  # (quick: a smoke test of the fork server)
        mode = "fork " if fork_server else "spawn"
        t0 = time.perf_counter()
        front = await bench_front(tmp, fork_server)
        warm = time.perf_counter() - t0
        try:
            if fork_server:
                zygote = front.forkserver.proc.pid
                print(f"  fork server warm in {warm:.1f} s; it holds {uss_kib(zygote) / 1024:.1f} MiB USS, "
                      f"{rss_kib(zygote) / 1024:.1f} MiB RSS (shared with every session)")
                print(f"  local start (lobby in a PTY, no SSH): {await local_start(front):.2f} s to a full lobby")
            game = await ssh_session(front, user="gamer")
            await game.screen.sees(FULL_LOBBY, timeout=60)
            (pid,) = front.children
            lobby_uss = uss_kib(pid)
            if quick:
                print(f"  {mode} one session's USS: {lobby_uss / 1024:.1f} MiB in the lobby")
            elif await open_game(front, game, "gamer"):
                print(f"  {mode} one session's USS: {lobby_uss / 1024:.1f} MiB in the lobby, "
                      f"{uss_kib(pid) / 1024:.1f} MiB in a Pathways game (goal <= 25 MiB in a game)")
            else:
                print(f"  {mode} the game did not open: no figure in a game")
            await close_all(front, [game])
            sessions: list[SshSession] = []
            for n in crowds:
                await close_all(front, sessions)
                times, sessions, ssh_times = await arrive_together(front, n, f"c{n}-")
                pids = list(front.children)
                cpu = statistics.mean(cpu_seconds(p) for p in pids) if pids else 0.0
                uss = statistics.mean(uss_kib(p) for p in pids) / 1024 if pids else 0.0
                print(f"  {mode} {n:>2} at once: to a full lobby p50 {pct(times, 50):5.2f} s, slowest "
                      f"{max(times):5.2f} s (SSH session itself: slowest {max(ssh_times):5.2f} s); each child "
                      f"{cpu:.2f} CPU-s, {uss:.1f} MiB USS in the lobby")
            if not quick:
                await press(mode, sessions[:8])
            await press(mode, sessions)
            if fork_server and not quick:
                _, more, _ = await arrive_together(front, 32, "more-")
                sessions += more
                await press(mode, sessions)
            await close_all(front, sessions)
        finally:
            await front.close()

def run(quick: bool = False, seeds: int = 0) -> None:
    try:
        import asyncssh  # noqa: F401
    except ImportError:
        print("ssh: skipped (asyncssh is not installed)")
        return
    asyncio.run(_bench(quick))
    asyncio.run(_bench_fork_server(quick))


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
