"""``atlantis serve-web``: the app in a browser, every browser session a client of one
table server, as every SSH session is (``tui.ssh.server``).

An aiohttp server serves one page (``page.html``: textual-serve's terminal in the
browser, with its scripts and fonts) and one websocket per browser session.  Each
session runs ``python -m tui.cli join SOCKET --server-lobby`` (``ServerApp``) under
Textual's web driver through textual-serve's ``AppService``, a client of a table server
(``netplay.server.TableServer``) that this process runs on a Unix socket in a folder
only this user may enter.  Hidden state is enforced by the same host code as on the
LAN, and a session whose app crashes takes only itself down.

* Process: textual-serve starts each session's app itself (a shell command, with the
  front's environment and Textual's web driver); it has no public way to start it
  otherwise, so the SSH front's fork server is not used here: each session is a fresh
  Python.  The session's secret and settings go in front of the command
  (``VAR=value exec ...``); the secret is good only on the private socket.
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
import json
import logging
import re
import secrets
import shlex
import shutil
import ssl
import string
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from netplay.host import Limits
from netplay.server import ServerLimits, TableServer
from netplay.text import clean_name

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


class WebFront:
    """The table server and the web server in front of it."""

    def __init__(self, *, bind: str = "127.0.0.1", port: int = 8000, public_url: str | None = None,
                 limits: WebLimits | None = None, server_name: str = "atlantis", records: Path | None = None,
                 server_limits: ServerLimits | None = None, bot_delay: float = 0.3,
                 players: Path | None = None, ssl_context: ssl.SSLContext | None = None,
                 child_env: dict[str, str] | None = None):
        self.bind, self.port = bind, port
        self.public_url = public_url
        self.limits = limits or WebLimits()
        self.ssl_context = ssl_context
        self.players = players  # one settings file per browser (the theme): settings_path
        self.child_env = dict(child_env or {})
        lim = self.limits
        self.socket_dir: Path | None = None
        self.tables = TableServer(name=server_name, host="", port=0, records=records, plain=True,
                                  server_limits=server_limits, bot_delay=bot_delay,
                                  limits=Limits(max_per_address=4 * lim.max_sessions + 16,
                                                max_connections=max(256, 4 * lim.max_sessions + 16)))
        self.downloads = DownloadManager()
        self.sessions: dict[str, str] = {}        # app_service_id -> the browser's identity
        self.per_address: dict[str, int] = {}
        self.recent: dict[str, deque] = {}
        self.refused = 0
        self.runner: web.AppRunner | None = None
        self._tasks: set[asyncio.Task] = set()

    # --- the page ----------------------------------------------------------------------------
    def secure(self) -> bool:
        return self.ssl_context is not None or (self.public_url or "").startswith("https:")

    async def handle_page(self, request: web.Request) -> web.Response:
        """The page, and the browser's secret if it has none (or a bad one)."""
        response = web.Response(text=string.Template(PAGE).substitute(title=html.escape(self.tables.name)),
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
        if sum(self.per_address.values()) >= lim.max_sessions:
            return f"the server has {lim.max_sessions} sessions, its limit; try again later."
        if self.per_address.get(address, 0) >= lim.max_per_address:
            return f"{lim.max_per_address} sessions from {address} are open already, the most one address may hold."
        recent.append(now)
        self.per_address[address] = self.per_address.get(address, 0) + 1
        return ""

    def release(self, address: str) -> None:
        left = self.per_address.get(address, 1) - 1
        if left > 0:
            self.per_address[address] = left
        else:
            self.per_address.pop(address, None)

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

    def command(self, session_secret: str, identity: str, name: str) -> str:
        """The shell command textual-serve runs for one session: the ordinary app as a
        client of the table server, with this session's secret and settings."""
        settings = self.settings_path(identity)
        env = {"ATLANTIS_SESSION": session_secret, "ATLANTIS_CONFIG": str(settings or ""),
               "ATLANTIS_SSH": "1", "LANG": "C.UTF-8", **self.child_env}
        argv = [sys.executable, "-m", "tui.cli", "join", self.tables.bind, "--server-lobby", "--plain-link",
                "--name", name]
        assignments = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
        return f"{assignments} exec {shlex.join(argv)}"

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """One browser session: its app, keys and taps to it, its screen back."""
        browser = request.cookies.get(COOKIE, "")
        if not SECRET_SHAPE.fullmatch(browser):
            raise web.HTTPForbidden(text="atlantis: open the page first (it gives this browser its identity)")
        if not self.same_origin(request):
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
        secret = secrets.token_urlsafe(24)
        name = clean_name(request.cookies.get(NAME_COOKIE, "Player"), "Player")
        self.tables.register_identity(secret, identity)
        service = AppService(self.command(secret, identity, name), write_bytes=websocket.send_bytes,
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
            self.tables.forget_identity(secret)
            self.sessions.pop(service.app_service_id, None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(service.stop()), self.limits.stop_grace)
            with contextlib.suppress(Exception):
                await websocket.close()
        return websocket

    async def _from_browser(self, service: AppService, websocket: web.WebSocketResponse, data: str,
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
        """Start the table server and the web server; returns the port."""
        self.socket_dir = Path(tempfile.mkdtemp(prefix="atlantis-web-"))  # (0700)
        self.tables.bind = str(self.socket_dir / "tables.sock")
        if self.port:  # (its tables are restored after a restart on the same address)
            self.tables.named_home = f"web:{self.bind}:{self.port}"
        await self.tables.start()
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
        """Where browsers open the lobby: ``public_url``, or this server's own address."""
        if self.public_url:
            return self.public_url
        scheme = "https" if self.ssl_context is not None else "http"
        host = self.bind if self.bind not in ("0.0.0.0", "", "::") else "THIS-MACHINE"
        if ":" in host:
            host = f"[{host}]"
        return f"{scheme}://{host}:{self.port}/"

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()  # (closes every websocket: each session's app is told to quit)
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
