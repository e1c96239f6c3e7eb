"""Discovery on loopback only: advertise, browse, updates, goodbyes, crashed hosts,
``atlantis browse`` from another process."""

from __future__ import annotations

import asyncio
import json
import socket
import sys

from zeroconf.asyncio import AsyncServiceInfo

from engine.registry import GAMES
from netplay import messages
from netplay.discovery import Advertiser, Browser, _zeroconf

from netplay_helpers import LOOPBACK, client, running_host, until

LO = [LOOPBACK]
GAME = GAMES["pathways"]


async def only_loopback(zc) -> None:
    """Every socket zeroconf sends from is bound to loopback and multicasts there."""
    await until(lambda: zc.zeroconf.engine.senders)
    senders = zc.zeroconf.engine.senders
    for s in senders:
        assert s.sock_name[0] == LOOPBACK
        iface = s.sock.getsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, 4)
        assert socket.inet_ntoa(iface) == LOOPBACK


async def test_tables_appear_update_and_go_with_their_txt_keys():
    async with running_host(GAME, ["open", "open"]) as host:
        adv = Advertiser(interfaces=LO)
        await adv.start(host)
        await only_loopback(adv.zc)
        changed = asyncio.Event()
        browser = Browser(on_change=changed.set, interfaces=LO, recheck=0.3)
        await browser.start()
        try:
            await only_loopback(browser.zc)
            # Other tables may be announced on this machine's loopback too: look at ours.
            def ours():
                return [t for t in browser.tables.values() if t.port == host.port]

            await until(ours, timeout=10)
            (found,) = ours()
            assert (found.host, found.port, found.game, found.open, found.players) == (LOOPBACK, host.port, "pathways", 2, 2)
            assert found.fingerprint == host.table.fingerprint and found.name == "test table"
            info = adv.infos[host.table.id]
            txt = {k.decode(): v.decode() for k, v in info.properties.items()}
            assert {"game", "name", "open", "v", "fp"} <= set(txt) and txt["v"] == str(messages.PROTOCOL)
            c = client(host)
            c.start()
            await until(lambda: ours() and ours()[0].open == 1, timeout=10)
            assert adv.infos[host.table.id].properties[b"open"] == b"1"
            await c.close()
            await adv.stop()  # the goodbye: the browser drops the table
            await until(lambda: not ours(), timeout=10)
        finally:
            await browser.stop()
            await adv.stop()


async def test_a_host_that_died_without_a_goodbye_is_not_offered():
    zc = _zeroconf(LO)
    info = AsyncServiceInfo(messages.SERVICE_TYPE, f"ghost.{messages.SERVICE_TYPE}", addresses=[socket.inet_aton(LOOPBACK)],
                            port=_closed_port(), properties={"game": "pathways", "table": "x"},
                            server="ghost.local.")
    await (await zc.async_register_service(info))
    heard: list[str] = []

    class Listening(Browser):
        def _handler(self, zeroconf, service_type, name, state_change):
            heard.append(name)
            super()._handler(zeroconf, service_type, name, state_change)

    browser = Listening(interfaces=LO, probe_timeout=0.5)
    await browser.start()
    try:
        ghost = f"ghost.{messages.SERVICE_TYPE}"
        await until(lambda: ghost in heard, timeout=10)  # the service is heard...
        await asyncio.sleep(1.0)  # ... its probe fails: it is never listed
        assert ghost not in browser.tables
    finally:
        await browser.stop()
        await (await zc.async_unregister_service(info))
        await zc.async_close()


def _closed_port() -> int:
    s = socket.socket()
    s.bind((LOOPBACK, 0))
    port = s.getsockname()[1]
    s.close()
    return port


async def test_atlantis_browse_in_another_process_finds_the_host():
    async with running_host(GAME, ["open", "open", "bot"], options={}) as host:
        adv = Advertiser(interfaces=LO)
        await adv.start(host)
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui.cli", "browse", "--timeout", "3", "--json", "--interface", LOOPBACK,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(proc.communicate(), 30)
            assert proc.returncode == 0, err
            tables = json.loads(out)
            ours = [t for t in tables if t["address"] == f"{LOOPBACK}:{host.port}"]
            assert [(t["address"], t["game"], t["open"], t["players"]) for t in ours] == \
                [(f"{LOOPBACK}:{host.port}", "pathways", 2, 3)]
        finally:
            await adv.stop()


async def test_a_rematch_is_announced_and_the_finished_table_says_goodbye():
    async with running_host(GAME, ["open", "open"]) as host:
        adv = Advertiser(interfaces=LO)
        await adv.start(host)
        browser = Browser(interfaces=LO, recheck=0.3)
        await browser.start()
        try:
            def ours():
                return {t.table for t in browser.tables.values() if t.port == host.port}

            first = host.table
            await until(lambda: ours() == {first.id}, timeout=10)
            new = host.rematch(first)
            await until(lambda: ours() == {new.id}, timeout=10)
            assert set(adv.infos) == {new.id}
        finally:
            await browser.stop()
            await adv.stop()
