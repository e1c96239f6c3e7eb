"""``engine.states.state_class``: the games' states and views behave as
``@dataclass(frozen=True, slots=True)``."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from engine.core import View, replace, state_class
from engine.registry import GAMES


def _pair():
    def body():
        return {"__annotations__": {"a": "int", "b": "tuple[int, ...]", "c": "str", "d": "list[int]"},
                "c": "x", "d": dataclasses.field(default_factory=list), "__module__": __name__}
    ours = state_class(type("Thing", (), body()))
    theirs = dataclasses.dataclass(frozen=True, slots=True)(type("Thing", (), body()))
    return ours, theirs


def test_a_state_class_is_made_as_the_frozen_slots_dataclass_would_be():
    ours, theirs = _pair()
    for args, kwargs in [((1, (2,)), {}), ((1,), {"b": (), "c": "y"}), ((), {"a": 0, "b": (1, 2), "d": [3]})]:
        a, b = ours(*args, **kwargs), theirs(*args, **kwargs)
        assert repr(a) == repr(b) and dataclasses.astuple(a) == dataclasses.astuple(b)
        assert a == ours(*args, **kwargs) and a != b  # (equal only to its own class)
    for args, kwargs in [((1, (), "x", [], 5), {}), ((1,), {}), ((1, ()), {"a": 2}), ((1, ()), {"z": 1})]:
        with pytest.raises(TypeError) as ours_error:
            ours(*args, **kwargs)
        with pytest.raises(TypeError):
            theirs(*args, **kwargs)
        assert "Thing.__init__()" in str(ours_error.value)
    thing = ours(1, (2,))
    assert thing != ours(1, (3,)) and thing.d == [] and thing.d is not ours(1, (2,)).d
    with pytest.raises(dataclasses.FrozenInstanceError):
        thing.a = 2
    assert not hasattr(thing, "__dict__") and ours.__match_args__ == theirs.__match_args__
    assert [f.name for f in dataclasses.fields(ours)] == ["a", "b", "c", "d"]
    assert dataclasses.replace(thing, a=5) == ours(5, (2,)) == replace(thing, a=5)
    hashable = ours(1, (2,), "x", None)
    assert hash(hashable) == hash(ours(1, (2,), "x", None))


def test_every_games_state_and_view_are_state_classes_that_compare_and_print_by_their_fields():
    for game in GAMES.values():
        state = game.setup(game.parse_options({}), game.min_players, 3)
        view = game.view(state, 0)
        for obj in (state, view):
            cls = type(obj)
            assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"  # (made by state_class)
            names = [f.name for f in dataclasses.fields(cls)]
            assert repr(obj) == f"{cls.__qualname__}(" + ", ".join(f"{n}={getattr(obj, n)!r}" for n in names) + ")"
            again = cls(**{n: getattr(obj, n) for n in names})
            assert again == obj and not (again != obj)
            assert pickle.loads(pickle.dumps(obj)) == obj
        assert isinstance(view, View)
        assert game.setup(game.parse_options({}), game.min_players, 4) != state
