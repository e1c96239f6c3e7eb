"""A fork server (zygote) for ``serve-ssh``: every session's child forked from one warm
parent instead of a fresh Python that imports the app again.

The front (``SshFront``) runs asyncio and asyncssh, with threads: forking it is unsafe.
So the zygote is a process of its own, started once by ``ForkServer.start`` with a clean
spawn (``python -m tui.ssh.forkserver FD``).  It imports the app's modules, runs the
server app once headless (Textual's caches filled, lazy imports done) and keeps that
app's parsed stylesheet for the next app made in the process (``AtlantisApp.warm_stylesheet``:
Textual parses every stylesheet again for each new App, a fifth of a child's start),
moves all of that out of the collector's reach (``gc.freeze``: the pages stay shared
with every child, copy-on-write), and then waits on a Unix socket (a
``SOCK_SEQPACKET`` pair with the front) for requests.

* Request (front to zygote): ``{"id", "argv", "env"}`` with the session's PTY (its
  slave end) passed along by ``SCM_RIGHTS``.  ``argv`` is what a spawned child would run,
  ``[python, "-m", MODULE, ...]`` or ``[python, "-c", CODE, ...]``.
* Answers (zygote to front): ``{"id", "pid"}`` (or ``{"id", "error"}``), and
  ``{"exit": pid, "code": N}`` once a child has ended and been reaped (``N`` as
  ``asyncio``'s ``returncode``: negative for a signal).
* The child: a new session (``setsid``) whose controlling terminal is the PTY, the PTY
  on 0, 1 and 2, the request's environment, and then ``python -m MODULE ...`` run as a
  fresh interpreter would (``runpy``): it execs nothing.  A child that crashes or hangs
  is its own process; the front stops it by its process group as before.
* The zygote ends when the front closes its end (or dies); the children it forked are
  the front's to stop.
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import fcntl
import gc
import importlib
import json
import logging
import os
import runpy
import selectors
import signal
import socket
import sys
import termios
from typing import Any

log = logging.getLogger("atlantis.ssh")

MAX_MESSAGE = 256 * 1024

#: What every session's child imports, imported once in the zygote.
WARM_MODULES = (
    "tui.cli", "tui.app", "tui.ssh.app", "tui.ssh.lobby", "tui.sessions.remote", "tui.sessions.hosted", "tui.lan.screens",
    "tui.screens.menu", "tui.screens.game", "tui.screens.game_over", "tui.screens.dialogs", "tui.commands",
    "tui.seat_links", "netplay.client", "netplay.identity", "netplay.messages", "netplay.tls", "engine.match",
    "textual.drivers.linux_driver",
)


# --- the zygote ------------------------------------------------------------------------------
def warm() -> None:
    """Import what a session imports, every game's rules and screen included, and run
    the server app once headless so Textual's own caches (parsed selectors and styles)
    are filled before the first fork; its stylesheet, parsed, is what each child's app
    starts from."""
    from engine.registry import GAMES
    from tui.games import screen_class

    for name in WARM_MODULES:
        importlib.import_module(name)
    for slug in GAMES:
        GAMES[slug]
        screen_class(slug)
    from tui.app import AtlantisApp, WarmStylesheet
    from tui.ssh.app import ServerApp
    from tui.ssh.lobby import ServerLobbyScreen

    async def look_then_leave(pilot: Any) -> None:
        for _ in range(50):
            await pilot.pause()
            if isinstance(pilot.app.screen, ServerLobbyScreen):
                break
        pilot.app.exit()

    app = ServerApp("/nonexistent/atlantis-warm-up.sock", 0, identity="warm-up", player_name="Player",
                    autosave=False)
    try:
        app.run(headless=True, size=(100, 30), auto_pilot=look_then_leave)
    except Exception:  # (a warm-up that fails costs only speed)
        log.exception("fork server: the warm-up run failed")
        return
    AtlantisApp.warm_stylesheet = WarmStylesheet(app.get_css_variables(), app.stylesheet)


def serve(control: socket.socket) -> tuple[dict, int] | None:
    """Answer the front's requests until it goes (then ``None``).  In a child just forked
    this returns its request and PTY: ``main`` runs it, outside this loop."""
    wake_r, wake_w = socket.socketpair()
    wake_r.setblocking(False)
    wake_w.setblocking(False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)  # (the wake-up byte is what matters)
    signal.set_wakeup_fd(wake_w.fileno())
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    control.send(json.dumps({"ready": os.getpid()}).encode())
    while True:
        for key, _ in selector.select():
            if key.fileobj is wake_r:
                while True:
                    try:
                        if not wake_r.recv(4096):
                            break
                    except BlockingIOError:
                        break
                report_exits(control)
                continue
            try:
                data, fds, _, _ = socket.recv_fds(control, MAX_MESSAGE, 4)
            except (ConnectionError, OSError):
                return None
            if not data:
                for fd in fds:
                    os.close(fd)
                return None  # the front closed its end
            forked = answer(control, data, fds)
            if forked is not None:  # (the child)
                selector.close()
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                wake_r.close()
                wake_w.close()
                control.close()
                return forked


def answer(control: socket.socket, data: bytes, fds: list[int]) -> tuple[dict, int] | None:
    """Fork the child one request asks for and tell the front its pid (in the child:
    return its request and PTY)."""
    rid = None
    try:
        request = json.loads(data)
        rid = request["id"]
        argv, env = request["argv"], request["env"]
        if len(fds) != 1 or not forkable(argv) or not isinstance(env, dict):
            raise ValueError("a request is one PTY and [python, -m MODULE | -c CODE, ...]")
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        pid = os.fork()
    except Exception as exc:
        for fd in fds:
            os.close(fd)
        send(control, {"id": rid, "error": f"{type(exc).__name__}: {exc}"})
        return None
    if pid == 0:
        return request, fds[0]
    os.close(fds[0])
    send(control, {"id": rid, "pid": pid})
    return None


def report_exits(control: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        send(control, {"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def send(control: socket.socket, message: dict) -> None:
    with contextlib.suppress(OSError):  # (the front is gone: the loop sees it next)
        control.send(json.dumps(message).encode())


def forkable(argv: Any) -> bool:
    """Whether ``argv`` is a Python command the zygote can run in a fork: this very
    interpreter with ``-m MODULE`` or ``-c CODE``."""
    return (isinstance(argv, list) and len(argv) >= 3 and all(isinstance(a, str) for a in argv)
            and argv[0] == sys.executable and argv[1] in ("-m", "-c"))


def become_session(tty: int, env: dict[str, str]) -> None:
    """In the child: a session of its own with the PTY as its controlling terminal and
    standard streams, and the session's environment."""
    os.setsid()
    fcntl.ioctl(tty, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(tty, fd)
    if tty > 2:
        os.close(tty)
    os.environ.clear()
    os.environ.update(env)
    encoding = sys.stdout.encoding if sys.stdout is not None else "utf-8"
    # Streams made as Python makes them at start for a terminal (line-buffered).
    sys.stdin = sys.__stdin__ = open(0, "r", encoding=encoding, closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding=encoding, closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", encoding=encoding, errors="backslashreplace", buffering=1,
                                       closefd=False)


def run_child(request: dict, tty: int) -> None:
    """``python -m MODULE ARGS`` (or ``-c CODE ARGS``) in this process, as a fresh
    interpreter would run it; its ``SystemExit`` or error ends the process as there."""
    become_session(tty, request["env"])
    argv = request["argv"]
    if argv[1] == "-m":
        sys.argv = [argv[2], *argv[3:]]
        runpy.run_module(argv[2], run_name="__main__", alter_sys=True)
    else:
        sys.argv = ["-c", *argv[3:]]
        exec(compile(argv[2], "<string>", "exec"), {"__name__": "__main__", "__builtins__": builtins})


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    control = socket.socket(fileno=int(args[0]))
    warm()
    gc.collect()
    gc.freeze()  # (what the warm-up left alive stays shared with the children: never scanned, never written)
    forked = serve(control)
    if forked is None:
        return 0
    run_child(*forked)
    return 0


# --- the front's side ---------------------------------------------------------------------------
class ForkedChild:
    """A session's child forked by the zygote: what the front needs of
    ``asyncio.subprocess.Process`` (``pid``, ``returncode``, ``wait``)."""

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None
        self._ended = asyncio.Event()

    def ended(self, code: int) -> None:
        if self.returncode is None:
            self.returncode = code
        self._ended.set()

    async def wait(self) -> int:
        await self._ended.wait()
        assert self.returncode is not None
        return self.returncode


class ForkServer:
    """The front's end of the zygote: ``start`` it, ``fork`` a session's child, ``close``.

    If the zygote dies, every child it forked is killed (their exits could no longer be
    reported) and ``alive`` turns False: the front spawns each session's child again."""

    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.sock: socket.socket | None = None
        self.alive = False
        self.children: dict[int, ForkedChild] = {}
        self._pending: dict[int, asyncio.Future] = {}
        self._next_id = 0
        self._ready: asyncio.Future | None = None

    async def start(self, env: dict[str, str], timeout: float = 60.0) -> None:
        """Start the zygote and wait until it is warm; raises ``OSError`` or
        ``TimeoutError`` when it cannot start (the front then spawns every child)."""
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tui.ssh.forkserver", str(theirs.fileno()), pass_fds=[theirs.fileno()],
                env=env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                start_new_session=True)
        finally:
            theirs.close()
        ours.setblocking(False)
        self.sock = ours
        self._ready = loop.create_future()
        loop.add_reader(ours, self._readable)
        try:
            await asyncio.wait_for(self._ready, timeout)
        except BaseException:
            await self.close()
            raise
        self.alive = True

    async def fork(self, argv: list[str], env: dict[str, str], tty: int) -> ForkedChild:
        """A child running ``argv`` on the PTY ``tty`` (its slave end; the caller keeps and
        closes it).  Raises ``OSError`` when the zygote cannot fork it."""
        if not self.alive or self.sock is None:
            raise ConnectionError("the fork server is not running")
        self._next_id += 1
        rid = self._next_id
        future = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        try:
            socket.send_fds(self.sock, [json.dumps({"id": rid, "argv": argv, "env": env}).encode()], [tty])
        except OSError:
            self._pending.pop(rid, None)
            raise
        return await future

    def _readable(self) -> None:
        assert self.sock is not None
        while True:
            try:
                data = self.sock.recv(MAX_MESSAGE)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._lost()
                return
            self._message(json.loads(data))

    def _message(self, message: dict) -> None:
        if "ready" in message:
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(message["ready"])
        elif "exit" in message:
            child = self.children.pop(message["exit"], None)
            if child is not None:
                child.ended(message["code"])
        else:
            future = self._pending.pop(message.get("id"), None)
            if "pid" in message:
                child = self.children[message["pid"]] = ForkedChild(message["pid"])
                if future is None or future.done():  # (its session ended while it was forked)
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(child.pid, signal.SIGKILL)
                else:
                    future.set_result(child)
            elif future is None or future.done():
                return
            else:
                future.set_exception(OSError(f"the fork server could not fork: {message.get('error')}"))

    def _lost(self) -> None:
        """The zygote is gone: its children are killed (nobody could report their exits)."""
        if self.sock is not None:
            asyncio.get_running_loop().remove_reader(self.sock)
        if self.alive:
            log.warning("the fork server ended; sessions are spawned from now on")
        self.alive = False
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(ConnectionError("the fork server ended before it was ready"))
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionError("the fork server ended"))
        self._pending.clear()
        for pid, child in list(self.children.items()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            child.ended(-signal.SIGKILL)
        self.children.clear()

    async def close(self) -> None:
        """Stop the zygote (the front has stopped the children first)."""
        sock, self.sock = self.sock, None
        if sock is not None:
            with contextlib.suppress(OSError, RuntimeError, ValueError):  # (a closed socket or loop)
                asyncio.get_running_loop().remove_reader(sock)
            sock.close()
        warm, self.alive = self.alive, False
        proc = self.proc
        if proc is not None and proc.returncode is None:
            if not warm:  # (still warming up: it would see the closed socket only after that)
                proc.kill()
            try:
                await asyncio.wait_for(proc.wait(), 5)
            except asyncio.TimeoutError:
                proc.kill()
                await proc.wait()


if __name__ == "__main__":
    sys.exit(main())
