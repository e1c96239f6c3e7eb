"""What else the machine did while the bench ran, so that a figure read on a busy machine
says so (Linux: ``/proc/stat``; elsewhere nothing is printed).

The machine's busy CPU time over the run, less this process's and its waited-for
children's (every bench part's processes: hosts, workers, app starts, SSH sessions), is
what other programs took; the hypervisor's steal is given apart.  (A left-over app at
half a core once slowed four runs of this bench by 10-20% before anyone saw it.)"""

from __future__ import annotations

import os
import resource

BUSY = 0.10  # other programs' share of one core from which the run is called busy


def _machine() -> tuple[float, float] | None:
    """(busy, stolen) CPU seconds since boot, or None where /proc/stat is not there."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(x) for x in fields[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = (ticks + [0] * 7)[:7]
    steal = ticks[7] if len(ticks) > 7 else 0
    hz = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / hz, steal / hz


def _own() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


class Watch:
    """``Watch()`` at the start of a run; ``line(wall)`` at its end."""

    def __init__(self) -> None:
        self.machine, self.own = _machine(), _own()

    def line(self, wall: float) -> str | None:
        now = _machine()
        if now is None or self.machine is None or wall <= 0:
            return None
        busy, stolen = now[0] - self.machine[0], now[1] - self.machine[1]
        other = max(0.0, busy - (_own() - self.own))
        share = other / wall
        note = (": the machine was busy, and the figures above read slower than the code is"
                if share >= BUSY else ": a quiet machine")
        return (f"other programs on this machine took {other:.1f} CPU s while the bench ran"
                f" ({100 * share:.0f}% of one core; {os.cpu_count()} CPUs), the hypervisor"
                f" stole {stolen:.1f} s{note}")
