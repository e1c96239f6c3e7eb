"""A fast ``dataclasses.replace`` for the immutable state (on the self-play hot path).

A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``;
with ~50 fields and several rebuilt states per action that dominated self-play.
Here the field values are fetched in one C call (``attrgetter``), the changed ones
swapped in, and the slots filled through their descriptors.  Only for slots
dataclasses without ``__post_init__`` (the states of this package)."""

from __future__ import annotations

import dataclasses
import operator
from typing import Any

_PLANS: dict[type, Any] = {}


def _plan(cls: type):
    names = tuple(f.name for f in dataclasses.fields(cls))
    space: dict[str, Any] = {"new_": object.__new__, "cls": cls}
    for i, n in enumerate(names):
        space[f"S{i}"] = cls.__dict__[n].__set__
    # unrolled: one descriptor call per field, no Python-level loop
    body = "".join(f"    S{i}(o, v[{i}])\n" for i in range(len(names)))
    exec("def fill(v):\n    o = new_(cls)\n" + body + "    return o\n", space)  # noqa: S102
    plan = (operator.attrgetter(*names), {n: i for i, n in enumerate(names)}, space["fill"])
    _PLANS[cls] = plan
    return plan


def replace(obj: Any, /, **changes: Any) -> Any:
    cls = type(obj)
    plan = _PLANS.get(cls) or _plan(cls)
    get_all, index, fill = plan
    values = list(get_all(obj))
    for key, value in changes.items():
        values[index[key]] = value  # KeyError: not a field, as dataclasses.replace's TypeError
    return fill(values)


def put(t: tuple, i: int, v: Any) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def build(cls: type, values: tuple) -> Any:
    """A slots dataclass from its field values in declaration order, without the
    frozen ``__init__`` (which sets every field through ``object.__setattr__``)."""
    plan = _PLANS.get(cls) or _plan(cls)
    return plan[2](values)
