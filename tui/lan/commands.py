"""``atlantis host``, ``atlantis join`` and ``atlantis browse`` (the LAN commands).

``add_parsers`` adds the three subcommands to the ``atlantis`` parser and sets each
one's ``run`` (``tui.cli.main`` calls ``args.run(args)``).

Some imports stay inside the functions on purpose, for start-up time (this module is
imported on every ``atlantis`` start, to build the parser): the LAN stack
(``netplay.host`` / ``netplay.client``: asyncio, ssl, msgpack) loads only
when a LAN command runs, zeroconf (``netplay.discovery``) only when a table is announced
or browsed for, and Textual (``tui.app``) only when a screen opens (a headless host or
bot never loads it).  None of them is there to dodge an import cycle.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any, Callable

from engine.core import DEFAULT_BOT_LEVEL
from engine.levels import LEVELS
from engine.registry import GAMES
from engine.text import counted

from ..common import (DEFAULT_PORT, HUMAN_SEAT, INTERRUPTED, OPEN_SEAT, add_logging_flags, add_table_flags, game_options,
                      holds_record, host_log_path, parse_seat_words, port, replace_problem, seats_problem, seconds,
                      setup_logging, whole_number)

__all__ = ["DEFAULT_PORT", "add_parsers", "cmd_browse", "cmd_host", "cmd_join", "host_log_path", "make_table"]


def add_parsers(sub: Any) -> None:
    host = sub.add_parser("host", help="host a table on the LAN")
    host.add_argument("game", nargs="?", help="game slug (see `atlantis games`)")
    host.add_argument("--players", type=int, help="seats at the table (default: the game's minimum)")
    host.add_argument("--bots", type=int, default=0, help="how many of the last seats are bots")
    host.add_argument("--level", default=None,
                      help="the bots' level: easy, normal (the default) or hard (a wrong one lists the game's)")
    host.add_argument("--seats", metavar="WORD,...",
                      help="one word a seat, in order: human (at this terminal), open (a LAN player) "
                           "or a bot level, e.g. human,open,hard")
    host.add_argument("--local", type=int, default=None,
                      help="humans at this terminal (default 1 with the TUI, 0 with --headless)")
    host.add_argument("--port", type=port, default=None,
                      help=f"TCP port (default {DEFAULT_PORT}, or the log's with --resume; 0: any free port)")
    host.add_argument("--bind", default=None,
                      help="address to listen on (default: every interface, or the log's with --resume)")
    host.add_argument("--name", help="table name shown in the lobby")
    host.add_argument("--seed", type=whole_number, help="a practice game from this seed (default: a secret deal)")
    host.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                      help="a game option (repeatable; a wrong one lists the game's options)")
    host.add_argument("--headless", action="store_true", help="no screen: serve until stopped")
    host.add_argument("--log", type=Path, help="the table's log (a game record); default: the data folder")
    host.add_argument("--force", action="store_true", help="let --log replace a game record already there")
    host.add_argument("--resume", type=Path, metavar="LOG", help="rebuild a table from its log after a crash")
    host.add_argument("--exit-when-done", action="store_true", help="stop once the game is over")
    host.add_argument("--advertise", action=argparse.BooleanOptionalAction, default=None,
                      help="announce the table by zeroconf (default: yes, or as the log says with --resume)")
    host.add_argument("--interface", action="append", metavar="IP",
                      help="announce on this interface only (repeatable; default: all, or the log's with --resume)")
    host.add_argument("--bot-delay", type=seconds, default=0.4,
                      help="seconds a host bot waits before acting, so players can follow (default 0.4)")
    add_table_flags(host)
    add_logging_flags(host)
    host.set_defaults(run=cmd_host)

    join = sub.add_parser("join", help="join a table on the LAN (no address: the lobby)")
    join.add_argument("address", nargs="?", metavar="HOST:PORT",
                      help="the host or table server to join (default port 7341; none: the lobby)")
    join.add_argument("--name", default=None, help="your name at the table")
    join.add_argument("--token", help="your seat's token, to take your seat back")
    join.add_argument("--table", help="table id, when the host holds several")
    join.add_argument("--spectate", action="store_true", help="watch the public table")
    join.add_argument("--bot", action="store_true", help="let the game's bot play this seat")
    join.add_argument("--level", choices=LEVELS,
                      help="with --bot: the bot's level (default normal)")
    join.add_argument("--headless", action="store_true", help="no screen (needs --bot or --spectate)")
    join.add_argument("--timeout", type=seconds, default=5.0, help="seconds to find a table when no address is given")
    join.add_argument("--interface", action="append", metavar="IP", help="browse on this interface only")
    join.add_argument("--accept-new-fingerprint", action="store_true",
                      help="the host's certificate changed and you checked the new fingerprint with the host: "
                           "accept it (and remember it)")
    # (a browser session of ``host --web``: the host's own fingerprint, checked and not remembered)
    join.add_argument("--expect-fingerprint", default=None, help=argparse.SUPPRESS)
    join.set_defaults(run=cmd_join)

    br = sub.add_parser("browse", help="list the tables announced on the LAN")
    br.add_argument("--timeout", type=seconds, default=3.0, help="seconds to listen (default 3)")
    br.add_argument("--json", action="store_true", help="print one JSON list instead of lines")
    br.add_argument("--interface", action="append", metavar="IP", help="listen on this interface only")
    br.set_defaults(run=cmd_browse)


def _die(message: str) -> int:
    print(f"atlantis: {message}", file=sys.stderr)
    return 2


def make_table(args: argparse.Namespace) -> Any:
    """The HostTable the arguments describe (new, or resumed from a log)."""
    from engine.record import RecordError
    from netplay.host import HostTable, make_kinds, seat_kinds  # (lazy on purpose: the LAN stack)

    if args.resume:
        given = [flag for flag, value in (("GAME", args.game), ("--players", args.players), ("--bots", args.bots),
                                          ("--level", args.level), ("--seats", args.seats),
                                          ("--seed", args.seed), ("--option", args.option), ("--log", args.log),
                                          ("--name", args.name)) if value]
        if given:
            raise ValueError(f"--resume takes the game, its seats, seed, name and log from LOG: "
                             f"leave out {', '.join(given)}.")
        try:  # (checks the whole file before it changes a byte of it)
            return HostTable.resume(args.resume)
        except (RecordError, KeyError) as exc:
            raise ValueError(f"{args.resume}: {exc}") from None
        except OSError as exc:
            raise ValueError(f"{args.resume}: cannot reopen it to append to it: {exc.strerror or exc}.") from None
    if args.game is None:
        raise ValueError("name a game (see `atlantis games`) or --resume LOG")
    if args.game not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise ValueError(f"unknown game {args.game!r}; known games: {known}")
    game = GAMES[args.game]
    problem = seats_problem(game.slug, args, others=(HUMAN_SEAT, OPEN_SEAT))
    if problem:
        raise ValueError(problem)
    if args.seats is not None:
        if args.local is not None:
            raise ValueError("--seats says which seats are played here (human): leave out --local")
        words = parse_seat_words(game.slug, args.seats, level=args.level or "normal", players=args.players,
                                 others=(HUMAN_SEAT, OPEN_SEAT))
        kinds, levels = seat_kinds(game, ["local" if w == HUMAN_SEAT else w for w in words])
        if "open" not in kinds:
            raise ValueError("no seat is open for the LAN: make one of --seats open")
    else:
        players = game.min_players if args.players is None else args.players
        if not game.min_players <= players <= game.max_players:
            raise ValueError(f"--players {players}: {game.title} takes {game.min_players}-{game.max_players} players")
        local = args.local if args.local is not None else (0 if args.headless else 1)
        kinds = make_kinds(players, args.bots, local)
        levels = [args.level or "" if kind == "bot" else "" for kind in kinds]
        if "open" not in kinds:
            raise ValueError("no seat is open for the LAN: lower --bots or --local")
    options = game_options(game.slug, args.option)
    seed = args.seed  # None: a secret seed, drawn by the Match
    if args.log is not None:
        problem = replace_problem(args.log, args.force, holds_record, "an atlantis record")
        if problem:
            raise ValueError(problem)
    path = args.log or host_log_path(game.slug)
    return HostTable.create(game, options, kinds, seed, name=args.name or "", log_path=path, levels=levels)


def load_certificate_or_die() -> Any:
    """This machine's TLS certificate (made now if it has none), or None after saying
    why it cannot be read."""
    from netplay.tls import default_certificate_path, load_certificate  # (lazy on purpose: the LAN stack)

    path = default_certificate_path()
    try:
        cert = load_certificate(path)[0]
    except (OSError, ValueError) as exc:
        _die(f"{path}: cannot read the TLS certificate ({exc}); move it away to make a new one")
        return None
    return cert


def fingerprint_line(cert: Any) -> str:
    """What ``atlantis host`` and ``atlantis serve`` print about their certificate."""
    return (f"Encrypted (TLS); certificate fingerprint: {cert.fingerprint}\n"
            f"  (in {cert.path}; a player's first join remembers it: if theirs shows another one, "
            "someone is in between)")


def cmd_host(args: argparse.Namespace, web: Callable[[Any], Any] | None = None) -> int:
    """``web``: makes the web front of the host (``host --web``, ``tui.web.commands``)."""
    from netplay.host import Host  # (lazy on purpose: the LAN stack)

    setup_logging(args)
    try:
        table = make_table(args)
    except ValueError as exc:
        return _die(str(exc))
    cert = load_certificate_or_die()
    if cert is None:
        return 2
    # What the command line does not say, a resumed table's log does (its header keeps
    # the port, bind address and announcing of the host that wrote it).
    port = args.port if args.port is not None else (table.port or DEFAULT_PORT)
    bind = args.bind if args.bind is not None else (table.bind or "0.0.0.0")
    table.advertise = args.advertise if args.advertise is not None else table.advertise is not False
    table.interfaces = args.interface or table.interfaces
    table.bot_after = args.seat_timeout
    table.turn_time = args.turn_time if args.turn_time is not None else table.turn_time
    table.spectator_chat = args.spectator_chat
    host = Host([table], host=bind, port=port, bot_delay=args.bot_delay, certificate=cert)
    front = web(host) if web is not None else None
    advertise = None
    if table.advertise:
        from netplay.discovery import Advertiser  # (lazy on purpose: zeroconf)

        advertise = Advertiser(interfaces=table.interfaces)
    if args.headless:
        return _host_headless(host, table, args, advertise, cert, front)
    from ..app import AtlantisApp, open_screen  # (lazy on purpose: Textual only for the TUI)
    from .hosting import HostedTable  # (lazy: ifaddr and ctypes only for a LAN host)

    return open_screen(AtlantisApp(hosted=HostedTable(host, table, advertise, web=front),
                                   save_path=table.log.path if table.log else None,
                                   lan_interfaces=table.interfaces))


def _describe_seats(table: Any) -> str:
    return ", ".join(f"{s.name}: " + (f"{s.level or 'normal'} bot" if s.kind == "bot" else s.kind)
                     + (" (taken)" if s.kind == "open" and s.taken else "")
                     for s in table.slots)


def _host_headless(host: Any, table: Any, args: argparse.Namespace, advertise: Any, cert: Any,
                   web: Any = None) -> int:
    from netplay.host import serve  # (lazy on purpose: the LAN stack)

    from ..common import CannotListen, reachable_addresses

    def announce(address: str) -> None:
        addresses = reachable_addresses(host.bind, host.port)
        print(f"Listening on {addresses[0]} (table {table.name!r}, {table.game.slug}, {_describe_seats(table)})",
              flush=True)
        for other in addresses[1:]:
            print(f"          or {other}", flush=True)
        print(f"Players join with: atlantis join {addresses[0]}", flush=True)
        if web is not None:
            for line in web.join_lines():
                print(line, flush=True)
        print(fingerprint_line(cert), flush=True)
        if table.log is not None:
            print(f"Log: {table.log.path}", flush=True)
        if table.match.record.moves:
            print(f"Resumed after {counted(len(table.match.record.moves), 'move')}, digest {table.match.digest()}", flush=True)

    try:
        asyncio.run(serve(host, exit_when_done=args.exit_when_done, announce=announce, advertise=advertise,
                          beside=(web,) if web is not None else ()))
    except CannotListen as exc:
        return _die(str(exc))
    except OSError as exc:
        return _die(f"cannot listen on {host.bind}:{host.port}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        return INTERRUPTED
    result = table.match.result()
    if result is not None:
        names = table.names()
        print(f"Game over: {result.reason}; {'winner' if len(result.winners) == 1 else 'winners'}: {', '.join(names[w] for w in result.winners) or 'none'}; "
              f"digest {table.match.digest()}", flush=True)
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    from netplay.client import KEEP_NAME, Client, parse_address  # (lazy on purpose: the LAN stack)
    from netplay.text import clean_name
    from netplay.tls import Trust

    trust = Trust(accept_new=args.accept_new_fingerprint)
    if args.expect_fingerprint:
        trust = Trust(expected=args.expect_fingerprint, pin=False)
    if args.level and not args.bot:
        return _die(f"--level {args.level}: that is the level of the bot that plays this seat; add --bot")
    args.level = args.level or DEFAULT_BOT_LEVEL
    if args.headless and not (args.bot or args.spectate):
        return _die("--headless needs --bot (a bot plays the seat) or --spectate")
    if args.token and args.name is None:
        name = KEEP_NAME  # taking a seat back: it keeps the name it has
    else:
        name = clean_name(args.name, "Bot" if args.bot else "Player")  # (the host's own rule)
    if args.address is None and not args.headless:
        from ..app import AtlantisApp, open_screen  # (lazy on purpose: Textual only for the TUI)

        return open_screen(AtlantisApp(lobby=True, player_name=name, lan_interfaces=args.interface, trust=trust))
    if args.address is None:
        found = asyncio.run(_find_open_table(args.timeout, args.interface))
        if found is None:
            return _die(f"no table with an open seat found in {args.timeout:g} s; give HOST:PORT")
        host, port, announced = found
        trust = trust.expecting(announced)
    else:
        try:
            host, port = parse_address(args.address, DEFAULT_PORT)
        except ValueError as exc:
            return _die(str(exc))
        problem = asyncio.run(_reach(host, port, trust))
        if problem:
            return _die(problem)
        if args.token is None and not args.spectate:
            seat = asyncio.run(_server_seat(host, port, args.table, name, trust))
            if isinstance(seat, str):
                return _die(seat)
            if seat is not None:
                args.token, args.table = seat.token, seat.table
    if args.headless:
        return asyncio.run(_join_headless(host, port, name, args, trust))
    from ..app import AtlantisApp, open_screen  # (lazy on purpose: Textual only for the TUI)

    client = Client(host, port, name=name, token=args.token, table=args.table, spectate=args.spectate, trust=trust,
                    linger=not args.bot)  # (a player stays after the game: chat, rematch)
    return open_screen(AtlantisApp(remote=client, bot_client=args.bot, bot_level=args.level))


async def _reach(host: str, port: int, trust: Any, timeout: float = 5.0) -> str | None:
    """Why ``host:port`` is no table to join (no such host, nothing listening, no
    answer, not an atlantis host, not the certificate pinned for it), or None: asked
    once, before any screen opens (a host met for the first time is pinned now)."""
    import ssl

    from netplay.client import Refused, connect_problem, probe  # (lazy on purpose: the LAN stack)
    from netplay.tls import FingerprintError
    from netplay.wire import FrameError

    try:
        await probe(host, port, timeout, trust)
    except FingerprintError as exc:
        return str(exc)
    except ssl.SSLError as exc:
        return f"{host}:{port} does not answer inside TLS ({exc.reason or exc}): is it an atlantis host of this version?"
    except Refused:
        return None  # an atlantis host that answers probes its own way (a table server): it is there
    except FrameError as exc:
        return f"{host}:{port} does not answer as an atlantis host ({exc})"
    except (OSError, asyncio.TimeoutError) as exc:
        return connect_problem(host, port, exc, timeout)
    return None


async def _server_seat(host: str, port: int, table: str | None, name: str, trust: Any) -> Any:
    """On a table server, a seat taken through its lobby, as this player (the identity
    the server gave, kept in the data folder): a ticket, or why not (a sentence).  None:
    a single-table host, where the hello takes the seat.  Without ``table``, the first
    table with an open seat where this player holds none."""
    from netplay import messages  # (lazy on purpose: the LAN stack)
    from netplay.identity import IdentityStore, ServerLobby

    lobby = ServerLobby(host, port, store=IdentityStore.in_data_folder(), trust=trust)
    try:
        listed = await lobby.list_tables()
    except (OSError, asyncio.TimeoutError) as exc:
        return f"{host}:{port} does not answer ({exc or type(exc).__name__})"
    except Exception:  # (not a table server's answer)
        return None
    if not isinstance(listed, messages.TableList):
        return None  # (a single-table host answers "hello first")
    if table is None:
        mine = {t.table for t in listed.mine}
        free = [t for t in listed.tables if t.open > 0 and not t.over and t.table not in mine]
        if not free:
            return (f"the table server at {host}:{port} has no table with an open seat; "
                    f"open one from its lobby: atlantis join {host}:{port}")
        table = free[0].table
    try:
        answer = await lobby.take_seat(table, name)
    except (OSError, asyncio.TimeoutError) as exc:
        return f"{host}:{port} does not answer ({exc or type(exc).__name__})"
    if isinstance(answer, messages.Error):
        return answer.message
    return answer.ticket


async def _find_open_table(timeout: float, interfaces: list[str] | None) -> tuple[str, int, str] | None:
    """The first table found with an open seat: its address and announced fingerprint."""
    from netplay.discovery import browse  # (lazy on purpose: zeroconf)

    for t in await browse(timeout, interfaces, until_found=True):
        if t.open > 0 and not t.over:
            return t.host, t.port, t.tls
    return None


async def _join_headless(host: str, port: int, name: str, args: argparse.Namespace, trust: Any) -> int:
    from netplay.client import Client, run_bot  # (lazy on purpose: the LAN stack)

    client = Client(host, port, name=name, token=args.token, table=args.table, spectate=args.spectate, trust=trust)

    def report(what: str) -> None:
        if what == "welcome":
            seat = "spectator" if client.seat is None else f"seat {client.seat}"
            print(f"Joined {client.welcome.table_name!r} ({client.welcome.game}) as {seat}; "
                  f"token {client.token}", flush=True)
        elif what == "status" and client.status in ("reconnecting", "refused", "closed"):
            print(f"{client.status}: {client.last_error}", flush=True)

    client.listeners.append(report)
    if args.bot and not args.spectate:
        await run_bot(client, level=args.level)
    else:
        client.start()
        await client.finished.wait()
    if client.over is None:
        print(f"Not finished: {client.status} {client.last_error}", flush=True)
        return 1
    names = client.names
    over = client.over
    print(f"Game over: {over.reason}; {'winner' if len(over.winners) == 1 else 'winners'}: {', '.join(names[w] for w in over.winners) or 'none'}; "
          f"digest {over.digest}", flush=True)
    print(client.verification.text if client.verification else "not verified", flush=True)
    return 0 if client.verification and client.verification.ok else 1


def cmd_browse(args: argparse.Namespace) -> int:
    from netplay.discovery import browse  # (lazy on purpose: zeroconf)

    tables = asyncio.run(browse(args.timeout, args.interface))
    if args.json:
        print(json.dumps([t.to_json() for t in tables]))
        return 0
    if not tables:
        print(f"No tables found in {args.timeout:g} s. (Across subnets or SSH, join by address: atlantis join HOST:PORT)")
        return 0
    for t in tables:
        state = "over" if t.over else ("playing" if t.started else f"{t.open} of {t.players} seats open")
        print(f"{t.address:<22} {t.name:<28} {t.game:<18} {state:<20} {t.tls or '(no fingerprint announced)'}")
    return 0
