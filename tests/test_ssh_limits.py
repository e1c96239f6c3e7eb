"""``atlantis serve-ssh`` at the door: connections that never log in hold no session
place; ``--auth keys`` honours the options of ``authorized_keys``; the table server
behind the front takes only the front's own sessions."""

from __future__ import annotations

import asyncio
import sys

import asyncssh
import pytest

from tests.test_ssh_serve import LOOPBACK, connect, new_key, running_front, until
from tui.ssh.server import SshLimits, read_authorized_keys

pytestmark = pytest.mark.timeout(45)

QUIET = [sys.executable, "-c", "import time; print('child up', flush=True); time.sleep(60)"]


async def silent_connections(port: int, n: int) -> list[asyncio.StreamWriter]:
    """``n`` TCP connections that read the server's banner and then say nothing."""
    writers = []
    for _ in range(n):
        reader, writer = await asyncio.open_connection(LOOPBACK, port)
        await asyncio.wait_for(reader.readline(), 5)  # SSH-2.0-...: the front accepted it
        writers.append(writer)
    return writers


class Listener(asyncssh.SSHClient):
    """Keeps why the server ended the connection."""

    why: Exception | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.why = exc


async def refusal(front, key=None) -> str:
    """The one line a refused connection is told (after logging in, or before)."""
    try:
        conn, client = await asyncssh.create_connection(Listener, LOOPBACK, front.port, known_hosts=None,
                                                        username="x", client_keys=[key or new_key()],
                                                        agent_path=None)
    except asyncssh.DisconnectError as exc:  # (refused before logging in)
        return exc.reason
    await asyncio.wait_for(conn.wait_closed(), 5)  # (refused a session once logged in)
    assert isinstance(client.why, asyncssh.DisconnectError), client.why
    return client.why.reason


async def test_the_session_limits_refuse_with_one_line(tmp_path):
    limits = SshLimits(max_sessions=3, max_per_address=2, rate=3, rate_window=60, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        a = await connect(front, new_key())
        b = await connect(front, new_key())
        await a.sees("child up")
        assert "2 sessions from 127.0.0.1 already open" in await refusal(front)
        await a.close()
        await until(lambda: len(front.connections) == 1, 5, "a closed")
        # Three new connections a minute from one address: the next one is refused.
        assert "3 new sessions from 127.0.0.1 within 60 s" in await refusal(front)
        await b.close()
        assert front.refused == 2
    limits = SshLimits(max_sessions=1, max_per_address=5, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        a = await connect(front, new_key())
        assert "the server has 1 session, its limit" in await refusal(front)
        await a.close()


async def test_a_player_logs_in_while_forty_silent_connections_wait(tmp_path):
    limits = SshLimits(max_sessions=32, max_per_address=4, rate=1000, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        silent = await silent_connections(front.port, 40)
        player = await connect(front, new_key())
        await player.sees("child up")
        assert len(front.connections) == 1 and front.refused == 0
        await player.close()
        for w in silent:
            w.close()


async def test_logins_have_their_own_cap_and_a_freed_place_lets_the_next_in(tmp_path):
    limits = SshLimits(max_sessions=2, max_logins=3, rate=1000, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: QUIET) as front:
        silent = await silent_connections(front.port, 3)
        assert "3 connections are logging in at once" in await refusal(front)
        silent.pop().close()
        await until(lambda: len(front.logins) < 3, 5, "a login place freed")
        player = await connect(front, new_key())
        await player.sees("child up")
        await player.close()
        for w in silent:
            w.close()


# --- --auth keys: authorized_keys and its options ---------------------------------------------
def authorized_keys_file(tmp_path, *lines: str):
    path = tmp_path / "authorized_keys"
    path.write_text("# friends\n" + "\n".join(lines) + "\n")
    return path


def public(key) -> str:
    return key.export_public_key().decode().strip()


async def test_auth_keys_lets_in_only_the_listed_keys_from_where_their_from_allows(tmp_path):
    ok, here, elsewhere, other = new_key(), new_key(), new_key(), new_key()
    listed = authorized_keys_file(tmp_path, public(ok), f'from="127.0.0.1" {public(here)}',
                                  f'from="10.9.9.9",no-pty {public(elsewhere)}')
    async with running_front(tmp_path, auth="keys", authorized=read_authorized_keys(listed),
                             child_argv=lambda name: QUIET) as front:
        for key in (ok, here):
            p = await connect(front, key)
            await p.sees("child up")
            await p.close()
        for key in (elsewhere, other):  # from="10.9.9.9" does not match 127.0.0.1; not listed
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(front, key)


async def test_a_no_pty_key_gets_no_terminal_and_so_no_game(tmp_path):
    key, restricted = new_key(), new_key()
    listed = authorized_keys_file(tmp_path, f"no-pty {public(key)}", f"restrict {public(restricted)}")
    async with running_front(tmp_path, auth="keys", authorized=read_authorized_keys(listed),
                             child_argv=lambda name: QUIET) as front:
        for k in (key, restricted):
            async with asyncssh.connect(LOOPBACK, front.port, known_hosts=None, username="x", client_keys=[k],
                                        agent_path=None) as conn:
                with pytest.raises(asyncssh.ChannelOpenError, match="PTY request failed"):
                    await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
            async with asyncssh.connect(LOOPBACK, front.port, known_hosts=None, username="x", client_keys=[k],
                                        agent_path=None) as conn:
                p = await conn.create_process(encoding=None)  # (as ssh goes on once its PTY is refused)
                out = await asyncio.wait_for(p.stderr.read(), 5)
                assert b"may not have a terminal" in out and out.count(b"\n") == 1
        assert not front.children


def test_a_line_with_an_option_not_honoured_is_refused_at_start(tmp_path):
    import os
    import subprocess

    key = new_key()
    listed = authorized_keys_file(tmp_path, public(new_key()), f'command="/bin/sh",from="10.0.0.1" {public(key)}')
    with pytest.raises(ValueError, match="line 3: option 'command' is not honoured"):
        read_authorized_keys(listed)
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    run = subprocess.run([sys.executable, "-W", "ignore", "-m", "tui.cli", "serve-ssh", "--port", "0", "--bind",
                          LOOPBACK, "--auth", "keys", "--authorized-keys", str(listed)],
                         capture_output=True, text=True, env=env, timeout=30)
    assert run.returncode == 2 and "line 3: option 'command' is not honoured by serve-ssh" in run.stderr
    assert run.stdout == ""


# --- the table server behind the front -------------------------------------------------------
OTHER_USER_CONNECTS = """
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
except PermissionError:
    print("refused")
else:
    print("connected")
"""


async def test_the_table_server_takes_only_the_fronts_sessions(tmp_path):
    import os
    import shutil
    import socket
    import stat
    import subprocess
    from pathlib import Path

    async with running_front(tmp_path) as front:
        path = Path(front.tables.bind)
        folder = path.parent
        # No TCP port: only a Unix socket, in a folder only this user may enter.
        assert [s.family for s in front.tables.server.sockets] == [socket.AF_UNIX] and path.is_socket()
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and folder.stat().st_uid == os.getuid()
        # A session of the front reaches it (its lobby lists the tables) ...
        player = await connect(front, new_key())
        await player.sees("No tables yet")
        await player.close()
        # ... a process of another user on the machine does not.
        if os.getuid() == 0 and shutil.which("python3", path="/usr/bin"):
            run = subprocess.run(["/usr/bin/python3", "-c", OTHER_USER_CONNECTS, str(path)], user="nobody",
                                 cwd="/", capture_output=True, text=True, timeout=20)
            assert run.stdout.strip() == "refused", run.stderr
    assert not folder.exists()  # (removed when the front stops)

