"""What the app, the command line, the demos and LAN play all need, kept in one leaf module.

Record paths, building the seats of a table, parsing ``name=value`` options and the
default LAN port used to live in ``tui.app`` and ``tui.cli``, which made the CLI, the
app, the demos and ``tui.lan`` import each other (hidden in imports inside
functions).  Everything here imports only the standard library, platformdirs, msgpack
and the engine: nothing else of ``tui`` (an import-linter contract in ``pyproject.toml``
says so), so any module of ``tui`` may import it at the top.
"""

from __future__ import annotations

import argparse
import contextlib
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from engine.options import options_data
from engine.registry import get_game

if TYPE_CHECKING:
    from engine.core import SeatInfo

# (``secrets``, ``datetime``, ``platformdirs``, ``msgpack`` and ``engine.core`` are imported where they
# are used: the command line imports this module on every start, for ``DEFAULT_PORT``.)

#: The TCP port ``atlantis host`` listens on and ``atlantis join HOST`` dials.
DEFAULT_PORT = 7341

#: The exit code of a command stopped with Ctrl+C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


# --- command-line values -----------------------------------------------------------------------
def _number(text: str, kind: type, what: str, least: float | None) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    if least is not None and value < least:
        raise argparse.ArgumentTypeError(f"{text} is too small: it must be {least:g} or more")
    return value


def whole_number(text: str) -> int:
    """An argparse type: any whole number (a seed)."""
    return _number(text, int, "a whole number", None)


def count(text: str) -> int:
    """An argparse type: a whole number, 0 or more (players, bots, limits)."""
    return _number(text, int, "a whole number", 0)


def seconds(text: str) -> float:
    """An argparse type: a duration in seconds (or days), 0 or more; a negative delay or
    timeout would be accepted and then misbehave, so it is refused here."""
    return _number(text, float, "a number of seconds", 0)


def positive_number(text: str) -> float:
    """An argparse type: a number above 0 (a replay speed)."""
    value = _number(text, float, "a number", 0)
    if value == 0:
        raise argparse.ArgumentTypeError("0 is too small: it must be more than 0")
    return value


def port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free port) to 65535."""
    value = _number(text, int, "a port number", 0)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{text} is not a port number (0 to 65535)")
    return value


class Parser(argparse.ArgumentParser):
    """argparse, with a bad argument said in one line and a pointer to ``--help`` rather than
    the whole usage block (a player who typed ``--seed abc`` needs the reason, not a synopsis)."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: {message}\n(`{self.prog} --help` lists the arguments)\n")


# --- long-running commands (host, serve, serve-ssh) ---------------------------------------------
def add_logging_flags(parser: Any) -> None:
    """``-v``, ``--log-level`` and ``--log-file``: what the server's loggers print, and where."""
    parser.add_argument("-v", "--verbose", action="store_const", const="DEBUG", dest="log_level",
                        help="log everything (the same as --log-level DEBUG)")
    parser.add_argument("--log-level", type=str.upper,
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="least severe message logged (default WARNING)")
    parser.add_argument("--log-file", type=Path, metavar="FILE",
                        help="append the log to FILE instead of standard error")
    parser.set_defaults(log_level="WARNING")


def setup_logging(args: Any) -> None:
    """Send the ``atlantis.*`` loggers (connections, refusals, tables) where the flags say."""
    import logging

    handler: logging.Handler = (logging.FileHandler(args.log_file) if args.log_file is not None
                                else logging.StreamHandler())
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("atlantis")
    logger.addHandler(handler)
    logger.setLevel(args.log_level)


def stop_on_signals(stop: Any) -> list[int]:
    """Set the asyncio event ``stop`` on SIGTERM, SIGINT or SIGHUP; the list returned
    collects the signals received, so the command can exit 130 after Ctrl+C."""
    import asyncio
    import signal

    received: list[int] = []
    loop = asyncio.get_running_loop()

    def got(signum: int) -> None:
        received.append(signum)
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(signum, got, signum)
    return received


def exit_code_after(received: list[int]) -> int:
    """130 when Ctrl+C stopped the command, else 0 (SIGTERM, SIGHUP: asked to stop)."""
    import signal

    return INTERRUPTED if signal.SIGINT in received else 0


async def serve_until_stopped(stop: Any, front: Any, received: list[int]) -> int:
    """A server front runs until ``stop`` (a signal) is set; then it closes every session
    and the command exits as ``exit_code_after`` says."""
    try:
        await stop.wait()
    finally:
        print("Stopping: closing every session.", flush=True)
        await front.close()
    return exit_code_after(received)


def run_server(main: Callable[[], Any], bind: str, port: int) -> int:
    """Run a server command's ``main`` coroutine; a port it cannot listen on is said in one line."""
    import asyncio
    import sys

    try:
        return asyncio.run(main())
    except OSError as exc:
        print(f"atlantis: cannot listen on {bind}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 2


# --- addresses ----------------------------------------------------------------------------
class CannotListen(Exception):
    """A port a server cannot listen on, said in one sentence."""


def host_port(host: str, port: int) -> str:
    """``HOST:PORT`` as ``atlantis join`` reads it (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def reachable_addresses(bind: str | None, port: int) -> list[str]:
    """The ``HOST:PORT`` a player on another machine can type to reach a host that
    listens on ``bind``: that address itself, or (every interface: "0.0.0.0" is every
    IPv4 one, "::" every IPv6 one, "" or None both) each of this machine's addresses
    that is not loopback -- IPv4 first, then IPv6 with link-local ones last (with their
    interface: ``fe80::1%eth0``).  No such address (no network): the loopback one, for
    players on this machine."""
    import ipaddress

    import ifaddr  # (comes with zeroconf: every interface's addresses, no psutil needed)

    if bind not in (None, "", "0.0.0.0", "::"):
        return [host_port(bind, port)]
    v4: list[str] = []
    v6: list[tuple[bool, str]] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and bind != "::":
                if not ipaddress.ip_address(ip.ip).is_loopback:
                    v4.append(host_port(str(ip.ip), port))
            elif not ip.is_IPv4 and bind != "0.0.0.0":
                text, _, scope = ip.ip
                address = ipaddress.ip_address(text)
                if address.is_loopback:
                    continue
                if address.is_link_local:
                    v6.append((True, host_port(f"{text}%{adapter.name}", port)))
                else:
                    v6.append((False, host_port(text, port)))
    found = list(dict.fromkeys(v4 + [a for _, a in sorted(v6, key=lambda p: p[0])]))
    return found or [host_port("::1" if bind == "::" else "127.0.0.1", port)]


# --- records ------------------------------------------------------------------------------
def records_dir() -> Path:
    """The platform's folder for records (made 0700 by the first save, when it is missing)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("atlantis", appauthor=False)) / "records"


def record_file_name(game: str, kind: str = "") -> str:
    """``GAME[-KIND]-YYYYmmdd-HHMMSS-XXXXXX.atlrec``: the time and a random tag, never
    the seed (a file name is seen by anyone who lists the folder or the screen)."""
    import secrets
    from datetime import datetime

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"{game}{'-' + kind if kind else ''}-{stamp}-{secrets.token_hex(3)}.atlrec"


def default_record_path(game: str) -> Path:
    """Where a hot-seat game keeps its record when nobody named a file."""
    return records_dir() / record_file_name(game)


def host_log_path(game: str) -> Path:
    """Where a LAN host keeps its table's log when nobody named a file."""
    return records_dir() / record_file_name(game, "host")


def holds_record(path: Path) -> bool:
    """Whether the file begins with the header of an atlantis record (a saved game or
    a host log).  Reads at most its first 64 KiB; never blocks on a FIFO."""
    import os
    import stat

    import msgpack

    from engine.record import MAGIC

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        head = os.read(fd, 1 << 16)
    except OSError:
        return False
    finally:
        os.close(fd)
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=1 << 16)
    unpacker.feed(head)
    try:
        first = next(unpacker)
    except Exception:  # (not msgpack, or cut short: not a record's header)
        return False
    return isinstance(first, dict) and first.get("magic") == MAGIC


def replace_problem(path: Path, force: bool, ours: Callable[[Path], bool], what: str) -> str | None:
    """Why the command may not write ``path`` (None: it may).  A new name is fine; a
    file that holds ``what`` (``ours`` says so) is replaced only with ``--force``; any
    other file is never replaced, nor a folder.  A FIFO or ``/dev/null`` is written
    into, as before."""
    import stat

    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path}: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return f"{path} is a folder: name a file in it"
    if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
        return None
    if not stat.S_ISREG(st.st_mode):
        return f"{path} is not a regular file: name a file"
    if not ours(path):
        return f"{path} already exists and is not {what}: it was left as it is (name a new file)"
    if not force:
        return f"{path} already holds {what}: add --force to replace it"
    return None


# --- tables -------------------------------------------------------------------------------
#: The widest command line the leave dialog shows whole at 80 columns.
COMMAND_WIDTH = 68


def shell_command(*words: str | Path) -> str:
    """A command a player copies into a shell, as the leave dialog shows it: its last word
    (a file, a token) on a line of its own after a backslash, so a narrow dialog never
    breaks it mid-name, and a path under the home folder written from ``~``.  A path too
    long even for a line of its own is split: ``cd`` to its folder first, then the
    command names the file alone."""
    import shlex

    def word(part: str | Path) -> str:
        if isinstance(part, Path):
            with contextlib.suppress(ValueError):
                return "~/" + shlex.quote(str(part.relative_to(Path.home())))
        return shlex.quote(str(part))

    *head, last = words
    lines = []
    if isinstance(last, Path) and len(word(last)) + 4 > COMMAND_WIDTH:
        lines.append(f"cd {word(last.parent)} && \\")
        last = last.name
    command = " ".join(word(part) for part in head)
    if lines and len(command) + 1 + len(word(last)) <= COMMAND_WIDTH:
        lines.append(f"{command} {word(last)}")
    else:
        lines += [command + " \\", "    " + word(last)]
    return "\n".join(lines)


def seats_for(game_slug: str, players: int, bots: int, names: list[str] | None = None,
              level: str = "") -> list[SeatInfo]:
    """The seats of a new table: the given names first, then the game's own seat names;
    the last ``bots`` seats are bots of ``level`` ("": the default level)."""
    if not 0 <= bots <= players:
        raise ValueError(f"bots must be between 0 and {players}")
    return seats_from_words(game_slug, [HUMAN_SEAT] * (players - bots) + [level or "bot"] * bots, names)


def seats_from_words(game_slug: str, words: Sequence[str], names: list[str] | None = None) -> list[SeatInfo]:
    """The seats of a new table from one word a seat (``parse_seat_words``): "human", or a
    bot level ("bot": the default level); the given names first, then the game's own."""
    from engine.core import SeatInfo, bot_seat

    game = get_game(game_slug)
    players = len(words)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players}-{game.max_players} players")
    base = list(names or []) + list(game.seat_names[len(names or []):])
    return [SeatInfo(base[i]) if word == HUMAN_SEAT else bot_seat(base[i], "" if word == "bot" else word)
            for i, word in enumerate(words)]


#: ``--seats``' words for a seat that is not a bot: a player at this keyboard, and (where a
#: command has them) a seat that waits for a player over the network.
HUMAN_SEAT, OPEN_SEAT = "human", "open"


def level_problem(slug: str, level: str, flag: str = "--level") -> str | None:
    """Why ``level`` is not one of the game's bot levels (None: it is), in one line."""
    from engine.registry import manifest

    info = manifest(slug)
    if level in info.bot_levels:
        return None
    return f"{flag} {level}: {info.title} has the bot levels {', '.join(info.bot_levels)}"


def seats_problem(slug: str, args: Any, others: Sequence[str] = ("human",)) -> str | None:
    """Why ``--level`` and ``--seats`` cannot make a table of ``slug`` (None: they can),
    in one line: an unknown level lists the game's levels."""
    if args.level is not None:
        problem = level_problem(slug, args.level)
        if problem:
            return problem
    if args.seats is None:
        return None
    if args.bots:
        return "--seats says which seats are bots: leave out --bots"
    try:
        parse_seat_words(slug, args.seats, level=args.level or "normal", players=args.players, others=others)
    except ValueError as exc:
        return str(exc)
    return None


def parse_seat_words(slug: str, text: str, *, level: str = "normal", players: int | None = None,
                     others: Sequence[str] = (HUMAN_SEAT,)) -> list[str]:
    """``--seats human,hard,normal``: one word a seat, each one of ``others`` ("human", and
    "open" where a command has seats for players elsewhere) or one of the game's bot levels
    ("bot": ``level``).  A ValueError says what is wrong in one line."""
    from engine.registry import manifest
    from engine.text import counted

    info = manifest(slug)
    words = [word.strip().lower() for word in text.split(",")]
    if not text.strip() or "" in words:
        raise ValueError(f"--seats {text!r}: one word a seat, separated by commas (e.g. human,hard)")
    if not info.min_players <= len(words) <= info.max_players:
        raise ValueError(f"--seats names {counted(len(words), 'seat')}: {info.title} takes "
                         f"{info.min_players}-{info.max_players} players")
    if players is not None and players != len(words):
        raise ValueError(f"--seats names {counted(len(words), 'seat')} but --players is {players}")
    out = []
    for word in words:
        word = level if word == "bot" else word
        if word not in others and word not in info.bot_levels:
            raise ValueError(f"--seats: {word[:20]!r} is no seat: a seat is {', '.join(others)}, bot, or one of "
                             f"{info.title}'s bot levels ({', '.join(info.bot_levels)})")
        out.append(word)
    return out


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["board-size=8", ...]`` (repeated ``--option``) as ``{"board_size": "8"}``; the
    game's own options model validates and converts the values."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"option {pair!r} should look like name=value")
        out[key.replace("-", "_")] = value
    return out


#: The words a command line may give for on and off (as pydantic reads a bool).
ON_WORDS = ("true", "on", "yes", "1")
OFF_WORDS = ("false", "off", "no", "0")


def allowed_values(field: Any) -> str:
    """What an option takes, in words: "on or off", "a whole number from 5 to 500"..."""
    if field.kind is bool:
        return "on or off"
    if field.words:
        return "one of " + ", ".join(field.words)
    if field.kind is int:
        if field.low is not None and field.high is not None:
            return f"a whole number from {field.low} to {field.high}"
        if field.low is not None:
            return f"a whole number, at least {field.low}"
        return "a whole number"
    return "text"


def describe_options(slug: str) -> str:
    """Every option of a game, a line each, for a command line that named one wrongly."""
    from engine.registry import option_fields

    fields = option_fields(slug)
    if not fields:
        return f"{get_game(slug).title} has no options."
    lines = [f"{get_game(slug).title}'s options (-o NAME=VALUE):"]
    for field in fields:
        default = ("on" if field.default else "off") if field.kind is bool else (field.default or '""')
        lines.append(f"  {field.name:<20} {allowed_values(field)} (default {default}): {field.help}")
    return "\n".join(lines)


def value_problem(field: Any, value: str) -> str | None:
    """Why ``value`` is not one ``field`` takes (None: it is fine, or only the model can tell)."""
    text = value.strip().lower()
    if field.kind is bool:
        return None if text in ON_WORDS + OFF_WORDS else f"{field.name} is on or off, not {value!r}"
    if field.words:
        return None if value in field.words else f"{field.name} is one of {', '.join(field.words)}, not {value!r}"
    if field.kind is int:
        try:
            number = int(text)
        except ValueError:
            return f"{field.name} is {allowed_values(field)}, not {value!r}"
        if (field.low is not None and number < field.low) or (field.high is not None and number > field.high):
            return f"{field.name} is {allowed_values(field)}, not {number}"
    return None


def game_options(slug: str, pairs: Sequence[str]) -> dict[str, Any]:
    """The game's options from ``-o NAME=VALUE`` pairs, checked and converted (as JSON
    values).  A ValueError says what is wrong in our words and lists every option."""
    from engine.registry import option_fields

    fields = {field.name: field for field in option_fields(slug)}
    problem = None
    try:
        raw = parse_options(pairs)
    except ValueError as exc:
        raw, problem = {}, str(exc)
    for name, value in raw.items():
        if problem:
            break
        if name not in fields:
            problem = f"{get_game(slug).title} has no option {name!r}"
        else:
            problem = value_problem(fields[name], value)
    if problem is None:
        try:
            return options_data(get_game(slug).parse_options(raw))
        except ValueError as exc:  # a rule of the game's own (the ships named, a map size)
            problem = str(exc).removeprefix("bad option ").replace("Value error, ", "")
            name, _, sentence = problem.partition(": ")
            problem = sentence if sentence.startswith(name) else problem
    raise ValueError(f"{problem}.\n{describe_options(slug)}")


#: The longest turn time a table takes (a week: a game played over days).
MAX_TURN_TIME = 7 * 86400


def form_turn_time(text: str) -> float:
    """A form's turn time: the seconds each seat has for a decision ('' or 0: no turn
    timer).  A ValueError says what is wrong, in a sentence the form shows."""
    text = text.strip()
    try:
        value = float(text) if text else 0.0
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_TURN_TIME:
        raise ValueError(f"The turn time is a number of seconds, 0 (none) to {MAX_TURN_TIME}.")
    return value


def add_table_flags(parser: argparse.ArgumentParser, turn_time: bool = True) -> None:
    """The flags that keep a table going, shared by ``host`` and ``serve``."""
    parser.add_argument("--seat-timeout", type=seconds, default=60.0, metavar="SECONDS",
                        help="a player away this long has a bot keep their seat warm until they return "
                             "(default 60; 0: never)")
    if turn_time:
        parser.add_argument("--turn-time", type=seconds, default=None, metavar="SECONDS",
                            help="each seat's time for each decision; when it runs out a bot decides "
                                 "(default: none, or the log's with --resume; 0: none)")
    parser.add_argument("--spectator-chat", action="store_true",
                        help="spectators may chat among themselves (they always read the players' chat)")
