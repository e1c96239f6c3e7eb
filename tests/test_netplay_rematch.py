"""Rematch: at game over every seat may ask for another game; when every human has,
the host opens a new table with the same seats, names, options and bots and a new
secret seed, and moves everyone (players with new tokens, spectators too) to it.
Over loopback, on a LAN host and on a table server."""

from __future__ import annotations

import asyncio

from netplay import messages
from netplay.client import run_bot
import pytest

from netplay.server import ask
from netplay.workers import make_server
from netplay.tls import Trust

from netplay_helpers import ALL_GAMES, LOOPBACK, client, running_host, until

GAME = ALL_GAMES["pathways"]


async def play_two_games(host, players, watcher, first_id: str) -> None:
    tasks = [asyncio.ensure_future(run_bot(c, seed=i + 1)) for i, c in enumerate(players)]
    await until(lambda: all(c.over is not None for c in players), timeout=60)
    assert watcher.rematch()  # (spectators follow the players to a rematch; they do not ask for one)
    assert players[0].rematch() is None
    await until(lambda: all(c.seats is not None and c.seats.rematch == [players[0].seat] for c in players))
    if hasattr(host.tables[first_id], "rematch_wanted"):  # (a table in this process)
        assert host.tables[first_id].rematch_wanted == {players[0].seat}
    assert players[1].rematch() is None
    await until(lambda: all(c.table != first_id and c.over is not None for c in players + [watcher]), timeout=60)
    for c in players:
        assert c.verification.ok, c.verification
    for t in tasks:
        t.cancel()


async def test_on_a_lan_host_every_human_accepting_starts_a_new_table_with_the_same_seats(tmp_path):
    async with running_host(GAME, ["open", "open", "bot"], seed=4, log=tmp_path / "first.atlrec") as host:
        first = host.table
        first.turn_time = 300.0
        players = [client(host, name=n, linger=True) for n in ("Ann", "Bob")]
        watcher = client(host, name="Zed", spectate=True, linger=True)
        watcher.start()
        await play_two_games(host, players, watcher, first.id)
        (second,) = [t for t in host.tables.values() if t is not first]
        assert [s.kind for s in second.slots] == ["open", "open", "bot"]
        assert second.names() == first.names() and second.match.record.options == first.match.record.options
        assert second.turn_time == 300.0 and second.commitment != first.commitment
        assert not second.match.practice and second.match.seed != first.match.seed
        assert [c.seat for c in players] == [0, 1]
        assert second.log is not None and second.log.path != first.log.path and second.log.path.exists()
        assert watcher.spectate and watcher.over is not None
        late = client(host, name="Late", spectate=True)  # (names no table: the one still played, or the last)
        late.start()
        await until(lambda: late.status in ("connected", "over", "refused", "closed"))
        assert late.status != "refused", late.last_error
        for c in players + [watcher, late]:
            await c.close()


async def test_turning_a_rematch_down_clears_it():
    async with running_host(GAME, ["open", "open"], seed=5) as host:
        players = [client(host, name=n, linger=True) for n in ("Ann", "Bob")]
        tasks = [asyncio.ensure_future(run_bot(c, seed=i + 1)) for i, c in enumerate(players)]
        await until(lambda: all(c.over is not None for c in players), timeout=60)
        assert players[0].rematch() is None
        await until(lambda: host.table.rematch_wanted == {0})
        assert players[1].rematch(accept=False) is None
        await until(lambda: not host.table.rematch_wanted)
        assert len(host.tables) == 1
        for t in tasks:
            t.cancel()
        for c in players:
            await c.close()


@pytest.mark.parametrize("workers", [0, 2])
async def test_on_a_table_server_the_rematch_keeps_each_player_s_ticket(tmp_path, workers):
    server = make_server(workers=workers, host=LOOPBACK, port=0, records=tmp_path)
    await server.start()
    try:
        trust = Trust()
        ana = (await ask(LOOPBACK, server.port, messages.ListTables(), 10, trust)).identity
        bo = (await ask(LOOPBACK, server.port, messages.ListTables(), 10, trust)).identity
        seated = await ask(LOOPBACK, server.port, messages.OpenTable(game="pathways", players=2, name="Ana", identity=ana),
                           10, trust)
        taken = await ask(LOOPBACK, server.port, messages.TakeSeat(table=seated.ticket.table, name="Bo", identity=bo),
                          10, trust)
        players = [client(server, name=n, token=t.ticket.token, table=t.ticket.table, linger=True)
                   for n, t in (("Ana", seated), ("Bo", taken))]
        watcher = client(server, name="Zed", spectate=True, table=seated.ticket.table, linger=True)
        watcher.start()
        await play_two_games(server, players, watcher, seated.ticket.table)
        new_id = players[0].table
        assert new_id != seated.ticket.table and players[1].table == new_id
        if not workers:  # (in one process: what the lobby gives each player back, its seat there)
            tickets = server.owned[new_id].tickets
            assert tickets[server.identity(ana)].token == players[0].token
            assert tickets[server.identity(bo)].token == players[1].token
            assert server.owned[new_id].owner == server.owned[seated.ticket.table].owner
        for c in players + [watcher]:
            await c.close()
    finally:
        await server.close()
