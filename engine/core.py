"""The contract every game implements, and the small values that cross it.

A game is one object (a ``Game`` subclass) with pure functions over immutable
states:

* ``setup(options, seats, seed) -> state``
* ``view(state, seat) -> View``: everything ``seat`` may know and nothing else;
  ``seat=None`` is a spectator.  Views are built by whitelisting fields.
* ``legal(view) -> list[action]``: computed from the view alone.
* ``apply(state, seat, action) -> (state, events)``: pure; raises ``IllegalAction``.
* ``to_act(state) -> frozenset[int]``: who may act now (several for secret choices).
* ``result(state) -> Result | None``.

Only ``View`` instances may leave the engine for a seat (the network layer and the
screens accept nothing else), which makes "send the raw state" a type error.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, NamedTuple, Sequence

from pydantic import BaseModel, TypeAdapter, ValidationError


class IllegalAction(Exception):
    """Raised by ``apply`` with a sentence a player understands."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``to=None`` is public; else the seats that see it."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True, slots=True)
class Result:
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str


class View:
    """Marker base class of every per-seat view (a frozen dataclass in each game).

    ``seat`` is the seat the view belongs to (``None`` for a spectator).
    """

    seat: int | None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    kind: str = "human"  # "human" | "bot" | "remote"


def to_data(obj: Any) -> Any:
    """Canonical plain data (for msgpack) of engine values.

    Dataclasses become lists in field order, NamedTuples lists, enums their value,
    mappings get sorted keys.  Sets are refused: their order is not canonical.
    """
    if obj is None or isinstance(obj, (bool, int, float, str, bytes)):
        return obj
    if isinstance(obj, enum.Enum):
        return obj.value
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return [to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)]
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return [to_data(v) for v in obj]
    if isinstance(obj, (list, tuple)):
        return [to_data(v) for v in obj]
    if isinstance(obj, Mapping):
        return {str(k): to_data(obj[k]) for k in sorted(obj, key=str)}
    if isinstance(obj, (set, frozenset)):
        raise TypeError("sets have no canonical order; use a sorted tuple")
    if hasattr(obj, "key") and hasattr(obj, "counter"):  # Rng (slots dataclass handled above)
        return [obj.key, obj.counter]
    raise TypeError(f"cannot encode {type(obj).__name__}")


class ActionCodec:
    """Encodes actions (NamedTuples) as ``{"k": kind, field: value}`` maps and
    validates them back with pydantic, whatever their source: keyboard, wire, file."""

    def __init__(self, kinds: Mapping[str, type]):
        for index, cls in enumerate(kinds.values()):
            _make_type_aware(cls, index)
        self.kinds = dict(kinds)
        self.names = {cls: name for name, cls in self.kinds.items()}
        self.adapters = {name: TypeAdapter(cls) for name, cls in self.kinds.items()}

    def encode(self, action: Any) -> dict[str, Any]:
        name = self.names.get(type(action))
        if name is None:
            raise TypeError(f"not an action: {action!r}")
        out: dict[str, Any] = {"k": name}
        for key, value in zip(action._fields, action):
            out[key] = to_data(value)
        return out

    def decode(self, data: Any) -> Any:
        if not isinstance(data, Mapping):
            raise IllegalAction("An action must be a map with a 'k' kind.")
        name = data.get("k")
        cls = self.kinds.get(name) if isinstance(name, str) else None
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
            return self.adapters[name].validate_python(tuple(values), strict=False)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise IllegalAction(f"Action {name!r}: {first['msg']} at {first['loc']}.") from None


def _make_type_aware(cls: type, index: int) -> None:
    """NamedTuples compare as plain tuples, so ``Rotate(5, 1) == Step(5, 1)`` and
    ``EndPlays() == EndMove()``.  Actions must differ by kind: compare the type
    too, and hash with an index (not the class name, whose hash varies by process)."""

    def __eq__(self: Any, other: Any) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self: Any, other: Any) -> bool:
        return not __eq__(self, other)

    def __hash__(self: Any) -> int:
        return tuple.__hash__((index, *self))

    cls.__eq__ = __eq__  # type: ignore[method-assign]
    cls.__ne__ = __ne__  # type: ignore[method-assign]
    cls.__hash__ = __hash__  # type: ignore[method-assign]


class Game:
    """Base class of a game's rules object. Subclasses fill in the contract."""

    slug: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    seat_names: ClassVar[Sequence[str]] = ("Red", "Blue", "Green", "Yellow", "Purple", "White")
    options_model: ClassVar[type[BaseModel]]
    codec: ClassVar[ActionCodec]

    # --- contract -----------------------------------------------------------
    def setup(self, options: BaseModel, seats: int, seed: int) -> Any:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> View:
        raise NotImplementedError

    def legal(self, view: View) -> list[Any]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]:
        raise NotImplementedError

    def to_act(self, state: Any) -> frozenset[int]:
        raise NotImplementedError

    def result(self, state: Any) -> Result | None:
        raise NotImplementedError

    # --- helpers with sensible defaults ----------------------------------------
    def parse_options(self, raw: Mapping[str, Any] | BaseModel | None) -> BaseModel:
        if isinstance(raw, self.options_model):
            return raw
        try:
            return self.options_model.model_validate(dict(raw or {}))
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise ValueError(f"bad option {loc}: {first['msg']}") from None

    def rng_of(self, state: Any) -> Any:
        return state.rng

    def undo_barrier(self, before: Any, after: Any, seat: int, action: Any) -> str | None:
        """Why the step from ``before`` to ``after`` may not be undone, or None."""
        if self.rng_of(before) != self.rng_of(after):
            return "it used the shuffled pile or a die roll"
        return None

    def describe(self, event: Event, seat: int | None, names: Sequence[str]) -> str:
        """A plain sentence for the event log, as seen by ``seat``."""
        return f"{event.kind}"

    def describe_action(self, action: Any) -> str:
        return repr(action)

    def make_bot(self, seat: int, seed: int, level: str = "normal") -> "Bot":
        raise NotImplementedError

    def rerandomise(self, state: Any, seat: int, rng: Any) -> Any:
        """Same state, with everything ``seat`` may not know re-drawn (leak tests)."""
        raise NotImplementedError

    def reveal(self, state: Any, names: Sequence[str]) -> list[str]:
        """Lines telling everything hidden in ``state`` (replays of finished games)."""
        return []

    def help_markdown(self) -> str:
        return f"# {self.title}\n"


class Bot:
    """A bot sees exactly what a human in its seat sees: its view and legal actions."""

    def choose(self, view: View, legal: list[Any]) -> Any:
        raise NotImplementedError


def iter_visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    return [e for e in events if e.visible_to(seat)]
