"""The host's hand-written check of an ``act`` frame (``messages.act_fields``) accepts
exactly what the ``Act`` model accepts, with the same fields; anything else falls back
to the model, which says what is wrong."""

from __future__ import annotations

import pytest

from netplay import messages
from netplay.wire import FrameError

V = messages.PROTOCOL
FRAMES = [
    {"v": V, "t": "act", "seq": 3, "action": {"k": "place", "at": [1, 2]}},
    {"v": V, "t": "act", "seq": 0, "action": {}, "seat": 2, "n": 7},
    {"v": V, "t": "act", "seq": (1 << 31) - 1, "action": {"x": None}, "seat": None, "n": (1 << 31) - 1},
    {"v": V, "t": "act", "seq": 1 << 31, "action": {}},          # seq too big
    {"v": V, "t": "act", "seq": -1, "action": {}},               # negative
    {"v": V, "t": "act", "seq": True, "action": {}},             # a bool is not an int
    {"v": V, "t": "act", "seq": 1.0, "action": {}},              # nor is a float
    {"v": V, "t": "act", "action": {}},                          # seq missing
    {"v": V, "t": "act", "seq": 1},                              # action missing
    {"v": V, "t": "act", "seq": 1, "action": [1, 2]},            # not a map
    {"v": V, "t": "act", "seq": 1, "action": {b"k": 1}},         # a key that is not a string
    {"v": V, "t": "act", "seq": 1, "action": {}, "seat": 64},    # seat out of range
    {"v": V, "t": "act", "seq": 1, "action": {}, "seat": False},
    {"v": V, "t": "act", "seq": 1, "action": {}, "n": -3},
    {"v": V, "t": "act", "seq": 1, "action": {}, "extra": 1},    # an unknown key
    {"v": V + 1, "t": "act", "seq": 1, "action": {}},            # another protocol
    {"v": V, "t": "ping", "n": 1},                               # not an act at all
]


@pytest.mark.parametrize("obj", FRAMES)
def test_the_hand_check_of_an_act_agrees_with_the_act_model(obj):
    fields = messages.act_fields(obj)
    try:
        msg = messages.parse_client(obj)
    except FrameError:
        assert fields is None
        return
    if not isinstance(msg, messages.Act):
        assert fields is None
        return
    assert fields == (msg.seq, msg.action, msg.seat, msg.n)
