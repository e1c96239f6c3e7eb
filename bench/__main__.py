"""``make bench``: print performance figures (never fails on time).

Options: ``--quick`` (a smoke run of about 30 s), ``--seeds N`` (games of the strong bot
against RandomBot: default 40, quick 10), ``--no-app`` (skip the app start and key timings),
``--only NAME`` (one bench module, e.g. ``netplay``; may be repeated), ``--moves`` (also a
bot's move to settled screen, ``bench.moves``: for information, ~10 s).

The time budget (issue 15): the full run under 3 minutes, the quick one about 30 s on
the 2-core reference machine.  What ``quick`` means to every module's ``run(quick,
seeds)``: a few seconds at most (its figures are a smoke test, not a measurement);
the full run: each module about 10-15 s (netplay and ssh, which start processes, about
40 s and 30 s).  Each module's wall time is printed after it, the total at the end.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time


# One bench module per game (and netplay); add a name here to include it.
GAME_BENCHES = ["selfplay", "rng", "pathways", "finding_atlantis", "end_of_atlantis", "atlantis", "survive", "netplay", "ssh"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of about 30 s")
    parser.add_argument("--seeds", type=int, default=None, help="strong bot vs random: games (default 40; quick 10)")
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this bench module")
    parser.add_argument("--no-app", action="store_true", help="skip the app start and key timings")
    parser.add_argument("--moves", action="store_true", help="also a bot's move to settled screen (bench.moves)")
    args = parser.parse_args(argv)
    seeds = args.seeds if args.seeds is not None else (10 if args.quick else 40)

    from .machine import Watch

    watch = Watch()
    started = time.perf_counter()
    print(f"atlantis bench  (Python {platform.python_version()}, {platform.machine()},"
          f" {'quick' if args.quick else 'full'} run)")
    import importlib

    took: dict[str, float] = {}
    for name in GAME_BENCHES:  # each module has run(quick, seeds)
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        importlib.import_module(f"bench.{name}").run(quick=args.quick, seeds=seeds)
        took[name] = time.perf_counter() - t0
        print(f"  [{name}: {took[name]:.1f} s]", flush=True)
    if not args.no_app and not args.only:
        from .app_start import bench_app_start
        from .keys import bench_keys
        from .moves import bench_moves

        t0 = time.perf_counter()
        bench_app_start(runs=1 if args.quick else 3, quick=args.quick)  # issue 15 item 2
        took["app_start"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        keys = bench_keys(quick=args.quick)  # issue 15 item 1: key to settled screen
        took["keys"] = time.perf_counter() - t0
        if args.moves:  # a bot's move to settled screen (for information: no goal; ~10 s)
            t0 = time.perf_counter()
            bench_moves(quick=args.quick, keys=keys)
            took["moves"] = time.perf_counter() - t0
    total = time.perf_counter() - started
    budget = 30 if args.quick else 180
    print(f"bench done in {total:.1f} s (budget {budget} s: {total / budget:.2f}x; "
          + ", ".join(f"{k} {v:.0f} s" for k, v in sorted(took.items(), key=lambda kv: -kv[1])) + ")")
    busy = watch.line(total)
    if busy:
        print(busy)
    return 0


if __name__ == "__main__":
    sys.exit(main())
