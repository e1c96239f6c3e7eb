"""Tables outlive a restart: ``atlantis serve`` restores every unfinished table from its
log when it starts again, so its players come back with their tokens and finish the game.

The server is a real ``atlantis serve`` process, killed with SIGKILL mid-game (no
goodbye, no flush: only the log on disk survives), then started again on the same
address; the same clients reconnect by themselves and finish, and every view they were
shown follows from the committed seed.  A damaged log is reported and left as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from engine.storage import load_record
from netplay import messages
from netplay.client import Client, run_bot
from netplay.server import RECORD_NAME, TableServer, ask
from netplay.tls import Trust

from netplay_helpers import ALL_GAMES, LOOPBACK, until

ATLANTIS = [sys.executable, "-m", "tui.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def start_server(port: int, data: Path) -> subprocess.Popen:
    env = {**os.environ, "XDG_DATA_HOME": str(data)}
    proc = subprocess.Popen([*ATLANTIS, "serve", "--port", str(port), "--bind", LOOPBACK, "--no-advertise",
                             "--bot-delay", "0", "--seat-timeout", "0"], env=env, stdout=subprocess.PIPE, text=True,
                            start_new_session=True)  # (its workers with it: killed as one group)
    line = proc.stdout.readline()
    assert "listening on" in line, line
    return proc


async def lobby(port: int, msg: messages.Msg) -> object:
    return await ask(LOOPBACK, port, msg, 10.0, Trust())


@pytest.mark.timeout(180)
async def test_a_server_killed_mid_game_restores_the_table_and_the_same_clients_finish_it(tmp_path):
    port = free_port()
    server = start_server(port, tmp_path)
    try:
        ana = (await lobby(port, messages.ListTables())).identity
        bo = (await lobby(port, messages.ListTables())).identity
        seated = await lobby(port, messages.OpenTable(game="pathways", players=2, bots=0, name="Ana", identity=ana))
        assert isinstance(seated, messages.Seated), seated
        taken = await lobby(port, messages.TakeSeat(table=seated.ticket.table, name="Bo", identity=bo))
        assert isinstance(taken, messages.Seated), taken
        clients = [Client(LOOPBACK, port, name=name, token=t.ticket.token, table=t.ticket.table, read_timeout=10.0,
                          backoff=(0.05, 0.3), give_up_after=60.0, give_up_tries=200)
                   for name, t in (("Ana", seated), ("Bo", taken))]
        done = [asyncio.ensure_future(run_bot(c, seed=i + 1, delay=0.01)) for i, c in enumerate(clients)]
        await until(lambda: all(len(c.received) >= 6 for c in clients), timeout=60)
        os.killpg(server.pid, signal.SIGKILL)  # the front and every worker, at once: only the logs remain
        server.wait(timeout=10)
        tokens = [c.token for c in clients]
        records = tmp_path / "atlantis" / "records"
        (log,) = [p for p in records.iterdir() if RECORD_NAME.fullmatch(p.name)]
        played = len(load_record(log).moves)
        assert 0 < played

        server = start_server(port, tmp_path)
        await asyncio.wait_for(asyncio.gather(*done), 120)
        assert [c.token for c in clients] == tokens  # the same seats, taken back with the same tokens
        for c in clients:
            assert c.over is not None and c.verification.ok, (c.status, c.last_error)
        assert clients[0].over.digest == clients[1].over.digest
        record = load_record(log)
        assert len(record.moves) > played and record.moves[-1].digest == clients[0].over.digest
        assert [m["action"] for m in clients[0].over.moves][:played] == [m.action for m in record.moves[:played]]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
    from tui.cli import main

    assert main(["replay", str(log), "--verify"]) == 0


async def test_a_damaged_log_is_reported_and_left_as_it_is_and_the_others_are_restored(tmp_path):
    records = tmp_path / "records"
    first = TableServer(records=records, port=free_port(), plain=True)
    await first.start()
    try:
        who = first.identity(first.ids.issue())
        ticket = first.open_table(who, messages.OpenTable(game="pathways", players=2, bots=1, name="Ana"))
        assert isinstance(ticket, messages.Ticket)
        table = first.tables[ticket.table]
        good = table.log.path
    finally:
        await first.close()
    damaged = records / "pathways-server-20260101-000000-abcdef.atlrec"
    assert RECORD_NAME.fullmatch(damaged.name)
    damaged.write_bytes(b"\x81\xa5magic\xa3bad" + b"\xc1" * 40)
    before = damaged.read_bytes()
    again = TableServer(records=records, port=first.port, plain=True)
    await again.start()
    try:
        assert ticket.table in again.tables and again.tables[ticket.table].slots[0].taken
        assert [p for p, _ in again.skipped] == [damaged]
        assert damaged.read_bytes() == before
    finally:
        await again.close()
    assert good.exists()


async def test_the_lobby_lists_a_player_s_games_in_progress_first_and_marks_their_turn(tmp_path):
    server = TableServer(records=tmp_path, port=0, plain=True)
    await server.start()
    try:
        other = server.identity(server.ids.issue())
        for _ in range(2):
            assert isinstance(server.open_table(other, messages.OpenTable(game="pathways", players=2, name="Bo")), messages.Ticket)
        ana = server.identity(server.ids.issue())
        mine = server.open_table(ana, messages.OpenTable(game="pathways", players=2, bots=1, name="Ana"))
        table = server.tables[mine.table]
        listed = server.table_list(ana)
        assert listed.tables[0].table == mine.table and [t.table for t in listed.mine] == [mine.table]
        assert listed.your_turn == ([mine.table] if mine.seat in table.match.to_act() else [])
        assert table.started and mine.seat in table.match.to_act()  # (seat 0 opens a game of Pathways)
        assert server.table_list(other).your_turn == []
    finally:
        await server.close()


async def test_after_a_restart_a_player_s_identity_finds_their_seat_in_the_lobby(tmp_path):
    port = free_port()
    first = TableServer(records=tmp_path, port=port, plain=True)
    await first.start()
    try:
        listed = await ask(LOOPBACK, port, messages.ListTables(), 10, Trust(plain=True))
        secret = listed.identity
        seated = await ask(LOOPBACK, port, messages.OpenTable(game="pathways", players=2, bots=1, name="Ana",
                                                       identity=secret), 10, Trust(plain=True))
        assert isinstance(seated, messages.Seated)
    finally:
        await first.close()
    assert (tmp_path / "server-identity.key").stat().st_mode & 0o777 == 0o600
    again = TableServer(records=tmp_path, port=port, plain=True)
    await again.start()
    try:
        listed = await ask(LOOPBACK, port, messages.ListTables(identity=secret), 10, Trust(plain=True))
        assert listed.identity == secret  # the same player
        assert listed.mine == [seated.ticket]  # ... whose seat the restored table keeps
        assert again.owned[seated.ticket.table].owner == again.identity(secret)  # (her table: her quota)
    finally:
        await again.close()


async def test_a_server_known_by_name_restores_its_tables_wherever_its_socket_is(tmp_path):
    """``serve-ssh``'s table server listens on a new Unix socket each time: its tables go
    by the SSH address it serves (``named_home``), and only a server of that name takes them."""
    sockets = tmp_path / "s"
    sockets.mkdir()
    first = TableServer(records=tmp_path / "r", host=str(sockets / "one.sock"), plain=True)
    first.named_home = "ssh:0.0.0.0:2222"
    await first.start()
    try:
        first.register_identity("session-one", "SHA256:ana")
        ticket = first.open_table("SHA256:ana", messages.OpenTable(game="pathways", players=2, bots=1, name="Ana"))
        assert isinstance(ticket, messages.Ticket)
    finally:
        await first.close()
    other = TableServer(records=tmp_path / "r", host=str(sockets / "two.sock"), plain=True)
    other.named_home = "ssh:0.0.0.0:2223"
    await other.start()
    try:
        assert not other.tables
    finally:
        await other.close()
    again = TableServer(records=tmp_path / "r", host=str(sockets / "three.sock"), plain=True)
    again.named_home = "ssh:0.0.0.0:2222"
    await again.start()
    try:
        assert list(again.tables) == [ticket.table]
        assert again.tickets_of("SHA256:ana") == [ticket]  # the key's owner finds the seat again
    finally:
        await again.close()


async def test_a_table_opened_with_a_turn_time_has_its_clocks_and_keeps_them_after_a_restart(tmp_path):
    port = free_port()
    first = TableServer(records=tmp_path, port=port, plain=True)
    await first.start()
    try:
        who = first.identity(first.ids.issue())
        ticket = first.open_table(who, messages.OpenTable(game="pathways", players=2, bots=1, name="Ana", turn_time=90))
        table = first.tables[ticket.table]
        assert table.turn_time == 90.0 and table.info().turn_time == 90.0
        assert table.slots[ticket.seat].clock is not None  # (the game began: the opener's clock runs)
    finally:
        await first.close()
    again = TableServer(records=tmp_path, port=port, plain=True)
    await again.start()
    try:
        assert again.tables[ticket.table].turn_time == 90.0
    finally:
        await again.close()
