"""A table that keeps going: a bot keeps a dropped player's seat warm, and the player
takes it back with their token; a turn timer lets the bot make a slow seat's decision.
Everything over loopback with the real client and host."""

from __future__ import annotations

import asyncio

import msgpack

from netplay.client import run_bot
from netplay.log import read_log

from netplay_helpers import ALL_GAMES, client, running_host, until

GAME = ALL_GAMES["pathways"]


def kill(task: asyncio.Task, player, table) -> None:
    """The client's program dies: its tasks stop and its connection drops without a goodbye
    (and it does not reconnect)."""
    task.cancel()
    player._task.cancel()
    conn = table.slots[player.seat].conn
    if conn is not None:
        conn.abort()


def logged_bot_moves(path) -> set[int]:
    """The moves the host log marks as the bot's (``"by": "bot"``), numbered from 1."""
    objs = list(msgpack.Unpacker(open(path, "rb"), raw=False))
    return {i for i, obj in enumerate(objs) if i and obj.get("by") == "bot"}


async def test_a_killed_client_s_seat_is_played_by_a_bot_until_the_game_ends(tmp_path, caplog):
    caplog.set_level("INFO", logger="atlantis.host")
    log = tmp_path / "table.atlrec"
    async with running_host(GAME, ["open", "open"], seed=11, log=log) as host:
        table = host.table
        table.bot_after = 0.2
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        ann_task = asyncio.ensure_future(run_bot(ann, seed=1))
        bob_done = asyncio.ensure_future(run_bot(bob, seed=2))
        await until(lambda: len(table.match.record.moves) >= 6, timeout=20)
        kill(ann_task, ann, table)
        await until(lambda: table.slots[ann.seat].standin, timeout=10)
        label = "Blue (bot until Ann returns)" if table.slots[ann.seat].name == "Blue" else None
        label = label or f"{table.slots[ann.seat].name} (bot until Ann returns)"
        await until(lambda: bob.seat_label(ann.seat) == label, timeout=10)
        assert table.seats_message().seats[ann.seat].standin
        await until(lambda: any(line.notice and "until Ann returns" in line.text for line in bob.chat_lines))
        await asyncio.wait_for(bob_done, 60)
        assert table.match.result() is not None and bob.verification.ok
        assert table.bot_moves and all(table.match.record.moves[n - 1].seat == ann.seat for n in table.bot_moves)
    assert logged_bot_moves(log) == table.bot_moves
    assert read_log(log).bot_moves == table.bot_moves  # (what --resume reads back)
    assert any("by the bot for Ann" in r.getMessage() for r in caplog.records)


async def test_the_player_who_comes_back_with_their_token_takes_the_seat_back():
    async with running_host(GAME, ["open", "open"], seed=12) as host:
        table = host.table
        table.bot_after = 0.1
        table.bot_delay = 0.05  # (paced like any bot)
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        ann_task = asyncio.ensure_future(run_bot(ann, seed=1))
        bob_done = asyncio.ensure_future(run_bot(bob, seed=2))
        await until(lambda: len(table.match.record.moves) >= 4, timeout=20)
        seat, token = ann.seat, ann.token
        kill(ann_task, ann, table)
        await until(lambda: len(table.bot_moves) >= 2, timeout=20)

        back = client(host, name="Ann", token=token)
        back_done = asyncio.ensure_future(run_bot(back, seed=1))
        await until(lambda: not table.slots[seat].standin and table.slots[seat].conn is not None, timeout=10)
        taken_back_at = len(table.match.record.moves)
        assert back.seat == seat
        assert table.seats_message().seats[seat].label == "Ann"  # (what every client is sent next)
        assert "Ann is back" in table.chat.lines[-1].text and table.chat.lines[-1].notice
        await asyncio.wait_for(asyncio.gather(back_done, bob_done), 60)
        assert table.match.result() is not None and back.verification.ok
        assert max(table.bot_moves) <= taken_back_at  # after the return, every move of the seat is Ann's
        assert any(m.seat == seat for m in table.match.record.moves[taken_back_at:])


async def test_a_seat_timeout_of_zero_never_brings_a_bot():
    async with running_host(GAME, ["open", "open"], seed=13) as host:
        table = host.table
        table.bot_after = 0
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        ann_task = asyncio.ensure_future(run_bot(ann, seed=1))
        bob_task = asyncio.ensure_future(run_bot(bob, seed=2))
        await until(lambda: len(table.match.record.moves) >= 4, timeout=20)
        kill(ann_task, ann, table)
        await asyncio.sleep(0.3)
        assert not table.slots[ann.seat].standin and table.slots[ann.seat].away_timer is None
        bob_task.cancel()


# --- the turn timer -----------------------------------------------------------------------
EOA = ALL_GAMES["end-of-atlantis"]


async def test_each_seat_of_a_simultaneous_choice_has_its_own_clock_and_the_bot_beats_it():
    """End of Atlantis opens with both seats bidding in secret: each has a clock; Ann bids
    at once, Bob never does, and when Bob's clock runs out the bot bids for him (he keeps
    his seat).  The clocks are in the seat list every client receives."""
    async with running_host(EOA, ["open", "open"], seed=5) as host:
        table = host.table
        table.turn_time = 0.5
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        ann.start()
        bob.start()
        await until(lambda: ann.seats is not None and ann.seats.started and ann.view is not None
                    and bob.view is not None and len(ann.to_act) == 2, timeout=10)
        await until(lambda: all(ann.clock(s) is not None for s in (0, 1)), timeout=5)
        assert ann.seats.turn_time == 0.5 and 0 < ann.clock(1) <= 0.5
        assert ann.submit(ann.legal()[0]) is None
        await until(lambda: table.slots[ann.seat].clock is None, timeout=5)
        assert table.slots[bob.seat].clock is not None  # Ann's choice did not touch Bob's clock
        await until(lambda: bob.seat not in table.match.to_act(), timeout=10)
        by_seat = {table.match.record.moves[n - 1].seat for n in table.bot_moves}
        assert by_seat == {bob.seat}  # the bot bid for Bob only
        assert table.slots[bob.seat].conn is not None and not table.slots[bob.seat].standin
        assert "(bot" not in bob.seat_label(bob.seat)
        await until(lambda: any(line.notice and "Bob's time ran out" in line.text for line in ann.chat_lines))
        await ann.close()
        await bob.close()


async def test_no_clock_runs_without_a_turn_time():
    async with running_host(EOA, ["open", "open"], seed=5) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        ann.start()
        bob.start()
        await until(lambda: ann.seats is not None and ann.seats.started and ann.view is not None, timeout=10)
        assert ann.clock(0) is None and ann.clock(1) is None and ann.seats.turn_time == 0
        assert all(s.clock is None for s in host.table.slots)
        await ann.close()
        await bob.close()


def test_the_turn_time_is_kept_in_the_log_and_resume_reads_it(tmp_path):
    from netplay.host import HostTable

    log = tmp_path / "t.atlrec"
    table = HostTable.create(EOA, {}, ["open", "open"], 3, log_path=log)
    table.turn_time = 90.0
    table.write_log()
    table.log.close()
    assert HostTable.resume(log).turn_time == 90.0


def test_export_of_a_host_log_says_which_moves_the_bot_made_for_a_player(tmp_path, capsys):
    from netplay.host import HostTable
    from tui.cli import main

    log = tmp_path / "t.atlrec"
    table = HostTable.create(GAME, {}, ["open", "open"], 8, log_path=log)
    for slot in table.slots:
        table.claim(slot.name)
    table.write_log()
    first = min(table.match.to_act())
    view = table.match.view(first)
    table._deputy_move(first, GAME.make_bot(first, 1).choose(view, GAME.legal(view)))
    second = min(table.match.to_act())
    view = table.match.view(second)
    assert table.submit(second, GAME.make_bot(second, 2).choose(view, GAME.legal(view))) is None
    table.log.close()
    assert main(["export", str(log), "--json", "--seat", "1"]) == 0
    capsys.readouterr()
    assert main(["export", str(log), "--text", "--seat", str(first)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.lstrip().startswith("1.") and "(the bot for its player)" in line for line in lines)
    assert any(line.lstrip().startswith("2.") and "bot" not in line for line in lines)


def test_the_command_line_takes_the_seat_timeout_turn_time_and_spectator_chat(tmp_path):
    from tui.cli import build_parser
    from tui.lan.commands import make_table
    from tui.ssh.commands import _server_limits

    args = build_parser().parse_args(["host", "pathways", "--headless", "--seat-timeout", "0", "--turn-time", "45",
                                      "--spectator-chat", "--log", str(tmp_path / "h.atlrec")])
    assert (args.seat_timeout, args.turn_time, args.spectator_chat) == (0.0, 45.0, True)
    assert make_table(args).turn_time == 0.0  # (cmd_host gives the table the flags)
    defaults = build_parser().parse_args(["host", "pathways", "--headless"])
    assert (defaults.seat_timeout, defaults.turn_time, defaults.spectator_chat) == (60.0, None, False)
    lim = _server_limits(build_parser().parse_args(["serve", "--seat-timeout", "120", "--spectator-chat"]))
    assert (lim.bot_after, lim.spectator_chat) == (120.0, True)


async def test_a_player_away_when_the_table_starts_gets_a_bot_too():
    from netplay.wire import MAX_HOST_FRAME, encode_frame, read_frame
    from netplay import messages
    from netplay_helpers import raw_connection

    async with running_host(GAME, ["open", "open"], seed=6) as host:
        table = host.table
        table.bot_after = 0.1
        reader, writer = await raw_connection(host.port)
        writer.write(encode_frame({"v": messages.PROTOCOL, "t": "hello", "name": "Ann"}))
        frame = await read_frame(reader, MAX_HOST_FRAME, 5)
        while frame["t"] != "welcome":  # (the table's frames before the answer to our hello)
            frame = await read_frame(reader, MAX_HOST_FRAME, 5)
        writer.transport.abort()  # Ann claims a seat and vanishes before the start
        await until(lambda: table.slots[0].conn is None and table.slots[0].taken)
        bob = client(host, name="Bob")
        await asyncio.wait_for(run_bot(bob, seed=2), 60)  # the bot plays Ann's seat: the game ends
        assert table.match.result() is not None and table.bot_moves
