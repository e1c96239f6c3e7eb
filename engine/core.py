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

The state discipline (one, for every game): a state is a **frozen slots dataclass**
whose fields hold only immutable values (ints, strings, tuples, other frozen
dataclasses, ``Rng``); it is never changed, only rebuilt with ``replace(state,
**changes)`` below (a fast ``dataclasses.replace``).  A rule that changes several
fields gathers them and calls ``replace`` once.  Views are frozen dataclasses too.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Iterable, Mapping, Sequence

from .options import read_options

if TYPE_CHECKING:  # pydantic is imported where options enter from outside, not by the rules
    from pydantic import TypeAdapter

# --- the state discipline (its helpers live in engine/states.py) ---------------------------
from .states import build, make, maker, replace, state_class  # noqa: E402,F401  (re-exported)


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
class LogLine:
    """One line of the event log: the seat whose action it tells (None when no seat
    acted: whose turn it is, the dice, the end), the event's kind, and its words for
    the viewer it was described for (``engine.text`` builds it from a game's table).
    ``run``: one of a run of like lines the log says once (its words tell the run: "Blue
    is laying their voting cards face down.", one line for five cards)."""

    actor: int | None
    kind: str
    text: str
    run: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str


class View:
    """Marker base class of every per-seat view (a frozen dataclass in each game).

    ``seat`` is the seat the view belongs to (``None`` for a spectator).
    No slots of its own, and no ``__dict__`` in the games' slotted views.
    """

    __slots__ = ()
    seat: int | None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    kind: str = "human"  # "human" | "bot" | "remote"
    level: str = ""  # a bot's level (one of its game's ``bot_levels``); "": the default level

    @property
    def bot_level(self) -> str:
        """The level this seat's bot plays at (``DEFAULT_BOT_LEVEL`` unless one was chosen)."""
        return self.level or DEFAULT_BOT_LEVEL


#: The levels every game's bots play at, the easiest first (``engine.levels`` builds them;
#: a game's manifest may list more, such as random), and the level of a bot nobody chose one for.
BOT_LEVELS = ("easy", "normal", "hard")
DEFAULT_BOT_LEVEL = "normal"


def bot_seat(name: str, level: str = "") -> SeatInfo:
    """A bot's seat at ``level`` (the default level is kept as "": a record of a table
    with default bots reads as it always did)."""
    return SeatInfo(name, "bot", "" if level == DEFAULT_BOT_LEVEL else level)


def bot_label(name: str, level: str) -> str:
    """A bot as every table names it, with its level: "Blue (hard bot)"."""
    return f"{name} ({level or DEFAULT_BOT_LEVEL} bot)"


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


def to_wire(obj: Any, top: bool = True) -> Any:
    """``to_data`` for views crossing the network: the same, except that dataclasses and
    NamedTuples *inside* the value are tagged ``{"@": class name, "f": fields}`` so a
    client can rebuild them even where the view's type hints say only ``tuple``.  The
    top level (the view itself) stays a field-ordered list.  (The host encodes a view
    per seat per move, so the common cases take a fast path.)"""
    t = type(obj)
    if t in _SCALARS:
        return obj
    if t is tuple or t is list:
        if _SCALARS.issuperset(map(type, obj)):  # boards, hands: no recursion
            return list(obj)
        return [to_wire(v, False) for v in obj]
    kind = _wire_kind(t)
    if type(kind) is tuple:
        fields = [to_wire(getattr(obj, n), False) for n in kind]
        return fields if top else {"@": t.__name__, "f": fields}
    if kind == "namedtuple":
        return {"@": t.__name__, "f": [to_wire(v, False) for v in obj]}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, (list, tuple)):
        return [to_wire(v, False) for v in obj]
    if isinstance(obj, Mapping):
        return {str(k): to_wire(obj[k], False) for k in sorted(obj, key=str)}
    return to_data(obj)


@functools.cache
def _wire_kind(t: type) -> Any:
    """How ``to_wire`` writes a value of type ``t``: its field names (a dataclass),
    "namedtuple", or "" (anything else)."""
    if dataclasses.is_dataclass(t):
        return tuple(f.name for f in dataclasses.fields(t))
    if issubclass(t, tuple) and hasattr(t, "_fields"):
        return "namedtuple"
    return ""
_SCALARS = frozenset((int, float, str, bool, bytes, type(None)))


class ActionCodec:
    """Encodes actions (NamedTuples) as ``{"k": kind, field: value}`` maps and
    validates them back with pydantic, whatever their source: keyboard, wire, file."""

    def __init__(self, kinds: Mapping[str, type]):
        for index, cls in enumerate(kinds.values()):
            _make_type_aware(cls, index)
        self.kinds = dict(kinds)
        self.names = {cls: name for name, cls in self.kinds.items()}
        # Built on first use: a pydantic TypeAdapter costs milliseconds to make, and
        # every game's codec is created when the registry is imported (app start).
        self.adapters: dict[str, TypeAdapter] = {}

    def encode(self, action: Any) -> dict[str, Any]:
        name = self.names.get(type(action))
        if name is None:
            raise TypeError(f"not an action: {action!r}")
        out: dict[str, Any] = {"k": name}
        for key, value in zip(action._fields, action):
            out[key] = to_data(value)
        return out

    def decode(self, data: Any) -> Any:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise IllegalAction("An action must be a map with a 'k' kind.")
        name = data.get("k")
        cls = self.kinds.get(name) if isinstance(name, str) else None
        if cls is None:
            raise IllegalAction(f"Unknown action kind {name!r:.40}.")
        # The common case without pydantic: every field present (or defaulted) and of
        # exactly its annotated type (int, bool or str: a kind with any other annotation
        # always takes pydantic's way), which pydantic would return unchanged.  Any
        # other map (an extra or missing field, a value to coerce or refuse) is
        # pydantic's, exactly as before.
        try:
            plans = self._plans
        except AttributeError:
            plans = self._plans = {}
        plan = plans.get(name)
        if plan is None:
            import typing

            try:
                hints = typing.get_type_hints(cls)
            except Exception:  # (an annotation that does not resolve: pydantic decides)
                hints = {}
            types = tuple(hints.get(f) for f in cls._fields)
            unset = object()  # (a missing field's value: of no annotated type)
            plan = plans[name] = (
                frozenset(cls._fields) | {"k"},
                tuple(cls._field_defaults.get(f, unset) for f in cls._fields),
                types if all(t in (int, bool, str) for t in types) else None,
            )
        keys, defaults, types = plan
        fields = cls._fields
        if types is not None and keys.issuperset(data):
            values = tuple(map(data.get, fields, defaults))
            if all(map(operator.is_, map(type, values), types)):
                return tuple.__new__(cls, values)
        extra = set(data) - set(fields) - {"k"}
        if extra:
            shown = ", ".join(sorted(repr(x)[:20] for x in extra))[:80]
            raise IllegalAction(f"Action {name!r} has unknown fields: {shown}.")
        missing = [f for f in fields if f not in data and f not in cls._field_defaults]
        if missing:
            raise IllegalAction(f"Action {name!r} is missing: {', '.join(missing)}.")
        values = [data.get(f, cls._field_defaults.get(f)) for f in fields]
        from pydantic import TypeAdapter, ValidationError

        try:
            adapter = self.adapters.get(name)
            if adapter is None:
                adapter = self.adapters[name] = TypeAdapter(cls)
            return adapter.validate_python(tuple(values), strict=False)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise IllegalAction(f"Action {name!r}: {first['msg']} at {first['loc']}.") from None


def _make_type_aware(cls: type, index: int) -> None:
    """NamedTuples compare as plain tuples, so ``Rotate(5, 1) == Step(5, 1)`` and
    ``EndPlays() == EndMove()``.  Actions must differ by kind: compare the type
    too, and hash with an index (not the class name, whose hash varies by process)."""

    teq = tuple.__eq__  # (read once: rules compare actions in their hot loops)

    def __eq__(self: Any, other: Any) -> bool:
        return type(self) is type(other) and teq(self, other)

    def __ne__(self: Any, other: Any) -> bool:
        return not __eq__(self, other)

    def __hash__(self: Any) -> int:
        return tuple.__hash__((index, *self))

    cls.__eq__ = __eq__  # type: ignore[method-assign]
    cls.__ne__ = __ne__  # type: ignore[method-assign]
    cls.__hash__ = __hash__  # type: ignore[method-assign]


class Game:
    """Base class of a game's rules object. Subclasses fill in the contract, and name their
    package's manifest (``manifest = MANIFEST``): its slug, title, player counts and seat names
    become the class's, so they are written once."""

    manifest: ClassVar[Any] = None
    slug: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    #: What a Result's scores count ("points"); "" for a game that has none (its scores
    #: are 1 for a winner, 0 for the others), so the game-over screen shows no numbers.
    score_unit: ClassVar[str] = "points"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    seat_names: ClassVar[Sequence[str]] = ("Red", "Blue", "Green", "Yellow", "Purple", "White")
    # The options type: a frozen dataclass built from the game's field table
    # (``engine.options.options_class``).
    options_model: ClassVar[type]
    codec: ClassVar[ActionCodec]
    # The game's view dataclass (what ``view()`` returns); None: taken from the
    # return annotation of ``view``.  ``view_from_data`` rebuilds one from the wire.
    view_type: ClassVar[type | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        manifest = cls.__dict__.get("manifest")
        if manifest is not None:
            cls.slug, cls.title = manifest.slug, manifest.title
            cls.min_players, cls.max_players = manifest.min_players, manifest.max_players
            cls.seat_names = manifest.seat_names

    # --- contract -----------------------------------------------------------
    def setup(self, options: Any, seats: int, seed: int) -> Any:
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
    def parse_options(self, raw: Any) -> Any:
        """The options (of the type ``options_model``) from the options themselves, or
        from None or a mapping that came from outside (checked: ``engine.options``)."""
        return read_options(self.options_model, raw)

    def rng_of(self, state: Any) -> Any:
        return state.rng

    def undo_barrier(self, before: Any, after: Any, seat: int, action: Any) -> str | None:
        """Why the step from ``before`` to ``after`` may not be undone, or None."""
        if self.rng_of(before) != self.rng_of(after):
            return "it used the shuffled pile or a die roll"
        return None

    # A game package keeps its words in ``text.py`` (``EVENT_TEXT``, ``describe_action``,
    # ``HELP``, optionally ``reveal``) and its bots in ``bot.py`` (``make_bot``); these
    # defaults find them there, imported only when first needed.
    def _part(self, name: str) -> Any:
        import importlib

        package = type(self).__module__.rpartition(".")[0]
        if not package:
            return None
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{name}":
                raise
            return None

    def describe(self, event: Event, seat: int | None, names: Sequence[str]) -> LogLine:
        """The event's line in the log as ``seat`` sees it: who acted, the kind, the words."""
        text = self._part("text")
        return text.EVENT_TEXT.line(event, seat, names) if text else LogLine(None, event.kind, event.kind)

    def describe_action(self, action: Any, view: View | None = None) -> str:
        """The action in a few words; ``view`` (the actor's) for words that need it (a
        cell named on its map's size)."""
        text = self._part("text")
        return text.describe_action(action, view) if text else repr(action)

    def make_bot(self, seat: int, seed: int, level: str = "normal") -> "Bot":
        bots = self._part("bot")
        if bots is None:
            raise NotImplementedError(f"{self.slug} has no bot module")
        return bots.make_bot(seat, seed, level)

    def rerandomise(self, state: Any, seat: int, rng: Any) -> Any:
        """Same state, with everything ``seat`` may not know re-drawn (leak tests)."""
        raise NotImplementedError

    def reveal(self, state: Any, names: Sequence[str]) -> list[str]:
        """Lines telling everything hidden in ``state`` (replays of finished games)."""
        text = self._part("text")
        return text.reveal(state, names) if text and hasattr(text, "reveal") else []

    def help_markdown(self) -> str:
        text = self._part("text")
        return text.HELP if text else f"# {self.title}\n"

    def view_class(self) -> type:
        """The view dataclass of this game (``view_type``, or ``view``'s return annotation)."""
        cls = self.view_type
        if cls is None:
            import typing

            cls = typing.get_type_hints(type(self).view).get("return")
        if not (isinstance(cls, type) and issubclass(cls, View) and dataclasses.is_dataclass(cls)):
            raise TypeError(f"{type(self).__name__} names no View dataclass (set view_type)")
        return cls

    def view_to_data(self, view: View) -> Any:
        """A view as plain msgpack-able data for the network (see ``to_wire``)."""
        if not isinstance(view, View):
            raise TypeError(f"not a view: {type(view).__name__}")
        return to_wire(view)

    def view_from_data(self, data: Any) -> View:
        """The inverse of ``view_to_data`` (and of ``to_data`` for views whose fields are
        typed): rebuild the game's view dataclass from field-ordered data.  Generic for
        every game: driven by the view's type hints; tagged values become the classes of
        the view's module that they name; other lists become tuples."""
        import sys

        cls = self.view_class()
        return _from_data(cls, data, vars(sys.modules[cls.__module__]))


def _tuplify(value: Any, ns: Mapping[str, Any] | None = None) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(v, ns) for v in value)
    if isinstance(value, dict):
        if ns is not None and _is_tag(value):
            return _untag(value, ns)
        return {k: _tuplify(v, ns) for k, v in value.items()}
    return value


def _is_tag(value: Any) -> bool:
    return isinstance(value, dict) and len(value) == 2 and "@" in value and "f" in value


def _untag(value: dict, ns: Mapping[str, Any]) -> Any:
    """Rebuild a tagged dataclass / NamedTuple; only classes of the view's own module."""
    cls = ns.get(value["@"]) if isinstance(value["@"], str) else None
    if not (isinstance(cls, type) and (dataclasses.is_dataclass(cls)
                                       or (issubclass(cls, tuple) and hasattr(cls, "_fields")))):
        raise ValueError(f"unknown tagged type {value['@']!r:.40}")
    return _from_data(cls, value["f"], ns)


def _from_data(tp: Any, value: Any, ns: Mapping[str, Any] | None = None) -> Any:
    """Rebuild a value of type ``tp`` from ``to_wire`` / ``to_data`` output; raises
    ValueError on a shape that does not fit (another rules version, a corrupt frame)."""
    return _decoder(tp, ns)(value)


def _decoder(tp: Any, ns: Mapping[str, Any] | None) -> Any:
    """A function decoding one value of type ``tp`` (made once per type and namespace:
    views are decoded on every update, so this is on the client's hot path)."""
    return _decoder_in(tp, _module_of(ns))


@functools.cache
def _decoder_in(tp: Any, module: str | None) -> Any:
    import sys

    return _make_decoder(tp, None if module is None else vars(sys.modules[module]))


def _module_of(ns: Mapping[str, Any] | None) -> str | None:
    """The module whose namespace ``ns`` is (a view's classes are looked up in it)."""
    return None if ns is None else ns["__name__"]


def _make_decoder(tp: Any, ns: Mapping[str, Any] | None) -> Any:
    import collections.abc as abc
    import types
    import typing

    def tuplify(v: Any) -> Any:
        return _tuplify(v, ns)

    if tp is Any or tp is None or isinstance(tp, typing.TypeVar):
        return tuplify
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        args = typing.get_args(tp)
        none_ok = type(None) in args
        decs = [_decoder(a, ns) for a in args if a is not type(None)]

        def union(v: Any) -> Any:
            if v is None and none_ok:
                return None
            for d in decs:
                try:
                    return d(v)
                except (ValueError, TypeError):
                    continue
            raise ValueError(f"{v!r:.40} fits none of {tp}")
        return union
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or (issubclass(tp, tuple) and hasattr(tp, "_fields"))):
        hints = typing.get_type_hints(tp)
        if dataclasses.is_dataclass(tp):
            names = [f.name for f in dataclasses.fields(tp) if f.init]
        else:
            names = list(tp._fields)
        cell: list[Any] = []  # the fields' decoders, made on first use: a field may be of type tp

        def record(v: Any) -> Any:
            if ns is not None and _is_tag(v):
                return _untag(v, ns)
            if not isinstance(v, (list, tuple)) or len(v) != len(names):
                raise ValueError(f"{tp.__name__} needs {len(names)} fields")
            if not cell:
                cell.extend(_decoder(hints.get(n, Any), ns) for n in names)
            return tp(*[d(x) for d, x in zip(cell, v)])
        return record
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp
    if origin is tuple or origin in (list, abc.Sequence) or tp in (list, tuple):
        args = typing.get_args(tp)
        if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            decs = [_decoder(a, ns) for a in args]

            def fixed(v: Any) -> Any:
                if not isinstance(v, (list, tuple)) or len(v) != len(decs):
                    raise ValueError(f"expected {len(decs)} items for {tp}")
                return tuple(d(x) for d, x in zip(decs, v))
            return fixed
        item = args[0] if args else Any
        if item is Any:
            def anyseq(v: Any) -> Any:
                if ns is not None and _is_tag(v):  # a NamedTuple where the hint says tuple
                    return _untag(v, ns)
                if not isinstance(v, (list, tuple)):
                    raise ValueError(f"expected a sequence for {tp}")
                return tuplify(v)
            return anyseq
        d = _decoder(item, ns)
        fast = frozenset((item,)) if item in (int, str, bool, bytes) else None

        def seq(v: Any) -> Any:
            if not isinstance(v, (list, tuple)):
                raise ValueError(f"expected a sequence for {tp}")
            if fast is not None and fast.issuperset(map(type, v)):
                return tuple(v)
            return tuple(d(x) for x in v)
        return seq
    if origin in (dict, abc.Mapping) or tp is dict:
        kt, vt = typing.get_args(tp) or (Any, Any)
        dv = _decoder(vt, ns)

        def mapping(v: Any) -> Any:
            if not isinstance(v, dict):
                raise ValueError(f"expected a map for {tp}")
            return {(int(k) if kt is int else k): dv(x) for k, x in v.items()}
        return mapping
    if tp in (int, float, str, bool, bytes):
        def scalar(v: Any) -> Any:
            if tp is float and isinstance(v, int) and not isinstance(v, bool):
                return float(v)
            if not isinstance(v, tp):
                raise ValueError(f"expected {tp.__name__}, got {type(v).__name__}")
            return v
        return scalar
    return tuplify


class Bot:
    """A bot sees exactly what a human in its seat sees: its view and legal actions."""

    #: A decision may take a good part of a second or more (a search): a table runs it
    #: off its event loop (``netplay.thinking``); False: it takes well under a millisecond.
    slow: ClassVar[bool] = False

    def choose(self, view: View, legal: list[Any]) -> Any:
        raise NotImplementedError


class RandomBot(Bot):
    """Any legal action, uniformly, from the bot's own keyed stream, ``"{stream}-{seat}"``
    of the game's seed (each game names its stream: its demos and goldens depend on the
    draws).  The stream is read as a cursor (``rng.Draws``: the same draws as ``Rng``'s,
    no ``Rng`` made a draw); ``rng`` is where it stands, and may be set."""

    stream: ClassVar[str] = "random-bot"

    def __init__(self, seat: int, seed: int):
        from .rng import Draws, Rng

        self.draws = Draws(Rng.from_seed(seed, f"{self.stream}-{seat}"))

    def choose(self, view: View, legal: list[Any]) -> Any:
        return legal[self.draws.below(len(legal))]  # (``Draws.choice``, one call fewer a move)

    rng = property(lambda self: self.draws.rng, lambda self, rng: setattr(self.draws, "rng", rng))


def iter_visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    return [e for e in events if e.visible_to(seat)]
