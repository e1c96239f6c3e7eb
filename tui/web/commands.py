"""``atlantis serve-web``: a table server whose lobby browsers open (``tui.web.server``)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from ..common import (add_logging_flags, count, port, run_server, seconds, serve_until_stopped, setup_logging,
                      stop_on_signals)
from ..ssh.commands import _check_server_limits, _die, _records, _server_limit_flags, _server_limits

DEFAULT_WEB_PORT = 8000


def add_parsers(sub: Any) -> None:
    web = sub.add_parser("serve-web", help="let players at the table play in a browser, each on their own phone")
    web.add_argument("--port", type=port, default=DEFAULT_WEB_PORT, help="HTTP port (default 8000; 0: any)")
    web.add_argument("--bind", default="127.0.0.1",
                     help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every interface)")
    web.add_argument("--public-url", default=None, metavar="URL",
                     help="the address players open, when it is not this server's own (a reverse proxy's)")
    web.add_argument("--name", default=None, help="the server's name in the lobby")
    web.add_argument("--certfile", type=Path, default=None, help="serve https with this certificate (PEM)")
    web.add_argument("--keyfile", type=Path, default=None, help="the certificate's private key (PEM)")
    web.add_argument("--max-sessions", type=count, default=32, help="browser sessions at once (default 32)")
    web.add_argument("--max-per-address", type=count, default=4, help="sessions at once from one address (default 4)")
    web.add_argument("--rate", type=count, default=10, help="new sessions per address per minute (default 10)")
    web.add_argument("--idle-timeout", type=seconds, default=1800.0,
                     help="seconds without a key or a tap before a session is closed (default 1800)")
    web.add_argument("--qr", action=argparse.BooleanOptionalAction, default=True,
                     help="print the join address as a QR code for phones' cameras (default: yes)")
    _server_limit_flags(web)
    add_logging_flags(web)
    web.set_defaults(run=cmd_serve_web)

    host = sub.choices.get("host")
    if host is not None:  # ``atlantis host GAME --web``: the LAN table in browsers too
        host.add_argument("--web", action="store_true",
                          help="serve the table to browsers too: players at the table join on their phones "
                               "(the address and a QR code are shown)")
        host.add_argument("--web-port", type=port, default=None,
                          help=f"the browsers' HTTP port, with --web (default {DEFAULT_WEB_PORT}; 0: any free port)")
        host.set_defaults(run=cmd_host)


def cmd_host(args: argparse.Namespace) -> int:
    """``atlantis host``, with ``--web`` a web front beside the LAN host (``tui.web.host``)."""
    from ..lan import commands as lan

    if args.web_port is not None and not args.web:
        return _die("--web-port goes with --web")
    if not args.web:
        return lan.cmd_host(args)
    port = DEFAULT_WEB_PORT if args.web_port is None else args.web_port

    def front(host: Any) -> Any:
        from .host import HostWebFront

        return HostWebFront(host, bind=host.bind, port=port, players=players_folder())

    return lan.cmd_host(args, web=front)


def players_folder() -> Path:
    """serve-web's folder of settings per browser (each browser's theme)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("atlantis", appauthor=False)) / "web-players"


def cmd_serve_web(args: argparse.Namespace) -> int:
    import socket

    from .qr import join_lines
    from .server import WebFront, WebLimits, ssl_context

    setup_logging(args)
    if args.max_sessions < 1 or args.max_per_address < 1:
        return _die("--max-sessions and --max-per-address are at least 1")
    if args.keyfile is not None and args.certfile is None:
        return _die("--keyfile goes with --certfile")
    problem = _check_server_limits(args)
    if problem:
        return _die(problem)
    context = None
    if args.certfile is not None:
        try:
            context = ssl_context(args.certfile, args.keyfile)
        except (OSError, ValueError) as exc:
            return _die(f"{args.certfile}: cannot read the certificate ({exc})")
    limits = WebLimits(max_sessions=args.max_sessions, max_per_address=args.max_per_address, rate=args.rate,
                       idle_timeout=args.idle_timeout)
    name = args.name or socket.gethostname()[:30] or "atlantis"
    front = WebFront(bind=args.bind, port=args.port, public_url=args.public_url, limits=limits, server_name=name,
                     records=_records(), server_limits=_server_limits(args), bot_delay=args.bot_delay,
                     players=players_folder(), ssl_context=context)

    async def main() -> int:
        stop = asyncio.Event()
        received = stop_on_signals(stop)
        await front.start()
        url = front.url()
        print(f"Web server {name!r} on port {front.port}; players open: {url}", flush=True)
        if args.bind == "127.0.0.1" and args.public_url is None:
            print("Only this machine can reach it (--bind 0.0.0.0 opens it to the network).", flush=True)
        if args.qr:
            for line in join_lines(url):
                print(line, flush=True)
        return await serve_until_stopped(stop, front, received)

    return run_server(main, args.bind, args.port)

