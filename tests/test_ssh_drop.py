"""``atlantis serve-ssh``: one player's connection drops, the other plays on; a player
without a key comes back into their seat with its token."""

from __future__ import annotations

import asyncio
import re

import asyncssh
import pytest

from engine.core import IllegalAction
from engine.pathways import data
from engine.pathways.actions import Place
from engine.registry import get_game
from netplay.host import HostTable
from netplay.table import token_hash
from tests.test_ssh_serve import (LOOPBACK, Player, open_and_join, corner_then, play_turns, running_front, slot_key,
                                  until)

pytestmark = pytest.mark.timeout(60)


class NoKey(asyncssh.SSHClient):
    """A client with no key: keyboard-interactive with no question (``--auth none``)."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return []


async def connect_without_key(front, user: str, size=(110, 40)) -> Player:
    conn, _ = await asyncssh.create_connection(NoKey, LOOPBACK, front.port, known_hosts=None, username=user,
                                               client_keys=None, agent_path=None)
    proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
    return Player(conn, proc)


def twin_tile_move(table: HostTable) -> Place | None:
    """A Place of Red's that the rules accept but that ``legal()`` does not list: the
    second tile of a kind Red holds twice (``legal()`` lists one tile a kind)."""
    seat, game = 0, table.game
    legal = table.match.legal(seat)
    hand = table.match.view(seat).hand
    for a in legal:
        if type(a) is not Place:
            continue
        for twin in hand:
            if twin != a.tile and data.TILE_KIND[twin] == data.TILE_KIND[a.tile]:
                move = Place(twin, a.rot, a.cell)
                if move in legal:
                    continue
                trial = HostTable.create(game, table.match.record.options, ["open", "open"], table.match.seed)
                try:
                    trial.match.submit(seat, move)
                except IllegalAction:
                    continue
                return move
    return None


def twin_seed() -> int:
    game = get_game("pathways")
    for seed in range(1, 500):
        if twin_tile_move(HostTable.create(game, {"max_rounds": 5}, ["open", "open"], seed)) is not None:
            return seed
    raise AssertionError("no seed where Red holds two tiles of a kind")


def seat_token_on_screen(text: str, table: HostTable, seat: int) -> str:
    """The seat token the screen shows (in one piece or two halves), checked against the
    hash the table keeps."""
    runs = re.findall(r"[A-Za-z0-9_-]{16,32}", text)
    for i, run in enumerate(runs):
        for token in (run, run + (runs[i + 1] if i + 1 < len(runs) else "")):
            if token_hash(token) == table.slots[seat].token_hash:
                return token
    raise AssertionError("the screen shows no seat token of that seat")


async def test_a_dropped_player_leaves_the_other_free_to_play_and_comes_back_with_the_seat_token(tmp_path):
    async with running_front(tmp_path) as front:
        front.tables.seeds = iter([twin_seed()])
        ana = await connect_without_key(front, "ana")
        bob = await connect_without_key(front, "bob")
        table = await open_and_join(front, ana, bob)
        await ana.sees("Your turn", 15)
        await bob.sees("Seat token", 15)
        await asyncio.sleep(0.5)
        token = seat_token_on_screen(bob.text, table, 1)

        bob.conn.abort()  # Bob's connection drops on Ana's turn
        await until(lambda: table.slots[1].conn is None, 10, "Bob's seat shows disconnected")
        # Ana picks the second of two tiles of a kind and puts it on a cell marked +:
        # the host takes it (the rules accept it, though legal() lists the other tile).
        move = twin_tile_move(table)
        hand = tuple(table.match.view(0).hand)
        mark = len(ana.raw)
        ana.send(slot_key(table, 0, hand, move.tile), *["r"] * move.rot)
        await asyncio.sleep(0.3)
        ana.send(*corner_then(move.cell), "enter")
        await until(lambda: table.match.record.moves, 10, "Ana's move taken")
        assert table.game.codec.decode(table.match.record.moves[0].action) == move
        assert "not legal" not in ana.text[mark:]
        # Ana plays the rest of her turn; then the table says whom it waits for.
        while 1 not in table.match.to_act():
            before = len(table.match.record.moves)
            await play_turns(table, {0: ana}, max_moves=before + 1, timeout=20)
        await ana.sees("Waiting for bob (disconnected)", 10)

        # Bob had no key: a new session finds no open seat, and takes his back by its token.
        again = await connect_without_key(front, "bob")
        await again.sees("0 of 2 open", 10)
        again.send("enter")
        await again.sees("t takes it back", 10)
        again.send("t")
        await again.sees("Take your seat back", 10)
        await asyncio.sleep(0.3)
        again.send(token[:16] + " " + token[16:], "enter")
        await until(lambda: table.slots[1].conn is not None, 15, "Bob back in his seat")
        await again.sees("Your turn", 15)
        before = len(table.match.record.moves)
        await play_turns(table, {0: ana, 1: again}, max_moves=before + 1)
        assert table.match.record.moves[-1].seat == 1
        for p in (ana, again):
            await p.close()


async def test_a_wrong_seat_token_takes_no_seat(tmp_path):
    async with running_front(tmp_path) as front:
        ana = await connect_without_key(front, "ana")
        bob = await connect_without_key(front, "bob")
        table = await open_and_join(front, ana, bob)
        eve = await connect_without_key(front, "eve")
        await eve.sees("0 of 2 open", 10)
        eve.send("t")
        await eve.sees("Take your seat back", 10)
        await asyncio.sleep(0.3)
        eve.send("x" * 32, "enter")
        await eve.sees("holds no seat", 10)
        assert all(s.conn is not None and s.conn.spectator is False for s in table.slots)
        assert [s.player for s in table.slots] == ["ana", "bob"]
        for p in (ana, bob, eve):
            await p.close()


async def test_a_lan_client_sends_a_move_the_rules_accept_and_the_host_judges_the_rest():
    """The root cause, without SSH: ``legal()`` lists one tile of each kind; the client
    sent only moves in that list, so the second tile of a kind was refused on the
    player's own turn.  Now the host judges every move (and says why it refuses one)."""
    from netplay.client import Client
    from netplay.host import Host

    seed = twin_seed()
    table = HostTable.create(get_game("pathways"), {"max_rounds": 5}, ["open", "open"], seed)
    host = Host([table], host=LOOPBACK, port=0)
    await host.start()
    clients = [Client(LOOPBACK, host.port, name=n, read_timeout=10.0) for n in ("ana", "bob")]
    try:
        for c in clients:
            c.start()
            await until(lambda: c.view is not None, 10, "joined")
        red = clients[0]
        await until(lambda: red.legal(), 10, "Red's turn")
        move = twin_tile_move(table)
        assert move not in red.legal() and red.submit(move) is None
        await until(lambda: table.match.record.moves, 10, "the move taken")
        await until(lambda: not red.pending, 10, "answered")
        assert clients[1].submit(move) == "It is not your turn."
        red.submit(Place(move.tile, move.rot, move.cell))  # that tile is on the board now
        await until(lambda: not red.pending, 10, "refused")
        assert red.last_error and "legal" not in red.last_error and len(table.match.record.moves) == 1
    finally:
        for c in clients:
            await c.close()
        await host.close()
