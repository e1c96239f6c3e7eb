"""Bot decisions that take long (a hard bot's search, up to its think cap) run off the
event loop, so a table's screen and its server keep answering while a bot thinks.

``Thinker.decide(bot, view, legal, fallback)`` gives the bot's action and the bot as it
is after deciding; the caller keeps that bot for its next decision.  A bot that is not
``slow`` (every easy and normal bot: well under a millisecond) decides at once, here.
A slow one decides in a worker process (``python -m netplay.thinking``; up to
``processes`` of them, one a CPU by default, started as a table of slow bots opens or
on the first slow decision; more bots than workers wait their turn).  The bot goes there
pickled and comes back pickled with its action, so its state (its random stream) is
what the same decision here would have left: the same seed and view give the same move.
Processes, not threads: a pure-Python search in a thread holds the GIL, and the loop
waits up to the switch interval (5 ms) each time it wants it back (measured on a 2-core
machine: a host's echo round trip, p50 0.1 ms, went to 17 ms with 4 searches in threads
and stayed at 0.1 ms with 4 in processes).  A worker runs at a lower priority
(``NICE``): where the cores are busy, the loop that answers players comes first.

What can go wrong: the bot raises, its worker dies, or its decision has not come back
``HUNG_AFTER`` seconds past the bot's own think cap (that worker is killed).  Then the
``fallback`` bot (the game's normal bot for that seat) decides instead, a warning is
logged, and the table goes on.  A decision nobody waits for any more (its table was
left or closed) kills its worker: nothing is left running that would answer a table
that is gone.  A worker whose parent is gone reads the end of its input and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import struct
import sys
from typing import Any, Callable

from engine.core import Bot, View

log = logging.getLogger("atlantis.bots")

#: Seconds past a bot's think cap after which its decision counts as hung.
HUNG_AFTER = 10.0
#: A worker's scheduling priority below its parent's: where the cores are busy, a search
#: gives way to the tables' event loop (it has the rest of its think cap to use).
NICE = 10
HEADER = struct.Struct(">I")


def decide_here(bot: Bot, view: View, legal: list[Any]) -> tuple[Any, Bot]:
    """One decision, and the bot after it."""
    return bot.choose(view, legal), bot


class Worker:
    """One worker process and the pipe to it (one decision at a time)."""

    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc

    @classmethod
    async def start(cls) -> "Worker":
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "netplay.thinking", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        return cls(proc)

    async def decide(self, bot: Bot, view: View, legal: list[Any]) -> tuple[Any, Bot]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        job = pickle.dumps((bot, view, legal), protocol=pickle.HIGHEST_PROTOCOL)
        self.proc.stdin.write(HEADER.pack(len(job)) + job)
        await self.proc.stdin.drain()
        (size,) = HEADER.unpack(await self.proc.stdout.readexactly(HEADER.size))
        ok, answer = pickle.loads(await self.proc.stdout.readexactly(size))
        if not ok:
            raise RuntimeError(answer)
        return answer

    def kill(self) -> None:
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # (it has just ended)
                self.proc.kill()


class Thinker:
    """The slow bots' decisions of the tables of one event loop (an app, a host, a table
    server), in up to ``processes`` worker processes.  ``threads=True``: in a thread of
    this process instead (for tests whose bots must share memory with them)."""

    def __init__(self, processes: int | None = None, *, threads: bool = False):
        self.processes = processes or os.cpu_count() or 1  # (one search a core: each has its cap's worth)
        self.threads = threads
        self.slots = asyncio.Semaphore(self.processes)  # (one a worker: a decision each)
        self.idle: list[Worker] = []
        self.workers: set[Worker] = set()
        self.closed = False
        self._warming: asyncio.Task[None] | None = None

    def warm(self) -> None:
        """Start a worker now, if none is up: a table whose bots are slow calls this as it
        opens, so its first decision does not wait for a process to start."""
        if not self.threads and not self.closed and not self.workers and self._warming is None:
            self._warming = asyncio.ensure_future(self._warm())

    async def _warm(self) -> None:
        async with self.slots:
            if not self.workers and not self.closed:
                try:
                    self.idle.append(await self._start())
                except Exception as exc:  # (the first decision tries again, and falls back if it must)
                    if not self.closed:
                        log.warning("a bot's worker did not start (%s: %s)", type(exc).__name__, exc)

    async def decide(self, bot: Bot, view: View, legal: list[Any],
                     fallback: Callable[[], Bot]) -> tuple[Any, Bot]:
        """``bot``'s action on ``view`` and the bot to keep; a slow bot decides off this
        loop (``fallback()`` makes the bot that decides if it cannot)."""
        if not bot.slow:
            return decide_here(bot, view, legal)
        think = getattr(bot, "think", None)  # (a search's own cap, in seconds: SearchBot's)
        limit = HUNG_AFTER + (think if isinstance(think, (int, float)) else 0)
        try:
            if self.threads:
                return await asyncio.wait_for(asyncio.to_thread(decide_here, bot, view, legal), limit)
            return await self._in_worker(bot, view, legal, limit)
        except asyncio.TimeoutError:
            log.warning("a bot's decision did not come back in %g s: the normal bot decides", limit)
        except Exception as exc:  # (a bug in the bot, or its worker died: the table goes on)
            log.warning("a bot's decision failed (%s: %s): the normal bot decides", type(exc).__name__, exc)
        return decide_here(fallback(), view, legal)[0], bot

    async def _in_worker(self, bot: Bot, view: View, legal: list[Any], limit: float) -> tuple[Any, Bot]:
        async with self.slots:
            if self.closed:
                raise RuntimeError("the bots' workers are closed")
            worker = self.idle.pop() if self.idle else await self._start()
            try:
                answer = await asyncio.wait_for(worker.decide(bot, view, legal), limit)
            except BaseException:  # (hung, dead, or nobody waits any more: that worker goes)
                self._kill(worker)
                raise
            if self.closed:
                self._kill(worker)
            else:
                self.idle.append(worker)
            return answer

    async def _start(self) -> Worker:
        worker = await Worker.start()
        self.workers.add(worker)
        if self.closed:  # (closed while it started)
            self._kill(worker)
            raise RuntimeError("the bots' workers are closed")
        return worker

    def _kill(self, worker: Worker) -> None:
        worker.kill()
        self.workers.discard(worker)

    def close(self) -> None:
        """Kill the workers (a decision under way falls back, or is dropped with its table)."""
        self.closed = True
        self.killed = [worker.proc for worker in self.workers]
        for worker in list(self.workers):
            self._kill(worker)
        self.idle.clear()

    async def wait_closed(self, timeout: float = 2.0) -> None:
        """After ``close``: wait until the killed workers have ended, so their pipes are
        closed before the event loop is (an app's loop ends right after it unmounts)."""
        waits = [proc.wait() for proc in self.killed]
        if waits:
            await asyncio.wait_for(asyncio.gather(*waits, return_exceptions=True), timeout)

    killed: list[asyncio.subprocess.Process] = []


def serve(stdin: Any, stdout: Any) -> None:
    """A worker: pickled ``(bot, view, legal)`` in, pickled ``(ok, (action, bot))`` or
    ``(False, why)`` out, until its input ends."""
    while True:
        head = stdin.read(HEADER.size)
        if len(head) < HEADER.size:
            return
        (size,) = HEADER.unpack(head)
        try:
            bot, view, legal = pickle.loads(stdin.read(size))
            out = pickle.dumps((True, decide_here(bot, view, legal)), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            out = pickle.dumps((False, f"{type(exc).__name__}: {exc}"))
        stdout.write(HEADER.pack(len(out)) + out)
        stdout.flush()


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (Ctrl+C is for the parent: it ends its workers)
    os.nice(NICE)
    serve(sys.stdin.buffer, sys.stdout.buffer)
