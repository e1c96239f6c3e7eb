"""``make bench``: print performance figures (never fails on time).

Options: ``--quick`` (fewer games and app runs), ``--seeds N`` (games of the strong bot
against RandomBot, default 200), ``--no-app`` (skip the app start timing).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time


# One bench module per game (and netplay); add a name here to include it.
GAME_BENCHES = ["rng", "pathways", "finding_atlantis", "end_of_atlantis", "atlantis", "survive", "netplay", "ssh"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and app runs")
    parser.add_argument("--seeds", type=int, default=200, help="strong bot vs random: games (default 200)")
    parser.add_argument("--no-app", action="store_true", help="skip the app start timing")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    print(f"atlantis bench  (Python {platform.python_version()}, {platform.machine()},"
          f" {'quick' if args.quick else 'full'} run)")
    import importlib

    for name in GAME_BENCHES:  # each module has run(quick, seeds)
        importlib.import_module(f"bench.{name}").run(quick=args.quick, seeds=args.seeds)
    if not args.no_app:
        from .app_start import bench_app_start

        bench_app_start(runs=3 if args.quick else 5)
    print(f"bench done in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
