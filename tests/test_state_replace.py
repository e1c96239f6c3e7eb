"""``core.replace`` makes what ``dataclasses.replace`` makes, for every game's state, and
``Event`` is a plain frozen dataclass."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from engine.core import Event, replace
from engine.registry import GAMES, get_game


@pytest.mark.parametrize("slug", list(GAMES))
def test_replace_gives_what_dataclasses_replace_gives_for_every_state_field(slug):
    game = get_game(slug)
    state = game.setup(game.parse_options({}), game.min_players, 3)
    names = [f.name for f in dataclasses.fields(state)]
    for i, name in enumerate(names):
        other = names[(i * 7 + 3) % len(names)]
        changes = {name: ("new", i), other: getattr(state, name)}
        got = replace(state, **changes)
        want = dataclasses.replace(state, **changes)
        assert type(got) is type(state) and got == want
        # unchanged fields are the very objects of the old state (digests rely on it)
        assert all(getattr(got, n) is getattr(state, n) for n in names if n not in changes)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(got, name, 1)
    assert replace(state) == state and replace(state) is not state
    # a set of names used often gets its own function: the same answers
    for i in range(80):
        changes = {names[-1]: i, names[0]: getattr(state, names[0])}
        assert replace(state, **changes) == dataclasses.replace(state, **changes)
    with pytest.raises(KeyError):
        replace(state, **{names[0]: 1, "no_such_field": 2})


class _Guarded:
    __slots__ = ()

    def __setattr__(self, name, value):
        raise AttributeError(name)


@dataclasses.dataclass(frozen=True, slots=True)
class _Odd(_Guarded):  # a base with its own __setattr__: no twin, the slots' descriptors
    a: int
    b: tuple = ()


def test_replace_of_a_class_without_a_twin_fills_the_slots_itself():
    odd = _Odd(1, (2,))
    for i in range(80):
        assert replace(odd, a=i) == _Odd(i, (2,)) and type(replace(odd, b=())) is _Odd


def test_an_event_is_the_frozen_dataclass_it_was():
    e = Event("drew", {"seat": 1}, (1,))
    assert (e.kind, e.data, e.to) == ("drew", {"seat": 1}, (1,)) and type(e) is Event
    assert Event("x").data == {} and Event("x").data is not Event("x").data
    assert Event(kind="x", to=None) == Event("x") and Event("x", None).data is None
    assert hash(Event("x", None, (0,))) == hash(Event("x", None, (0,)))
    assert copy.deepcopy(e) == e and pickle.loads(pickle.dumps(e)) == e
    assert dataclasses.replace(e, kind="y") == Event("y", {"seat": 1}, (1,))
    assert [f.name for f in dataclasses.fields(Event)] == ["kind", "data", "to"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.kind = "z"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Event()  # type: ignore[call-arg]
