"""The state discipline's helpers (``engine.core`` re-exports them): ``state_class``, the
decorator of states and views, and ``replace``, ``build`` and ``maker``, fast
constructors of frozen slots dataclasses (states and views), on the path of every rule
and every view.  See ``engine.core`` for the discipline itself."""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, Sequence


# --- the state discipline -----------------------------------------------------------------
def state_class(cls: type) -> type:
    """``@dataclass(frozen=True, slots=True)`` for the games' states and views, made
    without compiling code.  The dataclass decorator writes and compiles an ``__init__``,
    ``__repr__``, ``__eq__`` and ``__hash__`` for each class: ~3.5 ms for a state of 60
    fields, paid by every table's start as it imports its game (issue 15, item 2).
    Here they are shared functions that read every field with one ``attrgetter``: the
    same class (frozen, slotted, its ``dataclasses.fields``, ``replace`` and
    ``asdict``, ``__match_args__``, pickling), the same equality (same class, fields
    equal), hash of the fields and repr; ``__init__`` takes the fields by position or
    name, with their defaults.  (The rules make states through ``replace`` and
    ``maker``, never their ``__init__``, but in ``setup``.)"""
    if cls.__dict__.get("__doc__") is None:
        cls.__doc__ = cls.__name__  # (else dataclass asks inspect for a signature to write one)
    made = dataclasses.dataclass(frozen=True, slots=True, init=False, repr=False, eq=False)(cls)
    fields = dataclasses.fields(made)
    names = tuple(f.name for f in fields)
    get = operator.attrgetter(*names) if len(names) > 1 else (lambda o, n=names[0]: (getattr(o, n),))
    sets = tuple(made.__dict__[n].__set__ for n in names)
    given = {n: i for i, n in enumerate(names)}
    defaults = {f.name: (f.default, f.default_factory) for f in fields
                if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING}
    count, title = len(names), made.__qualname__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > count:
            raise TypeError(f"{title}.__init__() takes {count + 1} positional arguments but {len(args) + 1} were given")
        values = list(args)
        for key in kwargs:
            at = given.get(key)
            if at is None:
                raise TypeError(f"{title}.__init__() got an unexpected keyword argument {key!r}")
            if at < len(args):
                raise TypeError(f"{title}.__init__() got multiple values for argument {key!r}")
        for name in names[len(args):]:
            if name in kwargs:
                values.append(kwargs[name])
            elif name in defaults:
                value, factory = defaults[name]
                values.append(factory() if value is dataclasses.MISSING else value)
            else:
                raise TypeError(f"{title}.__init__() missing required argument: {name!r}")
        for set_, value in zip(sets, values):
            set_(self, value)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return get(self) == get(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(get(self))

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, get(self)))
        return f"{self.__class__.__qualname__}({shown})"

    for fn in (__init__, __eq__, __hash__, __repr__):
        fn.__qualname__ = f"{title}.{fn.__name__}"
        setattr(made, fn.__name__, fn)
    return made


_PLANS: dict[type, Any] = {}


def _plan(cls: type) -> Any:
    """For a slots dataclass: a one-call getter of every field, the index of each name,
    and an unrolled constructor that fills the slots through their descriptors (a
    frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``,
    which dominated self-play with ~50 fields and a few rebuilt states per action)."""
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: states are slots dataclasses without __post_init__")
    names = tuple(f.name for f in dataclasses.fields(cls))
    space: dict[str, Any] = {"new_": object.__new__, "cls": cls}
    for i, n in enumerate(names):
        space[f"S{i}"] = cls.__dict__[n].__set__
    body = "".join(f"    S{i}(o, v[{i}])\n" for i in range(len(names)))
    exec("def fill(v):\n    o = new_(cls)\n" + body + "    return o\n", space)  # noqa: S102
    getter = operator.attrgetter(*names) if len(names) > 1 else (lambda o, n=names[0]: (getattr(o, n),))
    plan = (getter, {n: i for i, n in enumerate(names)}, space["fill"])
    _PLANS[cls] = plan
    return plan


# ``replace`` is called a few times an action by every game's rules, on states of 20-65
# fields.  Each class gets a function that makes the object as ``maker`` does (a mutable
# twin filled by plain attribute stores, then made a ``cls``; filling the slots through
# their descriptors, as before, cost ~0.9k instructions a field: most of a rule's time),
# the changes then set by name.  A set of changed names used often (a rule's call site
# names its fields, so there are few) gets its own function, each field read straight
# from the old state or from the changes: made once it has been used ``_SPECIALISE_AFTER``
# times (compiling one costs ~1-2 ms for a big state: not for a call site met twice).
_REPLACERS: dict[tuple, Any] = {}  # (cls, *names) -> its own function
_REPLACERS_MAX = 4096  # (only caches: past these sizes, they start again)
_USES: dict[tuple, int] = {}
_SPECIALISE_AFTER = 32
_GENERAL: dict[type, Any] = {}  # cls -> (its field index, the function for any names)


def replace(obj: Any, /, **changes: Any) -> Any:
    """``dataclasses.replace`` for states (frozen slots dataclasses), minus its per-call
    introspection.  An unknown field name raises ``KeyError``."""
    fn = _REPLACERS.get((type(obj), *changes))
    if fn is None:
        return _replace_first(obj, changes)
    return fn(obj, changes)


def _replace_first(obj: Any, changes: dict[str, Any]) -> Any:
    """``replace`` for a class and set of names without a function of their own yet."""
    cls = type(obj)
    general = _GENERAL.get(cls) or _general(cls)
    index = general[0]
    for key in changes:
        if key not in index:
            raise KeyError(key)
    key = (cls, *changes)
    uses = _USES.get(key, 0) + 1
    if uses >= _SPECIALISE_AFTER:
        _USES.pop(key, None)
        return _replacer(cls, tuple(changes))(obj, changes)
    if len(_USES) >= _REPLACERS_MAX:
        _USES.clear()
    _USES[key] = uses
    return general[1](obj, changes)


def _general(cls: type) -> Any:
    """``(index of each field, (obj, changes) -> obj with changes)`` for ``cls``."""
    _, index, fill = _PLANS.get(cls) or _plan(cls)
    names = tuple(index)
    twin = _twin(cls)
    if twin is not None:
        space: dict[str, Any] = {"cls": cls, "twin": twin, "new": object.__new__, "setattr": setattr}
        make = "twin()" if _plain_new(twin) else "new(twin)"
        stores = "".join(f"    o.{n} = obj.{n}\n" for n in names)
        exec(f"def rep(obj, ch):\n    o = {make}\n{stores}"  # noqa: S102
             "    for k, v in ch.items():\n        setattr(o, k, v)\n"
             "    o.__class__ = cls\n    return o\n", space)
        fn = space["rep"]
    else:  # a class the twin cannot stand in for: each slot through its descriptor
        get_all = _PLANS[cls][0]

        def fn(obj: Any, ch: dict[str, Any]) -> Any:
            values = list(get_all(obj))
            for k, v in ch.items():
                values[index[k]] = v
            return fill(values)
    general = _GENERAL[cls] = (index, fn)
    return general


def _replacer(cls: type, keys: tuple[str, ...]) -> Any:
    """The function ``(obj, changes) -> obj with changes`` for ``cls`` and these names."""
    _, index, _ = _PLANS.get(cls) or _plan(cls)
    for key in keys:
        if key not in index:
            raise KeyError(key)
    names = tuple(index)
    twin = _twin(cls)
    space: dict[str, Any] = {"cls": cls, "twin": twin, "new": object.__new__}
    if twin is not None:
        make = "twin()" if _plain_new(twin) else "new(twin)"
        stores = "".join(f"    o.{n} = ch[{n!r}]\n" if n in keys else f"    o.{n} = obj.{n}\n" for n in names)
        code = f"def rep(obj, ch):\n    o = {make}\n{stores}    o.__class__ = cls\n    return o\n"
    else:  # a class the twin cannot stand in for: each slot through its descriptor
        for i, n in enumerate(names):
            space[f"S{i}"] = cls.__dict__[n].__set__
        stores = "".join(f"    S{i}(o, ch[{n!r}])\n" if n in keys else f"    S{i}(o, obj.{n})\n"
                         for i, n in enumerate(names))
        code = f"def rep(obj, ch):\n    o = new(cls)\n{stores}    return o\n"
    exec(code, space)  # noqa: S102
    fn = space["rep"]
    if len(_REPLACERS) >= _REPLACERS_MAX:
        _REPLACERS.clear()
    _REPLACERS[(cls, *keys)] = fn
    return fn


_TWINS: dict[type, Any] = {}


def _twin(cls: type) -> Any:
    """A mutable twin of slots dataclass ``cls`` (same bases, same slots, so an object
    made as a twin can become a ``cls`` by ``__class__`` assignment), or None where it
    cannot stand in (a base with its own ``__setattr__``, slots that are not the fields,
    a layout the assignment refuses)."""
    try:
        return _TWINS[cls]
    except KeyError:
        pass
    names = tuple(f.name for f in dataclasses.fields(cls))
    slots = cls.__dict__.get("__slots__", ())
    twin = None
    if set(names) == set(slots) and len(names) < 250:
        made = type(cls.__name__, cls.__bases__, {"__slots__": slots, "__module__": cls.__module__})
        if made.__setattr__ is object.__setattr__:
            try:  # a layout __class__ assignment refuses fails here, once
                probe = object.__new__(made)
                probe.__class__ = cls
                twin = made
            except TypeError:
                pass
    _TWINS[cls] = twin
    return twin


def _plain_new(twin: type) -> bool:
    """Whether ``twin()`` makes an empty object (cheaper than ``object.__new__(twin)``)."""
    return twin.__new__ is object.__new__ and twin.__init__ is object.__init__


def build(cls: type, values: Sequence[Any]) -> Any:
    """A state (or view) from its field values in declaration order (no frozen ``__init__``)."""
    return (_MAKERS.get(cls) or maker(cls))(*values)


_MAKERS: dict[type, Any] = {}


def maker(cls: type) -> Any:
    """A positional constructor of slots dataclass ``cls``: ``maker(cls)(*values)`` is
    ``build(cls, values)``.  Views are made for a seat after every move, so this is on
    the self-play path: the object is made as a mutable twin of ``cls`` (same bases, same
    slots), filled by plain attribute stores (~3x cheaper than calling each slot's
    descriptor) and then becomes a ``cls`` (``__class__`` assignment: same layout); a class
    the twin cannot stand in for (a base with its own ``__setattr__``) gets ``_plan``'s fill."""
    made = _MAKERS.get(cls)
    if made is not None:
        return made
    fill = (_PLANS.get(cls) or _plan(cls))[2]
    names = tuple(f.name for f in dataclasses.fields(cls))
    args = ", ".join(f"v{i}" for i in range(len(names)))
    twin = _twin(cls)
    if twin is not None:
        space: dict[str, Any] = {"twin": twin, "cls": cls, "new": object.__new__}
        stores = "".join(f"    o.{n} = v{i}\n" for i, n in enumerate(names))
        create = "twin()" if _plain_new(twin) else "new(twin)"
        exec(f"def make({args}):\n    o = {create}\n{stores}    o.__class__ = cls\n    return o\n",
             space)  # noqa: S102
    else:
        space = {"fill": fill}
        exec(f"def make({args}):\n    return fill(({args},))\n", space)  # noqa: S102
    make = space["make"]
    _MAKERS[cls] = make
    return make
