"""The app in a browser, every browser session a client of one table host, as every
SSH session is (``tui.ssh.server``): ``BrowserFront`` is the web server all of it
shares; ``WebFront`` is ``atlantis serve-web`` (below), ``tui.web.host.HostWebFront``
is ``atlantis host GAME --web`` (each session a LAN client of that host's table).

For ``serve-web``, an aiohttp server serves one page (``page.html``: textual-serve's terminal in the
browser, with its scripts and fonts) and one websocket per browser session.  Each
session runs ``python -m tui.cli join SOCKET --server-lobby`` (``ServerApp``) under
Textual's web driver through textual-serve's ``AppService``, a client of a table server
(``netplay.server.TableServer``) that this process runs on a Unix socket in a folder
only this user may enter.  Hidden state is enforced by the same host code as on the
LAN, and a session whose app crashes takes only itself down.

* Process: each session's app is started here (``SessionApp``: textual-serve's
  ``AppService`` with its process our own), a fresh Python with no shell between, a
  chosen environment (the session's secret, its settings, Textual's web driver) and
  a process group of its own, killed if it has not quit ``stop_grace`` seconds after
  its browser went.  The SSH front's fork server hands its children a terminal; this
  driver talks over pipes, so the sessions here are not forked from it.
* Identity: a cookie (``atlantis_id``, HttpOnly, SameSite=Strict, Secure behind https)
  holding a secret the server issued when the browser first opened the page.  The
  table server knows the browser as ``web:`` and a digest of it, so a reload, or a
  phone that slept, goes back into its seat; another browser is another player.
* Limits (``WebLimits``): sessions in all and per address, new sessions per address
  per minute, an idle timeout (no key pressed and no tap), a cap on each websocket
  message; a websocket from another site's page is refused (``Origin``).
* Screenshots and other files the app delivers are downloaded by the browser of the
  session that made them, and only by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import html
import ipaddress
import json
import os
import logging
import re
import secrets
import shlex
import signal
import shutil
import ssl
import string
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from netplay.server import ServerLimits, TableServer
from netplay.text import clean_name

from ..common import reachable_addresses

log = logging.getLogger("atlantis.web")

COOKIE = "atlantis_id"
NAME_COOKIE = "atlantis_name"
COOKIE_AGE = 400 * 24 * 3600  # (the longest a browser keeps one)
SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
PAGE = files("tui.web").joinpath("page.html").read_text(encoding="utf-8")
STATIC = Path(str(files("textual_serve").joinpath("static")))


@dataclass
class WebLimits:
    """What strangers may cost the web front (README, "Play in a browser")."""

    max_sessions: int = 32          # browser sessions at once, everyone together
    max_per_address: int = 4        # ... from one address
    rate: int = 10                  # new sessions one address may start per ``rate_window``
    rate_window: float = 60.0
    idle_timeout: float = 1800.0    # a session with no key pressed (nor tap) this long is closed
    max_message: int = 64 * 1024    # bytes in one websocket message from the browser
    stop_grace: float = 3.0         # seconds a session's app has to quit when its browser goes


def identity_of(secret: str) -> str:
    """The table server's name for the browser holding ``secret``: a digest, so the
    secret itself is never in a log or a table's record."""
    return "web:" + hashlib.sha256(secret.encode()).hexdigest()[:32]


#: What a session's app inherits of this process's environment (never the operator's
#: settings: ``ATLANTIS_CONFIG`` is the browser's own).
INHERITED = ("PATH", "HOME", "USER", "LOGNAME", "PYTHONPATH", "VIRTUAL_ENV", "TMPDIR", "XDG_DATA_HOME",
             "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
MAX_ERRORS = 64 * 1024  # bytes of a session's standard error kept for the log


class SessionApp(AppService):
    """One browser session's app: textual-serve's ``AppService`` (its packets to the
    browser, its downloads) with the process started and stopped here, so it runs no
    shell, inherits only ``INHERITED`` and is always reaped."""

    def __init__(self, argv: list[str], env: dict[str, str], grace: float, **kwargs: Any):
        super().__init__(shlex.join(argv), **kwargs)
        self.argv, self.env, self.grace = argv, env, grace
        self.process: asyncio.subprocess.Process | None = None
        self.downloads: DownloadManager = kwargs["download_manager"]
        self.reader: asyncio.Task | None = None
        self.errors = bytearray()

    @property
    def stdin(self) -> asyncio.StreamWriter:
        assert self.process is not None and self.process.stdin is not None
        return self.process.stdin

    async def start(self, width: int, height: int) -> None:
        env = {**self.env, "TEXTUAL_DRIVER": WEB_DRIVER, "TEXTUAL_FPS": "60", "TEXTUAL_COLOR_SYSTEM": "truecolor",
               "TERM_PROGRAM": "textual", "COLUMNS": str(width), "ROWS": str(height)}
        pipe = asyncio.subprocess.PIPE
        self.process = await asyncio.create_subprocess_exec(*self.argv, stdin=pipe, stdout=pipe, stderr=pipe, env=env,
                                                            start_new_session=True)
        self.reader = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        """The app's packets (Textual's web driver: a line ``__GANGLION__``, then type,
        length, payload) to the browser, until the app ends."""
        assert self.process is not None and self.process.stdout is not None
        stdout = self.process.stdout
        errors = asyncio.get_running_loop().create_task(self._keep_errors())
        try:
            for _ in range(10):
                line = await stdout.readline()
                if not line or line == b"__GANGLION__\n":
                    break
            while True:
                kind = await stdout.readexactly(1)
                payload = await stdout.readexactly(int.from_bytes(await stdout.readexactly(4), "big"))
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    await self.on_packed(payload)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            await errors

    async def _keep_errors(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while chunk := await self.process.stderr.read(4096):
            self.errors.extend(chunk)
            del self.errors[:-MAX_ERRORS]

    async def stop(self) -> None:
        """Ask the app to quit; past ``grace`` seconds, kill its process group.  Always
        reaped, its output read to the end."""
        process = self.process
        if process is None:
            return
        await self.downloads.cancel_app_downloads(app_service_id=self.app_service_id)
        if process.returncode is None:
            with contextlib.suppress(Exception):
                await self.send_meta({"type": "quit"})
            try:
                await asyncio.wait_for(process.wait(), self.grace)
            except asyncio.TimeoutError:
                log.warning("a session's app did not quit: killed")
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                await process.wait()
        if self.reader is not None:
            await self.reader
        if process.returncode not in (0, None) and self.errors:
            log.warning("a session's app ended with %s:\n%s", process.returncode,
                        self.errors.decode("utf-8", "replace")[-4000:])


class BrowserFront(ABC):
    """A web server whose every browser session runs the app as a client of a table
    host: the page, each browser's identity, the limits, the sessions' apps, their
    downloads.  What a session runs (and where its tables are) is the subclass's:
    ``WebFront`` (``serve-web``: a table server's lobby), ``tui.web.host.HostWebFront``
    (``host --web``: one LAN host's table)."""

    def __init__(self, *, bind: str = "127.0.0.1", port: int = 8000, public_url: str | None = None,
                 limits: WebLimits | None = None, players: Path | None = None,
                 ssl_context: ssl.SSLContext | None = None, child_env: dict[str, str] | None = None):
        self.bind, self.port = bind, port
        self.public_url = public_url
        self.limits = limits or WebLimits()
        self.ssl_context = ssl_context
        self.players = players  # one settings file per browser (the theme): settings_path
        self.child_env = dict(child_env or {})
        self.downloads = DownloadManager()
        self.sessions: dict[str, str] = {}        # app_service_id -> the browser's identity
        self.per_address: dict[str, int] = {}
        self.recent: dict[str, deque] = {}
        self.refused = 0
        self.runner: web.AppRunner | None = None
        self._stopping: set[asyncio.Future] = set()  # sessions' apps being stopped

    # --- what the subclass says --------------------------------------------------------------
    @property
    def title(self) -> str:
        """The page's title."""
        return "atlantis"

    @abstractmethod
    def session_command(self, identity: str, name: str | None) -> tuple[list[str], dict[str, str], Callable[[], None]]:
        """What a session of the browser ``identity`` runs (``name``: the one it asked
        for, if any): the command line of its app, what its environment adds, and what to
        undo when it ends."""

    async def open_tables(self) -> None:
        """Start whatever the sessions' apps connect to (before the web server)."""

    async def close_tables(self) -> None:
        """Stop it (after every session's app has gone)."""

    # --- the page ----------------------------------------------------------------------------
    def secure(self) -> bool:
        return self.ssl_context is not None or (self.public_url or "").startswith("https:")

    async def handle_page(self, request: web.Request) -> web.Response:
        """The page, and the browser's secret if it has none (or a bad one)."""
        if not self.named_as_bound(request):
            raise web.HTTPMisdirectedRequest(text=f"atlantis: this server answers as {self.url()}")
        response = web.Response(text=string.Template(PAGE).substitute(title=html.escape(self.title)),
                                content_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        response.headers["Content-Security-Policy"] = ("default-src 'self'; script-src 'self' 'unsafe-inline'; "
                                                       "style-src 'self' 'unsafe-inline'; connect-src 'self'; "
                                                       "img-src 'self' data:; frame-ancestors 'none'")
        if not SECRET_SHAPE.fullmatch(request.cookies.get(COOKIE, "")):
            self._set_cookie(response, COOKIE, secrets.token_urlsafe(32))
        if "name" in request.query:
            self._set_cookie(response, NAME_COOKIE, clean_name(request.query["name"], "Player"))
        return response

    def _set_cookie(self, response: web.Response, name: str, value: str) -> None:
        response.set_cookie(name, value, max_age=COOKIE_AGE, path="/", httponly=True, samesite="Strict",
                            secure=self.secure())

    # --- a session -----------------------------------------------------------------------------
    def admit(self, address: str) -> str:
        """The refusal (one sentence) for a new session from ``address``, or "" (then
        it counts until ``release``)."""
        lim, now = self.limits, time.monotonic()
        recent = self.recent.setdefault(address, deque())
        while recent and now - recent[0] > lim.rate_window:
            recent.popleft()
        if len(recent) >= lim.rate:
            return f"{lim.rate} new sessions from {address} within {lim.rate_window:g} s; wait a moment and reload."
        recent.append(now)  # (every try counts, a refused one too: reloading in a loop is no way in)
        if sum(self.per_address.values()) >= lim.max_sessions:
            return f"the server has {lim.max_sessions} sessions, its limit; try again later."
        if self.per_address.get(address, 0) >= lim.max_per_address:
            return f"{lim.max_per_address} sessions from {address} are open already, the most one address may hold."
        self.per_address[address] = self.per_address.get(address, 0) + 1
        return ""

    def release(self, address: str) -> None:
        left = self.per_address.get(address, 1) - 1
        if left > 0:
            self.per_address[address] = left
        else:
            self.per_address.pop(address, None)

    def named_as_bound(self, request: web.Request) -> bool:
        """Whether the page was asked for by a name this server answers to: listening on
        one address (and no ``public_url``), only that address (or ``localhost`` for a
        loopback one).  A web page of any site whose name was pointed at 127.0.0.1 (DNS
        rebinding) would otherwise reach a server meant for this machine alone."""
        if self.public_url or self.bind in ("0.0.0.0", "", "::"):
            return True
        asked = urlsplit(f"//{request.host}").hostname or ""
        names = {self.bind.strip("[]").lower()}
        if ipaddress.ip_address(self.bind.strip("[]")).is_loopback:
            names.add("localhost")
        return asked.lower() in names

    def same_origin(self, request: web.Request) -> bool:
        """Whether the websocket comes from our own page (a page of another site could
        otherwise open one with this browser's cookie)."""
        origin = request.headers.get("Origin")
        if origin is None:  # (not a browser)
            return True
        allowed = {request.host}
        if self.public_url:
            allowed.add(urlsplit(self.public_url).netloc)
        return urlsplit(origin).netloc in allowed

    def settings_path(self, identity: str) -> Path | None:
        """The settings file (``tui.config``) of one browser, in the ``players`` folder."""
        if self.players is None:
            return None
        try:
            self.players.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("no settings for this browser: cannot make %s (%s)", self.players, exc)
            return None
        return self.players / f"{identity.partition(':')[2]}.toml"

    def app_command(self, identity: str, name: str | None) -> tuple[list[str], dict[str, str], Callable[[], None]]:
        """One session's app: ``session_command`` run by this Python, with this
        browser's settings and nothing of the operator's environment but ``INHERITED``."""
        argv, added, ended = self.session_command(identity, name)
        settings = self.settings_path(identity)
        env = {k: v for k, v in os.environ.items() if k in INHERITED}
        env.update({"ATLANTIS_CONFIG": str(settings or ""), "LANG": "C.UTF-8", **added, **self.child_env})
        return [sys.executable, "-m", "tui.cli", *argv], env, ended

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """One browser session: its app, keys and taps to it, its screen back."""
        browser = request.cookies.get(COOKIE, "")
        if not SECRET_SHAPE.fullmatch(browser):
            raise web.HTTPForbidden(text="atlantis: open the page first (it gives this browser its identity)")
        if not (self.named_as_bound(request) and self.same_origin(request)):
            raise web.HTTPForbidden(text="atlantis: a page of another site may not open a session here")
        address = request.remote or "?"
        refusal = self.admit(address)
        if refusal:
            self.refused += 1
            raise web.HTTPTooManyRequests(text=f"atlantis: {refusal}")
        try:
            return await self._session(request, browser)
        finally:
            self.release(address)

    async def _session(self, request: web.Request, browser: str) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=self.limits.max_message)
        await websocket.prepare(request)
        identity = identity_of(browser)
        argv, env, ended = self.app_command(identity, request.cookies.get(NAME_COOKIE))
        service = SessionApp(argv, env, self.limits.stop_grace, write_bytes=websocket.send_bytes,
                             write_str=websocket.send_str, close=websocket.close, download_manager=self.downloads)
        self.sessions[service.app_service_id] = identity
        last_input = [time.monotonic()]
        idle = asyncio.get_running_loop().create_task(self._close_when_idle(websocket, last_input))
        try:
            width, height = _size(request.query.get("width"), 80), _size(request.query.get("height"), 24)
            await service.start(width, height)
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                await self._from_browser(service, websocket, message.data, last_input)
        except (ConnectionError, asyncio.CancelledError):
            pass
        except Exception:
            log.exception("a browser session failed")
        finally:
            idle.cancel()
            ended()
            self.sessions.pop(service.app_service_id, None)
            stopping = asyncio.ensure_future(service.stop())  # (to its end, even when this handler is cancelled)
            self._stopping.add(stopping)
            stopping.add_done_callback(self._stopping.discard)
            await asyncio.shield(stopping)
            with contextlib.suppress(Exception):
                await websocket.close()
        return websocket

    async def _from_browser(self, service: SessionApp, websocket: web.WebSocketResponse, data: str,
                            last_input: list[float]) -> None:
        """One message of textual-serve's page: keys (and taps), a resize, a ping, focus."""
        try:
            envelope = json.loads(data)
            kind = envelope[0]
        except (ValueError, TypeError, IndexError, KeyError):
            return
        if kind == "stdin" and isinstance(envelope[1], str):
            last_input[0] = time.monotonic()
            await service.send_bytes(envelope[1].encode("utf-8"))
        elif kind == "resize" and isinstance(envelope[1], dict):
            await service.set_terminal_size(_size(envelope[1].get("width"), 80), _size(envelope[1].get("height"), 24))
        elif kind == "ping" and isinstance(envelope[1], str) and len(envelope[1]) < 64:
            await websocket.send_json(["pong", envelope[1]])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()

    async def _close_when_idle(self, websocket: web.WebSocketResponse, last_input: list[float]) -> None:
        timeout = self.limits.idle_timeout
        while not websocket.closed:
            await asyncio.sleep(max(0.05, min(1.0, timeout / 4)))
            if time.monotonic() - last_input[0] > timeout:
                await websocket.close(message=f"no key pressed for {timeout:g} s: goodbye".encode())
                return

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A file the app delivered (a screenshot), for the browser of the session that
        made it only."""
        key = request.match_info["key"]
        try:
            meta = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="atlantis: no such file (it is offered once, while its session lasts)")
        owner = self.sessions.get(meta.app_service.app_service_id)
        if owner is None or owner != identity_of(request.cookies.get(COOKIE, "")):
            raise web.HTTPNotFound(text="atlantis: no such file (it is offered once, while its session lasts)")
        response = web.StreamResponse()
        response.content_type = meta.mime_type
        if meta.encoding:
            response.charset = meta.encoding
        disposition = "inline" if meta.open_method == "browser" else "attachment"
        safe_name = re.sub(r"[^A-Za-z0-9._-]", "_", meta.file_name)
        response.headers["Content-Disposition"] = f'{disposition}; filename="{safe_name}"'
        response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    # --- life ------------------------------------------------------------------------------------
    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=self.limits.max_message)
        app.add_routes([
            web.get("/", self.handle_page),
            web.get("/ws", self.handle_websocket),
            web.get("/download/{key}", self.handle_download),
            web.static("/static", STATIC),
        ])
        return app

    async def start(self) -> int:
        """Start the tables and the web server; returns the port."""
        await self.open_tables()
        self.runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=self.limits.stop_grace)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.bind, self.port, ssl_context=self.ssl_context)
        await site.start()
        for server in self.runner.addresses:
            if isinstance(server, tuple):
                self.port = server[1]
                break
        return self.port

    def url(self) -> str:
        """Where browsers open the lobby: ``public_url``, or this server's own address
        (listening on every interface: this machine's first address on the network)."""
        if self.public_url:
            return self.public_url
        scheme = "https" if self.ssl_context is not None else "http"
        return f"{scheme}://{reachable_addresses(self.bind, self.port)[0]}/"

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()  # (closes every websocket: each session's app is told to quit)
        await asyncio.gather(*self._stopping, return_exceptions=True)
        await self.close_tables()


class WebFront(BrowserFront):
    """``serve-web``: a table server (on a Unix socket only this user may reach) whose
    lobby every browser session opens, as every SSH session does."""

    def __init__(self, *, server_name: str = "atlantis", records: Path | None = None,
                 server_limits: ServerLimits | None = None, bot_delay: float = 0.3, **kwargs: Any):
        super().__init__(**kwargs)
        self.socket_dir: Path | None = None
        self.tables = TableServer.behind_front(self.limits.max_sessions, name=server_name, records=records,
                                               server_limits=server_limits, bot_delay=bot_delay)

    @property
    def title(self) -> str:
        return self.tables.name

    def session_command(self, identity: str, name: str | None) -> tuple[list[str], dict[str, str], Callable[[], None]]:
        """The table server's lobby, with this session's secret standing for the browser."""
        secret = secrets.token_urlsafe(24)
        self.tables.register_identity(secret, identity)
        argv = ["join", self.tables.bind, "--server-lobby", "--plain-link", "--name", clean_name(name, "Player")]
        return argv, {"ATLANTIS_SESSION": secret}, lambda: self.tables.forget_identity(secret)

    async def open_tables(self) -> None:
        self.socket_dir = Path(tempfile.mkdtemp(prefix="atlantis-web-"))  # (0700)
        self.tables.bind = str(self.socket_dir / "tables.sock")
        if self.port:  # (its tables are restored after a restart on the same address)
            self.tables.named_home = f"web:{self.bind}:{self.port}"
        await self.tables.start()

    async def close_tables(self) -> None:
        await self.tables.close()
        if self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)


def _size(value: Any, default: int) -> int:
    """A terminal dimension the browser sent, within sense."""
    try:
        return max(10, min(500, int(value)))
    except (TypeError, ValueError):
        return default


def ssl_context(certfile: Path, keyfile: Path | None) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(certfile), str(keyfile) if keyfile else None)
    return context
