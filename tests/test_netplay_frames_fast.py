"""The host's fast update frames against the plain slow way: each seat's frame of a move
is the bytes of ``frame(Update(...))`` built from the seat's view (``ViewData`` with no
memo), its events (``WireEvent.of``) and the seats to act.  The fast path converts an
event's data with its keys' order known (``WireEvent.wire``) and packs a public tail
once for every seat (``Updates.frames``)."""

from __future__ import annotations

import dataclasses
import enum
import random
from typing import NamedTuple

import msgpack
import pytest

from engine.core import Event, to_data
from engine.registry import GAMES
from netplay import messages
from netplay.table import HostTable


class _Keep:
    closed = False

    def __init__(self, seat: int):
        self.seat, self.sent = seat, []

    def send_bytes(self, data: bytes) -> None:
        self.sent.append(data)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_seats_update_is_the_slow_ways_bytes(slug):
    game = GAMES[slug]
    players = min(4, game.max_players)
    table = HostTable.create(game, {}, ["open"] * players, 3)
    keeps = [_Keep(i) for i in range(players)]
    for slot, keep in zip(table.slots, keeps):
        slot.conn, slot.token_hash = keep, "0" * 64
    bots = [game.make_bot(i, 3, "random") for i in range(players)]
    match, checked = table.match, 0
    for _ in range(60):
        if match.result() is not None:
            break
        seat = min(match.to_act())
        view = match.view(seat)
        sent_before = [len(k.sent) for k in keeps]
        deliveries = match.submit(seat, bots[seat].choose(view, game.legal(view)))
        match.record.moves[-1].digest  # (as the host's log does first: the boards are shared)
        table.publish(deliveries)
        for i, keep in enumerate(keeps):
            if len(keep.sent) == sent_before[i]:
                continue
            d = deliveries[i]
            slot = table.slots[i]
            slow = messages.frame(messages.Update(seq=slot.version, view=messages.ViewData(d.view),
                                    events=[messages.WireEvent.of(e) for e in d.events],
                                    to_act=sorted(match.to_act()), ack=slot.acked))
            assert keep.sent[-1] == slow
            checked += 1
    assert checked > 20


class _Colour(enum.IntEnum):
    RED = 1


@dataclasses.dataclass(frozen=True)
class _Nothing:
    pass


class _Empty(NamedTuple):
    pass


def test_an_events_wire_map_is_to_datas():
    rng = random.Random(11)
    keys = ["seat", "tile", "kind", "cell", "mask", "a", "zz", "b"]
    values = [0, 1, True, False, None, 2.5, "x", "", b"\x00", (1, 2), [3], {"q": 1}, 300]
    for _ in range(3000):
        data = {}
        for k in rng.sample(keys, rng.randrange(0, 6)):
            data[k] = rng.choice(values)
        if rng.random() < 0.05:
            data[rng.choice([1, True, 2.0])] = 1  # (a key that is not a string: to_data's way)
        to = rng.choice([None, (0,), (1, 3)])
        e = Event(rng.choice(["placed", "turn"]), data, to)
        slow = {"kind": e.kind, "data": to_data(dict(data)), "to": None if to is None else list(to)}
        fast = messages.WireEvent.wire(e)
        assert fast == slow and list(fast["data"]) == list(slow["data"])
        assert messages._PACK(fast) == messages._PACK(slow)  # (True and 1 pack apart)


def test_seats_given_one_tuple_with_a_secret_event_get_their_own_events():
    """Two seats handed the very same events tuple share its packed tail only when every
    event in it is public: a secret one goes to its seat alone."""
    from engine.match import Delivery

    game = GAMES["pathways"]
    table = HostTable.create(game, {}, ["open"] * 2, 3)
    for i, slot in enumerate(table.slots):
        slot.conn, slot.token_hash = _Keep(i), "0" * 64
    events = (Event("secret", {"n": 1}, (0,)), Event("public", {"n": 2}))
    deliveries = {i: Delivery(table.match.view(i), events) for i in (0, 1)}
    deliveries[None] = Delivery(table.match.view(None), events)
    table.updates.fresh()
    for conn, frame in table.updates.frames(deliveries):
        seen = [e for e in events if e.visible_to(conn.seat)]
        got = messages.parse_host(msgpack.unpackb(frame[4:], raw=False))
        assert [w.kind for w in got.events] == [e.kind for e in seen]
