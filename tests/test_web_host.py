"""``atlantis host GAME --web``: the LAN host's table in browsers, each browser session a
LAN client of the host at its own seat, on 127.0.0.1 (no browser: aiohttp opens the
page and the session's websocket as textual-serve's page does)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

import aiohttp
import pytest

from engine.registry import get_game
from netplay.host import Host, HostTable
from tests.test_ssh_serve import LOOPBACK, until
from tui.web.host import HostWebFront
from tui.web.server import COOKIE, SECRET_SHAPE, WebLimits, identity_of

pytestmark = pytest.mark.timeout(60)


async def test_host_web_prints_the_browsers_address_and_its_qr_code_beside_the_lan_line(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "pathways", "--headless", "--bind", LOOPBACK, "--port", "0",
        "--no-advertise", "--web", "--web-port", "0", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=env)
    try:
        lines = [(await asyncio.wait_for(proc.stdout.readline(), 20)).decode().rstrip("\n") for _ in range(4)]
        assert lines[0].startswith(f"Listening on {LOOPBACK}:") and lines[1].startswith("Players join with: ")
        assert lines[2].startswith(f"Phones and browsers join at: http://{LOOPBACK}:") and "█" in lines[3]
        url = lines[2].rsplit(" ", 1)[1]
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as page:
                assert page.status == 200 and "textual.js" in await page.text()
                assert "Pathways" in await page.text()  # (the table's name is the page's title)
                assert SECRET_SHAPE.fullmatch(page.cookies[COOKIE].value)
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.communicate()


async def test_web_port_needs_web(tmp_path):
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "pathways", "--headless", "--web-port", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "d"), "XDG_CONFIG_HOME": str(tmp_path / "c")})
    out, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 2 and err.decode() == "atlantis: --web-port goes with --web\n"


@contextlib.asynccontextmanager
async def hosted_on_the_web(tmp_path, kinds):
    table = HostTable.create(get_game("pathways"), {}, kinds, 3, name="den")
    host = Host([table], host=LOOPBACK, port=0)
    await host.start()
    front = HostWebFront(host, bind=LOOPBACK, port=0, players=tmp_path / "players",
                         limits=WebLimits(max_sessions=12),
                         child_env={"XDG_DATA_HOME": str(tmp_path / "data"),
                                    "XDG_CONFIG_HOME": str(tmp_path / "config")})
    await front.start()
    try:
        yield host, table, front
    finally:
        await front.close()
        await host.close()


class WebBrowser:
    """A browser as the front sees one: its cookie, and a session at a time."""

    def __init__(self, http: aiohttp.ClientSession, base: str):
        self.http, self.base = http, base
        self.socket: aiohttp.ClientWebSocketResponse | None = None

    @property
    def identity(self) -> str:
        return identity_of(next(c.value for c in self.http.cookie_jar if c.key == COOKIE))

    async def open(self) -> None:
        await (await self.http.get(f"{self.base}/")).text()
        self.socket = await self.http.ws_connect(f"{self.base}/ws?width=80&height=24", origin=self.base)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


async def test_each_browser_is_a_lan_client_at_its_own_seat_and_comes_back_to_it(tmp_path):
    async with hosted_on_the_web(tmp_path, ["open", "open"]) as (host, table, front):
        base = f"http://{LOOPBACK}:{front.port}"
        jars = [aiohttp.CookieJar(unsafe=True) for _ in range(3)]
        async with aiohttp.ClientSession(cookie_jar=jars[0]) as a, aiohttp.ClientSession(cookie_jar=jars[1]) as b, \
                aiohttp.ClientSession(cookie_jar=jars[2]) as c:
            ann, bob, cat = WebBrowser(a, base), WebBrowser(b, base), WebBrowser(c, base)
            await ann.open()
            await until(lambda: table.slots[0].conn is not None, 20, "Ann's app seated")
            assert front.seats[ann.identity][:2] == (table.id, 0)
            await bob.open()
            await until(lambda: table.slots[1].conn is not None, 20, "Bob's app seated")
            assert table.started
            # A reload (a phone that slept) is the same browser: its own seat again.
            await ann.close()
            await until(lambda: table.slots[0].conn is None, 10, "Ann's app gone")
            await ann.open()
            await until(lambda: table.slots[0].conn is not None, 20, "Ann back at her seat")
            assert table.slots[1].conn is not None and front.seats[ann.identity][:2] == (table.id, 0)
            # Every seat is taken: another browser watches.
            await cat.open()
            await until(lambda: len(table.spectators) == 1, 20, "Cat watching")
            assert cat.identity not in front.seats
            # A rematch: each browser's seat is its seat at the new table.
            new = host.rematch(table)
            table_id, token = front.seat_for(bob.identity, None)
            assert table_id == new.id and new.slot_for_token(token) is new.slots[1]
            for browser in (ann, bob, cat):
                await browser.close()


async def test_a_browser_whose_seat_was_given_up_sits_down_again(tmp_path):
    """A browser that left before the start said goodbye (its seat went back to the open
    ones): it takes the next open seat again, with a new token."""
    table = HostTable.create(get_game("pathways"), {}, ["open", "open"], 3, name="den")
    host = Host([table], host=LOOPBACK, port=0)
    front = HostWebFront(host, bind=LOOPBACK, port=0)
    table_id, token = front.seat_for("web:ann", "Ann")
    assert table_id == table.id and table.slot_for_token(token) is table.slots[0] and table.slots[0].player == "Ann"
    assert front.seat_for("web:ann", None) == (table_id, token)  # (the same browser: the same seat)
    table.slots[0].token_hash, table.slots[0].player = None, ""  # (what a goodbye before the start does)
    again = front.seat_for("web:ann", None)
    assert again is not None and again[1] != token and table.slot_for_token(again[1]) is table.slots[0]
    assert front.seat_for("web:bob", "Bob")[1] != again[1] and table.slots[1].player == "Bob"
    assert front.seat_for("web:cat", "Cat") is None  # (every seat taken: Cat watches)


async def test_the_hosts_waiting_room_shows_the_browsers_address_and_w_its_qr_code(tmp_path):
    from textual.widgets import Static

    from tui.app import AtlantisApp
    from tui.lan.hosting import HostedTable
    from tui.lan.screens import HostTableScreen, PhonesScreen
    from tui.web.qr import qr_text

    table = HostTable.create(get_game("pathways"), {}, ["local", "open"], 4, name="den")
    host = Host([table], host=LOOPBACK, port=0)
    hosted = HostedTable(host, table, None, web=HostWebFront(host, bind=LOOPBACK, port=0, players=tmp_path / "p"))
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if isinstance(app.screen, HostTableScreen) and hosted.web_url:
                break
        url = f"http://{LOOPBACK}:{hosted.web.port}/"
        assert hosted.web_url == url
        await pilot.pause(0.1)
        assert f"Phones and browsers open: {url}" in str(app.screen.query_one("#address", Static).render())
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, PhonesScreen)
        drawn = str(app.screen.query_one("#qr", Static).render())
        assert drawn == qr_text(url, light_ink=app.current_theme.dark)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HostTableScreen)
        await hosted.close()
    assert hosted.web is None


async def test_without_web_the_waiting_room_has_no_qr_key():
    from tui.app import AtlantisApp
    from tui.lan.hosting import HostedTable
    from tui.lan.screens import HostTableScreen

    table = HostTable.create(get_game("pathways"), {}, ["local", "open"], 4, name="den")
    hosted = HostedTable(Host([table], host=LOOPBACK, port=0), table, None)
    app = AtlantisApp(hosted=hosted, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if isinstance(app.screen, HostTableScreen) and hosted.running:
                break
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, HostTableScreen)
        assert "Phones" not in str(app.screen.query_one("#address").render())
        await hosted.close()
