"""The join flow's screens, whatever order the events come in: the server app's one lobby,
a join that replaces another, a client whose first view came before the flow began.

In-process and headless (no SSH, no PTY child): each test drives ``ServerApp`` or
``AtlantisApp`` with ``run_test`` against a table server or host on loopback."""

from __future__ import annotations

import asyncio

import pytest

from engine.registry import GAMES
from netplay import messages
from netplay.server import TableServer
from tui.app import AtlantisApp
from tui.lan.screens import ConnectingScreen
from tui.ssh.app import ServerApp
from tui.ssh.lobby import ServerLobbyScreen

from netplay_helpers import LOOPBACK, client, running_host, wait

pytestmark = pytest.mark.timeout(30)

GAME = GAMES["pathways"]
SIZE = (100, 30)


def lobbies(app) -> list:
    return [s for s in app.screen_stack if isinstance(s, ServerLobbyScreen)]


async def test_the_server_app_starts_with_one_lobby(tmp_path):
    """Textual runs every ``on_mount`` along the MRO: the server app once pushed two lobbies,
    the hidden one asking the server every second under the game and able to dismiss itself
    (which pops the game's screen) into a second join."""
    server = TableServer(name="Kitchen", host=LOOPBACK, port=0, records=tmp_path)
    await server.start()
    ready: list[int] = []
    app = ServerApp(LOOPBACK, server.port, player_name="ana", on_ready=lambda: ready.append(1))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: isinstance(app.screen, ServerLobbyScreen) and app.screen.listing is not None)
            await pilot.pause()
            assert lobbies(app) == [app.screen] and ready == [1]
    finally:
        await server.close()


async def test_a_join_that_replaces_another_ends_on_its_own_game_screen():
    """A second join while the first one's game is up (the same seat, by its token): the
    new connecting screen gives way to the new game screen, and the first client's events
    (its seat taken over) change nothing on the screen."""
    async with running_host(GAME, ["open", "open"], seed=3) as host:
        first = client(host, name="Red")
        app = AtlantisApp(remote=first, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: app.game_screen is not None and app.screen is app.game_screen)
            old_screen = app.game_screen
            again = client(host, name="Red", token=first.token)
            app.join(again)
            assert isinstance(app.screen, ConnectingScreen)
            await wait(pilot, lambda: app.game_screen is not None and app.screen is app.game_screen
                       and app.game_screen is not old_screen)
            assert app.game_screen.link.client is again and app.remote is again
            await wait(pilot, lambda: first.finished.is_set())  # (the host took its seat back)
            await wait(pilot, lambda: host.table.slots[0].conn is not None)
            for _ in range(5):
                await pilot.pause(0.02)
            assert app.screen is app.game_screen and app.game_screen.link.client is again
            assert not any(isinstance(s, ConnectingScreen) for s in app.screen_stack)
            await again.close()


async def test_a_client_whose_first_view_came_before_the_flow_shows_the_game_at_once():
    """The first view (and the welcome) were in before the flow listened: nothing more
    comes while the table waits for its second player, and the player must still see the
    game screen, not "Connecting..." until someone else joins, over the one connection
    the client has."""
    async with running_host(GAME, ["open", "open"], seed=5) as host:
        me = client(host, name="Red")
        me.start()
        await asyncio.wait_for(me.ready.wait(), 10)
        for _ in range(100):
            if me.view is not None and me.seats is not None:
                break
            await asyncio.sleep(0.02)
        assert me.view is not None and me.seats is not None and not me.seats.started
        conn = host.table.slots[me.seat].conn
        app = AtlantisApp(remote=me, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: app.game_screen is not None and app.screen is app.game_screen)
            for _ in range(5):
                await pilot.pause(0.02)
            assert me.status == "connected" and isinstance(me.seats, messages.Seats) and not me.seats.started
            # (one connection: the flow does not start a client that is under way again)
            assert host.table.slots[me.seat].conn is conn and not conn.closed
        await me.close()


async def test_a_lobby_shows_the_seat_its_player_holds_and_takes_it_back_only_when_asked(tmp_path):
    """Back in the lobby with a seat held (the same identity: a drop, or another screen of
    the same player): the lobby selects that table and says Enter takes the seat back, and
    never takes the player there by itself (that would throw out a screen playing it)."""
    from netplay.identity import IdentityStore, ServerLobby

    server = TableServer(name="Kitchen", host=LOOPBACK, port=0, records=tmp_path)
    await server.start()
    store = IdentityStore()  # (in memory: what ``atlantis join`` keeps in the data folder)
    elsewhere = ServerLobby(LOOPBACK, server.port, store=store)  # the same player, another program
    await elsewhere.list_tables()
    other = await ServerLobby(LOOPBACK, server.port).open_table(
        messages.OpenTable(game="pathways", players=3, bots=0, name="bo", options={"max_rounds": 5}))
    seated = await elsewhere.open_table(messages.OpenTable(game="pathways", players=2, bots=1, name="ana",
                                                    options={"max_rounds": 5}))
    assert isinstance(seated, messages.Seated) and isinstance(other, messages.Seated)
    app = ServerApp(LOOPBACK, server.port, player_name="ana", identity_store=store)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: isinstance(app.screen, ServerLobbyScreen) and app.screen.listing is not None)
            lobby = app.screen
            assert app.server_lobby.identity == elsewhere.identity
            for _ in range(3):  # (three answers of the server: the lobby stays)
                await lobby.refresh_tables()
                await pilot.pause()
            assert app.screen is lobby and app.remote is None
            assert lobby.rows[lobby.query_one("DataTable").cursor_row].table == seated.ticket.table
            assert "Enter on one takes your seat back" in str(lobby.query_one("#status").render())
            await pilot.press("enter")
            await wait(pilot, lambda: app.game_screen is not None and app.screen is app.game_screen)
            assert app.remote.table == seated.ticket.table and app.remote.token == seated.ticket.token
            assert lobbies(app) == [] and not any(isinstance(s, ConnectingScreen) for s in app.screen_stack)
    finally:
        await server.close()


async def test_two_lobby_players_from_one_address_each_get_their_own_seat(tmp_path):
    """Two ``atlantis join`` programs from 127.0.0.1 with their own data folders: the second
    sees the lobby (not the first one's seat), joins the open seat with its own token, and
    the first keeps its seat."""
    from netplay.identity import IdentityStore

    server = TableServer(name="Kitchen", host=LOOPBACK, port=0, records=tmp_path)
    await server.start()
    pia = ServerApp(LOOPBACK, server.port, player_name="Pia", identity_store=IdentityStore(tmp_path / "pia.json"))
    opened = await pia.server_lobby.open_table(messages.OpenTable(game="pathways", players=2, bots=0, name="Pia",
                                                           options={"max_rounds": 5}))
    assert isinstance(opened, messages.Seated)
    first = client(server, name="Pia", table=opened.ticket.table, token=opened.ticket.token)
    first.start()
    await asyncio.wait_for(first.ready.wait(), 10)
    quinn = ServerApp(LOOPBACK, server.port, player_name="Quinn",
                      identity_store=IdentityStore(tmp_path / "quinn.json"))
    try:
        async with quinn.run_test(size=SIZE) as pilot:
            await wait(pilot, lambda: isinstance(quinn.screen, ServerLobbyScreen) and quinn.screen.listing is not None)
            lobby = quinn.screen
            assert lobby.listing.mine == [] and quinn.remote is None
            assert "(your seat)" not in str(lobby.query_one("DataTable").get_row_at(0))
            await pilot.press("enter")
            await wait(pilot, lambda: quinn.game_screen is not None and quinn.screen is quinn.game_screen)
            await wait(pilot, lambda: quinn.remote.seat is not None)
            assert quinn.remote.seat == 1 and quinn.remote.token != opened.ticket.token
            table = server.tables[opened.ticket.table]
            assert table.started and all(s.conn is not None for s in table.slots)
            assert first.status == "connected" and first.seat == 0
    finally:
        await first.close()
        await server.close()
