"""LAN play on 127.0.0.1: the action round trip, the host's actions per core, and the
table server's scaling over worker processes.

The host always runs in its own process and the clients are cheap scripted ones
(``bench.lanload``), so the host is the process at 100%:

* Round trip: Pathways tables one after another, 4 clients each, closed loop: from the
  acting client's send until every seat has its new view (game-ending moves, which carry
  the whole record, left out).  Inside TLS, as ``atlantis host`` and ``join`` play,
  beside the same games in cleartext.  Goal: p99 < 2 ms.
* Host CPU: one host process, tables played at full speed (the next actor acts as soon
  as it may): accepted actions per CPU second of the host.  Goal: >= 3,000 a core.
* Scaling: ``atlantis serve``'s table server with 2 worker processes beside one process,
  100 tables x 4 clients (quick: 8) at full speed, clocked for a window in which every
  table plays.  Goal: >= 1.7x on 2 cores.  The full run adds the same tables with
  players thinking 0.125-0.375 s an action: the round trip to the actor's own new view.
  Goal: p99 < 50 ms.
* Beside thinking bots: the round trip of one table (as above, cleartext) at a host
  where 4 other tables are played by hard bots, each thinking up to its 1 s cap a
  decision in the host's worker processes (``netplay.thinking``), beside the same host
  with no bots.  Goal: p99 < 50 ms (a player notices no wait).  The full run adds the
  same with the bots deciding on the host's event loop, as they did before the workers
  (a minute of play: each round trip waits for searches there).
"""

from __future__ import annotations

import asyncio
import functools
import os
import sys

from .lanload import Proc, Stats, Table, drive, play, script
from .report import Row, percentile, print_table

GOAL_ROUND_TRIP_P99_MS = 2.0
GOAL_ACTIONS_PER_CORE = 3_000
GOAL_SCALING = 1.7
GOAL_PACED_P99_MS = 50.0
GOAL_BESIDE_BOTS_P99_MS = 50.0
HARD_BOT_TABLES = 4
ROUNDS = 10  # (a Pathways game of 10 rounds: ~100-150 moves)


async def round_trips(samples: int, tls: bool) -> list[float]:
    """Seconds from an action's send until every seat has its new view, one table after another."""
    games = max(1, -(-samples // (len(script(1000, ROUNDS)) - 1)))
    env = dict(os.environ, ATLANTIS_BENCH_TLS="1") if tls else None
    host = await Proc.start("host", games, ROUNDS, env=env)
    stats = Stats()
    try:
        for i, table_id in enumerate(host.ids):
            await play(host.port, [Table(table_id, script(1000 + i, ROUNDS), closed=True, stats=stats)], tls=tls)
    finally:
        await host.stop()
    return stats.steady


async def beside_bots(samples: int, bot_tables: int, inline: bool = False, duration: float | None = None) -> list[float]:
    """``round_trips`` (cleartext) at a host where ``bot_tables`` tables of hard bots play
    meanwhile (0: none); ``inline``: their bots decide on the host's event loop
    (``duration``: seconds of play at most)."""
    games = max(1, -(-samples // (len(script(1000, ROUNDS)) - 1)))
    host = await Proc.start("bots", games, bot_tables, ROUNDS, int(inline))
    stats = Stats()
    try:
        for i, table_id in enumerate(host.ids):
            await play(host.port, [Table(table_id, script(1000 + i, ROUNDS), closed=True, stats=stats)],
                       timeout=600, duration=duration)
            if len(stats.steady) >= samples:
                break
    finally:
        await host.stop()
    return stats.steady


async def actions_per_core(tables: int) -> float:
    """One host process, ``tables`` tables at full speed: actions per CPU second of the host."""
    host = await Proc.start("host", tables, ROUNDS)
    stats = Stats()
    try:
        made = [Table(table_id, script(1000 + i, ROUNDS), stats=stats) for i, table_id in enumerate(host.ids)]
        before: list[float] = []
        drive(host.port, made, started=lambda: before.append(sum(host.cpu())))
        cpu = sum(host.cpu()) - before[0]
    finally:
        await host.stop()
    return stats.moves / cpu


@functools.lru_cache(maxsize=None)
def _script(seed: int, rounds: int) -> list:
    """``script``, made once a bench (the scaling runs play the same tables again)."""
    return script(seed, rounds)


async def table_server(workers: int, tables: int, window: float, think: float = 0.0) -> tuple[Stats, float]:
    """The table server (``workers``: 0 in one process) with ``tables`` tables of 4
    clients, played for about ``window`` seconds once every seat is seated: the stats
    (``own``: each action's time to the actor's own new view) and the wall time played."""
    server = await Proc.start("server", workers, tables, 30)
    stats = Stats()
    try:
        made = []
        for i, ticket in enumerate(server.ids):
            table_id, tokens = ticket.split(":")
            made.append(Table(table_id, _script(1000 + i, 30), stats=stats, token=tokens, think=think))
        wall = drive(server.port, made, duration=window, seated=True)
    finally:
        await server.stop()
    return stats, wall


def run(quick: bool = False) -> None:
    rows = asyncio.run(_rows(quick))
    print_table("LAN: the host and the table server (loopback, host in its own process)", rows,
                f"cheap scripted clients in this process; {'quick run: fewer samples, 8 tables' if quick else ''}"
                .rstrip("; "))


async def _rows(quick: bool) -> list[Row]:
    samples = 120 if quick else 800
    clear = await round_trips(samples, tls=False)
    inside = await round_trips(samples, tls=True)
    per_core = await actions_per_core(8 if quick else 40)
    tables, window = (8, 0.3) if quick else (100, 0.6)
    best: dict[int, float] = {0: 0.0, 2: 0.0}
    for _ in range(1 if quick else 2):  # (best of two, alternated: other programs take whole seconds)
        for workers in best:
            stats, wall = await table_server(workers, tables, window)
            best[workers] = max(best[workers], len(stats.own) / wall)
    clear_p99, tls_p99 = percentile(clear, 0.99) * 1e3, percentile(inside, 0.99) * 1e3
    rows = [
        Row("round trip p50, cleartext", percentile(clear, 0.5) * 1e3, "ms"),
        Row("round trip p99, cleartext", clear_p99, "ms", goal=f"< {GOAL_ROUND_TRIP_P99_MS:g} ms",
            met=clear_p99 < GOAL_ROUND_TRIP_P99_MS),
        Row("round trip p50, TLS", percentile(inside, 0.5) * 1e3, "ms", percentile(clear, 0.5) * 1e3, "cleartext"),
        Row("round trip p99, TLS", tls_p99, "ms", clear_p99, "cleartext", goal=f"< {GOAL_ROUND_TRIP_P99_MS:g} ms",
            met=tls_p99 < GOAL_ROUND_TRIP_P99_MS),
        Row("host: actions per CPU second", per_core, "/s", goal=f">= {GOAL_ACTIONS_PER_CORE:,}/s",
            met=per_core >= GOAL_ACTIONS_PER_CORE),
        Row(f"table server, 2 workers, {tables} tables", best[2], "actions/s", best[0], "one process",
            goal=f">= {GOAL_SCALING}x", met=best[2] / best[0] >= GOAL_SCALING if best[0] else None),
    ]
    alone = percentile(await beside_bots(samples, 0), 0.99) * 1e3
    bots = percentile(await beside_bots(samples, HARD_BOT_TABLES), 0.99) * 1e3
    rows.append(Row(f"round trip p99 beside {HARD_BOT_TABLES} hard bots thinking", bots, "ms", alone, "no bots",
                    goal=f"< {GOAL_BESIDE_BOTS_P99_MS:g} ms", met=bots < GOAL_BESIDE_BOTS_P99_MS))
    if not quick:
        inline = percentile(await beside_bots(20, HARD_BOT_TABLES, inline=True, duration=60.0), 0.99) * 1e3
        rows.append(Row("... the bots on the host's event loop", inline, "ms", alone, "no bots"))
        paced, _ = await table_server(2, tables, 5.0, think=0.25)
        p99 = percentile(paced.own, 0.99) * 1e3
        rows.append(Row(f"paced, {tables} tables x 4 thinking: own view p99", p99, "ms",
                        goal=f"< {GOAL_PACED_P99_MS:g} ms", met=p99 < GOAL_PACED_P99_MS))
    return rows


if __name__ == "__main__":
    run(quick="--quick" in sys.argv)
