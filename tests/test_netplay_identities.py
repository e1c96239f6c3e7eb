"""Who is who on a table server: every client gets an identity secret from the server
(never its address), a seat is taken only with a ticket the lobby gave that identity,
one identity holds a capped number of seats, a seat never joined is given up, and old
logs of tables no longer played are removed.  Each runs over loopback with the single
process server and, where it matters, with two worker processes (``--workers 2``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from netplay import messages
from netplay.client import Client, run_bot
from netplay.identity import IdentityStore, ServerLobby
from netplay.server import ServerLimits, ask, record_name
from netplay.wire import MAX_HOST_FRAME, read_frame
from netplay.workers import make_server

from netplay_helpers import LOOPBACK, until

pytestmark = pytest.mark.timeout(60)

WORKERS = [pytest.param(0, id="one-process"), pytest.param(2, id="two-workers")]


@contextlib.asynccontextmanager
async def running(tmp_path: Path, workers: int, **limits):
    server = make_server(workers=workers, name="ids", host=LOOPBACK, port=0, records=tmp_path / "records",
                         server_limits=ServerLimits(**limits))
    await server.start()
    try:
        yield server
    finally:
        await server.close()


def lobby(server, folder: Path | None = None) -> ServerLobby:
    """A player's lobby client; ``folder``: its data folder (None: kept in memory only)."""
    store = IdentityStore(folder / IdentityStore.FILE) if folder is not None else IdentityStore()
    return ServerLobby(LOOPBACK, server.port, store=store)


def table_msg(players: int = 2, bots: int = 0, name: str = "Player") -> messages.OpenTable:
    return messages.OpenTable(game="pathways", players=players, bots=bots, name=name, options={"max_rounds": 5})


def seat_client(server, ticket: messages.Ticket, **kw) -> Client:
    return Client(LOOPBACK, server.port, token=ticket.token, table=ticket.table, backoff=(0.02, 0.2), **kw)


async def hello(server, **fields) -> messages.Msg:
    """The first answer to one hello (inside TLS, the table named as a client names it)."""
    from netplay.tls import client_context, sni_name

    reader, writer = await asyncio.open_connection(LOOPBACK, server.port, ssl=client_context(),
                                                   server_hostname=sni_name(fields.get("table")) or "")
    try:
        writer.write(messages.frame(messages.Hello(**fields)))
        return messages.parse_host(await read_frame(reader, MAX_HOST_FRAME, 5))
    finally:
        writer.close()


@pytest.mark.parametrize("workers", WORKERS)
async def test_two_players_from_one_address_sit_at_their_own_seats_and_play_to_the_end(tmp_path, workers):
    """Ana and Bo both come from 127.0.0.1 (as through one NAT or ``ssh -L``), each with
    their own data folder: different identities, different seats, one game played out."""
    async with running(tmp_path, workers) as server:
        ana, bo = lobby(server, tmp_path / "ana"), lobby(server, tmp_path / "bo")
        opened = await ana.open_table(table_msg(name="Ana"))  # (no identity yet: it asks for one first)
        assert isinstance(opened, messages.Seated), opened
        listed = await bo.list_tables()
        assert listed.identity and listed.identity != ana.identity
        assert listed.mine == [] and [t.open for t in listed.tables] == [1]
        took = await bo.take_seat(opened.ticket.table, "Bo")
        assert isinstance(took, messages.Seated), took
        assert took.ticket.seat != opened.ticket.seat and took.ticket.token != opened.ticket.token
        a = seat_client(server, opened.ticket, name="Ana")
        b = seat_client(server, took.ticket, name="Bo")
        tasks = [asyncio.ensure_future(run_bot(c, delay=0.002)) for c in (a, b)]
        await until(lambda: len(a.events) >= 4, timeout=20)
        a._writer.transport.abort()  # Ana's connection drops: her client comes back to her seat
        await asyncio.wait_for(asyncio.gather(*tasks), 40)
        assert {a.seat, b.seat} == {0, 1} and a.over.digest == b.over.digest
        assert a.verification.ok and b.verification.ok
        # Each data folder keeps its own identity, private; the same folder is the same player.
        files = [tmp_path / who / IdentityStore.FILE for who in ("ana", "bo")]
        assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
        assert lobby(server, tmp_path / "ana").identity == ana.identity != bo.identity


async def test_two_headless_joins_with_their_own_data_folders_take_their_own_seats(tmp_path):
    """``atlantis join HOST:PORT --bot --headless`` on a table server takes a seat through
    its lobby; two such programs from one address, each with its own XDG_DATA_HOME, are
    two players at one table, and play it to the end with the opener."""
    async with running(tmp_path, 0) as server:
        opener = lobby(server)
        opened = await opener.open_table(table_msg(players=3, name="Ana"))
        a = seat_client(server, opened.ticket, name="Ana")
        playing = asyncio.ensure_future(run_bot(a))
        procs = []
        for who in ("Bo", "Cy"):
            env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / who))
            procs.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui.cli", "join", f"{LOOPBACK}:{server.port}", "--bot", "--headless",
                "--name", who, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT))
        try:
            outs = [(await asyncio.wait_for(p.communicate(), 50))[0].decode() for p in procs]
        finally:
            for p in procs:
                if p.returncode is None:
                    p.kill()
                    await p.wait()
        await asyncio.wait_for(playing, 10)
        assert [p.returncode for p in procs] == [0, 0], outs
        seats = sorted(line.split(" as ")[1].split(";")[0] for out in outs for line in out.splitlines()
                       if line.startswith("Joined"))
        assert seats == ["seat 1", "seat 2"], outs
        assert all("Verified" in out for out in outs) and a.over is not None
        secrets_kept = [(tmp_path / who / "atlantis" / IdentityStore.FILE) for who in ("Bo", "Cy")]
        assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in secrets_kept)
        assert secrets_kept[0].read_text() != secrets_kept[1].read_text()


@pytest.mark.parametrize("workers", WORKERS)
async def test_a_hello_without_a_ticket_is_refused_and_may_only_watch(tmp_path, workers):
    async with running(tmp_path, workers) as server:
        opened = await lobby(server).open_table(table_msg(players=3))
        table = opened.ticket.table
        refused = await hello(server, table=table, name="Squatter")
        assert isinstance(refused, messages.Error) and refused.code == "ticket-needed" and refused.fatal
        assert "lobby" in refused.message
        listed = await lobby(server).list_tables()
        assert [t.open for t in listed.tables] == [2]  # (no seat was taken)
        c = Client(LOOPBACK, server.port, table=table, backoff=(0.02, 0.2))  # the client says why, once
        c.start()
        await asyncio.wait_for(c.finished.wait(), 10)
        assert c.status == "refused" and "lobby" in c.last_error
        watching = await hello(server, table=table, spectate=True)
        assert isinstance(watching, messages.Welcome) and watching.seat is None and watching.token is None


@pytest.mark.parametrize("workers", WORKERS)
async def test_mine_never_shows_another_identitys_seats(tmp_path, workers):
    async with running(tmp_path, workers) as server:
        ana, bo = lobby(server), lobby(server)
        tickets = [(await ana.open_table(table_msg(players=2))).ticket for _ in range(2)]
        assert (await bo.list_tables()).mine == []
        took = (await bo.take_seat(tickets[0].table, "Bo")).ticket
        assert (await bo.list_tables()).mine == [took]
        assert sorted((await ana.list_tables()).mine, key=lambda t: t.table) == sorted(tickets, key=lambda t: t.table)
        stranger = await ask(LOOPBACK, server.port, messages.ListTables(identity="a-guess-of-someones-secret"))
        assert stranger.mine == [] and stranger.identity not in (ana.identity, bo.identity)
        # Without an identity the server knows, no seat is given at all.
        for msg in (messages.TakeSeat(table=tickets[1].table), messages.TakeSeat(table=tickets[1].table, identity="x" * 44),
                    table_msg()):
            answer = await ask(LOOPBACK, server.port, msg)
            assert isinstance(answer, messages.Error) and answer.code == "no-identity", answer


@pytest.mark.parametrize("workers", WORKERS)
async def test_one_identity_holds_at_most_the_seats_allowed(tmp_path, workers):
    async with running(tmp_path, workers, max_seats_per_player=2, max_tables_per_player=4) as server:
        hoarder = lobby(server)
        tables = [(await lobby(server).open_table(table_msg(players=3))).ticket.table for _ in range(3)]
        mine = (await hoarder.open_table(table_msg(players=2))).ticket
        first = (await hoarder.take_seat(tables[0], "H")).ticket
        refused = await hoarder.take_seat(tables[1], "H")
        assert isinstance(refused, messages.Error) and refused.code == "player-seats" and "2 seats" in refused.message
        refused = await hoarder.open_table(table_msg())
        assert isinstance(refused, messages.Error) and refused.code == "player-seats"
        assert (await hoarder.take_seat(tables[0], "H")).ticket == first  # (a seat held: the same one)
        listed = await hoarder.list_tables()
        assert sorted(t.table for t in listed.mine) == sorted([mine.table, first.table]) and not listed.can_open
        assert isinstance(await lobby(server).take_seat(tables[1], "Other"), messages.Seated)  # (others still may)


@pytest.mark.parametrize("workers", WORKERS)
async def test_a_seat_never_joined_is_given_up_and_a_joined_one_is_kept(tmp_path, workers):
    async with running(tmp_path, workers, seat_timeout=0.3, sweep_every=0.05) as server:
        ana, bo = lobby(server), lobby(server)
        opened = (await ana.open_table(table_msg(players=3))).ticket
        a = seat_client(server, opened, name="Ana")
        a.start()
        await asyncio.wait_for(a.ready.wait(), 10)
        squatted = (await bo.take_seat(opened.table, "Bo")).ticket  # ... and never used

        async def seats_open() -> int:
            return (await ana.list_tables()).tables[0].open

        assert await seats_open() == 1
        for _ in range(200):
            if await seats_open() == 2:
                break
            await asyncio.sleep(0.05)
        assert await seats_open() == 2  # Bo's seat is free again; Ana's, connected, is hers
        assert (await bo.list_tables()).mine == [] and (await ana.list_tables()).mine == [opened]
        late = await hello(server, table=squatted.table, token=squatted.token)
        assert isinstance(late, messages.Error) and late.code == "bad-token"
        again = (await bo.take_seat(opened.table, "Bo")).ticket  # a new ticket works as any
        b = seat_client(server, again, name="Bo")
        b.start()
        await asyncio.wait_for(b.ready.wait(), 10)
        assert b.seat == again.seat and b.status == "connected"
        await a.close()
        await b.close()


async def test_a_seat_joined_once_stays_held_through_the_game(tmp_path):
    """After the start, only a seat nobody ever connected to is given up: a player who
    played and dropped comes back to their seat with their token."""
    async with running(tmp_path, 0, seat_timeout=0.1, sweep_every=0.02) as server:
        ana, bo = lobby(server), lobby(server)
        t1 = (await ana.open_table(table_msg(players=2))).ticket
        t2 = (await bo.take_seat(t1.table, "Bo")).ticket
        a, b = seat_client(server, t1, name="Ana"), seat_client(server, t2, name="Bo")
        for c in (a, b):
            c.start()
            await asyncio.wait_for(c.ready.wait(), 10)
        table = server.tables[t1.table]
        await until(lambda: table.started)
        await b.close()  # Bo leaves mid-game
        await asyncio.sleep(0.4)
        assert table.slots[t2.seat].token_hash is not None and (await bo.list_tables()).mine == [t2]
        await a.close()


# --- logs ---------------------------------------------------------------------------------
def make_log(folder: Path, days_old: float, name: str | None = None) -> Path:
    path = folder / (name or record_name("pathways"))
    path.write_bytes(b"a finished game's log")
    when = time.time() - days_old * 86400
    os.utime(path, (when, when))
    return path


@pytest.mark.parametrize("workers", WORKERS)
async def test_old_logs_of_finished_tables_are_removed_and_nothing_else(tmp_path, workers):
    records = tmp_path / "records"
    async with running(tmp_path, workers, keep_logs_days=7, max_logs=3) as server:
        opened = (await lobby(server).open_table(table_msg())).ticket
        (running_log,) = records.glob("pathways-server-*.atlrec")  # the log of a game still on
        when = time.time() - 30 * 86400
        os.utime(running_log, (when, when))
        old = [make_log(records, 10, f"pathways-server-20200101-00000{i}-abcde{i}.atlrec") for i in range(2)]
        recent = [make_log(records, d, f"survive-server-20200102-00000{i}-abcde{i}.atlrec")
                  for i, d in enumerate((5, 4, 3, 2))]
        others = [make_log(records, 100, "pathways-20200101-000000-abcdef.atlrec"),  # a hot-seat record
                  make_log(records, 100, "notes.txt"),
                  make_log(records, 100, "pathways-host-20200101-000000-abcdef.atlrec")]
        fresh = make_log(records, 0.01, "survive-server-20200103-000000-abcdef.atlrec")  # (written minutes ago)
        outside = make_log(tmp_path, 100, "pathways-server-20200101-000009-abcde9.atlrec")
        (records / "pathways-server-20200101-000008-abcde8.atlrec").symlink_to(outside)
        removed = await server.prune_logs()
        assert sorted(removed) == sorted(old + recent[:1])  # too old, then the oldest beyond three
        assert running_log.exists() and all(p.exists() for p in recent[1:] + others + [fresh]) and outside.exists()
        assert (records / "pathways-server-20200101-000008-abcde8.atlrec").is_symlink()
        assert opened.table in {t.table for t in (await lobby(server).list_tables()).tables}


@pytest.mark.parametrize("workers", WORKERS)
async def test_the_periodic_pruning_never_removes_a_log_still_written_whichever_worker_writes_it(tmp_path, workers):
    records = tmp_path / "records"
    async with running(tmp_path, workers, keep_logs_days=1, max_logs=0, prune_every=0.05,
                       sweep_every=0.02) as server:
        for _ in range(4):  # (tables on both workers)
            await lobby(server).open_table(table_msg())
        logs = list(records.glob("pathways-server-*.atlrec"))
        assert len(logs) == 4
        when = time.time() - 30 * 86400
        for path in logs:
            os.utime(path, (when, when))  # (old, as a game left waiting for weeks)
        done = make_log(records, 30, "pathways-server-20200101-000000-abcdef.atlrec")
        for _ in range(200):
            if not done.exists():
                break
            await asyncio.sleep(0.02)
        assert not done.exists()  # (the pruning ran) ...
        await asyncio.sleep(0.2)
        assert all(path.exists() for path in logs)  # ... and left every game still on alone


def test_serve_takes_the_log_and_seat_limits_and_refuses_bad_ones(capsys):
    from tui.cli import build_parser
    from tui.ssh.commands import _check_server_limits, _server_limits

    args = build_parser().parse_args(["serve", "--keep-logs", "3", "--max-logs", "50", "--seats-per-player", "2"])
    lim = _server_limits(args)
    assert (lim.keep_logs_days, lim.max_logs, lim.max_seats_per_player) == (3.0, 50, 2)
    with pytest.raises(SystemExit):  # a negative number of days is refused as the line is read
        build_parser().parse_args(["serve", "--keep-logs", "-1"])
    assert _check_server_limits(build_parser().parse_args(["serve", "--seats-per-player", "0"]))
