"""``ActionCodec.decode`` takes a way around pydantic for maps whose values already have
their annotated types: it must return what pydantic's validation returns, and refuse
what it refuses with the same sentence, for every game's action kinds."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from engine.core import IllegalAction
from engine.registry import GAMES


_ADAPTERS: dict[type, TypeAdapter] = {}


def slow_decode(codec: Any, data: Any) -> Any:
    """``decode`` as it was: every map through pydantic (the oracle)."""
    if not isinstance(data, Mapping):
        raise IllegalAction("An action must be a map with a 'k' kind.")
    name = data.get("k")
    cls = codec.kinds.get(name) if isinstance(name, str) else None
    if cls is None:
        raise IllegalAction(f"Unknown action kind {name!r:.40}.")
    fields = cls._fields
    extra = set(data) - set(fields) - {"k"}
    if extra:
        shown = ", ".join(sorted(repr(x)[:20] for x in extra))[:80]
        raise IllegalAction(f"Action {name!r} has unknown fields: {shown}.")
    missing = [f for f in fields if f not in data and f not in cls._field_defaults]
    if missing:
        raise IllegalAction(f"Action {name!r} is missing: {', '.join(missing)}.")
    values = [data.get(f, cls._field_defaults.get(f)) for f in fields]
    try:
        adapter = _ADAPTERS.get(cls) or _ADAPTERS.setdefault(cls, TypeAdapter(cls))
        return adapter.validate_python(tuple(values), strict=False)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise IllegalAction(f"Action {name!r}: {first['msg']} at {first['loc']}.") from None


VALUES = [0, 1, -1, 7, 2**40, 2**70, True, False, 1.0, 2.5, "3", "x", "", None, [1], {"a": 1}, b"1"]


def outcome(fn: Any) -> tuple:
    try:
        got = fn()
    except IllegalAction as exc:
        return ("refused", exc.reason)
    return ("ok", type(got), tuple(got), tuple(map(type, got)))


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_decode_agrees_with_pydantic_on_every_kind(slug):
    codec = GAMES[slug].codec
    rng = random.Random(slug)
    for name, cls in codec.kinds.items():
        fields = cls._fields
        maps: list[Any] = []
        for combo in itertools.islice(itertools.product(VALUES, repeat=len(fields)), 400):
            maps.append({"k": name, **dict(zip(fields, combo))})
        for _ in range(60):
            m = {"k": name, **{f: rng.choice(VALUES) for f in fields if rng.random() < 0.8}}
            if rng.random() < 0.2:
                m[rng.choice(["extra", 3, "k2"])] = 1
            maps.append(m)
        maps.append(MappingProxyType({"k": name, **{f: 1 for f in fields}}))
        for data in maps:
            assert outcome(lambda: codec.decode(data)) == outcome(lambda: slow_decode(codec, data)), data


def test_decode_refuses_what_is_not_an_action_as_before():
    codec = GAMES["pathways"].codec
    for data in ([1], "place", None, {"k": 3}, {"k": "nope"}, {}):
        assert outcome(lambda: codec.decode(data)) == outcome(lambda: slow_decode(codec, data))
