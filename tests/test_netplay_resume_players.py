"""``atlantis host --resume`` keeps its players: a remote player's name, every hand's
numbered slots, and a player who comes back is shown as connected at once."""

from __future__ import annotations

from engine.registry import GAMES
from netplay.client import KEEP_NAME, Client
from netplay.host import Host, HostTable
from tui.app import AtlantisApp
from tui.lan.hosting import HostedTable

from netplay_helpers import LOOPBACK, until, wait

GAME = GAMES["pathways"]
SIZE = (100, 40)


def turn_line(app) -> str:
    found = app.game_screen.query("#turn-line")
    return found.first().plain if found else ""


def bot_action(seat: int, table: HostTable):
    view = table.match.view(seat)
    return table.slots[seat].bot.choose(view, GAME.legal(view)) if table.slots[seat].bot else \
        GAME.make_bot(seat, 1).choose(view, GAME.legal(view))


async def play_until_the_slots_differ_from_the_hand(pilot, app, table: HostTable, joe: Client) -> None:
    """Moves of both seats until the host's hand is shown in another order than the
    engine keeps it (a played tile's gap filled by a new one) and Joe is to play."""
    screen = app.game_screen
    for _ in range(200):
        to_act = table.match.to_act()
        if 1 in to_act and screen.hand_slots() != list(table.match.view(0).hand):
            return
        if 0 in to_act:
            assert table.submit(0, bot_action(0, table)) is None
        else:
            await until(lambda: joe.legal() and not joe.pending)
            moves = len(table.match.record.moves)
            assert joe.submit(GAME.make_bot(1, 2).choose(joe.view, joe.legal())) is None
            await until(lambda: len(table.match.record.moves) > moves)
        await pilot.pause()
    raise AssertionError("the host's slots never differed from its hand's order")


async def test_a_resumed_host_keeps_joe_his_name_the_slots_and_shows_him_back_at_once(tmp_path):
    log = tmp_path / "table.atlrec"
    table = HostTable.create(GAME, {}, ["local", "open"], 11, name="Resume", log_path=log)
    hosted = HostedTable(Host([table], host=LOOPBACK, port=0), table, None)
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: hosted.running)
        port = hosted.host.port
        joe = Client(LOOPBACK, port, name="Joe", backoff=(0.05, 0.2))
        joe.start()
        await wait(pilot, lambda: app.game_screen is not None and app.screen is app.game_screen)
        await play_until_the_slots_differ_from_the_hand(pilot, app, table, joe)
        slots_before = app.game_screen.hand_slots()
        joe_hand, token = joe.view.hand, joe.token
        await joe.close()  # (Joe's terminal is gone too: he comes back with his token)
        await hosted.close()  # the host quits mid-game

    resumed = HostTable.resume(log)
    assert resumed.names()[1] == "Joe"
    hosted = HostedTable(Host([resumed], host=LOOPBACK, port=port), resumed, None)
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: app.game_screen is not None and app.screen is app.game_screen)
        screen = app.game_screen
        await wait(pilot, lambda: "Waiting for Joe (disconnected)" in turn_line(app))
        assert screen.hand_slots() == slots_before  # the same numbers and gaps as before the host quit
        joe = Client(LOOPBACK, port, name=KEEP_NAME, token=token, backoff=(0.05, 0.2))
        joe.start()
        await wait(pilot, lambda: resumed.slots[1].conn is not None and joe.view is not None)
        # shown as connected at once, without a move of his
        await wait(pilot, lambda: "Waiting for Joe (remote, choosing)" in turn_line(app))
        assert resumed.seats_message().seats[1].connected
        assert joe.names[1] == "Joe" and screen.link.names[1] == "Joe"
        assert joe.view.hand == joe_hand and joe.seat == 1
        await joe.close()
        await hosted.close()


async def test_a_player_back_under_a_new_name_keeps_it_after_a_resume(tmp_path):
    log = tmp_path / "table.atlrec"
    table = HostTable.create(GAME, {}, ["open", "open"], 3, name="Names", log_path=log)
    host = Host([table], host=LOOPBACK, port=0)
    await host.start()
    joe = Client(LOOPBACK, host.port, name="Joe", backoff=(0.05, 0.2))
    ann = Client(LOOPBACK, host.port, name="Ann", backoff=(0.05, 0.2))
    joe.start()
    ann.start()
    await until(lambda: joe.view is not None and ann.view is not None)
    token = joe.token
    await joe.close()
    again = Client(LOOPBACK, host.port, name="Joseph", token=token, backoff=(0.05, 0.2))
    again.start()
    await until(lambda: table.slots[joe.seat].conn is not None and again.view is not None)
    await again.close()
    await ann.close()
    await host.close()
    resumed = HostTable.resume(log)
    resumed.log.close()
    assert sorted(resumed.names()) == ["Ann", "Joseph"]


async def test_joes_own_screen_keeps_his_name_and_slots_while_the_host_restarts(tmp_path):
    log = tmp_path / "table.atlrec"
    table = HostTable.create(GAME, {}, ["open", "open"], 5, name="Joe's view", log_path=log)
    host = Host([table], host=LOOPBACK, port=0)
    await host.start()
    port = host.port
    ann = Client(LOOPBACK, port, name="Ann", backoff=(0.05, 0.2))
    ann.start()
    await until(lambda: ann.view is not None)
    joe = Client(LOOPBACK, port, name="Joe", backoff=(0.05, 0.2))
    app = AtlantisApp(remote=joe, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: app.game_screen is not None and app.game_screen.is_mounted and joe.view)
        screen, me = app.game_screen, joe.seat
        other = 1 - me
        for _ in range(200):
            await pilot.pause()
            if other in table.match.to_act() and screen.hand_slots() != list(joe.view.hand):
                break
            player = joe if me in table.match.to_act() else ann
            await until(lambda: player.legal() and not player.pending)
            moves = len(table.match.record.moves)
            assert player.submit(GAME.make_bot(player.seat, 3).choose(player.view, player.legal())) is None
            await until(lambda: len(table.match.record.moves) > moves and joe.version and ann.version)
            await wait(pilot, lambda: screen.link.view() == GAME.view(table.match.state, me))
        else:
            raise AssertionError("Joe's slots never differed from his hand's order")
        slots_before = screen.hand_slots()
        # The host is killed (no goodbye): Joe's screen stays and his client retries.
        killed = host
        killed.server.close()
        for conn in list(killed.conns):
            conn.abort()
        await killed.server.wait_closed()
        await wait(pilot, lambda: joe.status == "reconnecting")
        resumed = HostTable.resume(log)
        host = Host([resumed], host=LOOPBACK, port=port)
        await host.start()
        await wait(pilot, lambda: joe.status == "connected" and resumed.slots[me].conn is not None, tries=500)
        await wait(pilot, lambda: screen.link.names[me] == "Joe")
        assert screen.link.names[other] == "Ann"
        assert screen.hand_slots() == slots_before
        await ann.close()
    await host.close()
    await killed.close()
