"""Atlantis: the hand sizes and scores ``rules.make_view`` puts in every view (one is
made every move).  ``COUNTS[players]``: (sizes_and_worth(hands, base), base(plates,
debts)), written out seat by seat (a ``map`` and a ``tuple`` each cost more than a few
sums in a row); ``ANY_COUNT``: the same for any number of seats.
"""

from __future__ import annotations

from operator import add, sub
from typing import Any, Callable

from . import route as R

WORTH_KNOWN = R._PLATES_WORTH.get   # the worth of a collection ``resources`` has seen, else None


def _sizes_and_worth(hands: tuple, base: tuple) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(hand sizes, scores): the scores are the cards on top of ``base``."""
    sizes = tuple(map(len, hands))
    return sizes, tuple(map(add, sizes, base))


def _base(plates: tuple, debts: tuple) -> tuple[int, ...] | None:
    """Per seat, the plates' worth less the debts; None if a collection is new to ``resources``."""
    worths = tuple(map(WORTH_KNOWN, plates))
    return None if None in worths else tuple(map(sub, worths, debts))


def _seat_by_seat(players: int) -> tuple[Callable, Callable]:
    """``_sizes_and_worth`` and ``_base`` written out for ``players`` seats."""
    names = [f"x{p}" for p in range(players)]
    row = ", ".join(names) + ","
    code = (f"def sizes_and_worth(hands, base):\n    {row} = hands\n"
            + "".join(f"    {x} = len({x})\n" for x in names)
            + f"    return ({row}), ({', '.join(f'{x} + base[{p}]' for p, x in enumerate(names))},)\n"
            f"def base(plates, debts):\n    {row} = map(known, plates)\n"
            f"    if {' or '.join(f'{x} is None' for x in names)}:\n        return None\n"
            f"    return ({', '.join(f'{x} - debts[{p}]' for p, x in enumerate(names))},)\n")
    space: dict[str, Any] = {"known": WORTH_KNOWN}
    exec(code, space)  # noqa: S102
    return space["sizes_and_worth"], space["base"]


ANY_COUNT = (_sizes_and_worth, _base)
COUNTS = {players: _seat_by_seat(players) for players in range(2, 5)}
