"""Tables sharded over worker processes (``netplay.workers``) behind one address and port,
and the host's fast path for updates (plain frames, views converted sharing what the
seats' views share): the same bytes a client reads as through the pydantic models."""

from __future__ import annotations

import asyncio

import pytest

from engine.core import to_wire
from engine.registry import GAMES
from netplay import messages
from netplay.client import Client, run_bot
from netplay.server import ServerLimits, ask
from netplay.table import HostTable
from netplay.wire import decode_body, encode_frame
from netplay.workers import ShardedServer, make_server, shard_of

from netplay_helpers import LOOPBACK, until, raw_connection

pytestmark = pytest.mark.timeout(60)


class Collect:
    """A connection that keeps what the table sends it (no socket)."""

    def __init__(self) -> None:
        self.closed, self.table, self.seat, self.spectator, self.said_bye, self.seats_gen = False, None, None, False, False, -1
        self.frames: list[bytes] = []

    def send(self, msg: messages.Msg) -> None:
        self.frames.append(messages.frame(msg))

    def send_bytes(self, data: bytes) -> None:
        self.frames.append(data)

    def error(self, code: str, message: str, fatal: bool = False, ack: int | None = None) -> None:
        raise AssertionError(f"{code}: {message}")


def test_update_frame_is_the_update_model_and_still_refuses_a_raw_state():
    game = GAMES["pathways"]
    table = HostTable.create(game, {}, ["open", "open"], 5)
    view = messages.ViewData(table.match.view(0))
    event = {"kind": "placed", "data": {"cell": 3}, "to": None}
    fast = messages.update_frame(4, view, [event], [1], False, 2)
    model = messages.frame(messages.Update(seq=4, view=view, events=[messages.WireEvent(**event)], to_act=[1], ack=2))
    assert messages.parse_host(decode_body(fast[4:])) == messages.parse_host(decode_body(model[4:]))
    with pytest.raises(TypeError):
        messages.update_frame(4, table.match.state, [], [1])  # a state is not a view


def test_views_sent_with_shared_conversion_equal_each_seats_own_view_at_every_move():
    game = GAMES["pathways"]
    table = HostTable.create(game, {"max_rounds": 5}, ["open"] * 3 + ["bot"], 11)
    conns = [Collect() for _ in range(3)]
    for c in conns:
        slot, token = table.claim("p")
        table.attach(c, slot, token)
    spectator = Collect()
    table.attach(spectator, None, None)
    bots = {i: game.make_bot(i, 11, "random") for i in range(4)}
    checked = 0
    while table.match.result() is None:
        seat = min(table.match.to_act())
        view = table.match.view(seat)
        assert table.submit(seat, bots[seat].choose(view, game.legal(view))) is None
        for who, c in [(i, conns[i]) for i in range(3)] + [(None, spectator)]:
            got = messages.parse_host(decode_body(c.frames[-1][4:]))  # (no news: its last view is still its view)
            if isinstance(got, messages.Update):
                assert got.view.data == to_wire(table.match.view(who))
                checked += 1
    assert checked > 40


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_update_frames_are_the_bytes_of_the_update_map_packed_whole(slug):
    """The host joins each update from parts packed once per move (views field by field,
    shared values once); the bytes must be those of the whole map packed at once, with
    each seat's own view and events as the engine gives them."""
    from netplay.wire import pack_frame

    game = GAMES[slug]
    n = game.min_players
    table = HostTable.create(game, {}, ["open"] * n, 12)
    conns = [Collect() for _ in range(n)]
    for c in conns:
        slot, token = table.claim("p")
        table.attach(c, slot, token)
    spectator = Collect()
    table.attach(spectator, None, None)
    bots = [game.make_bot(i, 12, "random") for i in range(n)]
    checked = 0
    for _ in range(30):
        if table.match.result() is not None:
            break
        seat = min(table.match.to_act())
        view = table.match.view(seat)
        before = [len(c.frames) for c in conns + [spectator]]
        assert table.submit(seat, bots[seat].choose(view, game.legal(view))) is None
        events = table.match.history[-1].events
        for who, c, k in zip([*range(n), None], conns + [spectator], before):
            for frame in c.frames[k:]:
                got = decode_body(frame[4:])
                if got["t"] != "update":
                    continue
                whole = {"v": messages.PROTOCOL, "t": "update", "seq": got["seq"], "view": to_wire(table.match.view(who)),
                         "events": [messages.WireEvent.of(e).model_dump() for e in events if e.visible_to(who)],
                         "to_act": sorted(table.match.to_act()), "resync": False, "ack": got["ack"]}
                assert frame == pack_frame(whole)
                checked += 1
    assert checked >= 30


def test_a_table_id_always_maps_to_the_same_worker():
    assert [shard_of(t, 2) for t in ("0000000a", "0000000b")] == [0, 1]
    assert shard_of("not-hex!", 3) == shard_of("not-hex!", 3) in (0, 1, 2)
    assert not isinstance(make_server(workers=1, host=LOOPBACK), ShardedServer)
    assert isinstance(make_server(workers=2, host=LOOPBACK), ShardedServer)


async def test_two_worker_processes_serve_lobby_seats_reconnects_and_limits_on_one_port(tmp_path):
    server = ShardedServer(name="sharded", host=LOOPBACK, port=0, records=tmp_path, workers=2,
                           server_limits=ServerLimits(max_tables=4, max_tables_per_player=3))
    await server.start()
    try:
        assert len(set(server.worker_pids())) == 2
        from engine.process import THRESHOLDS

        for w in server.workers:  # every worker tunes its collector as the host process does
            assert tuple((await w.call("ready"))["gc"]) == THRESHOLDS
        server.register_identity("session-ana", "SHA256:ana")
        opened = []
        for _ in range(3):
            got = await ask(LOOPBACK, server.port, messages.OpenTable(game="pathways", players=2, bots=1,
                                                               options={"max_rounds": 5}, identity="session-ana"))
            assert isinstance(got, messages.Seated), got
            opened.append(got.ticket)
        assert {shard_of(t.table, 2) for t in opened} == {0, 1}  # (both workers hold tables)
        refused = await ask(LOOPBACK, server.port, messages.OpenTable(game="pathways", players=2, identity="session-ana"))
        assert isinstance(refused, messages.Error) and refused.code == "player-tables"
        listed = await ask(LOOPBACK, server.port, messages.ListTables(identity="session-ana"))
        assert {t.table for t in listed.tables} == {t.table for t in opened} and not listed.can_open
        assert {t.table for t in listed.mine} == {t.table for t in opened}
        assert "3 of 4 tables" in listed.limit
        bo = (await ask(LOOPBACK, server.port, messages.ListTables())).identity  # (a newcomer: the front gives one)
        other = await ask(LOOPBACK, server.port, messages.OpenTable(game="pathways", players=2, bots=0,
                                                            options={"max_rounds": 5}, identity=bo))
        assert isinstance(other, messages.Seated)
        full = await ask(LOOPBACK, server.port, messages.OpenTable(game="pathways", players=2, identity=bo))
        assert isinstance(full, messages.Error) and full.code == "tables-full"
        took = await ask(LOOPBACK, server.port, messages.TakeSeat(table=other.ticket.table, name="Bo", identity=bo))
        assert isinstance(took, messages.Seated) and took.ticket == other.ticket  # (the same asker: its seat)

        # Play a table of each worker to the end; one client loses its connection mid-game
        # and comes back with its token (through the front again, to the same worker).
        first, second = (next(t for t in opened if shard_of(t.table, 2) == k) for k in (0, 1))
        a = Client(LOOPBACK, server.port, token=first.token, table=first.table, backoff=(0.02, 0.2))
        b = Client(LOOPBACK, server.port, token=second.token, table=second.table, backoff=(0.02, 0.2))
        watcher = Client(LOOPBACK, server.port, table=first.table, spectate=True, backoff=(0.02, 0.2))
        watcher.start()
        statuses: list[str] = []
        a.listeners.append(lambda what: statuses.append(a.status))
        tasks = [asyncio.ensure_future(run_bot(c, delay=0.002)) for c in (a, b)]
        await until(lambda: len(a.events) >= 6, timeout=20)
        a._writer.transport.abort()  # the connection drops
        await asyncio.wait_for(asyncio.gather(*tasks), 40)
        for c in (a, b):
            assert c.over is not None and c.verification.ok, c.verification
        assert "reconnecting" in statuses  # it did lose its connection, and came back
        await until(lambda: watcher.over is not None, timeout=10)
        assert watcher.over.digest == a.over.digest
        await watcher.close()
        info = await ask(LOOPBACK, server.port, messages.Hello(probe=True))
        assert isinstance(info, messages.Info) and len(info.tables) == 4
        assert sum(t.over for t in info.tables) == 2
        assert len(list(tmp_path.glob("*.atlrec"))) == 4
        await until(lambda: sum(t.over for t in server.tables.values()) == 2, timeout=5)  # (the announcement's view)
    finally:
        await server.close()
    assert all(w.proc.returncode is not None for w in server.workers)


async def test_the_front_answers_a_bad_first_frame_and_keeps_serving(tmp_path):
    from netplay.host import Limits

    server = ShardedServer(host=LOOPBACK, port=0, workers=2, limits=Limits(hello_timeout=0.3))
    await server.start()
    try:
        for data, code in ((b"\x00\x00\x00\x03abc", "bad-frame"), (b"", "timeout"),
                           (encode_frame({"t": "act", "v": messages.PROTOCOL, "seq": 0, "action": {}}), "hello-first"),
                           (encode_frame({"t": "hello", "v": messages.PROTOCOL, "table": "nope"}), "no-table")):
            reader, writer = await raw_connection(server.port)
            writer.write(data)
            from netplay.wire import MAX_HOST_FRAME, read_frame

            answer = messages.parse_host(await read_frame(reader, MAX_HOST_FRAME, 5))
            assert isinstance(answer, messages.Error) and answer.code == code, (data, answer)
            writer.close()
        assert isinstance(await ask(LOOPBACK, server.port, messages.ListTables()), messages.TableList)

        # A worker that dies takes only its own tables: the front and the other go on.
        me = (await ask(LOOPBACK, server.port, messages.ListTables())).identity
        opened = [await ask(LOOPBACK, server.port, messages.OpenTable(game="pathways", players=2, bots=1,
                                                               identity=me)) for _ in range(2)]
        dead = next(t.ticket for t in opened if shard_of(t.ticket.table, 2) == 1)
        server.workers[1].proc.kill()
        await until(lambda: not server.workers[1].alive, timeout=10)
        listed = await ask(LOOPBACK, server.port, messages.ListTables())
        assert [shard_of(t.table, 2) for t in listed.tables] == [0]
        refused = await ask(LOOPBACK, server.port, messages.Hello(table=dead.table, token=dead.token))
        assert isinstance(refused, messages.Error) and refused.code == "no-table"
    finally:
        await server.close()


async def test_frames_arriving_in_pieces_or_together_are_read_whole_and_a_begun_one_has_a_deadline():
    from netplay.wire import SlowFrame, read_frame

    a, b = encode_frame({"t": "ping", "v": messages.PROTOCOL, "n": 1}), encode_frame({"t": "ping", "v": messages.PROTOCOL, "n": 2})
    reader = asyncio.StreamReader()

    async def feed() -> None:
        for piece in (a[:2], a[2:5], a[5:] + b):  # (a header split, then the rest and a whole frame)
            await asyncio.sleep(0.01)
            reader.feed_data(piece)

    feeding = asyncio.ensure_future(feed())
    assert (await read_frame(reader, 1024, 5, 5))["n"] == 1
    assert (await read_frame(reader, 1024, 5, 5))["n"] == 2
    await feeding
    reader.feed_data(a[:3])  # begun, never finished: the frame deadline, not the idle one
    with pytest.raises(SlowFrame):
        await read_frame(reader, 1024, 30, 0.05)
    reader.feed_eof()
    with pytest.raises(asyncio.IncompleteReadError):
        await read_frame(reader, 1024, 5, 5)


async def test_a_plain_sharded_server_hands_a_worker_the_hello_it_read_and_the_worker_seats_it(tmp_path):
    """Without TLS (the SSH front's kind of link) the front reads the hello itself and
    hands the worker the connection with it: the worker must serve it."""
    from netplay.tls import PLAIN

    server = ShardedServer(host=LOOPBACK, port=0, records=tmp_path, workers=2, plain=True)
    await server.start()
    try:
        me = (await ask(LOOPBACK, server.port, messages.ListTables(), trust=PLAIN)).identity
        seated = await ask(LOOPBACK, server.port, messages.OpenTable(game="pathways", players=2, bots=1,
                                                              options={"max_rounds": 5}, identity=me), trust=PLAIN)
        assert isinstance(seated, messages.Seated), seated
        client = Client(LOOPBACK, server.port, token=seated.ticket.token, table=seated.ticket.table,
                        backoff=(0.02, 0.2), trust=PLAIN)
        client.start()
        await until(lambda: client.welcome is not None, 10)
        assert client.seat == seated.ticket.seat
        await client.close()
    finally:
        await server.close()
