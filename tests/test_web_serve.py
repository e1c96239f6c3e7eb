"""``atlantis serve-web`` without a browser: the command's lines, the page and its
cookie, and what the websocket refuses (no identity, another site's page, past the
limits), all on 127.0.0.1."""

from __future__ import annotations

import asyncio
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
