"""The host: whole games over loopback, hidden views, seats and tokens, stale actions,
spectators, simultaneous choices, local seats, undo, reconnect."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.registry import GAMES
from engine.storage import load_record
from netplay import messages
from netplay.host import Host, HostTable
from netplay.wire import MAX_HOST_FRAME, encode_frame, read_frame
from tui.cli import main as cli_main

from netplay_helpers import ALL_GAMES, LOOPBACK, client, play_with_bots, running_host, until, raw_connection
from netplay_toygame import TOY


class Raw:
    """A hand-driven client: exact frames in, every reply read with a timeout."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: Host) -> "Raw":
        r, w = await raw_connection(host.port)
        return cls(r, w)

    def send(self, obj: dict) -> None:
        self.writer.write(encode_frame({"v": messages.PROTOCOL, **obj}))

    async def recv(self, timeout: float = 5.0) -> dict:
        return await read_frame(self.reader, MAX_HOST_FRAME, timeout)

    async def until(self, kind: str, timeout: float = 5.0) -> dict:
        while True:
            msg = await self.recv(timeout)
            if msg["t"] == kind:
                return msg

    async def join(self, **hello) -> tuple[dict, dict]:
        self.send({"t": "hello", **hello})
        welcome = await self.until("welcome")
        update = await self.until("update")
        return welcome, update

    def close(self) -> None:
        self.writer.close()


@pytest.mark.parametrize("slug", sorted(ALL_GAMES))
async def test_bot_clients_play_whole_games_of_every_game(slug, tmp_path):
    game = ALL_GAMES[slug]
    n = game.min_players
    log = tmp_path / "host.atlrec"
    async with running_host(game, ["open"] * n, seed=21, log=log) as host:
        spectator = client(host, spectate=True)
        spectator.start()
        clients = await play_with_bots(host, n)
        await asyncio.wait_for(spectator.finished.wait(), 10)
        table = host.table
        assert table.match.result() is not None
        for c in clients + [spectator]:
            assert c.over is not None and c.over.digest == table.match.digest()
            assert c.verification.ok, c.verification.text
            # the last view each seat holds is exactly its view of the final state
            assert c.view == game.view(table.match.state, c.seat)
        assert spectator.seat is None
    record = load_record(log)
    assert len(record.moves) == len(table.match.record.moves)
    if slug in GAMES:
        assert cli_main(["replay", str(log), "--verify"]) == 0


async def test_each_seat_gets_only_its_own_secrets_with_simultaneous_choices():
    """Toy bids: every seat in to_act at once; a seat's pick reaches no other seat."""
    async with running_host(TOY, ["open", "open", "open"], options={"rounds": 4}) as host:
        clients = await play_with_bots(host, 3)
        for c in clients:
            for e in c.events:
                if e.kind == "my_pick":
                    assert e.to == (c.seat,)
            assert sum(e.kind == "my_pick" for e in c.events) == 4
        assert all(c.verification.ok for c in clients)


async def test_stale_action_gets_a_resync_not_silence():
    async with running_host(TOY, ["open", "open"]) as host:
        a, b = await Raw.open(host), await Raw.open(host)
        _, ua = await a.join(name="A")
        _, ub = await b.join(name="B")
        await a.until("seats")
        a.send({"t": "act", "seq": ua["seq"], "action": {"k": "pick", "n": 1}, "n": 1})
        fresh = await a.until("update")
        assert fresh["ack"] == 1 and fresh["view"][1] == 1
        # the same view again (a double submit): stale, answered with the current view
        a.send({"t": "act", "seq": ua["seq"], "action": {"k": "pick", "n": 2}, "n": 2})
        err = await a.until("error")
        assert err["code"] == "stale" and err["ack"] == 2
        resync = await a.until("update")
        assert resync["resync"] is True and resync["seq"] == fresh["seq"] and resync["view"][1] == 1
        assert len(host.table.match.record.moves) == 1
        a.close(), b.close()


async def test_a_view_changed_only_by_others_simultaneous_choices_is_not_stale():
    async with running_host(TOY, ["open", "open"]) as host:
        a, b = await Raw.open(host), await Raw.open(host)
        _, ua = await a.join(name="A")
        _, ub = await b.join(name="B")
        await a.until("seats")
        a.send({"t": "act", "seq": ua["seq"], "action": {"k": "pick", "n": 1}})
        fresh = await b.until("update")  # B's view changed: A has picked
        assert fresh["seq"] > ub["seq"]
        b.send({"t": "act", "seq": ub["seq"], "action": {"k": "pick", "n": 2}})  # chosen before
        await b.until("update")
        assert len(host.table.match.record.moves) == 2  # accepted: the engine still checked it
        a.close(), b.close()


async def test_wrong_token_another_seat_and_spectators_are_refused():
    async with running_host(TOY, ["open", "open"]) as host:
        a, b = await Raw.open(host), await Raw.open(host)
        await a.join(name="A")
        _, ub = await b.join(name="B")
        bad = await Raw.open(host)
        bad.send({"t": "hello", "token": "x" * 32})
        err = await bad.until("error")
        assert err["code"] == "bad-token" and err["fatal"]
        b.send({"t": "act", "seq": ub["seq"], "seat": 0, "action": {"k": "pick", "n": 1}})
        assert (await b.until("error"))["code"] == "not-your-seat"
        s = await Raw.open(host)
        _, us = await s.join(spectate=True)
        assert us["view"][0] is None and us["view"][1] == -1  # the public view: seat None, no pick
        s.send({"t": "act", "seq": us["seq"], "action": {"k": "pick", "n": 1}})
        assert (await s.until("error"))["code"] == "spectator"
        full = await Raw.open(host)
        full.send({"t": "hello", "name": "late"})
        assert (await full.until("error"))["code"] == "full"
        assert host.table.match.record.moves == []
        for r in (a, b, bad, s, full):
            r.close()


async def test_the_table_waits_until_every_open_seat_is_taken():
    async with running_host(TOY, ["open", "open"]) as host:
        a = await Raw.open(host)
        _, ua = await a.join(name="A")
        a.send({"t": "act", "seq": ua["seq"], "action": {"k": "pick", "n": 1}})
        assert (await a.until("error"))["code"] == "not-started"
        a.close()
        await until(lambda: host.table.slots[0].conn is None)
        assert host.table.open_seats() == 1  # left before the start: the seat stays A's
        assert not host.table.started


async def test_a_client_takes_its_seat_back_with_its_token_and_full_view():
    async with running_host(TOY, ["open", "open"]) as host:
        a, b = await Raw.open(host), await Raw.open(host)
        wa, ua = await a.join(name="A")
        await b.join(name="B")
        a.send({"t": "act", "seq": ua["seq"], "action": {"k": "pick", "n": 3}})
        await a.until("update")
        a.writer.transport.abort()
        seats = await b.until("seats")
        while seats["seats"][0]["connected"]:  # (B's own join was announced first)
            seats = await b.until("seats")
        assert seats["seats"][0]["connected"] is False  # the others see who is gone
        assert host.table.seats_message().seats[0].connected is False
        back = await Raw.open(host)
        wb, ub = await back.join(token=wa["token"], name="A")
        assert wb["seat"] == 0 and ub["resync"] is True
        assert ub["view"][1] == 3  # its own secret pick, restored
        assert [e["kind"] for e in ub["events"]] == ["picked", "my_pick"]
        b.close(), back.close()


async def test_local_and_bot_seats_mix_with_open_ones():
    table = HostTable.create(TOY, {"rounds": 2}, ["open", "local", "bot"], 5)
    host = Host([table], host=LOOPBACK, port=0)
    await host.start()
    try:
        c = client(host)
        c.start()
        await until(lambda: c.view is not None and 1 in table.match.to_act())
        assert table.submit(1, TOY.codec.decode({"k": "pick", "n": 0})) is None  # the local human
        assert table.submit(1, TOY.codec.decode({"k": "pick", "n": 0})) is not None  # already picked
        await until(lambda: c.legal() and c.version == table.slots[0].version)  # has seen the pick
        assert c.submit(c.legal()[0]) is None
        await until(lambda: table.match.record.moves and 1 in table.match.to_act() or table.over)
        assert table.match.state.round == 2  # the bot picked too: the round closed
        await c.close()
    finally:
        await host.close()


async def test_undo_over_the_lan_takes_the_move_out_of_the_log(tmp_path):
    log = tmp_path / "u.atlrec"
    async with running_host(TOY, ["open", "open"], log=log) as host:
        a, b = await Raw.open(host), await Raw.open(host)
        _, ua = await a.join(name="A")
        await b.join(name="B")
        await a.until("seats")
        a.send({"t": "act", "seq": ua["seq"], "action": {"k": "pick", "n": 2}})
        u = await a.until("update")
        assert len(load_record(log).moves) == 1
        a.send({"t": "undo", "seq": u["seq"]})
        u2 = await a.until("update")
        assert u2["view"][1] == -1 and any(e["kind"] == "undo" for e in u2["events"])
        assert load_record(log).moves == [] and host.table.match.record.moves == []
        a.close(), b.close()


async def test_a_dropped_client_comes_back_by_itself_mid_turn():
    game = ALL_GAMES["pathways"]
    async with running_host(game, ["open", "open"], seed=9) as host:
        from netplay.client import run_bot

        clients = [client(host, name=f"c{i}") for i in range(2)]
        tasks = [asyncio.ensure_future(run_bot(c, seed=i, delay=0.002)) for i, c in enumerate(clients)]
        await until(lambda: len(host.table.match.record.moves) >= 6, timeout=20)
        await until(lambda: 0 in host.table.match.to_act(), timeout=20)
        victim = host.table.slots[0].conn
        victim.abort()  # the connection drops while seat 0 is to act
        await until(lambda: host.table.slots[0].conn is not victim and host.table.slots[0].conn is not None,
                    timeout=10)
        await asyncio.wait_for(asyncio.gather(*tasks), 40)
        assert clients[0].over is not None and clients[0].verification.ok
        assert host.table.match.result() is not None
