"""A client's bounds, over 127.0.0.1: a bad address fails at once with a reason, a closed
table is given up after a bound (and said once, not nested), and a seat's token brings its name back."""

from __future__ import annotations

import asyncio
import socket

from engine.registry import GAMES
from netplay.client import KEEP_NAME, RemoteSeat
from tui.lan.hosting import reachable_addresses

from netplay_helpers import LOOPBACK, client, running_host, until

GAME = GAMES["pathways"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


async def test_an_address_where_nothing_listens_fails_at_once_with_the_reason():
    from netplay.client import Client

    c = Client(LOOPBACK, free_port(), backoff=(0.02, 0.05))
    c.start()
    await asyncio.wait_for(c.finished.wait(), 10)
    assert c.status == "refused" and c.attempt == 0
    assert "Nothing is listening" in c.last_error and "connection refused" in c.last_error


async def test_a_client_says_the_table_is_closed_and_stops_retrying_after_its_bound():
    async with running_host(GAME, ["open", "open"], seed=3) as host:
        c = client(host, name="Ann", give_up_after=0.3, give_up_tries=3)
        c.start()
        await until(lambda: c.status == "connected")
        for conn in list(host.conns):  # a host that vanishes without a word (a crash)
            conn.abort()
        host.server.close()
    # the host is gone: the client retries, then gives up
    await asyncio.wait_for(c.finished.wait(), 10)
    assert c.status == "closed" and c.attempt >= 3
    assert c.last_error.startswith("The table is closed")


async def test_a_host_that_closes_its_table_says_so_and_the_client_stops_at_once():
    async with running_host(GAME, ["open", "open"], seed=3) as host:
        c = client(host, name="Ann", give_up_after=30, give_up_tries=50)
        c.start()
        await until(lambda: c.status == "connected")
    await asyncio.wait_for(c.finished.wait(), 5)
    assert c.status == "closed" and c.attempt == 0
    assert "The host closed the table" in c.last_error
    # the reason is said once (the side panel, a toast), never nested in the other lines
    seat = RemoteSeat(c)
    assert seat.waiting_for() == "the host (disconnected: the table is closed)"
    assert seat.connection_line() == "Disconnected: the table is closed"


async def test_taking_a_seat_back_with_its_token_and_no_name_keeps_the_seat_name():
    async with running_host(GAME, ["open", "open"], seed=3) as host:
        ann = client(host, name="Ann")
        ann.start()
        await until(lambda: ann.status == "connected")
        token, seat = ann.token, ann.seat
        ann._task.cancel()  # the terminal is closed: no goodbye, the seat stays Ann's
        await until(lambda: host.table.slots[seat].conn is None)
        assert host.table.slots[seat].taken
        back = client(host, name=KEEP_NAME, token=token)
        back.start()
        await until(lambda: back.status == "connected")
        assert back.seat == seat and back.names[seat] == "Ann" and host.table.names()[seat] == "Ann"
        await back.close()


def test_the_host_shows_addresses_players_can_type_never_loopback_when_on_every_interface():
    for bind in ("0.0.0.0", ""):
        shown = reachable_addresses(bind, 7341)
        assert shown and all(a.endswith(":7341") for a in shown)
        if shown != ["127.0.0.1:7341"]:  # (a machine with no network at all shows loopback)
            assert not any(a.startswith(("127.", "[::1]")) for a in shown)
    assert reachable_addresses(LOOPBACK, 5) == ["127.0.0.1:5"]
    assert reachable_addresses("fd00::2", 5) == ["[fd00::2]:5"]
