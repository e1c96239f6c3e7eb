"""``atlantis serve`` (a table server), ``atlantis serve-ssh`` (the same behind an SSH
front) and the server side of ``atlantis join HOST:PORT`` (a server shows its lobby)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from engine.text import counted

from ..common import (add_logging_flags, add_table_flags, count, exit_code_after, port, run_server, seconds,
                      serve_until_stopped, setup_logging, stop_on_signals)

DEFAULT_SERVER_PORT = 7341
DEFAULT_SSH_PORT = 2222


def add_parsers(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run a table server: players open their own tables")
    serve.add_argument("--port", type=port, default=DEFAULT_SERVER_PORT, help="TCP port (default 7341; 0: any)")
    serve.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    serve.add_argument("--name", default=None, help="the server's name in lobbies (default: this machine's)")
    serve.add_argument("--workers", type=count, default=None, metavar="N",
                       help="worker processes holding the tables (default: one per CPU; 0 or 1: this process)")
    _server_limit_flags(serve)
    serve.add_argument("--advertise", action=argparse.BooleanOptionalAction, default=True,
                       help="announce the server by zeroconf (default: yes)")
    serve.add_argument("--interface", action="append", metavar="IP", help="announce on this interface only")
    add_logging_flags(serve)
    serve.set_defaults(run=cmd_serve)

    ssh = sub.add_parser("serve-ssh", help="let friends play over SSH (ssh -p 2222 THIS-MACHINE)")
    ssh.add_argument("--port", type=port, default=DEFAULT_SSH_PORT, help="SSH port (default 2222)")
    ssh.add_argument("--bind", default="0.0.0.0", help="address to listen on (default: every interface)")
    ssh.add_argument("--name", default=None, help="the server's name in the lobby")
    ssh.add_argument("--host-key", type=Path, default=None,
                     help="the server's private host key (default: made on first start in the config folder)")
    ssh.add_argument("--auth", choices=["none", "keys"], default="none",
                     help="none: any key, or none at all (default); keys: only --authorized-keys")
    ssh.add_argument("--authorized-keys", type=Path, help="OpenSSH authorized_keys file (with --auth keys)")
    ssh.add_argument("--max-sessions", type=count, default=32,
                     help="logged-in SSH sessions at once (default 32)")
    ssh.add_argument("--max-per-address", type=count, default=4, help="sessions at once from one address (default 4)")
    ssh.add_argument("--rate", type=count, default=10, help="new sessions per address per minute (default 10)")
    ssh.add_argument("--max-logins", type=count, default=128,
                     help="connections still logging in at once (default 128; they hold no session place)")
    ssh.add_argument("--login-timeout", type=seconds, default=10.0, help="seconds to log in (default 10)")
    ssh.add_argument("--idle-timeout", type=seconds, default=1800.0,
                     help="seconds without a key before a session is closed (default 1800)")
    ssh.add_argument("--fork-server", action=argparse.BooleanOptionalAction, default=True,
                     help="fork each session from one warm process, faster and lighter than a fresh Python "
                          "for each (default: yes; --no-fork-server: a fresh one for each session)")
    _server_limit_flags(ssh)
    add_logging_flags(ssh)
    ssh.set_defaults(run=cmd_serve_ssh)

    join = sub.choices.get("join")
    if join is not None:  # ``atlantis join HOST:PORT`` on a table server: its lobby
        join.add_argument("--server-lobby", action="store_true", help=argparse.SUPPRESS)
        join.add_argument("--plain-link", action="store_true", help=argparse.SUPPRESS)  # (the SSH front's own link)
        join.set_defaults(run=cmd_join)


def _server_limit_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-tables", type=count, default=32, help="tables at once (default 32)")
    p.add_argument("--tables-per-player", type=count, default=2, help="unfinished tables one player may open (default 2)")
    p.add_argument("--seats-per-player", type=count, default=4,
                   help="seats one player may hold at unfinished tables (default 4)")
    p.add_argument("--keep-logs", type=seconds, default=30.0, metavar="DAYS",
                   help="days the log of a table no longer played is kept (default 30)")
    p.add_argument("--max-logs", type=count, default=1000, metavar="N",
                   help="logs of tables no longer played kept at most; the oldest go first (default 1000)")
    p.add_argument("--bot-delay", type=seconds, default=0.4, help="seconds a bot waits before acting (default 0.4)")
    add_table_flags(p, turn_time=False)  # (a table's turn timer is its opener's choice: open-table's turn_time)


def _die(message: str) -> int:
    print(f"atlantis: {message}", file=sys.stderr)
    return 2


def _server_limits(args: argparse.Namespace) -> Any:
    from netplay.server import ServerLimits

    return ServerLimits(max_tables=args.max_tables, max_tables_per_player=args.tables_per_player,
                        max_seats_per_player=args.seats_per_player, keep_logs_days=args.keep_logs,
                        max_logs=args.max_logs, bot_after=args.seat_timeout, spectator_chat=args.spectator_chat)


def _check_server_limits(args: argparse.Namespace) -> str:
    """What is wrong with the server's limit flags ("" when nothing)."""
    if args.keep_logs < 0 or args.max_logs < 0:
        return "--keep-logs and --max-logs are 0 or more"
    if args.seats_per_player < 1:
        return "--seats-per-player is at least 1"
    return ""


def _records() -> Path:
    from ..common import records_dir

    return records_dir()


def _players() -> Path:
    """serve-ssh's folder of settings per client key (each key's theme)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("atlantis", appauthor=False)) / "ssh-players"


# --- atlantis serve ------------------------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    import socket

    from netplay.server import serve_forever
    from netplay.workers import make_server

    setup_logging(args)
    problem = _check_server_limits(args)
    if problem:
        return _die(problem)
    from ..lan.commands import fingerprint_line, load_certificate_or_die

    cert = load_certificate_or_die()
    if cert is None:
        return 2
    name = args.name or socket.gethostname()[:30] or "atlantis"
    server = make_server(workers=args.workers, name=name, host=args.bind, port=args.port, records=_records(),
                         server_limits=_server_limits(args), bot_delay=args.bot_delay, certificate=cert)
    advertise = None
    if args.advertise:
        from netplay.discovery import ServerAdvertiser

        advertise = ServerAdvertiser(interfaces=args.interface)

    def announce(address: str) -> None:
        shown = address if not address.startswith("0.0.0.0:") else f"<this machine>:{server.port}"
        print(f"Table server {name!r} listening on {shown}; join with: atlantis join {shown}", flush=True)
        print(fingerprint_line(cert), flush=True)
        print(f"Logs of its tables: {_records()} (kept {args.keep_logs:g} days after the game, "
              f"{args.max_logs} at most)", flush=True)
        if server.tables:  # (at the start, every table there is one restored from its log)
            print(f"Restored {counted(len(server.tables), 'unfinished table')} from their logs", flush=True)
        for path, why in getattr(server, "skipped", []):
            print(f"Not restored (left as it is): {path}: {why}", flush=True)

    async def main() -> int:
        stop = asyncio.Event()
        received = stop_on_signals(stop)
        await serve_forever(server, announce=announce, advertise=advertise, stop=stop)
        return exit_code_after(received)

    return run_server(main, args.bind, args.port)


# --- atlantis serve-ssh ---------------------------------------------------------------------
def cmd_serve_ssh(args: argparse.Namespace) -> int:
    import socket

    from .server import SshFront, SshLimits, default_host_key_path, fingerprint, load_host_key
    from .server import read_authorized_keys

    setup_logging(args)
    authorized = None
    if args.auth == "keys":
        if args.authorized_keys is None:
            return _die("--auth keys needs --authorized-keys FILE")
        try:
            authorized = read_authorized_keys(args.authorized_keys)
        except OSError as exc:
            return _die(f"{args.authorized_keys}: {exc.strerror or exc}")
        except ValueError as exc:
            return _die(f"{args.authorized_keys}: {exc}")
    elif args.authorized_keys is not None:
        return _die("--authorized-keys goes with --auth keys")
    if args.max_sessions < 1 or args.max_per_address < 1 or args.max_logins < 1:
        return _die("--max-sessions, --max-per-address and --max-logins are at least 1")
    problem = _check_server_limits(args)
    if problem:
        return _die(problem)
    path = args.host_key or default_host_key_path()
    try:
        key, made = load_host_key(path)
    except (OSError, ValueError) as exc:
        return _die(f"{path}: cannot read the host key ({exc})")
    limits = SshLimits(max_sessions=args.max_sessions, max_per_address=args.max_per_address,
                       max_logins=args.max_logins, rate=args.rate,
                       login_timeout=args.login_timeout, idle_timeout=args.idle_timeout)
    name = args.name or socket.gethostname()[:30] or "atlantis"
    front = SshFront(key, bind=args.bind, port=args.port, auth=args.auth, authorized=authorized, limits=limits,
                     server_name=name, records=_records(), server_limits=_server_limits(args),
                     bot_delay=args.bot_delay, fork_server=args.fork_server, players=_players())

    async def main() -> int:
        stop = asyncio.Event()
        received = stop_on_signals(stop)
        await front.start()
        shown = args.bind if args.bind not in ("0.0.0.0", "", "::") else "THIS-MACHINE"
        print(f"{'Made a new' if made else 'Host'} key {path}", flush=True)
        print(f"Host key fingerprint: {fingerprint(key)}", flush=True)
        print(f"SSH server {name!r} on port {front.port} (auth: {args.auth}); "
              f"players type: ssh -p {front.port} {shown}", flush=True)
        return await serve_until_stopped(stop, front, received)

    return run_server(main, args.bind, args.port)


# --- atlantis join HOST:PORT (a server: its lobby) ---------------------------------------------
def cmd_join(args: argparse.Namespace) -> int:
    from ..lan import commands

    if args.token is None:  # (a browser session of ``host --web``: its seat's token, kept off the command line)
        args.token = os.environ.get("ATLANTIS_TOKEN") or None
    plain = args.token or args.table or args.spectate or args.bot or args.headless or args.address is None
    if plain and not args.server_lobby:
        return commands.cmd_join(args)
    from netplay.client import parse_address
    from netplay.server import is_server
    from netplay.text import clean_name
    from netplay.tls import PLAIN, Trust

    trust = PLAIN if args.plain_link else Trust(accept_new=args.accept_new_fingerprint)
    try:  # (a path: the Unix socket of serve-ssh's table server, for its sessions)
        host, port = (args.address, 0) if args.address.startswith("/") else parse_address(args.address,
                                                                                          DEFAULT_SERVER_PORT)
    except ValueError as exc:
        return _die(str(exc))
    if not args.server_lobby and not asyncio.run(is_server(host, port, trust=trust)):
        return commands.cmd_join(args)  # a single-table host (or nobody, or another certificate: it says so)
    from ..app import open_screen
    from .app import ServerApp

    name = clean_name(args.name, "Player")
    identity = os.environ.get("ATLANTIS_SESSION") or None  # (the SSH front's secret for this session)
    store = None
    if identity is None:  # (a player's own program: the identity the server gives is kept in the data folder)
        from netplay.identity import IdentityStore

        store = IdentityStore.in_data_folder()
    return open_screen(ServerApp(host, port, identity=identity, player_name=name, identity_store=store,
                                 trust=trust))
