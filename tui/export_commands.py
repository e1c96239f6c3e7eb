"""``atlantis export`` and ``atlantis import`` (their parsers only: the work is
``tui.export``, loaded when one of them runs, so that every other start of ``atlantis``
loads no match or record code for them)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_parsers(sub: Any) -> None:
    exp = sub.add_parser("export", help="write a record as a readable transcript or as JSON")
    exp.add_argument("file", type=Path, help="a game record (.atlrec) or a host's log")
    form = exp.add_mutually_exclusive_group()
    form.add_argument("--text", action="store_true", help="a transcript, one line per move (the default)")
    form.add_argument("--json", action="store_true", help="a JSON object (see README, \"Exported games\")")
    exp.add_argument("--seat", type=int, metavar="N",
                     help="only what seat N saw (the only way to export a game not yet finished)")
    exp.set_defaults(run=cmd_export)

    imp = sub.add_parser("import", help="turn a whole game's JSON export back into a record")
    imp.add_argument("file", type=Path, help="a JSON file `atlantis export --json` wrote of a finished game")
    imp.add_argument("out", type=Path, help="the record to write (.atlrec)")
    imp.add_argument("--force", action="store_true", help="replace OUT if it already holds a record")
    imp.set_defaults(run=cmd_import)


def cmd_export(args: argparse.Namespace) -> int:
    from .export import cmd_export as run

    return run(args)


def cmd_import(args: argparse.Namespace) -> int:
    from .export import cmd_import as run

    return run(args)
