"""A table that keeps going, on the screen: the chat in the side panel, the turn timers'
time left, a seat a bot keeps warm named as the table names it, Rematch on the game-over
screen of a LAN host and of its clients, the turn-time fields of the Host and open-table
forms, and the server lobby's "your turn".  Hosts and clients over loopback."""

from __future__ import annotations

import asyncio

from engine.registry import GAMES
from netplay import messages as M
from netplay.client import run_bot
from netplay.host import Host, HostTable
from tui.app import AtlantisApp
from tui.lan.hosting import HostedTable
from tui.lan.screens import HostSetupScreen
from tui.screens.game import clock_text
from tui.screens.game_over import GameOverScreen
from tui.ssh.lobby import OpenTableScreen, ServerLobbyScreen
from tui.widgets.chat import ChatBox

from netplay_helpers import LOOPBACK, client, running_host, wait

GAME = GAMES["pathways"]
SIZE = (80, 24)
SHORT = {"max_rounds": 5}  # (a game that ends soon, for the rematch)


def panel(screen, selector: str) -> str:
    found = screen.query(selector)
    return str(found.first().render()) if found else ""


def chat_text(screen) -> str:
    return panel(screen, "#chat-lines")


def game_screen_up(app) -> bool:
    return app.game_screen is not None and app.game_screen.is_mounted and app.screen is app.game_screen


def test_a_clock_reads_minutes_and_seconds():
    assert clock_text(65.2) == "1:06" and clock_text(0) == "0:00" and clock_text(3600) == "60:00"


async def test_the_host_and_a_lan_player_chat_from_the_side_panel_and_the_host_sees_clocks_and_labels():
    table = HostTable.create(GAME, {}, ["local", "open"], 4, name="Chat table")
    table.turn_time, table.bot_after = 600.0, 0.1
    hosted = HostedTable(Host([table], host=LOOPBACK, port=0), table, None)
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: hosted.running)
        carol = client(hosted.host, name="Carol", linger=True, max_attempts=0)
        carol.start()
        await wait(pilot, lambda: game_screen_up(app))
        screen = app.game_screen
        box = screen.query_one(ChatBox)
        assert box.display and "c to write" in chat_text(screen)
        await pilot.press("c")
        assert box.is_open
        await pilot.press(*"hi all", "enter")
        await wait(pilot, lambda: any(line.text == "hi all" for line in carol.chat_lines))
        assert carol.chat_lines[-1].name == table.names()[0]
        assert carol.chat("hello host") is None
        await wait(pilot, lambda: "Carol: hello host" in chat_text(screen))
        await pilot.press("escape")
        assert not box.is_open and "Chat (c): Carol: hello host" in chat_text(screen)
        await wait(pilot, lambda: "Time left: " in panel(screen, "#table-status"))
        table.slots[1].conn.abort()  # (Carol gives up at once: a bot keeps her seat warm)
        label = f"{table.slots[1].name} (bot until Carol returns)"
        await wait(pilot, lambda: label in panel(screen, "#table-status"), tries=600)
        await carol.close()
        await hosted.close()


async def test_a_lan_player_chats_sees_the_clocks_and_the_seat_a_bot_keeps_warm():
    async with running_host(GAME, ["open", "open"], seed=4) as host:
        table = host.table
        table.turn_time, table.bot_after = 600.0, 0.1
        me = client(host, name="Alice", linger=True)
        bob = client(host, name="Bob", max_attempts=0)  # (once cut off, Bob stays away)
        bob.start()
        app = AtlantisApp(remote=me, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: game_screen_up(app) and me.seats is not None and me.seats.started)
            screen = app.game_screen
            # the chat, both ways
            assert bob.chat("hey") is None
            await wait(pilot, lambda: "Bob: hey" in chat_text(screen))
            await pilot.press("c", *"yo", "enter")
            await wait(pilot, lambda: any(line.text == "yo" and line.name == "Alice" for line in bob.chat_lines))
            await pilot.press("escape")
            # the turn timer of the seat to act counts down on the screen
            acting = min(table.match.to_act())
            await wait(pilot, lambda: "Time left: " in panel(screen, "#table-status"))
            assert f"{me.names[acting]} 9:" in panel(screen, "#table-status") or \
                f"{me.names[acting]} 10:00" in panel(screen, "#table-status")
            # Bob drops and stays away: a bot keeps his seat warm, and the screen says so
            table.slots[bob.seat].conn.abort()
            label = f"{table.slots[bob.seat].name} (bot until Bob returns)"
            await wait(pilot, lambda: label in panel(screen, "#table-status"), tries=600)
            await wait(pilot, lambda: "A bot plays" in chat_text(screen) or label in me.seat_label(bob.seat))
        await bob.close()


async def test_rematch_on_the_lan_host_moves_its_screen_and_its_player_to_the_new_table():
    table = HostTable.create(GAME, SHORT, ["local", "open"], 5, name="Rematch table")
    hosted = HostedTable(Host([table], host=LOOPBACK, port=0), table, None)
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: hosted.running)
        carol = client(hosted.host, name="Carol", linger=True)
        carol_bot = asyncio.ensure_future(run_bot(carol, seed=2))
        await wait(pilot, lambda: game_screen_up(app))
        me = GAME.make_bot(0, 3)
        while not table.over:  # the host's own seat plays as a bot would
            if 0 in table.match.to_act():
                view = table.match.view(0)
                assert table.submit(0, me.choose(view, GAME.legal(view))) is None
            await pilot.pause(0.01)
        await wait(pilot, lambda: isinstance(app.screen, GameOverScreen))
        assert "rematch" in app.screen.choices
        await wait(pilot, lambda: carol.over is not None)
        assert carol.rematch() is None
        await wait(pilot, lambda: table.rematch_wanted == {1})
        await pilot.press("r")
        await wait(pilot, lambda: app.session is not None and app.session.table.hosted is not table
                   and game_screen_up(app), tries=600)
        new = app.session.table.hosted
        assert new.names() == table.names() and not new.over
        await wait(pilot, lambda: carol.table == new.id and carol.welcome is not None and carol.seat == 1)
        assert app.game_screen.link.seat == 0 and app.game_screen.query_one(ChatBox).display
        carol_bot.cancel()
        await carol.close()
        await app.session.close()


async def test_rematch_on_a_lan_players_game_over_follows_the_table_it_is_moved_to():
    async with running_host(GAME, ["open", "open"], seed=6, options=SHORT) as host:
        first = host.table
        other = client(host, name="Bob", linger=True)
        other_bot = asyncio.ensure_future(run_bot(other, seed=1))
        me = client(host, name="Alice", linger=True)
        app = AtlantisApp(remote=me, bot_client=True, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: isinstance(app.screen, GameOverScreen), tries=3000)
            assert "rematch" in app.screen.choices
            await wait(pilot, lambda: other.over is not None)
            assert other.rematch() is None
            old_screen = app.game_screen
            await pilot.press("r")
            # (the bot plays the new game at once: it may be over again by the time we look)
            await wait(pilot, lambda: me.table != first.id and app.game_screen not in (None, old_screen),
                       tries=1500)
            assert old_screen not in app.screen_stack and app.game_screen.link.seat == me.seat
            assert host.tables[me.table] is not first
        other_bot.cancel()
        await other.close()


async def test_the_host_form_and_the_open_table_form_take_a_turn_time():
    app = AtlantisApp(lobby=True, player_name="Dee", lan_interfaces=[LOOPBACK])
    async with app.run_test(size=SIZE) as pilot:
        got: list = []
        setup = HostSetupScreen("Pathways", ["Red", "Blue"], 0, "Kitchen", 0)
        await app.push_screen(setup, got.append)
        await pilot.pause()
        setup.query_one("#turn-time").value = "abc"
        setup.action_start()
        await pilot.pause()
        assert "turn time" in panel(setup, "#error") and not got
        setup.query_one("#turn-time").value = "90"
        setup.action_start()
        await pilot.pause()
        assert got[-1].turn_time == 90.0
        form = OpenTableScreen(["pathways"], "Dee")
        await app.push_screen(form, got.append)
        await pilot.pause()
        form.query_one("#turn-time").value = "45"
        form.action_open()
        await pilot.pause()
        assert isinstance(got[-1], M.OpenTable) and got[-1].turn_time == 45.0


class FakeLobby:
    """A server lobby that answers with one table list."""

    host, port = "/tmp/socket", 0

    def __init__(self, answer: M.TableList):
        self.answer = answer

    async def list_tables(self, timeout: float) -> M.TableList:
        return self.answer


async def test_the_server_lobby_lists_your_games_first_and_marks_where_it_is_your_turn():
    def info(table: str, name: str) -> M.TableInfo:
        return M.TableInfo(table=table, name=name, game="pathways", players=2, open=0, started=True,
                           fingerprint="f", rules="pathways-1", over=False)

    ticket = M.Ticket(table="t1", token="x" * 32, seat=0)
    waiting = M.Ticket(table="t3", token="y" * 32, seat=1)
    listing = M.TableList(server="Kitchen", tables=[info("t2", "Theirs"), info("t3", "Waiting"), info("t1", "Mine")],
                          mine=[ticket, waiting], your_turn=["t1"])
    app = AtlantisApp(lobby=True, player_name="Dee", lan_interfaces=[LOOPBACK])
    async with app.run_test(size=SIZE) as pilot:
        lobby = ServerLobbyScreen(FakeLobby(listing), "Dee")  # type: ignore[arg-type]
        await app.push_screen(lobby)
        await wait(pilot, lambda: lobby.listing is not None)
        table = lobby.query_one("DataTable")
        rows = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert rows == ["Mine (your turn)", "Waiting (your seat)", "Theirs"]


async def test_rematch_at_a_table_server_from_its_app_follows_the_new_table(tmp_path):
    """The server app (``atlantis join SERVER``, and every SSH session) keeps its client
    at the table after the game: its Rematch takes the player to the new table."""
    from netplay.server import TableServer
    from tui.ssh.app import ServerApp
    from tui.ssh.lobby import LobbyChoice

    server = TableServer(name="Kitchen", host=LOOPBACK, port=0, records=tmp_path)
    await server.start()
    app = ServerApp(LOOPBACK, server.port, player_name="ana", bot_client=True, bot_delay=0)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: isinstance(app.screen, ServerLobbyScreen) and app.screen.listing is not None)
            request = M.OpenTable(game="pathways", players=2, bots=1, options=SHORT, name="ana", turn_time=300)
            app.screen.dismiss(LobbyChoice("open", request=request))
            await wait(pilot, lambda: isinstance(app.screen, GameOverScreen), tries=3000)
            assert "rematch" in app.screen.choices
            client_now = app.remote if app.remote is not None else app.session.client
            first, old_screen = client_now.table, app.game_screen
            await pilot.press("r")
            await wait(pilot, lambda: client_now.table != first and app.game_screen not in (None, old_screen),
                       tries=1500)
            assert old_screen not in app.screen_stack and client_now.linger
    finally:
        await server.close()


async def test_a_spectator_reads_the_players_chat_and_is_told_why_it_may_not_write():
    async with running_host(GAME, ["open", "open"], seed=7) as host:
        ann, bob = client(host, name="Ann"), client(host, name="Bob")
        ann.start()
        bob.start()
        watcher = client(host, name="Zed", spectate=True, linger=True)
        app = AtlantisApp(remote=watcher, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: game_screen_up(app) and ann.status == "connected")
            screen = app.game_screen
            assert ann.chat("welcome, watchers") is None
            await wait(pilot, lambda: "Ann: welcome, watchers" in chat_text(screen))
            await pilot.press("c", *"hello", "enter")
            await wait(pilot, lambda: "Spectators may read" in panel(screen, "#message"))
            assert not any(line.text == "hello" for line in ann.chat_lines)
        for c in (ann, bob):
            await c.close()


async def test_hot_seat_has_no_chat_and_c_says_why():
    from tui.screenshots import mid_game_table
    from tui.setups import load_setups
    from tui.screen_entry import screen_entry

    setup = load_setups()[screen_entry("pathways").screenshot]
    table = mid_game_table("pathways", setup.seed, setup.players, setup.warmup_actions, setup.options)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: game_screen_up(app))
        screen = app.game_screen
        assert not screen.query_one(ChatBox).display  # (the status names only the bots, with their level)
        assert panel(screen, "#table-status") == "Bots (normal): Blue, Green"
        await pilot.press("c")
        assert "no chat here" in panel(screen, "#message")
