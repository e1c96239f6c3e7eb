"""``atlantis serve-web`` without a browser: the command's lines, the page and its
cookie, and what the websocket refuses (no identity, another site's page, past the
limits), all on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.test_ssh_serve import LOOPBACK, until
from tui.web.qr import join_lines
from tui.web.server import COOKIE, SECRET_SHAPE, WebFront, WebLimits, identity_of

pytestmark = pytest.mark.timeout(45)


async def test_serve_web_prints_its_address_and_qr_and_sigterm_stops_it(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "serve-web", "--port", "0", "--name", "den",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)
    try:
        first = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        assert first.startswith("Web server 'den' on port ") and "players open: http://127.0.0.1:" in first
        url = first.rsplit(" ", 1)[1].strip()
        lines = [(await asyncio.wait_for(proc.stdout.readline(), 5)).decode().rstrip("\n") for _ in range(3)]
        assert lines[0].startswith("Only this machine can reach it")
        assert lines[1] == f"Phones and browsers join at: {url}" and "█" in lines[2]
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as page:
                assert page.status == 200 and "textual.js" in await page.text()
                assert SECRET_SHAPE.fullmatch(page.cookies[COOKIE].value)
                assert page.cookies[COOKIE]["httponly"] and page.cookies[COOKIE]["samesite"] == "Strict"
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(proc.communicate(), 15)
    assert b"Stopping" in out


def test_the_qr_code_is_drawn_in_blocks_under_the_address():
    lines = join_lines("http://192.168.1.20:8000/")
    assert lines[0] == "Phones and browsers join at: http://192.168.1.20:8000/"
    assert len(lines) > 10 and len({len(line) for line in lines[1:]}) == 1  # (a square of equal lines)


async def test_the_websocket_needs_the_page_s_cookie_and_our_own_origin_and_keeps_the_limits(tmp_path):
    front = WebFront(bind=LOOPBACK, port=0, records=tmp_path / "records", players=tmp_path / "players",
                     limits=WebLimits(max_per_address=1, rate=2, stop_grace=1.0))
    await front.start()
    base = f"http://{LOOPBACK}:{front.port}"
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # (an IP's cookies)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{base}/ws")  # (no cookie: the page was never opened)
            assert refused.value.status == 403
            async with http.get(f"{base}/", headers={"Host": "rebound.example:80"}) as page:
                assert page.status == 421  # (a name pointed at 127.0.0.1 is not this server's)
            await (await http.get(f"{base}/")).text()  # the page gives this client its secret
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{base}/ws", origin="http://evil.example")
            assert refused.value.status == 403
            first = await http.ws_connect(f"{base}/ws", origin=base)
            await until(lambda: front.tables.ids.registered, 10, "the session registered its identity")
            secret = next(c.value for c in http.cookie_jar if c.key == COOKIE)
            assert set(front.tables.ids.registered.values()) == {identity_of(secret)}
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{base}/ws", origin=base)  # one per address here
            assert refused.value.status == 429
            await first.close()
            await until(lambda: not front.per_address, 10, "the session let go of its place")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{base}/ws", origin=base)  # two new sessions a minute here
            assert refused.value.status == 429
    finally:
        await front.close()


async def test_an_idle_session_is_closed(tmp_path):
    front = WebFront(bind=LOOPBACK, port=0, records=tmp_path / "records",
                     limits=WebLimits(idle_timeout=0.5, stop_grace=1.0))
    await front.start()
    base = f"http://{LOOPBACK}:{front.port}"
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            await (await http.get(f"{base}/")).text()
            socket = await http.ws_connect(f"{base}/ws")
            async for message in socket:  # (the app's screen, until the front closes it)
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                    break
            assert socket.closed
    finally:
        await front.close()


async def test_a_screenshot_in_the_browser_downloads_there_and_only_there(tmp_path):
    front = WebFront(bind=LOOPBACK, port=0, records=tmp_path / "records", limits=WebLimits(stop_grace=1.0),
                     child_env={"XDG_DATA_HOME": str(tmp_path / "data")})
    await front.start()
    base = f"http://{LOOPBACK}:{front.port}"
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            await (await http.get(f"{base}/")).text()
            socket = await http.ws_connect(f"{base}/ws?width=100&height=30")
            screen, key = bytearray(), None

            async def read_until(done) -> None:
                nonlocal key
                async for message in socket:
                    if message.type == aiohttp.WSMsgType.BINARY:
                        screen.extend(message.data)
                    elif message.type == aiohttp.WSMsgType.TEXT and "deliver_file_start" in message.data:
                        key = json.loads(message.data)[1]
                    if done():
                        return

            await asyncio.wait_for(read_until(lambda: b"No tables yet" in screen), 20)
            await socket.send_json(["stdin", "\x10"])  # Ctrl+P: the command palette
            await asyncio.sleep(0.5)
            await socket.send_json(["stdin", "screenshot"])
            await asyncio.sleep(0.5)
            await socket.send_json(["stdin", "\r"])
            await asyncio.wait_for(read_until(lambda: key is not None), 20)
            async with aiohttp.ClientSession() as stranger:  # (no cookie: another browser)
                assert (await stranger.get(f"{base}/download/{key}")).status == 404
            async with http.get(f"{base}/download/{key}") as download:
                assert download.status == 200 and download.content_type == "image/svg+xml"
                assert (await download.text()).lstrip().startswith("<svg")
            await socket.close()
        assert not (tmp_path / "data" / "atlantis" / "screenshots").exists()  # (nothing kept on the server)
    finally:
        await front.close()


async def test_a_screenshot_in_a_terminal_goes_where_textual_screenshot_location_says(tmp_path, monkeypatch):
    from engine.registry import get_game
    from tui.app import AtlantisApp
    from engine.core import SeatInfo
    from tui.seat_links import LocalTable

    monkeypatch.setenv("TEXTUAL_SCREENSHOT_LOCATION", str(tmp_path / "shots"))
    table = LocalTable.new(get_game("pathways"), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 2)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        saved = app.deliver_screenshot()
    assert saved is not None and Path(saved).parent == tmp_path / "shots" and Path(saved).is_file()
