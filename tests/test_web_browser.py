"""``atlantis serve-web`` in a real browser: two headless Chromiums (Debian's ``chromium``,
driven over the DevTools protocol with aiohttp's websocket client) open the lobby on
127.0.0.1, one opens a table, the other joins, both play by keys, and neither screen
ever shows the other's hand.

A browser's screen is read from the bytes its page received on the session's websocket
(a listener added to the page before textual-serve's script runs), as the SSH tests
read a PTY's.  Skipped, saying why, only when no Chromium is installed (``.ci/run``
installs it)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.test_ssh_serve import LOOPBACK, find_seed, open_and_join, play_turns, text_of, until
from engine.pathways import data as D
from tui.web.server import WebFront, WebLimits

pytestmark = pytest.mark.timeout(90)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install -y chromium)")

#: Added to every page before its own scripts: each binary message the session's
#: websocket receives (the terminal's output) is kept for ``__atlantisTake``.
LISTEN = """
(() => {
  const Native = window.WebSocket;
  const received = [];
  function Listening(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") received.push(new Uint8Array(event.data));
    });
    return socket;
  }
  Listening.prototype = Native.prototype;
  Object.assign(Listening, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Listening;
  window.__atlantisTake = () => {
    let text = "";
    for (const part of received.splice(0)) for (let i = 0; i < part.length; i++) text += String.fromCharCode(part[i]);
    return btoa(text);
  };
})();
"""

#: Key names (as the SSH tests send them) as DevTools key events: key, code, key code.
SPECIAL_KEYS = {"up": ("ArrowUp", 38), "down": ("ArrowDown", 40), "left": ("ArrowLeft", 37),
                "right": ("ArrowRight", 39), "enter": ("Enter", 13), "tab": ("Tab", 9),
                "backspace": ("Backspace", 8), "escape": ("Escape", 27)}
SHIFT_ARROW_BYTES = {b"\x1b[1;2A": "up", b"\x1b[1;2C": "right", b"\x1b[1;2B": "down", b"\x1b[1;2D": "left"}
SHIFT = 8
CTRL = 2


class Browser:
    """One headless Chromium with one page: what its terminal received, and keys to type
    into it (the same methods as the SSH tests' ``Player``)."""

    def __init__(self, proc: asyncio.subprocess.Process, profile: str, http: aiohttp.ClientSession,
                 page: aiohttp.ClientWebSocketResponse):
        self.proc, self.profile, self.http, self.page = proc, profile, http, page
        self.raw = bytearray()
        self._ids = 0
        self._answers: dict[int, asyncio.Future] = {}
        self._keys: list[dict] = []
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self._poller: asyncio.Task | None = None
        self._typist: asyncio.Task | None = None
        self._typed = asyncio.Event()

    @classmethod
    async def launch(cls, size: tuple[int, int] = (1100, 800)) -> "Browser":
        profile = tempfile.mkdtemp(prefix="atlantis-chromium-")
        proc = await asyncio.create_subprocess_exec(
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0", f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
            "about:blank", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        active = Path(profile) / "DevToolsActivePort"
        await until(lambda: active.exists() and len(active.read_text().splitlines()) >= 2, 30, "Chromium started")
        devtools_port = int(active.read_text().splitlines()[0])
        http = aiohttp.ClientSession()
        targets = await (await http.get(f"http://127.0.0.1:{devtools_port}/json/list")).json()
        page_url = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
        page = await http.ws_connect(page_url, max_msg_size=0)
        browser = cls(proc, profile, http, page)
        await browser.call("Page.enable")
        await browser.call("Page.addScriptToEvaluateOnNewDocument", source=LISTEN)
        return browser

    async def _read(self) -> None:
        async for message in self.page:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            answer = json.loads(message.data)
            future = self._answers.pop(answer.get("id"), None)
            if future is not None and not future.done():
                future.set_result(answer)

    async def call(self, method: str, **params: Any) -> dict:
        self._ids += 1
        future = asyncio.get_running_loop().create_future()
        self._answers[self._ids] = future
        await self.page.send_str(json.dumps({"id": self._ids, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 15)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def open(self, url: str) -> None:
        await self.call("Page.navigate", url=url)
        self._poller = asyncio.get_running_loop().create_task(self._poll())
        self._typist = asyncio.get_running_loop().create_task(self._type_keys())

    async def _poll(self) -> None:
        while True:
            with contextlib.suppress(AssertionError, asyncio.TimeoutError, KeyError):
                result = await self.call("Runtime.evaluate", expression="window.__atlantisTake ? __atlantisTake() : ''",
                                         returnByValue=True)
                self.raw.extend(base64.b64decode(result["result"].get("value") or ""))
            await asyncio.sleep(0.05)

    # --- what the SSH tests' Player does -------------------------------------------------------
    @property
    def text(self) -> str:
        return text_of(bytes(self.raw))

    async def sees(self, what: str, timeout: float = 20.0, since: int = 0) -> None:
        end = time.monotonic() + timeout
        while what not in text_of(bytes(self.raw[since:])):
            if time.monotonic() > end:
                raise AssertionError(f"never saw {what!r}; screen ends with:\n{self.text[-1500:]}")
            await asyncio.sleep(0.05)

    def send(self, *keys: str | bytes) -> None:
        """Keys as the SSH tests name them, typed into the page in order (by a task)."""
        for key in keys:
            if isinstance(key, bytes):
                self._keys.append(_key_event(SHIFT_ARROW_BYTES[key], SHIFT))
            elif key in SPECIAL_KEYS:
                self._keys.append(_key_event(key))
            elif key.startswith("ctrl+") and len(key) == 6:  # ctrl+s: a letter with Control held
                letter = key[-1]
                self._keys.append({"key": letter, "code": f"Key{letter.upper()}", "modifiers": CTRL,
                                   "windowsVirtualKeyCode": ord(letter.upper()),
                                   "nativeVirtualKeyCode": ord(letter.upper())})
            else:
                self._keys.extend({"text": ch} for ch in key)
        self._typed.set()

    async def type(self, *fields: tuple, pause: float = 0.3) -> None:
        for group in fields:
            self.send(*group)
            while self._keys:
                await asyncio.sleep(0.02)
            await asyncio.sleep(pause)

    async def _type_keys(self) -> None:
        while True:
            await self._typed.wait()
            self._typed.clear()
            # (keys go where the page's focus is: xterm's input, as after a tap on the terminal)
            await self.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
            while self._keys:
                event = self._keys.pop(0)
                if "text" in event:
                    await self.call("Input.dispatchKeyEvent", type="keyDown", text=event["text"], key=event["text"])
                    await self.call("Input.dispatchKeyEvent", type="keyUp", key=event["text"])
                else:
                    await self.call("Input.dispatchKeyEvent", type="rawKeyDown", **event)
                    await self.call("Input.dispatchKeyEvent", type="keyUp", **event)

    async def tap(self, x: float, y: float) -> None:
        """A finger's tap at a point of the page (CSS pixels)."""
        await self.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)
        await self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
        await self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def close(self) -> None:
        for task in (self._poller, self._typist, self._reader):
            if task is not None:
                task.cancel()
        with contextlib.suppress(Exception):
            await self.page.close()
        await self.http.close()
        with contextlib.suppress(ProcessLookupError):
            self.proc.terminate()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.proc.wait(), 5)
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def _key_event(name: str, modifiers: int = 0) -> dict:
    key, code = SPECIAL_KEYS[name]
    event = {"key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code,
             "modifiers": modifiers}
    if name == "enter":
        event["text"] = "\r"
    return event


@contextlib.asynccontextmanager
async def running_web(tmp_path: Path, **kw):
    front = WebFront(bind=LOOPBACK, port=0, records=tmp_path / "records", bot_delay=0.0,
                     players=tmp_path / "players", limits=kw.pop("limits", WebLimits(stop_grace=1.0)),
                     child_env={"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")},
                     **kw)
    await front.start()
    try:
        yield front
    finally:
        await front.close()


@needs_chromium
async def test_two_browsers_play_each_other_and_neither_shows_the_other_hand(tmp_path):
    seed = find_seed()
    async with running_web(tmp_path) as front:
        front.tables.seeds = iter([seed])
        red, blue = await asyncio.gather(Browser.launch(), Browser.launch())
        try:
            await red.open(front.url())
            await blue.open(front.url())
            table = await open_and_join(front, red, blue)
            players = {0: red, 1: blue}
            own = [{D.SPECIAL_SHORT[D.TILE_KIND[t]] for t in hand if D.TILE_KIND[t] in D.SPECIAL_SHORT}
                   for hand in table.match.state.hands]
            blue_only = own[1] - own[0]
            assert blue_only and not own[0]  # (the seed: Blue holds a special tile, Red none)
            await red.sees("Your turn")
            await until(lambda: any(label in blue.text for label in blue_only), 20, "Blue's screen shows its hand")

            def neither_sees_the_other() -> None:
                played = {D.SPECIAL_SHORT[D.TILE_KIND[t]] for t in table.match.state.discard
                          if D.TILE_KIND[t] in D.SPECIAL_SHORT}
                for label in blue_only - played:
                    assert label not in red.text, f"Red's browser shows {label!r} from Blue's hand"

            neither_sees_the_other()
            await play_turns(table, players, max_moves=6, timeout=45, on_move=neither_sees_the_other)
            assert {m.seat for m in table.match.record.moves} == {0, 1}
            neither_sees_the_other()
            # A reload (a phone that slept) is the same player: the cookie takes it back to its seat.
            await until(lambda: table.slots[0].conn is not None, 10, "Red seated")
            mark = len(red.raw)
            await red.call("Page.reload")
            await red.sees("(your seat)", since=mark)
            await until(lambda: table.slots[0].conn is None, 10, "Red's old session gone")
            red.send("enter")
            await until(lambda: table.slots[0].conn is not None, 15, "Red back in its seat")
            moves = len(table.match.record.moves)
            await play_turns(table, players, max_moves=moves + 2, timeout=30, on_move=neither_sees_the_other)
        finally:
            await asyncio.gather(red.close(), blue.close())


@needs_chromium
async def test_a_phone_in_landscape_gets_a_readable_80_by_24_and_a_tap_works_as_a_click(tmp_path):
    """A phone's screen, 844 by 390 CSS pixels held sideways: the font is the largest that
    fits 80 x 24 cells (still readable), and a tap on the footer's "New table" opens the
    form, as a mouse click does."""
    async with running_web(tmp_path) as front:
        phone = await Browser.launch()
        try:
            await phone.call("Emulation.setDeviceMetricsOverride", width=844, height=390, deviceScaleFactor=3,
                             mobile=True)
            await phone.open(front.url())
            await phone.sees("New table")
            await asyncio.sleep(0.5)  # (the layout settles at the size the page measured)
            geometry = (await phone.call("Runtime.evaluate", returnByValue=True, expression="""(() => {
                const font = Number(document.getElementById('terminal').dataset.fontSize);
                const rect = document.querySelector('.xterm-screen').getBoundingClientRect();
                return {font, left: rect.left, bottom: rect.bottom, width: rect.width, height: rect.height};
            })()"""))["result"]["value"]
            assert geometry["font"] >= 12, geometry
            assert geometry["width"] >= 80 * geometry["font"] * 0.55 and geometry["height"] >= 24 * geometry["font"]
            await phone.tap(geometry["left"] + 3 * geometry["font"] * 0.6, geometry["bottom"] - geometry["font"] / 2)
            await phone.sees("Open a table")
        finally:
            await phone.close()


@needs_chromium
async def test_a_phone_joins_host_web_at_its_own_seat_and_a_too_small_screen_says_so(tmp_path):
    """``host --web``: a Chromium opens the host's page and is the LAN player of the open
    seat (its own hand); on a screen too small for the game the game says so, and once
    the screen is big enough the board is back."""
    from tests.test_web_host import hosted_on_the_web

    async with hosted_on_the_web(tmp_path, ["open", "bot"]) as (host, table, front):
        phone = await Browser.launch()
        try:
            await phone.call("Emulation.setDeviceMetricsOverride", width=320, height=200, deviceScaleFactor=2,
                             mobile=True)
            await phone.open(front.url())
            await until(lambda: table.slots[0].conn is not None, 30, "the phone's app seated")
            await phone.sees("needs a screen of at least 80×24")
            mark = len(phone.raw)
            await phone.call("Emulation.setDeviceMetricsOverride", width=844, height=390, deviceScaleFactor=3,
                             mobile=True)
            await phone.sees("You are", since=mark)  # (the side panel: the board is drawn)
            assert table.started and front.seats and table.slots[0].player
        finally:
            await phone.close()
