"""Dropping before the start keeps the seat.

A player whose connection drops while the table still waits for players keeps their
seat and token: the seat shows as taken but disconnected, their client's automatic
reconnect takes the same seat back (it used to get "bad token" and was locked out),
and the table starts once every seat is claimed, whether or not all are connected
at that moment.  Everything runs over loopback with the real client."""

from __future__ import annotations

import asyncio

from netplay.client import Client, run_bot
from netplay.host import HostTable, token_hash
from netplay.wire import MAX_HOST_FRAME, encode_frame, read_frame
from netplay import messages

from netplay_helpers import ALL_GAMES, LOOPBACK, client, running_host, until, raw_connection

GAME = ALL_GAMES["pathways"]


async def test_a_player_who_drops_before_the_start_gets_the_same_seat_back_with_the_same_token():
    async with running_host(GAME, ["open", "open"], seed=4) as host:
        table = host.table
        # a slow backoff, so that the seat can be seen while its player is away
        a = client(host, name="Ann", backoff=(0.5, 0.5))
        a_done = asyncio.ensure_future(run_bot(a, seed=1))
        await until(lambda: a.status == "connected" and table.slots[0].conn is not None)
        seat, token = a.seat, a.token
        assert seat == 0 and token and not table.started

        gone = table.slots[0].conn
        gone.abort()  # the connection drops: no goodbye
        await until(lambda: table.slots[0].conn is None)
        shown = table.seats_message().seats[0]
        assert shown.taken and not shown.connected  # taken, but disconnected
        assert table.slots[0].token_hash == token_hash(token) and table.slots[0].player == "Ann"
        assert table.open_seats() == 1 and not table.started

        # the client comes back by itself, with its token, to the same seat
        await until(lambda: table.slots[0].conn not in (None, gone), timeout=10)
        await until(lambda: a.status == "connected")
        assert a.seat == seat and a.token == token and a.status != "refused"
        assert table.seats_message().seats[0].connected

        b = client(host, name="Bob")
        await asyncio.wait_for(asyncio.gather(a_done, run_bot(b, seed=2)), 30)
        assert b.seat == 1
        assert a.over is not None and a.verification.ok, a.verification
        assert b.verification.ok and table.match.result() is not None


async def _claim_and_vanish(host, name: str) -> str:
    """Take a seat with a bare connection, then drop it (no goodbye): the token."""
    reader, writer = await raw_connection(host.port)
    writer.write(encode_frame({"v": messages.PROTOCOL, "t": "hello", "name": name}))
    while (msg := await read_frame(reader, MAX_HOST_FRAME, 5))["t"] != "welcome":
        pass
    writer.transport.abort()
    return msg["token"]


async def test_the_table_starts_once_every_seat_is_claimed_and_the_away_player_takes_their_turn_later():
    async with running_host(GAME, ["open", "open"], seed=6) as host:
        table = host.table
        token = await _claim_and_vanish(host, "Ann")
        await until(lambda: table.slots[0].conn is None and table.slots[0].taken)

        b = client(host, name="Bob")
        b_done = asyncio.ensure_future(run_bot(b, seed=2))
        await until(lambda: table.started)  # every seat claimed: play begins
        assert table.slots[0].conn is None and b.seat == 1

        late = client(host, name="Cy", max_attempts=0)
        late.start()
        await until(lambda: late.status in ("refused", "closed"))
        assert late.status == "refused" and "taken" in late.last_error  # the away seat is not given away
        await late.close()

        ann = client(host, name="Ann", token=token)
        await asyncio.wait_for(asyncio.gather(run_bot(ann, seed=1), b_done), 30)
        assert ann.seat == 0 and ann.verification.ok and b.verification.ok
        assert table.match.result() is not None


async def test_a_seat_kept_through_a_drop_before_the_start_is_kept_through_a_host_crash_too(tmp_path):
    log = tmp_path / "early.atlrec"
    async with running_host(GAME, ["open", "open"], seed=7, log=log) as host:
        token = await _claim_and_vanish(host, "Ann")
        await until(lambda: host.table.slots[0].conn is None)
    table = HostTable.resume(log)  # the host died before anyone else came
    try:
        assert table.slots[0].token_hash == token_hash(token) and table.open_seats() == 1
        assert table.slot_for_token(token) is table.slots[0]
    finally:
        table.log.close()


async def test_a_client_that_reconnects_before_the_start_is_not_told_bad_token():
    async with running_host(GAME, ["open", "open", "open"], seed=8) as host:
        table = host.table
        seen: list[str] = []
        a = Client(LOOPBACK, host.port, name="Ann", backoff=(0.02, 0.05), read_timeout=10, games=ALL_GAMES)
        a.listeners.append(lambda what: seen.append(f"{what}:{a.status}"))
        a.start()
        await until(lambda: a.status == "connected")
        for _ in range(3):  # drop it again and again while the table waits
            conn = table.slots[0].conn
            conn.abort()
            await until(lambda: table.slots[0].conn not in (None, conn) and a.status == "connected", timeout=10)
        assert a.seat == 0 and table.open_seats() == 2
        assert not any("refused" in s for s in seen) and "token" not in a.last_error.lower()
        await a.close()


async def test_a_player_who_says_goodbye_before_the_start_gives_the_seat_up():
    """Leaving on purpose (the client's bye) is not a dropped connection: the seat opens."""
    async with running_host(GAME, ["open", "open"], seed=4) as host:
        table = host.table
        reader, writer = await raw_connection(host.port)
        writer.write(encode_frame({"v": messages.PROTOCOL, "t": "hello", "name": "Ann"}))
        while (await read_frame(reader, MAX_HOST_FRAME, 5))["t"] != "welcome":
            pass
        assert table.open_seats() == 1
        writer.write(encode_frame({"v": messages.PROTOCOL, "t": "bye"}))
        await writer.drain()
        await until(lambda: table.slots[0].conn is None)
        assert table.open_seats() == 2 and table.slots[0].token_hash is None
        writer.close()
