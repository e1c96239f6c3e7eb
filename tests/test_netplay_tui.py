"""LAN play in the app: the same game screens over a RemoteSeat, the host's waiting
room and its game, the lobby, connection status, the menu's LAN buttons."""

from __future__ import annotations

import asyncio
import inspect

from engine.registry import GAMES
from netplay.client import Client, RemoteSeat, run_bot
from netplay.discovery import FoundTable
from netplay.host import Host, HostTable
from tui.app import AtlantisApp
from tui.lan.hosting import HostedTable
from tui.lan.screens import HostSetupScreen, HostTableScreen, JoinRequest, LobbyScreen, table_heading
from tui.screens.dialogs import GameOverScreen
from tui.screens.menu import MenuScreen
from tui.screens.menu_fields import CycleSelect
from tui.seat_links import SeatLink

from netplay_helpers import LOOPBACK, client, running_host, wait

GAME = GAMES["pathways"]
SIZE = (80, 24)


def lan_status(screen) -> str:
    """The side panel's LAN lines, joined (a token wider than the panel takes two lines)."""
    found = screen.query("#lan-status")
    return str(found.first().render()).replace("\n", "") if found else ""


def test_remote_seat_offers_everything_a_seat_link_does():
    public = [n for n, v in inspect.getmembers(SeatLink) if not n.startswith("_")]
    for name in public:
        assert hasattr(RemoteSeat, name), name
        if callable(getattr(SeatLink, name)):
            want = list(inspect.signature(getattr(SeatLink, name)).parameters)
            assert list(inspect.signature(getattr(RemoteSeat, name)).parameters) == want, name


async def test_a_remote_player_plays_on_the_same_game_screen_and_sees_the_host_drop():
    async with running_host(GAME, ["open", "open"], seed=4) as host:
        other = client(host, name="Bob")
        bot = asyncio.ensure_future(run_bot(other, delay=0.05))
        me = client(host, name="Alice")
        app = AtlantisApp(remote=me, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: app.game_screen is not None and app.game_screen.is_mounted)
            screen = app.game_screen
            assert type(screen).__name__ == "PathwaysScreen" and isinstance(screen.link, RemoteSeat)
            # the seat's token stays in the side panel (not just in a passing toast)
            await wait(pilot, lambda: me.token in lan_status(screen))
            assert f"LAN {LOOPBACK}:{host.port}: connected" in lan_status(screen)
            # the join is said in the side panel, not in a toast fading over the board
            assert "Joined " in str(screen.query_one("#message").render())
            assert not app.screen.query("Toast")
            await wait(pilot, lambda: me.legal())
            moves = len(host.table.match.record.moves)
            assert screen.send(me.legal()[0])
            await wait(pilot, lambda: len(host.table.match.record.moves) == moves + 1)
            await wait(pilot, lambda: screen.link.view() == GAME.view(host.table.match.state, me.seat))
            assert any(line.text.startswith("You ") for line in screen.link.log())
            # the connection drops: the screen says so and the player cannot act
            statuses: list[str] = []
            me.listeners.append(lambda what: statuses.append(me.status) if what == "status" else None)
            old = host.table.slots[me.seat].conn
            old.abort()
            await wait(pilot, lambda: "reconnecting" in statuses)
            await wait(pilot, lambda: me.status == "connected" and host.table.slots[me.seat].conn not in (None, old))
            # (the client's status reaches the screen through the app's message queue: a
            # moment after the client has it, later still on a loaded machine)
            await wait(pilot, lambda: "Connected" in app.sub_title)
            await pilot.pause()
            assert me.token in lan_status(screen) and ": connected" in lan_status(screen)
        bot.cancel()


async def test_remote_game_over_shows_the_honesty_check():
    async with running_host(GAME, ["open", "open"], seed=6) as host:
        other = client(host, name="Bob")
        bot = asyncio.ensure_future(run_bot(other))
        me = client(host, name="Alice")
        app = AtlantisApp(remote=me, bot_client=True, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: isinstance(app.screen, GameOverScreen), tries=1500)
            text = str(app.screen.text)
            assert "Host honesty" in text and "Verified" in text
        await bot


async def test_the_host_waits_for_players_then_plays_on_its_own_screen():
    table = HostTable.create(GAME, {}, ["local", "open"], 4, name="Test table")
    hosted = HostedTable(Host([table], host=LOOPBACK, port=0), table, None)
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, HostTableScreen) and hosted.running)
        await pilot.pause(0.1)
        lines = app.screen.seat_lines()
        assert "here" in lines[0] and "open - waiting" in lines[1]
        carol = Client(LOOPBACK, hosted.host.port, name="Carol", backoff=(0.05, 0.2))
        bot = asyncio.ensure_future(run_bot(carol, delay=0.02))
        await wait(pilot, lambda: app.game_screen is not None and app.screen is app.game_screen)
        screen = app.game_screen
        assert screen.link.seat == 0 and "Carol" in screen.link.names
        await wait(pilot, lambda: f"LAN: hosting on {LOOPBACK}:{hosted.host.port}" in lan_status(screen))
        assert screen.send(screen.link.legal()[0])  # the local human plays; Carol's client sees it
        await wait(pilot, lambda: len(carol.events) >= 1)
        bot.cancel()
        await carol.close()
        await wait(pilot, lambda: table.slots[1].conn is None)
        assert "disconnected" in screen.link.waiting_for() or 1 not in table.match.to_act()
        await wait(pilot, lambda: "Away: Carol" in lan_status(screen))
        await hosted.close()


async def test_the_hosts_heading_names_the_game_once():
    table = HostTable.create(GAME, {}, ["local", "open"], 4)  # (the default name: "<game> table")
    hosted = HostedTable(Host([table], host=LOOPBACK, port=0), table, None)
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, HostTableScreen) and hosted.running)
        heading = str(app.screen.query_one("#title").content)
        assert heading == f"{GAME.title} table"
        await hosted.close()
    assert table_heading("Kitchen", GAME.title) == f"Kitchen - {GAME.title}"


async def test_the_lobby_lists_tables_and_takes_an_address():
    app = AtlantisApp(lobby=True, player_name="Dee", lan_interfaces=[LOOPBACK])
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        lobby.browse = False
        found = FoundTable(service="x", host=LOOPBACK, port=7341, table="t", name="Kitchen table", game="pathways",
                           open=1, players=2, started=False, over=False, fingerprint="f", rules="pathways-1",
                           protocol=1, seen_at=0.0)
        lobby.show_tables([found])
        await pilot.pause()
        assert lobby.query_one("DataTable").row_count == 1
        results: list[JoinRequest] = []
        lobby.dismiss = results.append  # type: ignore[method-assign]
        lobby.query_one("#address").value = "10.1.2.3:9999"
        await pilot.press("tab", "tab")
        lobby.query_one("#address").focus()
        await pilot.press("enter")
        assert results == [JoinRequest("10.1.2.3", 9999, "Dee", False)]


async def test_the_menu_hosts_on_f2_and_joins_on_f3_and_coming_back_keeps_every_choice():
    from textual.widgets import Input, Select

    from tui.screens.menu import GameList

    app = AtlantisApp(autosave=False, lan_interfaces=[LOOPBACK])  # the lobby browses loopback only
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, MenuScreen))
        menu = app.screen
        menu.query_one("#games", GameList).highlighted = sorted(GAMES).index("pathways")
        await pilot.pause()
        menu.query_one("#players", CycleSelect).value = 3
        await pilot.pause()
        menu.query_one("#seat-1", CycleSelect).value = "open"
        menu.query_one("#opt-max_rounds", Input).value = "12"
        menu.query_one("#seed", Input).value = "5"
        await pilot.press("f2")
        await wait(pilot, lambda: isinstance(app.screen, HostSetupScreen))
        setup = app.screen
        assert [setup.query_one(f"#seat-{i}", Select).value for i in range(3)] == ["local", "open", "bot:normal"]
        setup.query_one("#table-name", Input).focus()
        await pilot.press("enter")  # a stray Enter opens no table
        assert app.screen is setup and app.hosted is None
        await pilot.press("escape")
        await wait(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen is not menu)
        again = app.screen
        await pilot.pause()
        assert again.slug == "pathways" and again.query_one("#players", CycleSelect).value == 3
        assert [again.query_one(f"#seat-{i}", CycleSelect).value for i in range(3)] == ["human", "open", "bot:normal"]
        assert again.query_one("#opt-max_rounds", Input).value == "12"
        assert again.query_one("#seed", Input).value == "5"
        again.query_one("#games").focus()
        await pilot.press("J")  # a plain letter too, while no text field has the focus
        await wait(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("escape")
        await wait(pilot, lambda: isinstance(app.screen, MenuScreen) and app.screen is not again)
        await pilot.pause()
        assert app.screen.query_one("#seed", Input).value == "5"
        await pilot.press("f3")
        await wait(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_an_address_where_nothing_listens_says_so_at_once_and_esc_goes_back_to_the_lobby():
    import socket

    from tui.lan.screens import ConnectingScreen

    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        port = s.getsockname()[1]
    app = AtlantisApp(lobby=True, player_name="Dee", lan_interfaces=[LOOPBACK])
    async with app.run_test(size=SIZE) as pilot:
        await wait(pilot, lambda: isinstance(app.screen, LobbyScreen))
        app.screen.query_one("#address").value = f"{LOOPBACK}:{port}"
        app.screen.query_one("#address").focus()
        await pilot.press("enter")
        await wait(pilot, lambda: isinstance(app.screen, ConnectingScreen) and "Nothing is listening" in app.screen.text)
        assert app.remote.attempt == 0  # no retrying
        await pilot.press("escape")
        await wait(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert app.is_running


async def test_the_first_view_is_drawn_without_waiting_for_another_update():
    """The welcome's view arrives before the game screen mounts: the screen must draw
    it on mount, not stay blank until the next move."""
    async with running_host(GAME, ["open", "open"], seed=6) as host:
        first = client(host, name="Red")
        first.start()
        await asyncio.sleep(0)
        me = client(host, name="Blue")
        app = AtlantisApp(remote=me, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: app.game_screen is not None and app.game_screen.is_mounted)
            for _ in range(5):
                await pilot.pause(0.02)
            moves = len(host.table.match.record.moves)
            turn_line = app.game_screen.query_one("#turn-line").plain
            assert "Red" in turn_line  # drawn from the first view: Red is to play
            assert len(host.table.match.record.moves) == moves  # no update came meanwhile
        await first.close()
