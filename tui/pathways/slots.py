"""Numbered hand slots: key ``n`` picks slot ``n`` and a slot keeps its number.

A played tile leaves a gap (its number stays empty); a tile taken back (undo) returns to
the slot it left; new tiles fill the gaps first, in hand order, then go at the end.  Pure,
so the screen, the SSH tests and the SSH bench number a hand the same way.
"""

from __future__ import annotations

from typing import Sequence


def keep_slots(before: Sequence[int | None], hand: Sequence[int],
               left_from: dict[int, int] | None = None) -> list[int | None]:
    """The slots after ``hand`` replaced the hand shown in ``before``.  ``left_from``
    (tile -> the slot it left), if given, is updated and used to put a returning tile back."""
    left_from = {} if left_from is None else left_from
    slots = [t if t in hand else None for t in before]
    left_from.update({t: i for i, t in enumerate(before) if t is not None and t not in hand})
    for tile in hand:
        if tile in slots:
            continue
        home = left_from.pop(tile, None)
        if home is not None and home < len(slots) and slots[home] is None:
            slots[home] = tile
        elif None in slots:
            slots[slots.index(None)] = tile
        else:
            slots.append(tile)
    return slots
