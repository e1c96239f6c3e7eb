"""Views cross the wire generically (``to_wire`` / ``Game.view_from_data``)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import NamedTuple

import msgpack

from engine.core import View, _from_data, to_wire


class Peek(NamedTuple):
    target: int
    tokens: int


@dataclass(frozen=True, slots=True)
class SmallView(View):
    seat: int | None
    peeked: tuple  # () or a Peek: the hint says only "tuple"


def test_a_named_tuple_in_a_field_hinted_only_as_tuple_comes_back_as_itself():
    """(End of Atlantis's peeked bid: a LAN client failed to rebuild the view and its
    bot waited forever.)"""
    ns = vars(sys.modules[__name__])
    for view in (SmallView(0, ()), SmallView(1, Peek(0, 4))):
        data = msgpack.unpackb(msgpack.packb(to_wire(view)), raw=False)
        assert _from_data(SmallView, data, ns) == view
