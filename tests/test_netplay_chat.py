"""Chat at a table, over loopback: players' lines reach every seat and spectator; a
spectator writes only where the host allows it, and then only to spectators; lines are
cleaned, capped and rate-limited; they never enter the game record, and go to a chat
log beside the table's log; whoever comes back hears the kept lines again."""

from __future__ import annotations

import asyncio
import json

from engine.storage import load_record
from netplay import messages
from netplay.chat import chat_log_path
from netplay.host import Limits
from netplay.wire import MAX_HOST_FRAME, encode_frame, read_frame

from netplay_helpers import ALL_GAMES, client, raw_connection, running_host, until

GAME = ALL_GAMES["pathways"]


async def seated(host, *names, spectators=0):
    players = [client(host, name=n) for n in names]
    watchers = [client(host, name=f"Watcher{i}", spectate=True) for i in range(spectators)]
    for c in players + watchers:
        c.start()
    await until(lambda: all(c.status == "connected" for c in players + watchers), timeout=10)
    return players, watchers


async def test_a_player_s_line_reaches_every_seat_and_spectator_cleaned_and_out_of_the_record(tmp_path):
    log = tmp_path / "table.atlrec"
    async with running_host(GAME, ["open", "open"], seed=3, log=log) as host:
        (ann, bob), (zed,) = await seated(host, "Ann", "Bob", spectators=1)
        assert ann.chat("hello \u202e\x1b[31mthere\n  friend") is None
        await until(lambda: all(c.chat_lines for c in (ann, bob, zed)))
        for c in (ann, bob, zed):
            (line,) = c.chat_lines
            assert (line.seat, line.name, line.text, line.spectator) == (ann.seat, "Ann", "hello [31mthere friend", False)
        assert ann.chat("x" * (messages.MAX_CHAT + 1)) and ann.chat("   ")  # refused here, never sent
        for c in (ann, bob, zed):
            await c.close()
    kept = [json.loads(line) for line in chat_log_path(log).read_text().splitlines()]
    assert [(k["seat"], k["name"], k["text"]) for k in kept] == [(0, "Ann", "hello [31mthere friend")]
    assert (chat_log_path(log).stat().st_mode & 0o777) == 0o600
    assert b"friend" not in log.read_bytes() and load_record(log).moves == []


async def test_spectators_chat_only_where_allowed_and_only_among_themselves():
    async with running_host(GAME, ["open", "open"], seed=3) as host:
        (ann, bob), (zed, yan) = await seated(host, "Ann", "Bob", spectators=2)
        assert zed.chat("psst") is None
        await until(lambda: "not write" in zed.last_error)
        host.table.spectator_chat = True
        assert zed.chat("psst") is None
        await until(lambda: yan.chat_lines and zed.chat_lines)
        assert yan.chat_lines[0].spectator and yan.chat_lines[0].name == "Watcher0"
        assert bob.chat("hi all") is None
        await until(lambda: len(yan.chat_lines) == 2 and ann.chat_lines)
        assert [line.text for line in ann.chat_lines] == ["hi all"]  # players never hear the spectators
        for c in (ann, bob, zed, yan):
            await c.close()


async def test_a_fast_talker_is_told_to_wait_and_a_bad_chat_frame_gets_an_error():
    async with running_host(GAME, ["open", "open"], seed=3,
                            limits=Limits(chat_rate=0.001, chat_burst=2)) as host:
        reader, writer = await raw_connection(host.port)
        writer.write(encode_frame({"v": messages.PROTOCOL, "t": "hello", "name": "Ann"}))
        for text in ("one", "two", "three"):
            writer.write(encode_frame({"v": messages.PROTOCOL, "t": "chat", "text": text}))
        writer.write(encode_frame({"v": messages.PROTOCOL, "t": "chat", "text": "y" * 500}))
        writer.write(encode_frame({"v": messages.PROTOCOL, "t": "chat", "text": 5}))
        writer.write(encode_frame({"v": messages.PROTOCOL, "t": "chat", "text": "\u200b\u200b"}))
        got = []
        while len([m for m in got if m["t"] == "error"]) < 4:
            got.append(await read_frame(reader, MAX_HOST_FRAME, 5))
        said = [m["text"] for m in got if m["t"] == "chat-line"]
        codes = [m["code"] for m in got if m["t"] == "error"]
        assert said == ["one", "two"]
        assert codes == ["chat-flood", "bad-message", "bad-message", "chat-empty"]
        assert all(not m.get("fatal") for m in got if m["t"] == "error")
        writer.close()


async def test_a_player_who_comes_back_hears_the_kept_lines_again():
    async with running_host(GAME, ["open", "open"], seed=3) as host:
        (ann, bob), _ = await seated(host, "Ann", "Bob")
        assert ann.chat("are you there?") is None
        await until(lambda: bob.chat_lines)
        token = bob.token
        await bob.close()
        again = client(host, token=token, name=" ")
        again.start()
        await until(lambda: again.status == "connected" and again.chat_lines)
        assert [line.text for line in again.chat_lines] == ["are you there?"]
        await ann.close()
        await again.close()


async def test_a_player_at_the_host_s_terminal_chats_with_the_remote_players():
    async with running_host(GAME, ["local", "open"], seed=3) as host:
        table = host.table
        heard = []
        table.listeners.append(lambda: heard.append(len(table.chat.lines)))
        (bob,), _ = await seated(host, "Bob")
        assert table.local_chat(0, "welcome, Bob") is None
        assert table.local_chat(1, "not mine") and table.local_chat(0, " \u200b ")
        await until(lambda: bob.chat_lines)
        assert (bob.chat_lines[0].seat, bob.chat_lines[0].text) == (0, "welcome, Bob") and 1 in heard
        assert bob.chat("thanks") is None
        await until(lambda: len(table.chat.lines) == 2)
        assert table.chat.lines[-1].name == "Bob"
        await bob.close()
