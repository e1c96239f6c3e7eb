"""``make bench``: print every area's figures, each beside its reference and goal.

The bench never fails on time: it prints what it measured, and exits non-zero only when
an area could not run (its traceback printed, the other areas run).  ``--quick`` is a smoke run
(a few games, one start of each app, the fork server alone); ``--only AREA`` runs one
area (repeatable); the bots' strength (``bots``, hours long) runs only when named.  One area alone also runs as ``python -m bench.AREA [--quick]``.
"""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
import time
import traceback

from .report import load

#: The areas in the order they print; each is a module of this package with ``run(quick)``.
AREAS = ["engine", "lan", "app", "ssh", "bots"]
#: What a plain ``make bench`` runs: the bots' strength takes hours, ``make bench-bots`` runs it.
DEFAULT_AREAS = ["engine", "lan", "app", "ssh"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: fewer samples, less load")
    parser.add_argument("--only", action="append", choices=AREAS, metavar="AREA",
                        help=f"run only this area ({', '.join(AREAS)}); repeatable")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(f"atlantis bench: Python {platform.python_version()}, {platform.machine()},"
          f" {'quick' if args.quick else 'full'} run, {load()}")
    took, failed = {}, []
    for area in args.only or DEFAULT_AREAS:
        t0 = time.perf_counter()
        try:
            importlib.import_module(f"bench.{area}").run(quick=args.quick)
        except Exception:  # (one broken area says so and the others still run)
            traceback.print_exc()
            failed.append(area)
        took[area] = time.perf_counter() - t0
    print(f"\nbench done in {time.perf_counter() - started:.0f} s ("
          + ", ".join(f"{area} {seconds:.0f} s" for area, seconds in took.items()) + f"); {load()}"
          + (f"; FAILED to run: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
