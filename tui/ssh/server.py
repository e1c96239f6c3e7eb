"""``atlantis serve-ssh``: an asyncssh server where every session is the ordinary app.

Each SSH session gets its own child process in a PTY running ``python -m tui.cli join
SOCKET --server-lobby`` (``ServerApp``), a normal LAN client of a table server
(``netplay.server.TableServer``) that this process runs on a Unix socket in a folder
only this user may enter (no one else on the machine reaches the tables): hidden state is
enforced by the same host code as on the LAN, and a child that crashes or hangs takes
only its own session down.  The child is forked from a warm fork server
(``forkserver.py``: imports and Textual's caches shared copy-on-write), or spawned
afresh when that is off (``fork_server=False``), cannot start or has died.

* Terminal: the child's PTY gets the client's size, TERM (and COLORTERM if the client
  sends it); a window change is forwarded at once (TIOCSWINSZ, then SIGWINCH).
  COLUMNS/LINES are never set (the child would ignore resizes).
* Identity: the client's key fingerprint.  The front gives every session a secret,
  registers it with the table server as that fingerprint, and passes it to the child
  in ``ATLANTIS_SESSION``; the server remembers the seats of each identity, so a dropped
  session that comes back with the same key goes straight back into its seat.
* Auth: ``none`` (default): any key, and keyboard-interactive with no question for
  clients with no key (anonymous: back into a seat with its seat token); ``keys``: only
  the keys of ``--authorized-keys``, with their ``from=`` and ``no-pty``/``restrict``
  options (a line with an option not honoured is refused at start).  Never passwords.
* Limits (``SshLimits``): logged-in sessions in all and per address (counted from
  authentication on), connections still logging in (their own, larger cap, and a short
  login timeout), new connections per address per minute, an idle timeout (no key
  pressed); one session per connection;
  exec, subsystems (sftp), port forwarding, agent and X11 forwarding are refused with one
  line.  SIGTERM (``SshFront.close``) says goodbye to every session and stops the children.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import pty
import secrets
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
import warnings
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from cryptography.utils import CryptographyDeprecationWarning

with warnings.catch_warnings():
    # asyncssh names cryptography's DSA classes at import, which cryptography 51 deprecates:
    # five warnings before the server's first line, about a key type we never offer.
    warnings.filterwarnings("ignore", message="DSA is deprecated", category=CryptographyDeprecationWarning,
                            module=r"asyncssh\.")
    import asyncssh

from engine.storage import write_private
from engine.text import counted
from netplay.server import ServerLimits, TableServer
from netplay.text import clean_name

from .forkserver import ForkServer, forkable

log = logging.getLogger("atlantis.ssh")


@dataclass
class SshLimits:
    """What strangers may cost the SSH front (README, "Play over SSH").

    A connection is a *login* from its TCP accept until its user is authenticated, and a
    *session* from then on.  Logins have their own cap (``max_logins``, larger than
    ``max_sessions``) and a short deadline (``login_timeout``): connections that never
    finish logging in, or that say nothing at all, can hold only login places, never a
    session's, so a player who logs in gets a session while they wait."""

    max_sessions: int = 32          # logged-in sessions at once, everyone together
    max_per_address: int = 4        # ... from one address
    max_logins: int = 128           # connections still logging in (handshake, authentication) at once
    rate: int = 10                  # new connections one address may make per ``rate_window``
    rate_window: float = 60.0
    login_timeout: float = 10.0     # the SSH handshake and authentication must be done by then
    idle_timeout: float = 1800.0    # a session with no key pressed this long is closed
    child_grace: float = 2.0        # seconds between SIGTERM and SIGKILL for a child that lingers


def default_host_key_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("atlantis", appauthor=False)) / "ssh_host_ed25519_key"


def load_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The host key at ``path``, made (ed25519, 0600 in a 0700 folder) if missing.
    Returns the key and whether it was made now."""
    path = Path(path)
    if path.exists():
        return asyncssh.read_private_key(str(path)), False
    key = asyncssh.generate_private_key("ssh-ed25519", comment="atlantis serve-ssh")
    write_private(path, key.export_private_key())
    return key, True


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


#: The ``authorized_keys`` options ``--auth keys`` honours: where a key may log in from
#: (``from=``) and whether it may have a terminal (``no-pty``, ``restrict``, ``pty``).
#: The forwarding, agent and rc options change nothing here: the front refuses those to
#: every session.  A line with any other option (``command=``, ``environment=``,
#: ``permitopen=``, ``principals=``, ``cert-authority``, ``expiry-time=`` ...) is refused
#: when the server starts: it would let that key in with less restriction than it says.
HONOURED_KEY_OPTIONS = frozenset({
    "from", "no-pty", "pty", "restrict", "no-port-forwarding", "port-forwarding", "no-agent-forwarding",
    "agent-forwarding", "no-x11-forwarding", "x11-forwarding", "no-user-rc", "user-rc"})


def key_option_names(line: str) -> list[str]:
    """The names of the options in front of the key on one ``authorized_keys`` line
    (none when the line starts with the key itself)."""
    try:
        asyncssh.import_public_key(line)
        return []
    except (asyncssh.KeyImportError, ValueError):
        pass
    names, name, quoted, in_value = [], "", False, False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch in " \t":
            break
        elif ch == ",":
            names.append(name)
            name, in_value = "", False
        elif ch == "=":
            in_value = True
        elif not in_value:
            name += ch
    names.append(name)
    return [n.lower() for n in names if n]


def read_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """An OpenSSH ``authorized_keys`` file, read by asyncssh (which checks ``from=`` as
    each key logs in).  Raises ``ValueError`` (one sentence naming the line) for a line
    with an option this server does not honour, or when no key is in it."""
    text = Path(path).read_text()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        unknown = [n for n in key_option_names(line) if n not in HONOURED_KEY_OPTIONS]
        if unknown:
            raise ValueError(f"line {number}: option {unknown[0]!r} is not honoured by serve-ssh (it honours "
                             "from=, no-pty, restrict and pty); remove the option or the line")
    try:
        return asyncssh.import_authorized_keys(text)
    except ValueError as exc:
        raise ValueError(f"no usable public key in it ({exc})") from None


def may_have_terminal(options: dict[str, Any]) -> bool:
    """Whether a key's ``authorized_keys`` options let it have a PTY."""
    names = {k.lower() for k in options}
    return "no-pty" not in names and ("restrict" not in names or "pty" in names)


def set_winsize(fd: int, cols: int, rows: int, xpix: int = 0, ypix: int = 0) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(1, rows), max(1, cols), xpix, ypix))


def _become_session_leader() -> None:  # (runs in the child before exec)
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Session(asyncssh.SSHServerSession):
    """One SSH session: its PTY child, input to it, output from it."""

    def __init__(self, front: "SshFront", conn: "Connection"):
        self.front, self.conn = front, conn
        self.chan: Any = None
        self.term: str | None = None
        self.size = (80, 24, 0, 0)
        self.command: str | None = None
        self.subsystem: str | None = None
        self.proc: Any = None  # (asyncio.subprocess.Process, or forkserver.ForkedChild)
        self.master: int | None = None
        self.secret = secrets.token_urlsafe(24)
        self.last_input = time.monotonic()
        self.started_at = time.monotonic()
        self.task: asyncio.Task | None = None
        self.closing = False
        self.bytes_out = 0
        self.first_output = asyncio.Event()

    # --- what the client asks for --------------------------------------------------------
    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple, term_modes: Any) -> bool:
        if not self.conn.may_have_terminal:
            return False
        self.term = term_type or "xterm-256color"
        self.size = tuple(term_size) if term_size and term_size[0] else (80, 24, 0, 0)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True  # (answered with one line in session_started)

    def subsystem_requested(self, subsystem: str) -> bool:
        self.subsystem = subsystem
        return True

    def session_started(self) -> None:
        port = self.front.port
        if self.command is not None:
            self._refuse(f"atlantis: this server runs no commands; play with: ssh -p {port} HOST")
        elif self.subsystem is not None:
            self._refuse(f"atlantis: no {self.subsystem[:20]} here; play with: ssh -p {port} HOST")
        elif not self.conn.may_have_terminal:
            self._refuse("atlantis: your key may not have a terminal here (no-pty in authorized_keys), "
                         "and the game needs one.")
        elif self.term is None:
            self._refuse(f"atlantis: the game needs a terminal; play with: ssh -t -p {port} HOST")
        else:
            self.task = asyncio.get_running_loop().create_task(self._run())

    def _refuse(self, line: str) -> None:
        self.front.refused_requests += 1
        self.chan.write_stderr((line + "\r\n").encode())
        self.chan.exit(1)

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.master is None:
            return
        with contextlib.suppress(BlockingIOError, OSError):  # a child that does not read: the keys are dropped
            os.write(self.master, data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height, pixwidth, pixheight)
        if self.master is not None and width and height:
            set_winsize(self.master, width, height, pixwidth, pixheight)
            if self.proc is not None and self.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.proc.pid, signal.SIGWINCH)

    def eof_received(self) -> bool:
        self.close()
        return False

    def break_received(self, msec: int) -> bool:
        return True

    def signal_received(self, name: str) -> None:
        pass

    def pause_writing(self) -> None:  # the client reads slowly: stop reading the child
        if self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)

    def resume_writing(self) -> None:
        if self.master is not None and not self.closing:
            asyncio.get_running_loop().add_reader(self.master, self._readable)

    def connection_lost(self, exc: Exception | None) -> None:
        self.close()

    # --- the child ------------------------------------------------------------------------
    def child_env(self) -> dict[str, str]:
        sent = {}
        with contextlib.suppress(Exception):
            sent = dict(self.chan.get_environment())
        env = self.front.base_child_env()
        env["TERM"] = self.term or "xterm-256color"
        for key in ("COLORTERM", "NO_COLOR", "LANG", "LC_ALL", "LC_CTYPE"):
            value = sent.get(key)
            if isinstance(value, str) and len(value) < 64 and value.isprintable():
                env[key] = value
        env["ATLANTIS_SESSION"] = self.secret
        settings = self.front.settings_path(self.conn.key_fp)
        env["ATLANTIS_CONFIG"] = str(settings) if settings is not None else ""
        env.update(self.front.child_env)
        return env

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        front = self.front
        identity = f"key:{self.conn.key_fp}" if self.conn.key_fp else f"anon:{self.secret[:16]}"
        front.tables.register_identity(self.secret, identity)
        name = clean_name(self.conn.username or "Player", "Player")
        argv = front.child_argv(name)
        master, slave = pty.openpty()
        self.master = master
        cols, rows = self.size[0] or 80, self.size[1] or 24
        set_winsize(master, cols, rows)
        os.set_blocking(master, False)
        rc: int | None = None
        try:
            try:
                self.proc = await front.start_child(argv, self.child_env(), slave)
            finally:
                os.close(slave)
            front.children[self.proc.pid] = self.proc
            loop.add_reader(master, self._readable)
            rc = await self.proc.wait()
        except Exception as exc:  # the child could not start: only this session ends
            log.exception("child of %s failed", self.conn.address)
            self._say(f"atlantis: the game could not start ({type(exc).__name__}).")
        finally:
            self._drain_output()
            with contextlib.suppress(Exception):
                loop.remove_reader(master)
            os.close(master)
            self.master = None
            front.tables.forget_identity(self.secret)
            if self.proc is not None:
                front.children.pop(self.proc.pid, None)
            if rc not in (0, None) and not self.closing:
                self._say(f"atlantis: the game stopped (exit {rc}); this session ends.")
            if not self.closing:
                with contextlib.suppress(Exception):
                    self.chan.exit(0 if rc in (0, None) else 1)

    def _readable(self) -> None:
        if self.master is None:
            return
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # (EIO: the child closed its end)
            asyncio.get_running_loop().remove_reader(self.master)
            return
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            return
        self.bytes_out += len(data)
        self.first_output.set()
        try:
            self.chan.write(data)
        except Exception:
            self.close()

    def _drain_output(self) -> None:
        for _ in range(16):  # what the child wrote just before it ended
            try:
                data = os.read(self.master, 65536) if self.master is not None else b""
            except OSError:
                return
            if not data:
                return
            try:
                self.chan.write(data)
            except Exception:
                return

    def _say(self, line: str) -> None:
        with contextlib.suppress(Exception):
            self.chan.write(("\r\n" + line + "\r\n").encode())

    def close(self, line: str = "") -> None:
        """End the session: a line for the player (if any), the child stopped."""
        if self.closing:
            return
        self.closing = True
        if line:
            self._say(line)
        proc = self.proc
        if proc is not None and proc.returncode is None:
            asyncio.get_running_loop().create_task(self.front.stop_child(proc))
        elif self.task is not None and self.proc is None:
            self.task.cancel()
        with contextlib.suppress(Exception):
            self.chan.exit(0)
        with contextlib.suppress(Exception):
            self.chan.close()


class Connection(asyncssh.SSHServer):
    """One SSH connection: limits at the door, authentication, at most one session."""

    def __init__(self, front: "SshFront"):
        self.front = front
        self.conn: Any = None
        self.address = "?"
        self.username = ""
        self.key_fp: str | None = None
        self.may_have_terminal = True  # (authorized_keys: no-pty, restrict)
        self.session: Session | None = None
        self.logging_in = False  # counted among the logins (``SshLimits.max_logins``)
        self.counted = False     # counted among the sessions (``max_sessions``, ``max_per_address``)

    def connection_made(self, conn: Any) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self._refuse_if(self.front.admit_login(self))

    def auth_completed(self) -> None:
        self._refuse_if(self.front.admit_session(self))

    def _refuse_if(self, refusal: str) -> None:
        if refusal:
            self.front.refused += 1
            log.info("refused %s: %s", self.address, refusal)
            asyncio.get_running_loop().call_soon(self._disconnect, refusal)

    def _disconnect(self, why: str) -> None:
        with contextlib.suppress(Exception):
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, why)

    def connection_lost(self, exc: Exception | None) -> None:
        self.front.release(self)
        if self.session is not None:
            self.session.close()

    # --- authentication (no passwords) ---------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fp = fingerprint(key)
        if self.front.auth == "keys":
            options = self.front.authorized.validate(key, self.address, self.address)
            if options is None:  # (not listed, or listed with a from= this address does not match)
                return False
            self.may_have_terminal = may_have_terminal(dict(options))
        self.key_fp = fp  # (asyncssh checks the signature before auth completes)
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.front.auth == "none"

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key_fp = None  # a client with no key: anonymous
        return self.front.auth == "none"

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return self.front.auth == "none"

    # --- channels ---------------------------------------------------------------------------
    def session_requested(self) -> Any:
        if not self.counted:  # (refused a session place: the disconnect is on its way)
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            "atlantis: no session place for this connection")
        if self.session is not None:
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                            "atlantis: one session per connection")
        self.session = Session(self.front, self)
        self.front.sessions.add(self.session)
        return self.session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> Any:
        self.front.refused_requests += 1
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "atlantis: no port forwarding here")

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.front.refused_requests += 1
        return False

    def unix_connection_requested(self, dest_path: str) -> Any:
        self.front.refused_requests += 1
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "atlantis: no forwarding here")

    def unix_server_requested(self, listen_path: str) -> bool:
        self.front.refused_requests += 1
        return False


class SshFront:
    """The table server and the SSH server in front of it."""

    def __init__(self, host_key: asyncssh.SSHKey, *, bind: str = "0.0.0.0", port: int = 2222,
                 auth: str = "none", authorized: asyncssh.SSHAuthorizedKeys | None = None,
                 limits: SshLimits | None = None,
                 server_name: str = "atlantis", records: Path | None = None,
                 server_limits: ServerLimits | None = None,
                 child_argv: Callable[[str], list[str]] | None = None,
                 child_env: dict[str, str] | None = None, bot_delay: float = 0.3, fork_server: bool = True,
                 players: Path | None = None):
        if auth not in ("none", "keys"):
            raise ValueError("auth is none or keys")
        self.host_key = host_key
        self.bind, self.port = bind, port
        self.auth = auth
        if auth == "keys" and authorized is None:
            raise ValueError("auth keys needs the authorized keys")
        self.authorized = authorized
        self.limits = limits or SshLimits()
        self.socket_dir: Path | None = None
        self.tables = TableServer.behind_front(self.limits.max_sessions, name=server_name, records=records,
                                               server_limits=server_limits, bot_delay=bot_delay)
        self._child_argv = child_argv
        self.child_env = dict(child_env or {})
        self.players = players  # one settings file per client key (the theme): settings_path
        self.logins: set[Connection] = set()       # connections still logging in
        self.connections: set[Connection] = set()  # logged-in sessions
        self.per_address: dict[str, int] = {}
        self.recent: dict[str, deque] = {}
        self.sessions: set[Session] = set()
        self.children: dict[int, Any] = {}  # pid -> asyncio.subprocess.Process or forkserver.ForkedChild
        self.use_fork_server = fork_server
        self.forkserver: ForkServer | None = None
        self._forkserver_start: asyncio.Task | None = None
        self.refused = 0           # connections refused by a limit
        self.refused_requests = 0  # exec, sftp, forwarding ... refused
        self.reaped = 0            # children that had to be killed
        self.server: Any = None
        self._watch: asyncio.Task | None = None
        self._stopping: set[asyncio.Task] = set()

    def base_child_env(self) -> dict[str, str]:
        """The environment every session's child shares (the fork server's too); each
        session adds its terminal and its secret."""
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "USER", "LOGNAME", "PYTHONPATH",
                                                            "VIRTUAL_ENV", "TMPDIR", "XDG_DATA_HOME",
                                                            "XDG_CONFIG_HOME", "XDG_CACHE_HOME")}
        env["TERM"] = "xterm-256color"
        env["LANG"] = "C.UTF-8"
        env["ATLANTIS_SSH"] = "1"
        env["ATLANTIS_CONFIG"] = ""  # (never the operator's settings; a session gets its key's: child_env)
        env.update(self.child_env)
        return env

    async def start_child(self, argv: list[str], env: dict[str, str], tty: int) -> Any:
        """A session's child on the PTY ``tty`` (its slave end): forked by the fork
        server when it runs (and ``argv`` is a Python command it can run), else spawned."""
        if self._forkserver_start is not None and forkable(argv):
            try:
                await asyncio.shield(self._forkserver_start)
                if self.forkserver is not None and self.forkserver.alive:
                    return await self.forkserver.fork(argv, env, tty)
            except (OSError, asyncio.TimeoutError) as exc:
                log.warning("the fork server could not start a session (%s): spawning it", exc)
        return await asyncio.create_subprocess_exec(*argv, stdin=tty, stdout=tty, stderr=tty, env=env,
                                                    preexec_fn=_become_session_leader, close_fds=True)

    async def _start_fork_server(self) -> None:
        server = ForkServer()
        try:
            await server.start(self.base_child_env())
        except (OSError, asyncio.TimeoutError, ConnectionError) as exc:
            log.warning("the fork server did not start (%s): every session's child is spawned", exc)
            return
        self.forkserver = server

    def settings_path(self, key_fingerprint: str | None) -> Path | None:
        """The settings file (``tui.config``) of the sessions of one client key, in the
        ``players`` folder; None for a client with no key, or no folder: that session
        keeps no settings (never the operator's own config.toml)."""
        if self.players is None or not key_fingerprint:
            return None
        digest = key_fingerprint.partition(":")[2] or key_fingerprint
        name = digest.rstrip("=").replace("/", "_").replace("+", "-")  # (base64 made safe for a file name)
        try:
            self.players.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            log.warning("no settings for this session's key: cannot make %s (%s)", self.players, exc)
            return None
        return self.players / f"{name}.toml"

    def child_argv(self, name: str) -> list[str]:
        if self._child_argv is not None:
            return self._child_argv(name)
        return [sys.executable, "-m", "tui.cli", "join", self.tables.bind, "--server-lobby", "--plain-link",
                "--name", name]

    # --- limits at the door ------------------------------------------------------------------
    def admit_login(self, conn: Connection) -> str:
        """At TCP accept: the refusal (one sentence) for a new connection, or "" to let it
        log in.  It counts among the logins until it is authenticated or gone."""
        lim, addr, now = self.limits, conn.address, time.monotonic()
        recent = self.recent.setdefault(addr, deque())
        while recent and now - recent[0] > lim.rate_window:
            recent.popleft()
        if len(self.logins) >= lim.max_logins:
            return f"atlantis: {lim.max_logins} connections are logging in at once, the server's limit; try again later."
        if len(recent) >= lim.rate:
            return (f"atlantis: {lim.rate} new sessions from {addr} within {lim.rate_window:g} s; "
                    "wait a moment and try again.")
        recent.append(now)
        self.logins.add(conn)
        conn.logging_in = True
        return ""

    def admit_session(self, conn: Connection) -> str:
        """Once authenticated: the refusal for a new session, or "" (then it counts
        against ``max_sessions`` and ``max_per_address`` until it is gone)."""
        lim, addr = self.limits, conn.address
        self._stop_login(conn)
        if len(self.connections) >= lim.max_sessions:
            return f"atlantis: the server has {counted(lim.max_sessions, 'session')}, its limit; try again later."
        if self.per_address.get(addr, 0) >= lim.max_per_address:
            sessions = counted(lim.max_per_address, "session")
            return f"atlantis: {sessions} from {addr} already open, the most one address may hold."
        self.connections.add(conn)
        self.per_address[addr] = self.per_address.get(addr, 0) + 1
        conn.counted = True
        return ""

    def _stop_login(self, conn: Connection) -> None:
        if conn.logging_in:
            conn.logging_in = False
            self.logins.discard(conn)

    def release(self, conn: Connection) -> None:
        self._stop_login(conn)
        if conn.counted:
            conn.counted = False
            self.connections.discard(conn)
            left = self.per_address.get(conn.address, 1) - 1
            if left > 0:
                self.per_address[conn.address] = left
            else:
                self.per_address.pop(conn.address, None)
        if conn.session is not None:
            self.sessions.discard(conn.session)

    # --- life --------------------------------------------------------------------------------
    async def start(self) -> int:
        self.socket_dir = Path(tempfile.mkdtemp(prefix="atlantis-ssh-"))  # (0700)
        self.tables.bind = str(self.socket_dir / "tables.sock")
        if self.port:  # (its tables are restored after a restart on the same SSH address)
            self.tables.named_home = f"ssh:{self.bind}:{self.port}"
        await self.tables.start()
        if self.use_fork_server:  # (it warms up while the server opens; sessions wait for it)
            self._forkserver_start = asyncio.get_running_loop().create_task(self._start_fork_server())
        self.server = await asyncssh.create_server(
            lambda: Connection(self), self.bind, self.port, server_host_keys=[self.host_key],
            login_timeout=self.limits.login_timeout, encoding=None, line_editor=False,
            agent_forwarding=False, x11_forwarding=False, allow_pty=True, keepalive_interval=30,
            keepalive_count_max=4, allow_scp=False, server_version="atlantis")
        self.port = self.server.sockets[0].getsockname()[1]
        self._watch = asyncio.get_running_loop().create_task(self._idle_watch())
        return self.port

    async def _idle_watch(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, self.limits.idle_timeout / 4))
            now = time.monotonic()
            for s in list(self.sessions):
                if not s.closing and now - s.last_input > self.limits.idle_timeout:
                    s.close(f"atlantis: no key pressed for {self.limits.idle_timeout:g} s: goodbye.")

    async def stop_child(self, proc: Any) -> None:
        """SIGHUP and SIGTERM the child's process group, SIGKILL after ``child_grace``;
        always reaped."""
        task = asyncio.current_task()
        if task is not None:
            self._stopping.add(task)
        try:
            for sig in (signal.SIGHUP, signal.SIGTERM):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, sig)
            try:
                await asyncio.wait_for(proc.wait(), self.limits.child_grace)
            except asyncio.TimeoutError:
                self.reaped += 1
                log.warning("child %d did not stop: killed", proc.pid)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                await proc.wait()
        finally:
            if task is not None:
                self._stopping.discard(task)

    async def close(self, line: str = "atlantis: the server is shutting down. Thanks for playing.") -> None:
        if self._watch is not None:
            self._watch.cancel()
        if self.server is not None:
            self.server.close()
        for s in list(self.sessions):
            s.close(line)
        procs = list(self.children.values())
        if procs or self._stopping:
            await asyncio.gather(*(self.stop_child(p) for p in procs if p.returncode is None),
                                 *list(self._stopping), return_exceptions=True)
        for c in list(self.connections | self.logins):
            with contextlib.suppress(Exception):
                c.conn.close()
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 3)
        if self._forkserver_start is not None:
            self._forkserver_start.cancel()
            await asyncio.gather(self._forkserver_start, return_exceptions=True)
        if self.forkserver is not None:
            await self.forkserver.close()
        await self.tables.close()
        if self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)
