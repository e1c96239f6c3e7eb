"""The ``atlantis`` command.

Subcommands that live in their own module register themselves: the module's
``add_parsers(sub)`` adds its parsers and gives each one a ``run`` with
``parser.set_defaults(run=cmd_x)``; ``build_parser`` calls every function in
``SUBCOMMAND_MODULES`` and ``main`` calls ``args.run(args)``.  (LAN play:
``tui.lan.commands``.)

Textual (``tui.app``, ``tui.demo``) is imported inside the commands that open a
screen, on purpose: ``atlantis games``, ``selfplay``, ``replay --verify`` and the
headless LAN commands start without loading it.  What only some commands need (the
match and its records, seats, option parsing, name checks) is imported inside them too:
``atlantis`` alone opens the menu without building the parser or loading a match.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from engine.registry import GAMES, MANIFESTS, manifest
from engine.text import counted

from . import arena, export_commands
from .common import INTERRUPTED, Parser, positive_number, seconds, whole_number
from .lan import commands as lan_commands
from .ssh import commands as ssh_commands
from .web import commands as web_commands

#: ``add_parsers(sub)`` of each module that brings its own subcommands.
SUBCOMMAND_MODULES: list[Callable[[Any], None]] = [
    lan_commands.add_parsers,  # host, join, browse (LAN play)
    ssh_commands.add_parsers,  # serve, serve-ssh; join HOST:PORT of a table server (after LAN play)
    web_commands.add_parsers,  # serve-web (the table server's lobby in browsers)
    export_commands.add_parsers,        # export, import (readable and shareable records)
    arena.add_parsers,  # arena: bots of given levels play each other
]


#: The name of the distribution on the package index (the command stays ``atlantis``).
DISTRIBUTION = "atlantis-table"


def _die(message: str, code: int = 2) -> int:
    print(f"atlantis: {message}", file=sys.stderr)
    return code


def _game_or_die(slug: str):
    if slug not in GAMES:
        known = "\n".join(f"  {slug:<18} {info.title}" for slug, info in MANIFESTS.items())
        print(f"atlantis: unknown game {slug!r}. Known games:\n{known}", file=sys.stderr)
        return None
    return GAMES[slug]


class ShowVersion(argparse.Action):
    """``--version``: the distribution's version, read from its metadata only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any):
        super().__init__(option_strings, dest=dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib.metadata import version

        print(f"atlantis {version(DISTRIBUTION)}")
        parser.exit()


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments ``play`` and ``record`` share: the game and its table."""
    parser.add_argument("game", nargs="?", help="game slug (see `atlantis games`)")
    parser.add_argument("--players", type=int,
                        help="seats at the table; alone, all of them humans taking turns here (hot-seat)")
    parser.add_argument("--bots", type=int, default=None,
                        help="how many of the last seats are bots (neither option: you against bots)")
    parser.add_argument("--level", default=None,
                        help="the bots' level: easy, normal (the default) or hard (a wrong one lists the game's)")
    parser.add_argument("--seats", metavar="WORD,...",
                        help="one word a seat, in order: human or a bot level, e.g. human,hard,normal")
    parser.add_argument("--seed", type=whole_number, help="a practice game from this seed (default: a secret deal)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable; a wrong one lists the game's options)")
    parser.add_argument("--names", help="comma-separated player names, one per seat")
    parser.add_argument("--setup", help="a named setup (see `atlantis setups`)")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="atlantis", description="A terminal game table for Atlantis board games.")
    p.add_argument("--version", action=ShowVersion, help="print the version and exit")
    sub = p.add_subparsers(dest="command")

    sub.add_parser("games", help="list the games and their rules versions")
    sub.add_parser("setups", help="list the named setups")

    play = sub.add_parser("play", help="play a game (hot-seat and bots)")
    add_play_arguments(play)
    play.add_argument("--save", type=Path, help="keep the record in this file (saved after every move)")
    play.add_argument("--force", action="store_true", help="let --save replace a game record already there")
    play.add_argument("--resume", type=Path, help="continue the game stored in this record")
    play.add_argument("--no-autosave", action="store_true", help="do not keep a record in the data folder")
    play.add_argument("--bot-delay", type=seconds, default=None, metavar="SECONDS",
                      help="how long a bot waits before it acts, so you can follow (default 0.4)")

    learn = sub.add_parser("learn", help="a guided first game: each step says what to do and why")
    learn.add_argument("game", help="game slug (see `atlantis games`)")
    learn.add_argument("--bot-delay", type=seconds, default=None, metavar="SECONDS",
                       help="how long a bot waits before it acts, so you can follow (default 0.4)")

    rec = sub.add_parser("record", help="play, recording every key into a demo file (F9 marks a frame)")
    rec.add_argument("out", type=Path, help="the demo file to write (OUT.demo)")
    add_play_arguments(rec)
    rec.add_argument("--title", default="", help="a title for the demo")
    rec.add_argument("--force", action="store_true", help="replace OUT if it already holds a demo")

    demo = sub.add_parser("demo", help="replay or render a recorded demo")
    demo_sub = demo.add_subparsers(dest="demo_command", required=True)
    dplay = demo_sub.add_parser("play", help="replay a demo live in this terminal")
    dplay.add_argument("file", help="a demo file, or the name of a bundled demo (e.g. pathways)")
    dplay.add_argument("--speed", type=positive_number, default=1.0, help="2 = twice as fast")
    drender = demo_sub.add_parser("render", help="replay headlessly into an asciicast and SVG frames")
    drender.add_argument("file", help="a demo file, or the name of a bundled demo (e.g. pathways)")
    drender.add_argument("--cast", type=Path, help="write an asciicast v2 file here")
    drender.add_argument("--svg", type=Path, help="write SVG frames (at the demo's marks) into this folder")

    rep = sub.add_parser("replay", help="watch a recorded game, or verify it")
    rep.add_argument("file", type=Path, help="a game record (.atlrec)")
    rep.add_argument("--verify", action="store_true", help="re-run headlessly and check every digest")

    sp = sub.add_parser("selfplay", help="bots play whole games")
    sp.add_argument("game", help="game slug (see `atlantis games`)")
    sp.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    sp.add_argument("--seed", type=whole_number, default=1, help="the first game's seed; game i uses seed + i (default 1)")
    sp.add_argument("--players", type=int, help="players at each table (default: the game's minimum)")
    sp.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                    help="a game option (repeatable)")
    sp.add_argument("--level", default="normal", help="the bots' level: normal (the default), random, or another "
                    "the game has (a wrong one lists them)")
    sp.add_argument("--json", action="store_true", help="print one JSON object instead of lines")

    comp = sub.add_parser("completion", help="print the shell completion script (see README)")
    comp.add_argument("shell", choices=["bash", "zsh", "fish"], help="the shell to complete in")

    for add_parsers in SUBCOMMAND_MODULES:
        add_parsers(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """The ``atlantis`` command; Ctrl+C anywhere leaves with exit code 130, never a traceback."""
    try:
        return run_command(argv)
    except KeyboardInterrupt:
        return INTERRUPTED


def run_command(argv: Sequence[str] | None) -> int:
    from engine.process import tune  # collector thresholds for a process of many moves

    tune()
    if "_ARGCOMPLETE" in os.environ:  # the shell asks for completions (see `atlantis completion`)
        import argcomplete

        argcomplete.autocomplete(build_parser())
    if not (sys.argv[1:] if argv is None else argv):  # ``atlantis``: the menu, no parser needed
        from .app import AtlantisApp, open_screen  # (lazy on purpose: see the module docstring)

        return open_screen(AtlantisApp())
    args = build_parser().parse_args(argv)
    cmd = args.command
    if cmd is None:
        from .app import AtlantisApp, open_screen  # (lazy on purpose: see the module docstring)

        return open_screen(AtlantisApp())
    if cmd == "games":
        for slug in sorted(GAMES):
            g = GAMES[slug]
            print(f"{slug:<18} {g.title} ({g.min_players}-{g.max_players} players), rules {g.rules_version}")
        return 0
    if cmd == "setups":
        from .setups import load_setups  # (pydantic: imported only where setups are read)

        setups = load_setups()
        for slug in GAMES:  # each game's setups together, in the games' order
            for name, setup in setups.items():
                if setup.game == slug:
                    print(f"{name:<22} {setup.game}, {counted(setup.players, 'player')} ({counted(setup.bots, 'bot')}), "
                          f"seed {setup.seed}: {setup.about}")
        return 0
    if cmd == "completion":
        import argcomplete

        print(argcomplete.shellcode(["atlantis"], shell=args.shell), end="")
        return 0
    if cmd == "play":
        return _play(args)
    if cmd == "learn":
        return _learn(args)
    if cmd == "record":
        return _record(args)
    if cmd == "demo":
        return _demo(args)
    if cmd == "replay":
        return _replay(args)
    if cmd == "selfplay":
        return _selfplay(args)
    run = getattr(args, "run", None)  # a subcommand registered by its own module
    if run is not None:
        return run(args)
    return _die(f"unknown command {cmd!r}")


def _play(args: argparse.Namespace) -> int:
    from engine.match import Match
    from engine.record import RecordError
    from engine.storage import load_record

    from .app import AtlantisApp, open_screen  # (lazy on purpose: see the module docstring)
    from .common import default_record_path, holds_record, replace_problem
    from .seat_links import LocalTable

    if args.save is not None and not args.resume:
        problem = replace_problem(args.save, args.force, holds_record, "an atlantis record")
        if problem:
            return _die(problem)
    if args.resume:
        try:
            record = load_record(args.resume)
            game = _game_or_die(record.game)
            if game is None:
                return 2
            match = Match.from_record(record, game)
        except RecordError as exc:
            return _die(f"{args.resume}: {exc}")
        if match.result() is not None:
            print(f"That game is already over ({match.result().reason}); showing the final position.")
        table = LocalTable(game, match, autosave=args.resume)
        return open_screen(AtlantisApp(table=table, save_path=args.resume, bot_delay=args.bot_delay))
    if args.setup:
        problem = _apply_setup(args)
        if problem:
            return _die(problem)
    if args.game is None:
        return open_screen(AtlantisApp(autosave=not args.no_autosave, save_path=args.save, bot_delay=args.bot_delay))
    resolved = _resolve_table(args)
    if isinstance(resolved, int):
        return resolved
    game, options, seats, seed = resolved
    path = args.save or (None if args.no_autosave else default_record_path(game.slug))
    table = LocalTable.new(game, options, seats, seed, autosave=path)
    return open_screen(AtlantisApp(table=table, save_path=path, bot_delay=args.bot_delay))


def _learn(args: argparse.Namespace) -> int:
    """``atlantis learn GAME``: the game's guided first game (tui/lessons.py)."""
    from .app import AtlantisApp, open_screen
    from .lessons import LessonTable, load_lesson

    if _game_or_die(args.game) is None:
        return 2
    try:
        script = load_lesson(args.game)
    except KeyError as exc:
        return _die(str(exc.args[0]))
    return open_screen(AtlantisApp(table=LessonTable(script), autosave=False, bot_delay=args.bot_delay))


def _apply_setup(args: argparse.Namespace) -> str | None:
    """Fill the play arguments from a named setup (explicit arguments win)."""
    if args.setup:
        from .setups import load_setups  # (here: pydantic loads only for a named setup)

        setups = load_setups()
        if args.setup not in setups:
            return f"unknown setup {args.setup!r}; known: {', '.join(sorted(setups))}"
        chosen = setups[args.setup]
        args.game = chosen.game
        if args.seats is None:  # (--seats says the players and bots itself)
            args.players = chosen.players if args.players is None else args.players
            args.bots = chosen.bots if args.bots is None else args.bots
        args.seed = chosen.seed if args.seed is None else args.seed
        args.option = [f"{k}={v}" for k, v in chosen.options.items()] + list(args.option)
    return None


def _resolve_table(args: argparse.Namespace):
    """(game, options, seats, seed) from play-style arguments, or an exit code.  The
    seed is None unless one was typed or named: the Match then draws a secret one.

    Seats, as on other game tables: ``--players N`` alone is N humans taking turns at
    this keyboard (hot-seat); ``--bots K`` makes the last K of them bots; with neither,
    you play the game's smallest table against bots."""
    from .common import game_options, seats_for, seats_from_words, seats_problem

    game = _game_or_die(args.game)
    if game is None:
        return 2
    problem = check_players(game, args.players) or seats_problem(game.slug, args)
    if problem:
        return _die(problem)
    if args.seats is not None:
        from .common import parse_seat_words

        words = parse_seat_words(game.slug, args.seats, level=args.level or "normal", players=args.players)
        args.players, args.bots = len(words), sum(word != "human" for word in words)
    if args.players is None:
        players = game.min_players
        bots = args.bots if args.bots is not None else players - 1
    else:
        players = args.players
        bots = args.bots if args.bots is not None else 0
    if not 0 <= bots <= players:
        return _die(f"--bots {bots}: a table of {players} players takes 0 to {players} bots")
    seed = args.seed
    names = None
    if args.names is not None:
        names, problem = parse_names(args.names, players)
        if problem:
            return _die(problem)
    try:
        options = game_options(game.slug, args.option)
        seats = seats_for(game.slug, players, bots, names, args.level or "")
        if args.seats is not None:
            seats = seats_from_words(game.slug, words, names)
    except ValueError as exc:
        return _die(str(exc))
    return game, options, seats, seed


def check_players(game: Any, players: int | None) -> str | None:
    """Why ``--players`` is impossible for ``game`` (None: it is fine or not given)."""
    if players is not None and not game.min_players <= players <= game.max_players:
        return f"--players {players}: {game.title} takes {game.min_players} to {game.max_players} players"
    return None


def parse_names(text: str, players: int) -> tuple[list[str], str | None]:
    """``--names A,B,C``: one name per seat, none empty, no two alike (compared as the
    LAN host compares them: case and width do not make two names different)."""
    from netplay.text import clean_text, name_key

    names = [clean_text(n, 24) for n in text.split(",")]
    if len(names) != players:
        return names, f"--names gives {counted(len(names), 'name')} for {counted(players, 'seat')}: give one per seat, comma-separated"
    if any(not n for n in names):
        return names, "--names: a name is empty (give one per seat, e.g. --names Ana,Ben)"
    keys = [name_key(n) for n in names]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            first = names[keys.index(key)]
            alike = f"{first!r} is given twice" if first == names[i] else f"{first!r} and {names[i]!r} count as one name"
            return names, f"--names: {alike}; every player needs a name of their own"
    return names, None


def _record(args: argparse.Namespace) -> int:
    from .app import open_screen
    from .common import replace_problem
    from .demo import PlayArgs, holds_demo, recording_app  # (lazy on purpose: see the module docstring)

    problem = replace_problem(args.out, args.force, holds_demo, "an atlantis demo") or _apply_setup(args)
    if problem:
        return _die(problem)
    if args.game is None:
        return _die("record needs a game (or --setup NAME)")
    resolved = _resolve_table(args)
    if isinstance(resolved, int):
        return resolved
    game, options, seats, seed = resolved
    if seed is None:  # a demo replays its game, so it keeps a seed: a practice game
        from engine.rng import new_seed

        seed = new_seed()
    play = PlayArgs(game=game.slug, players=len(seats), bots=sum(s.kind == "bot" for s in seats),
                    seed=seed, options=options,
                    names=[s.name for s in seats] if args.names else None,
                    levels=[s.level for s in seats] if any(s.level for s in seats) else None)
    app = recording_app(play, args.out, title=args.title)
    code = open_screen(app)
    if code not in (0, INTERRUPTED):
        return code
    path = app.demo().save(args.out)
    demo = app.demo()
    print(f"wrote {path}: {len(demo.keys)} keys, frames marked after keys {demo.marks}")
    return 0


def demo_path(given: str) -> Path | str:
    """The demo file ``given`` names: a file, or else a bundled demo's name; a str is why
    neither."""
    from .bundled import bundled_demos

    path = Path(given)
    if path.exists() or path.suffix == ".demo" or "/" in given:
        return path
    bundled = bundled_demos()
    if given in bundled:
        return bundled[given]
    return f"no demo file {given!r}, and no bundled demo of that name; bundled: {', '.join(bundled)}"


def _demo(args: argparse.Namespace) -> int:
    from .app import NoTerminal
    from .demo import DemoError, DemoStale, load_demo, play_live, render  # (lazy on purpose, as above)

    path = demo_path(args.file)
    if isinstance(path, str):
        return _die(path)
    try:
        demo = load_demo(path)
    except DemoError as exc:
        return _die(str(exc))
    try:
        if args.demo_command == "play":
            return play_live(demo, speed=args.speed)
        if args.cast is None and args.svg is None:
            return _die("demo render needs --cast FILE and/or --svg DIR")
        written = asyncio.run(render(demo, args.cast, args.svg, name=path.stem))
    except NoTerminal as exc:
        return _die(str(exc))
    except DemoStale as exc:
        print(f"atlantis: {args.file}: {exc}", file=sys.stderr)
        return 1
    except DemoError as exc:
        return _die(f"{args.file}: {exc}")
    for path in written:
        print(f"wrote {path}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from engine.match import replay_states
    from engine.record import RecordError
    from engine.storage import load_record

    try:
        record = load_record(args.file)
    except RecordError as exc:
        return _die(f"{args.file}: {exc}")
    game = _game_or_die(record.game)
    if game is None:
        return 2
    if record.rules_version != game.rules_version:
        print(f"note: recorded with rules {record.rules_version}, this program has {game.rules_version}",
              file=sys.stderr)
    if args.verify:
        last = 0
        for index, _, problem in replay_states(record, game):
            if problem:
                print(f"FAIL {args.file}: {problem}")
                return 1
            last = index
        print(f"OK {args.file}: {counted(last, 'move')}, every digest matches")
        return 0
    from .app import AtlantisApp, open_screen  # (lazy on purpose: see the module docstring)
    from .seat_links import ReplaySeat

    replay = ReplaySeat(game, record)
    return open_screen(AtlantisApp(replay=replay))


def _selfplay(args: argparse.Namespace) -> int:
    from .common import game_options
    from .selfplay import selfplay

    game = _game_or_die(args.game)
    if game is None:
        return 2
    if args.games < 1:
        return _die(f"--games {args.games}: play at least 1 game")
    problem = check_players(game, args.players)
    if problem:
        return _die(problem)
    levels = manifest(game.slug).bot_levels
    if args.level not in levels:
        return _die(f"--level {args.level}: {game.title} has the bot levels {', '.join(levels)}")
    players = game.min_players if args.players is None else args.players
    try:
        options = game_options(game.slug, args.option)
    except ValueError as exc:
        return _die(str(exc))
    out = selfplay(game.slug, args.games, args.seed, players, options, args.level)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['game']}: {out['finished']}/{out['games']} games finished, {out['actions']} actions "
              f"in {out['seconds']:.2f} s ({out['actions_per_s']:.0f} actions/s)")
        for i, d in enumerate(out["digests"]):
            print(f"  game {i} seed {args.seed + i}: {d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
