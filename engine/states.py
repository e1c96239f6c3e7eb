"""The state discipline's helpers (``engine.core`` re-exports them).

States and views are frozen slots dataclasses: ``state_class`` makes one, ``replace``
makes a changed copy, ``build`` / ``maker`` make one from its field values in
declaration order and ``make`` from its fields by name.  A rule replaces a state of 20-65 fields a few times a move, and
``dataclasses.replace`` re-reads the class's fields and goes through the frozen
``__init__`` each time (most of a move's time), so ``state_class`` keeps on the class
what a copy needs: one getter of every field and each slot's setter."""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, Callable, Sequence


def state_class(cls: type) -> type:
    """``@dataclass(frozen=True, slots=True)``, with the class's field getter
    (``_read_fields``), slot setters (``_slot_setters``) and field positions
    (``_field_index``) kept on it for ``replace`` and ``build``."""
    made = dataclasses.dataclass(frozen=True, slots=True)(cls)
    names = tuple(f.name for f in dataclasses.fields(made))
    made._read_fields = staticmethod(operator.attrgetter(*names) if len(names) > 1
                                     else (lambda state, name=names[0]: (getattr(state, name),)))
    made._slot_setters = tuple(made.__dict__[name].__set__ for name in names)
    made._field_index = {name: i for i, name in enumerate(names)}
    return made


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of the state ``obj`` with ``changes``; the fields not named are the very
    objects of ``obj`` (digests and the views' sharing rely on it).  An unknown field
    name raises ``KeyError``."""
    cls = type(obj)
    index = cls.__dict__.get("_field_index")
    if index is None:  # a dataclass not made by ``state_class``
        for name in changes:
            if name not in cls.__dataclass_fields__:
                raise KeyError(name)
        return dataclasses.replace(obj, **changes)
    values = list(cls._read_fields(obj))
    for name, value in changes.items():
        values[index[name]] = value
    return _filled(cls, values)


def build(cls: type, values: Sequence[Any]) -> Any:
    """A state (or view) from its field values in declaration order."""
    if "_slot_setters" not in cls.__dict__:
        return cls(*values)
    if len(values) != len(cls._slot_setters):
        raise TypeError(f"{cls.__qualname__} has {len(cls._slot_setters)} fields, given {len(values)} values")
    return _filled(cls, values)


def make(cls: type, **fields: Any) -> Any:
    """A state (or view) from its fields by name: what ``cls(**fields)`` makes, without the
    frozen ``__init__``'s per-field cost (views are made for every seat after every move).
    Every field is named: a default is not filled in."""
    index = cls._field_index
    values: list[Any] = [None] * len(index)
    for name, value in fields.items():
        at = index.get(name)
        if at is None:
            raise TypeError(f"{cls.__qualname__} has no field {name!r}")
        values[at] = value
    if len(fields) != len(index):
        raise TypeError(f"{cls.__qualname__}: fields not given: {sorted(set(index) - set(fields))}")
    return _filled(cls, values)


def maker(cls: type) -> Callable[..., Any]:
    """A positional constructor of ``cls``: ``maker(cls)(*values)`` is ``build(cls, values)``."""

    def make(*values: Any) -> Any:
        return build(cls, values)

    return make


def _filled(cls: type, values: Sequence[Any]) -> Any:
    """A new ``cls`` whose slots hold ``values`` (set through the slots' own descriptors,
    as the frozen ``__init__`` would, without its per-field ``object.__setattr__``)."""
    state = object.__new__(cls)
    for set_slot, value in zip(cls._slot_setters, values):
        set_slot(state, value)
    return state
