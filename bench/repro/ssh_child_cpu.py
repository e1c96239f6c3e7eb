"""One SSH session's child, from its fork to its first full lobby: the CPU it takes
(user + system, from /proc/PID/stat at the moment its full lobby reaches the player), and
with ``--profile FILE`` a cProfile of that start taken inside the child (CPU clock).
Run: ``python -m bench.repro.ssh_child_cpu [--starts N] [--profile FILE]``.

The children start one after another (no crowd), each from the same warm fork server as
``serve-ssh`` uses: the figure is what one more player arriving costs the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.ssh import FULL_LOBBY, bench_front, close_all, ssh_session

#: Run in the child instead of ``python -m tui.cli ...``: the same command, profiled, its
#: profile written on SIGUSR1 (sent once the player sees the full lobby).
PROFILED = """
import cProfile, signal, sys, time
profile = cProfile.Profile(time.process_time)
def dump(signum, frame):
    profile.disable()
    profile.dump_stats(out)
signal.signal(signal.SIGUSR1, dump)
out = sys.argv[1]
sys.argv = ["atlantis", *sys.argv[2:]]
from tui.cli import main
profile.enable()
main(sys.argv[1:])
"""


def cpu_seconds(pid: int) -> tuple[float, float]:
    """A process's user and system CPU seconds so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


async def main(starts: int, profile: str | None) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="atlantis-child-cpu-"))
    front: Any = None

    def profiled(name: str) -> list[str]:  # (the lobby's command line, profiled: see SshFront.child_argv)
        return [sys.executable, "-c", PROFILED, profile, "join", front.tables.bind, "--server-lobby", "--plain-link",
                "--name", name]

    front = await bench_front(tmp, fork_server=True, child_argv=profiled if profile else None)
    cpus, systems, walls = [], [], []
    try:
        for i in range(starts):
            started = time.perf_counter()
            session = await ssh_session(front, user=f"cpu{i}")
            await session.screen.sees(FULL_LOBBY, timeout=60)
            walls.append(time.perf_counter() - started)
            (pid,) = front.children
            user, system = cpu_seconds(pid)
            cpus.append(user + system)
            systems.append(system)
            if profile:
                os.kill(pid, signal.SIGUSR1)
                await asyncio.sleep(0.5)
            await close_all(front, [session])
    finally:
        await front.close()
    print(f"child CPU to a full lobby: median {statistics.median(cpus) * 1e3:.0f} ms "
          f"(all: {', '.join(f'{c * 1e3:.0f}' for c in cpus)}; of it system: median "
          f"{statistics.median(systems) * 1e3:.0f} ms); wall median {statistics.median(walls) * 1e3:.0f} ms; "
          f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=7)
    parser.add_argument("--profile")
    args = parser.parse_args()
    asyncio.run(main(args.starts, args.profile))
