"""The cyclic garbage collector's thresholds for a process that plays many moves: a
setting of the process, for its entry points (``tui/cli.py``, ``netplay/workers.py``),
never imported by the rules or the kit (pyproject.toml, ``engine-rules-do-no-io``).

Every move keeps a new state, its undo step, its record entry and its events for the
rest of the game, so a long-lived process (the app, ``atlantis selfplay``, the host and
its workers) keeps creating objects that live on.  With CPython's default thresholds
(700, 10, 10) the young generation is collected every 700 net allocations and each
survivor is scanned again on its way to the oldest generation, a sizeable part of a
self-play step (``bench/selfplay.py`` shows it).

``tune()`` raises the first threshold to 10,000 (the others unchanged): the collector
runs ~14x less often, each run scans more, and an object that dies before the next run
(views, legal lists, bot scratch) is never scanned at all.  Cycles are still found (the
first collection after 10,000 net allocations, a few milliseconds later at most): the
only cost is that cyclic garbage lives that much longer.  ``atlantis`` calls it once at
start (``tui/cli.py main``); the engine bench calls it too and says so in its header.
Nothing here changes what any game does.
"""

from __future__ import annotations

import gc

THRESHOLDS = (10_000, 10, 10)


def tune() -> tuple[int, int, int]:
    """Set ``THRESHOLDS``; returns the thresholds that were in force (to restore)."""
    old = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    return old  # type: ignore[return-value]
