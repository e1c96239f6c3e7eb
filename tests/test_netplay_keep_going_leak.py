"""The leak harness over what a table that keeps going adds to the wire: seats kept
warm by a bot (their labels), turn timers (each seat's clock) and chat.

Over real sockets through a recording proxy: a game where one player is killed and a
bot keeps their seat warm, every seat has a clock, and players and spectators chat.
Before the ``over`` frame no connection receives the seed, the salt, the RNG key or
another seat's token, whatever the frame's kind.  And at the table itself: the seat
list and the chat a seat is sent are the same bytes when everything that seat may not
know is re-drawn (``game.rerandomise``), as its view is.
"""

from __future__ import annotations

import asyncio

import pytest

from engine.registry import GAMES
from engine.rng import Rng
from netplay import messages
from netplay.client import Client, run_bot
from netplay.host import Host, HostTable

from netplay_helpers import LOOPBACK, until
from netplay.tls import PLAIN
from test_netplay_attacker import RecordingProxy, forms_of_seed, split_frames


def plain_client(port: int, **kw) -> Client:
    return Client(LOOPBACK, port, read_timeout=10.0, backoff=(0.02, 0.2), games=GAMES, trust=PLAIN, **kw)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("slug", ["end-of-atlantis", "pathways"])
async def test_no_seat_list_clock_or_chat_frame_carries_a_secret(slug, tmp_path):
    game = GAMES[slug]
    table = HostTable.create(game, {}, ["open", "open"], None, log_path=tmp_path / "t.atlrec")
    table.bot_after, table.turn_time, table.spectator_chat = 0.1, 5.0, True
    host = Host([table], host=LOOPBACK, port=0, plain=True)
    await host.start()
    proxy = RecordingProxy(host.port)
    await proxy.start()
    try:
        zed = plain_client(proxy.port, spectate=True, name="Zed")
        zed.start()
        ann, bob = plain_client(proxy.port, name="Ann"), plain_client(proxy.port, name="Bob")
        ann_done = asyncio.ensure_future(run_bot(ann, seed=1))
        bob_task = asyncio.ensure_future(run_bot(bob, seed=2))
        await until(lambda: len(table.match.record.moves) >= 3, timeout=30)
        assert ann.chat("good luck") is None and zed.chat("who wins?") is None
        bob_task.cancel()
        bob._task.cancel()  # (Bob's program dies: a bot keeps his seat warm)
        await until(lambda: table.slots[bob.seat].standin, timeout=10)
        assert ann.chat("bye Bob") is None
        await asyncio.wait_for(ann_done, 60)
        await asyncio.wait_for(zed.finished.wait(), 10)
        key = game.setup(table.match.options, 2, table.match.seed).rng.key
        secrets_before_over = forms_of_seed(table.match.seed) + [table.salt.encode(), key, key.hex().encode()]
        kinds_seen = set()
        for i, stream in enumerate(proxy.downstream):
            frames = split_frames(bytes(stream))
            kinds = [k for k, _ in frames]
            kinds_seen.update(kinds)
            end = kinds.index("over") if "over" in kinds else len(frames)
            before = b"".join(raw for _, raw in frames[:end])
            for canary in secrets_before_over:
                assert canary not in before, f"connection {i} received a secret before the game ended"
            if bob.token.encode() in bytes(stream):
                assert bob.token.encode() in b"".join(raw for k, raw in frames if k == "welcome")
        assert {"chat-line", "seats", "update", "over"} <= kinds_seen
        assert table.bot_moves
    finally:
        await proxy.close()
        await host.close()


class Captured:
    """A connection the table sends to, keeping every frame (a ``netplay.peer.Peer``)."""

    def __init__(self) -> None:
        self.seat = None
        self.spectator = False
        self.closed = False
        self.said_bye = False
        self.seats_gen = -1
        self.name = ""
        self.errors = 0
        self.frames: list[bytes] = []

    def send(self, msg: messages.Msg) -> None:
        self.frames.append(messages.frame(msg))

    def send_bytes(self, data: bytes) -> None:
        self.frames.append(data)

    def error(self, code: str, message: str, fatal: bool = False, ack: int | None = None) -> None:
        self.send(messages.Error(code=code, message=message, fatal=fatal, ack=ack))


async def test_the_seat_list_and_chat_a_seat_is_sent_do_not_change_when_its_secrets_are_redrawn():
    game = GAMES["end-of-atlantis"]
    table = HostTable.create(game, {}, ["open", "open", "open"], 77)
    table.loop = asyncio.get_running_loop()
    table.turn_time = 600.0
    peers = [Captured() for _ in table.slots]
    for peer in peers:
        slot, _ = table.claim(f"P{len(table.chat.lines)}")
        table.attach(peer, slot, None)
    bots = [game.make_bot(i, 5, "random") for i in range(3)]
    while len(table.match.record.moves) < 25 and table.match.result() is None:
        seat = min(table.match.to_act())
        view = table.match.view(seat)
        assert table.submit(seat, bots[seat].choose(view, game.legal(view))) is None
    table.detach(peers[2])
    table._keep_warm(table.slots[2])
    table.client_chat(peers[0], messages.Chat(text="my hand is great"))

    def sent_to(seat: int) -> list:
        msg = table.seats_message()
        seats = [s.model_copy(update={"clock": s.clock is not None}) for s in msg.seats]  # (time moves on)
        return [messages.frame(msg.model_copy(update={"seats": seats}))] + [messages.frame(line) for line in table.chat.heard_by(seat)]

    state = table.match.state
    for p in range(3):
        before = sent_to(p)
        table.match.state = game.rerandomise(state, p, Rng(b"k" * 16).fork(f"seat-{p}"))
        try:
            assert sent_to(p) == before
        finally:
            table.match.state = state
    assert "(bot until" in table.seats_message().seats[2].label
