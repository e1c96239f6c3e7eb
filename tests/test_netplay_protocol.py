"""The wire protocol: frames, limits, messages, views by type, fingerprints."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest

from engine.core import SeatInfo, to_data
from engine.match import Match
from engine.record import canonical_bytes
from netplay import messages
from netplay.client import Client, parse_address
from netplay.host import HostTable
from netplay.wire import MAX_CLIENT_FRAME, FrameError, decode_body, encode_frame, read_frame

from netplay_helpers import ALL_GAMES, LOOPBACK, client, running_host
from netplay_toygame import TOY


def reader_of(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    r = asyncio.StreamReader()
    r.feed_data(data)
    if eof:
        r.feed_eof()
    return r


async def test_a_frame_is_a_big_endian_length_then_a_msgpack_map():
    data = encode_frame({"t": "ping", "v": 1, "n": 3})
    body = msgpack.packb({"t": "ping", "v": 1, "n": 3}, use_bin_type=True)
    assert data == struct.pack(">I", len(body)) + body
    assert await read_frame(reader_of(data), 100, 1) == {"t": "ping", "v": 1, "n": 3}


async def test_the_length_is_checked_before_the_body_is_read():
    # a header announcing 1 GB, and no body at all: refused at once, nothing waited for
    r = reader_of(struct.pack(">I", 1 << 30), eof=False)
    with pytest.raises(FrameError, match="over the"):
        await read_frame(r, MAX_CLIENT_FRAME, 5)


async def test_a_header_alone_times_out():
    r = reader_of(struct.pack(">I", 10), eof=False)
    with pytest.raises(asyncio.TimeoutError):
        await read_frame(r, 100, 0.05)


async def test_a_truncated_frame_is_an_incomplete_read():
    r = reader_of(struct.pack(">I", 10) + b"abc")
    with pytest.raises(asyncio.IncompleteReadError):
        await read_frame(r, 100, 1)


@pytest.mark.parametrize("body", [b"\xc1", msgpack.packb([1, 2]), msgpack.packb(7), b"\x92\x01"])
def test_bodies_that_are_not_one_map_are_refused(body):
    with pytest.raises(FrameError):
        decode_body(body, 100)


def test_msgpack_limits_refuse_huge_containers():
    with pytest.raises(FrameError):
        decode_body(b"\xdd\xff\xff\xff\xff", 1000)  # array of 4 billion items announced


def test_every_message_carries_the_protocol_version():
    with pytest.raises(FrameError, match="protocol version"):
        messages.parse_client({"t": "ping", "v": 99})
    assert messages.Hello().v == messages.PROTOCOL
    assert isinstance(messages.parse_client({"t": "ping", "v": messages.PROTOCOL, "n": 1}), messages.Ping)


@pytest.mark.parametrize("obj", [
    {"t": "zzz", "v": messages.PROTOCOL},
    {"t": "act", "v": messages.PROTOCOL, "seq": "1", "action": {}},
    {"t": "act", "v": messages.PROTOCOL, "seq": 1, "action": {}, "extra": 1},
    {"t": "hello", "v": messages.PROTOCOL, "token": "short"},
    {"t": "hello", "v": messages.PROTOCOL, "name": "a\x00b"},
    {"v": messages.PROTOCOL},
])
def test_malformed_messages_are_refused_with_a_reason(obj):
    with pytest.raises(FrameError, match="bad message"):
        messages.parse_client(obj)


def test_only_a_view_can_be_sent_to_a_client():
    game = ALL_GAMES["pathways"]
    match = Match(game, {}, [SeatInfo("A"), SeatInfo("B")], 3)
    view = messages.ViewData(match.view(0))
    messages.Update(seq=1, view=view, events=[], to_act=[0])  # fine
    with pytest.raises(TypeError, match="view"):
        messages.ViewData(match.state)  # a raw state: a type error
    with pytest.raises(Exception, match="view"):
        messages.Update(seq=1, view=to_data(match.state), events=[], to_act=[0])
    with pytest.raises(Exception, match="view"):
        messages.Update(seq=1, view=match.state, events=[], to_act=[0])


@pytest.mark.parametrize("slug", sorted(ALL_GAMES))
def test_views_come_back_as_the_games_view_dataclass(slug):
    """Generic decode of every game's views (after real moves), as a client gets them."""
    game = ALL_GAMES[slug]
    n = game.min_players
    match = Match(game, {}, [SeatInfo(f"P{i}", "bot") for i in range(n)], 11)
    bots = [game.make_bot(i, 11) for i in range(n)]
    for _ in range(40):
        for seat in [*range(n), None]:
            view = match.view(seat)
            wire = msgpack.unpackb(msgpack.packb(game.view_to_data(view), use_bin_type=True), raw=False)
            back = game.view_from_data(wire)
            assert type(back) is type(view)
            assert canonical_bytes(back) == canonical_bytes(view)
            assert back == view
        if match.result() is not None:
            break
        seat = sorted(match.to_act())[0]
        v = match.view(seat)
        match.submit(seat, bots[seat].choose(v, game.legal(v)))


def test_a_view_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError):
        ALL_GAMES["pathways"].view_from_data([1, 2, 3])


def test_fingerprint_depends_on_rules_options_and_protocol():
    a = messages.rules_fingerprint("pathways", "pathways-1", {"max_rounds": 60})
    assert a == messages.rules_fingerprint("pathways", "pathways-1", {"max_rounds": 60})
    assert a != messages.rules_fingerprint("pathways", "pathways-2", {"max_rounds": 60})
    assert a != messages.rules_fingerprint("pathways", "pathways-1", {"max_rounds": 61})


async def test_a_client_refuses_a_host_whose_rules_differ():
    class OtherRules(type(TOY)):
        rules_version = "toy-999"

    async with running_host(TOY, ["open", "open"]) as host:
        c = client(host, games={TOY.slug: OtherRules()})
        c.start()
        await asyncio.wait_for(c.finished.wait(), 5)
        assert c.status == "refused"
        assert "rules differ" in c.last_error and "toy-1" in c.last_error and "toy-999" in c.last_error
        assert host.table.slots[0].conn is None


async def test_a_client_refuses_a_game_it_does_not_know():
    async with running_host(TOY, ["open", "open"]) as host:
        c = client(host, games={})
        c.start()
        await asyncio.wait_for(c.finished.wait(), 5)
        assert c.status == "refused" and "does not know" in c.last_error


def test_addresses_parse():
    assert parse_address("10.0.0.2:7000") == ("10.0.0.2", 7000)
    assert parse_address("box") == ("box", 7341)
    assert parse_address("[::1]:9") == ("::1", 9)
    with pytest.raises(ValueError):
        parse_address("box:notaport")


def test_commitment_opens_only_with_its_seed_and_salt():
    c = messages.commitment(5, "ab")
    assert c == messages.commitment(5, "ab") and c != messages.commitment(6, "ab") and c != messages.commitment(5, "ac")


def test_table_seats_follow_the_kinds():
    t = HostTable.create(TOY, {}, ["open", "local", "bot"], 1)
    assert [s.kind for s in t.match.seats] == ["remote", "human", "bot"]
    assert t.open_seats() == 1 and not t.started
    _ = LOOPBACK, Client
