"""The table server (``netplay.server``): players list, open, join and watch tables
through the lobby requests, within the server's limits; seats are ordinary host seats."""

from __future__ import annotations

import asyncio
import ssl
import contextlib
from pathlib import Path

import pytest

from engine.storage import load_record
from netplay import messages
from netplay.client import run_bot
from netplay.host import Host, HostTable, Limits
from netplay.server import ServerLimits, TableServer, ask, is_server

from netplay_helpers import ALL_GAMES, LOOPBACK, client, until, raw_connection

pytestmark = pytest.mark.timeout(30)


@contextlib.asynccontextmanager
async def running_server(tmp_path: Path, **limits):
    server = TableServer(name="test server", host=LOOPBACK, port=0, records=tmp_path,
                         server_limits=ServerLimits(**limits), games=ALL_GAMES)
    await server.start()
    try:
        yield server
    finally:
        await server.close()


async def new_identity(server) -> str:
    """The identity secret the server gives a newcomer (with its first table list)."""
    listed = await ask(LOOPBACK, server.port, messages.ListTables())
    assert isinstance(listed, messages.TableList) and listed.identity
    return listed.identity


def open_msg(**kw) -> messages.OpenTable:
    kw.setdefault("game", "pathways")
    kw.setdefault("players", 2)
    kw.setdefault("bots", 1)
    kw.setdefault("options", {"max_rounds": 5})
    return messages.OpenTable(**kw)


async def test_an_empty_server_lists_no_tables_and_offers_its_games(tmp_path):
    async with running_server(tmp_path) as server:
        answer = await ask(LOOPBACK, server.port, messages.ListTables())
        assert isinstance(answer, messages.TableList)
        assert answer.server == "test server" and answer.tables == [] and answer.can_open
        assert "pathways" in answer.games and "32 tables" in answer.limit


async def test_a_player_opens_a_table_with_a_bot_and_plays_it_to_the_end(tmp_path):
    async with running_server(tmp_path) as server:
        ana = await new_identity(server)
        seated = await ask(LOOPBACK, server.port, open_msg(name="Ana", table_name="Ana's", identity=ana))
        assert isinstance(seated, messages.Seated) and seated.ticket.seat == 0
        listed = await ask(LOOPBACK, server.port, messages.ListTables(identity=ana))
        assert [(t.name, t.open, t.players) for t in listed.tables] == [("Ana's", 0, 2)]
        assert listed.mine == [seated.ticket] and listed.identity == ana  # (the same identity: its seat)
        c = client(server, name="Ana", table=seated.ticket.table, token=seated.ticket.token)
        await asyncio.wait_for(run_bot(c), 20)
        assert c.seat == 0 and c.over is not None and c.verification.ok
        table = server.tables[seated.ticket.table]
        assert table.over
        # The finished table's log is a normal record in the records folder.
        logs = list(tmp_path.glob("pathways-server-*.atlrec"))
        assert len(logs) == 1 and oct(logs[0].stat().st_mode & 0o777) == "0o600"
        assert len(load_record(logs[0]).moves) == len(table.match.record.moves)
        server.drop_table(table.id)
        assert logs[0].exists() and (await ask(LOOPBACK, server.port, messages.ListTables())).tables == []


async def test_two_players_meet_at_a_table_one_opens_the_other_takes_the_seat(tmp_path):
    async with running_server(tmp_path) as server:
        seated = await ask(LOOPBACK, server.port, open_msg(bots=0, identity=await new_identity(server)))
        a = client(server, name="Ana", table=seated.ticket.table, token=seated.ticket.token)
        server.register_identity("secret-of-bo", "SHA256:bo")  # another player (its own identity)
        took = await ask(LOOPBACK, server.port, messages.TakeSeat(table=seated.ticket.table, name="Bo",
                                                           identity="secret-of-bo"))
        assert isinstance(took, messages.Seated) and took.ticket.seat == 1
        b = client(server, name="Bo", table=took.ticket.table, token=took.ticket.token)
        watcher = client(server, name="Cy", table=seated.ticket.table, spectate=True)
        watcher.start()
        await asyncio.wait_for(asyncio.gather(run_bot(a), run_bot(b)), 25)
        assert a.over is not None and b.over is not None and a.over.digest == b.over.digest
        await until(lambda: watcher.over is not None, 5)
        assert watcher.seat is None
        await watcher.close()
        # A third player finds no seat: a clear refusal.
        full = await ask(LOOPBACK, server.port, messages.TakeSeat(table=seated.ticket.table,
                                                           identity=await new_identity(server)))
        assert isinstance(full, messages.Error) and full.code == "over"


async def test_the_same_identity_gets_its_own_seat_back_without_a_token(tmp_path):
    async with running_server(tmp_path) as server:
        server.register_identity("session-one", "SHA256:ana")
        seated = await ask(LOOPBACK, server.port, open_msg(bots=0, identity="session-one"))
        server.forget_identity("session-one")        # the session dropped
        server.register_identity("session-two", "SHA256:ana")  # ... and came back with the key
        listed = await ask(LOOPBACK, server.port, messages.ListTables(identity="session-two"))
        assert listed.mine == [seated.ticket]
        again = await ask(LOOPBACK, server.port, messages.TakeSeat(table=seated.ticket.table, identity="session-two"))
        assert again.ticket == seated.ticket
        # A stranger does not see it.
        other = await ask(LOOPBACK, server.port, messages.ListTables(identity="not-registered"))
        assert other.mine == [] and other.identity not in (None, "not-registered")  # (unknown: a new one)
        server.register_identity("session-bo", "SHA256:bo")
        assert (await ask(LOOPBACK, server.port, messages.ListTables(identity="session-bo"))).mine == []


async def test_tables_per_player_and_tables_in_all_are_capped_with_clear_refusals(tmp_path):
    async with running_server(tmp_path, max_tables=3, max_tables_per_player=2) as server:
        for who in ("a", "b"):
            server.register_identity(f"session-{who}", f"SHA256:{who}")
        for _ in range(2):
            assert isinstance(await ask(LOOPBACK, server.port, open_msg(identity="session-a")), messages.Seated)
        refused = await ask(LOOPBACK, server.port, open_msg(identity="session-a"))
        assert isinstance(refused, messages.Error) and refused.code == "player-tables"
        assert "2 tables open" in refused.message
        assert not (await ask(LOOPBACK, server.port, messages.ListTables(identity="session-a"))).can_open
        assert isinstance(await ask(LOOPBACK, server.port, open_msg(identity="session-b")), messages.Seated)
        full = await ask(LOOPBACK, server.port, open_msg(identity="session-b"))
        assert isinstance(full, messages.Error) and full.code == "tables-full" and "3 tables" in full.message


async def test_a_bad_table_request_is_refused_in_one_sentence(tmp_path):
    async with running_server(tmp_path) as server:
        me = await new_identity(server)
        for msg, code in ((open_msg(game="chess", identity=me), "no-game"), (open_msg(players=7, identity=me), "bad-table"),
                          (open_msg(bots=2, identity=me), "bad-table"),
                          (open_msg(options={"max_rounds": 1}, identity=me), "bad-table"),
                          (messages.TakeSeat(table="nope", identity=me), "no-table"),
                          (open_msg(), "no-identity"), (open_msg(identity="made-up-secret"), "no-identity")):
            answer = await ask(LOOPBACK, server.port, msg)
            assert isinstance(answer, messages.Error) and answer.code == code, (msg, answer)
        assert server.tables == {}


async def test_an_abandoned_table_is_dropped_and_its_log_kept(tmp_path):
    async with running_server(tmp_path, abandon_after=0.0) as server:
        seated = await ask(LOOPBACK, server.port, open_msg(bots=0, identity=await new_identity(server)))
        server.sweep()
        assert seated.ticket.table not in server.tables
        assert list(tmp_path.glob("*.atlrec"))


async def test_a_single_table_host_is_told_apart_from_a_server(tmp_path):
    table = HostTable.create(ALL_GAMES["pathways"], {}, ["open", "bot"], 1, name="one")
    host = Host([table], host=LOOPBACK, port=0)
    await host.start()
    async with running_server(tmp_path) as server:
        try:
            assert await is_server(LOOPBACK, server.port)
            assert not await is_server(LOOPBACK, host.port)
            answer = await ask(LOOPBACK, host.port, messages.ListTables())
            assert isinstance(answer, messages.Error) and answer.code == "hello-first"
        finally:
            await host.close()


async def test_the_server_passes_its_limits_to_every_connection(tmp_path):
    server = TableServer(host=LOOPBACK, port=0, limits=Limits(max_per_address=2), games=ALL_GAMES)
    await server.start()
    try:
        held = [await raw_connection(server.port) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises((ConnectionError, ssl.SSLError, asyncio.IncompleteReadError)):
            await ask(LOOPBACK, server.port, messages.ListTables())  # (over the cap: closed before TLS)
        assert server.refused == 1
        for _, w in held:
            w.close()
    finally:
        await server.close()


def test_lobby_messages_are_versioned_and_validated():
    assert messages.parse_client({"t": "list-tables", "v": messages.PROTOCOL}) == messages.ListTables()
    with pytest.raises(Exception):
        messages.parse_client({"t": "open-table", "v": messages.PROTOCOL, "game": "pathways", "players": 99})
    with pytest.raises(Exception):
        messages.parse_client({"t": "list-tables", "v": messages.PROTOCOL + 1})


async def test_zeroconf_announces_the_server_and_its_open_seats(tmp_path):
    from netplay.discovery import Browser, ServerAdvertiser

    lo = [LOOPBACK]
    async with running_server(tmp_path) as server:
        adv = ServerAdvertiser(interfaces=lo)
        await adv.start(server)
        browser = Browser(interfaces=lo, recheck=0.3)
        await browser.start()
        try:
            def ours():
                return [t for t in browser.tables.values() if t.port == server.port]

            await until(ours, timeout=10)
            (found,) = ours()
            assert found.server and found.name == "test server" and found.open == 0
            assert adv.infos["server"].properties[b"server"] == b"1"
            await ask(LOOPBACK, server.port, open_msg(bots=0, identity=await new_identity(server)))  # one seat open
            await until(lambda: adv.infos["server"].properties[b"open"] == b"1", timeout=5)
            await until(lambda: ours() and ours()[0].open == 1, timeout=10)
            assert ours()[0].game == "server: 1 table"
        finally:
            await browser.stop()
            await adv.stop()


async def test_a_seat_given_up_before_the_start_is_no_longer_held(tmp_path):
    async with running_server(tmp_path) as server:
        server.register_identity("session-ana", "SHA256:ana")
        seated = await ask(LOOPBACK, server.port, open_msg(bots=0, identity="session-ana"))
        c = client(server, name="Ana", table=seated.ticket.table, token=seated.ticket.token)
        c.start()
        await asyncio.wait_for(c.ready.wait(), 5)
        await c.close()  # bye before the start: the seat is free again
        table = server.tables[seated.ticket.table]
        await until(lambda: table.slots[0].token_hash is None, 5)
        assert (await ask(LOOPBACK, server.port, messages.ListTables(identity="session-ana"))).mine == []
        again = await ask(LOOPBACK, server.port, messages.TakeSeat(table=table.id, identity="session-ana"))
        assert again.ticket.seat == 0 and again.ticket.token != seated.ticket.token
