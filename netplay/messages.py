"""Every message of the LAN protocol, as pydantic models (protocol version ``PROTOCOL``).

Each frame is one map with ``t`` (the kind) and ``v`` (the protocol version).
Client to host: ``hello``, ``act``, ``undo``, ``ping``, ``bye``, ``chat``, ``rematch``.
Host to client: ``welcome``, ``info`` (answer to a probe hello), ``update``, ``seats``,
``error``, ``over``, ``pong``, ``chat-line``, ``moved`` (to a rematch's table).
Client to a table server (``netplay.server``), one request per connection:
``list-tables``, ``open-table``, ``take-seat``; answers ``table-list``, ``ticket``.

A view crosses the wire only as ``ViewData``, and ``ViewData`` can only be made from
an ``engine.core.View`` (what a game's ``view()`` returns) or, on the client side,
from a frame that arrived.  An ``Update`` holding anything else does not validate:
sending a raw state to a client is a type error, not a matter of care.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import operator
from itertools import compress
from operator import is_not
from typing import Annotated, Any, Literal, Union

import msgpack
from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, TypeAdapter, ValidationInfo
from pydantic import ValidationError, WrapValidator

from engine.core import Event, View, to_data, to_wire
from engine.record import repack

from .wire import HEADER, FrameError, encode_frame, pack_frame

PROTOCOL = 4  # 2: 128-bit seeds (Over.seed is a decimal string), Welcome.practice; 3: seats kept warm, clocks, chat;
# 4: bot levels (OpenTable.seats, SeatStatus.level)
SERVICE_TYPE = "_atlantis._tcp.local."


def rules_fingerprint(game: str, rules_version: str, options: dict[str, Any]) -> str:
    """A hash of what must agree between host and client: the game, its rules
    version, the table's options and the protocol version."""
    blob = json.dumps({"game": game, "rules": rules_version, "options": options, "protocol": PROTOCOL},
                      sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def commitment(seed: int | str, salt: str) -> str:
    """What the host publishes at the start and must be able to open at the end.
    (It binds only while the seed cannot be guessed: a secret seed has 128 bits.)"""
    return hashlib.sha256(f"atlantis-commit:{seed}:{salt}".encode()).hexdigest()


# --- views ---------------------------------------------------------------------------
class ViewData:
    """A seat's view as plain data, made only from a ``View`` (host side) or from a
    received frame (client side).  ``data`` is the wire form (a field-ordered list);
    ``packed`` its msgpack bytes, as they go into an update frame."""

    __slots__ = ("_data", "seat", "_packed", "_view")

    def __init__(self, view: View, memo: dict[int, tuple[Any, Any]] | None = None):
        """``memo`` (the host's, for one state of a table): the packed wire form of each
        field value by identity, so the parts the seats' views share (a board, a bag)
        are converted and packed once per move rather than once per seat.  The bytes are
        those of ``data`` packed, with or without it."""
        if not isinstance(view, View):
            raise TypeError(f"only a game's view() output may be sent to a client, not {type(view).__name__}")
        self.seat = view.seat
        self._view = view
        if memo is None:
            self._data = to_wire(view)
        else:
            self._packed = _packed_shared(view, memo)

    @classmethod
    def received(cls, data: list) -> "ViewData":
        obj = cls.__new__(cls)
        obj._data = data
        obj.seat = None
        return obj

    @property
    def data(self) -> Any:
        try:
            return self._data
        except AttributeError:
            data = self._data = to_wire(self._view)
            return data

    @property
    def packed(self) -> bytes:
        try:
            return self._packed
        except AttributeError:
            packed = self._packed = _PACK(self.data)
            return packed

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ViewData) and self.data == other.data

    __hash__ = None  # type: ignore[assignment]


_FIELDS: dict[type, Any] = {}
_PLAIN = frozenset((bool, int, float, str, bytes, type(None)))
_SCALARS = _PLAIN  # (to_wire packs a list or tuple of these as it is)
_STR = frozenset((str,))
_PACK = msgpack.Packer(use_bin_type=True).pack  # (the host's packer: one loop, never re-entered)


def pack_list(items: list) -> bytes:
    """``items`` packed (as ``pack_frame`` packs a list inside a map)."""
    return _PACK(items)


def array_head(n: int) -> bytes:
    """The msgpack header of an array of ``n`` items (the items' bytes follow it)."""
    if n < 16:
        return bytes((0x90 | n,))
    return b"\xdc" + n.to_bytes(2, "big") if n < 65536 else b"\xdd" + n.to_bytes(4, "big")


def _packed_shared(view: View, memo: dict[Any, Any]) -> bytes:
    """The bytes of ``pack(to_wire(view))``, field by field: an array's bytes are its
    header and its items' bytes, so each field value is packed on its own.  The first
    view of a type in a state is the template (``memo[type]``: its values, their bytes
    and which of them are of a mutable type); a later view (another seat's) packs only
    the fields whose value is not the very object the template holds, and the first
    starts from the state before's template: it packs only the fields whose value is
    not the very object that template held, or is of a mutable type."""
    t = type(view)
    fields = _FIELDS.get(t, _UNSEEN)
    if fields is _UNSEEN:
        names = tuple(f.name for f in dataclasses.fields(t)) if dataclasses.is_dataclass(t) else ()
        fields = _FIELDS[t] = operator.attrgetter(*names) if len(names) > 1 else None
    if fields is None:
        return _PACK(to_wire(view))
    values = fields(view)
    n = len(values)
    template = memo.get(t)
    if template is not None and len(template[0]) == n:
        out = template[1].copy()
        for i in compress(range(n), map(is_not, values, template[0])):
            value = values[i]
            t = type(value)
            if t in _PLAIN or (t is tuple and len(value) < 16 and _SCALARS.issuperset(map(type, value))):
                out[i + 1] = _PACK(value)  # (a seat's own hand: packed as it is, not kept)
            else:
                out[i + 1] = _pack_value(value, memo)
        return b"".join(out)
    older = memo.get(0)  # (the memo of the state before)
    before = older.get(t) if older is not None else None
    if before is not None and len(before[0]) == n:
        old, out = before[0], before[1].copy()
        redo: Any = compress(range(n), map(is_not, values, old))
        if before[2]:  # (values of a mutable type: packed again even when the same object)
            redo = sorted(set(redo).union(before[2]))
        for i in redo:  # (a board one move changed: only its changed cells are written)
            value = values[i]
            out[i + 1] = _PACK(value) if type(value) in _PLAIN else _pack_value(value, memo, old[i], out[i + 1])
    else:
        out = [array_head(n)]
        out += [_pack_value(value, memo) for value in values]
    mutable = () if _KNOWN_IMMUTABLE.issuperset(map(type, values)) else tuple(
        i for i, value in enumerate(values) if not _immutable(type(value)))
    memo[t] = (values, out, mutable)
    return b"".join(out)


_UNSEEN = object()


def _pack_value(value: Any, memo: dict[Any, Any], old: Any = None, old_bytes: bytes | None = None) -> bytes:
    """One field value's packed wire form: a plain value packed as it is; any other once
    per state, by identity, or taken from the state before when it is immutable and the
    very same object (``old``, ``old_bytes``: the value the field held in the state
    before and its bytes, ``engine.record.repack``)."""
    if type(value) in _PLAIN:
        return _PACK(value)
    key = id(value)
    hit = memo.get(key)
    if hit is None or hit[0] is not value:  # (the memo keeps the value alive: ids stay unique)
        older = memo.get(0)
        t = type(value)
        if older is not None and (t in _KNOWN_IMMUTABLE or _immutable(t)):
            hit = older.get(key)
            if hit is not None and hit[0] is value:
                memo[key] = hit
                return hit[1]
        if t is tuple and len(value) >= 16:
            packed = _pack_wire(value) if old_bytes is None else repack(_pack_wire, value, old, old_bytes)
            hit = memo[key] = (value, packed)
        else:
            hit = memo[key] = (value, _pack_wire(value))
    return hit[1]


def _pack_wire(value: Any) -> bytes:
    """``pack(to_wire(value, False))``."""
    t = type(value)
    if (t is tuple or t is list) and _SCALARS.issuperset(map(type, value)):
        return _PACK(value)  # (a board, a hand: packed as its list)
    return _PACK(to_wire(value, False))


# A value of an immutable type that is the very object it was at the last move has the
# same wire form (an engine state is immutable: what a move did not touch is shared).
_IMMUTABLE: dict[type, bool] = {tuple: True, frozenset: True, list: False, dict: False}
_KNOWN_IMMUTABLE = set(_PLAIN) | {tuple, frozenset}  # (and every frozen dataclass met)


def _immutable(t: type) -> bool:
    known = _IMMUTABLE.get(t)
    if known is None:
        params = getattr(t, "__dataclass_params__", None)
        known = _IMMUTABLE[t] = bool(params is not None and params.frozen)
        if known:
            _KNOWN_IMMUTABLE.add(t)
    return known


def _check_view(value: Any, handler: Any, info: ValidationInfo) -> ViewData:
    if isinstance(value, ViewData):
        return value
    if info.context and info.context.get("wire") and isinstance(value, list):
        return ViewData.received(value)
    raise ValueError("a view must be ViewData made from a game's view()")


ViewField = Annotated[Any, WrapValidator(_check_view), PlainSerializer(lambda v: v.data)]

# A name as sent.  A C0 control or DEL makes the hello invalid (no keyboard types one);
# otherwise only the length is capped here, and the host never shows a name as sent:
# ``netplay.text.clean_name`` keeps its printable part (1-24 characters, unique at the
# table), so a stray bidi override or zero-width character is cleaned, not refused.
Name = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[^\x00-\x1f\x7f]+$")]
Token = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]


class Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, arbitrary_types_allowed=True)
    v: int = PROTOCOL


# --- client to host --------------------------------------------------------------------
class Hello(Msg):
    t: Literal["hello"] = "hello"
    name: Name = "Player"
    token: Token | None = None
    table: Annotated[str, Field(max_length=32)] | None = None
    spectate: bool = False
    probe: bool = False  # only asks what the host offers (the lobby's check); no seat


class Act(Msg):
    t: Literal["act"] = "act"
    seq: Annotated[int, Field(ge=0, lt=1 << 31)]  # the version of the view the action was chosen on
    action: dict[str, Any]
    seat: Annotated[int, Field(ge=0, lt=64)] | None = None  # optional; must be the seat of the token
    n: Annotated[int, Field(ge=0, lt=1 << 31)] = 0  # the client's count of its actions (acknowledged)


class Undo(Msg):
    t: Literal["undo"] = "undo"
    seq: Annotated[int, Field(ge=0, lt=1 << 31)]


class Ping(Msg):
    t: Literal["ping"] = "ping"
    n: Annotated[int, Field(ge=0, lt=1 << 31)] = 0


class Bye(Msg):
    t: Literal["bye"] = "bye"


MAX_CHAT = 200  # characters in one chat line


class Chat(Msg):
    """A line of chat to the table (a spectator's: to the other spectators, where the
    host allows it).  The host cleans it (``netplay.text.clean_text``) and rate-limits it."""
    t: Literal["chat"] = "chat"
    text: Annotated[str, Field(min_length=1, max_length=MAX_CHAT)]


# --- client to a table server (``netplay.server``; a single-table host answers them
# with ``hello-first``).  Each is one request on its own connection, answered by one
# ``table-list``, ``ticket`` or ``error``; the seat itself is then taken with a normal
# ``hello`` carrying the ticket's table and token (a hello without one may only watch).
# ``identity``: the secret the server gave in ``TableList.identity`` (or an SSH
# session's); open-table and take-seat without one the server knows are refused.
Identity = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]
TableId = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_\-]+$")]


class ListTables(Msg):
    t: Literal["list-tables"] = "list-tables"
    identity: Identity | None = None  # the asker's identity secret (none yet: the answer brings one)


class OpenTable(Msg):
    t: Literal["open-table"] = "open-table"
    game: Annotated[str, Field(min_length=1, max_length=40)]
    options: Annotated[dict[str, Any], Field(max_length=32)] = {}
    players: Annotated[int, Field(ge=1, le=8)]
    bots: Annotated[int, Field(ge=0, le=7)] = 0
    table_name: Annotated[str, Field(max_length=40, pattern=r"^[^\x00-\x1f\x7f]*$")] = ""
    name: Name = "Player"
    identity: Identity | None = None
    turn_time: Annotated[float, Field(ge=0, le=7 * 86400)] = 0.0  # each seat's time per decision (0: none)
    # One word a seat, in order: "open" (a player's) or a bot level of the game; empty:
    # the last ``bots`` seats are bots of the default level.  Given, it must name
    # ``players`` seats, ``bots`` of them bots.
    seats: Annotated[list[Annotated[str, Field(min_length=1, max_length=16)]], Field(max_length=8)] = []


class TakeSeat(Msg):
    t: Literal["take-seat"] = "take-seat"
    table: TableId
    name: Name = "Player"
    identity: Identity | None = None


class Rematch(Msg):
    """After the game: this seat wants another (``accept``), or not (the rematch is off)."""
    t: Literal["rematch"] = "rematch"
    accept: bool = True


ClientMessage = Annotated[Union[Hello, Act, Undo, Ping, Bye, Chat, Rematch, ListTables, OpenTable, TakeSeat],
                          Field(discriminator="t")]


# --- host to client ---------------------------------------------------------------------
class TableInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    table: str
    name: str
    game: str
    rules: str
    fingerprint: str
    players: int
    open: int
    started: bool
    over: bool
    options: dict = {}
    turn_time: float = 0.0  # each seat's time per decision (0: no turn timer)


class Welcome(Msg):
    t: Literal["welcome"] = "welcome"
    table: str
    table_name: str
    game: str
    rules: str
    options: dict[str, Any]
    fingerprint: str
    seat: int | None
    token: str | None
    names: list[str]
    commitment: str
    practice: bool = False  # the seed was typed or named: known before the game began


class Info(Msg):
    t: Literal["info"] = "info"
    host: str
    tables: list[TableInfo]


class WireEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: str
    data: dict[str, Any]
    to: list[int] | None = None

    @classmethod
    def of(cls, event: Event) -> "WireEvent":
        return cls(kind=event.kind, data=to_data(dict(event.data)),
                   to=None if event.to is None else list(event.to))

    @staticmethod
    def wire(event: Event) -> dict[str, Any]:
        """What ``WireEvent.of(event)`` puts on the wire, as a plain map (the host's
        fast path: an event is converted once per move, not validated per seat)."""
        data = event.data
        if type(data) is dict and _PLAIN.issuperset(map(type, data.values())):
            keys = tuple(data)
            order = _KEY_ORDER.get(keys)
            if order is None:
                order = _key_order(keys)
            if order is not False:  # (what to_data makes of a map of plain values: its keys sorted)
                data = dict(data) if order is True else {k: data[k] for k in order}
                to = event.to
                return {"kind": event.kind, "data": data, "to": None if to is None else list(to)}
        return {"kind": event.kind, "data": to_data(dict(data)),
                "to": None if event.to is None else list(event.to)}

    def event(self) -> Event:
        from engine.core import _tuplify

        return Event(self.kind, _tuplify(self.data), None if self.to is None else tuple(self.to))


# An event's data keys in their order -> the same keys sorted (True: they are in order;
# False: not all of them are strings, to_data's way); the kinds of event a game makes
# have few key sets.
_KEY_ORDER: dict[tuple, Any] = {}


def _key_order(keys: tuple) -> Any:
    if not _STR.issuperset(map(type, keys)):
        return False
    order = tuple(sorted(keys))
    order = True if order == keys else order
    if len(_KEY_ORDER) < 4096:
        _KEY_ORDER[keys] = order
    return order


class Update(Msg):
    t: Literal["update"] = "update"
    seq: int               # version of this seat's view; an Act must carry it back
    view: ViewField
    events: list[WireEvent]
    to_act: list[int]
    resync: bool = False   # True: ``events`` is the seat's whole log, not just the news
    ack: int = 0           # the ``n`` of the last action of this seat the host has handled


class SeatStatus(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    kind: str          # "open" | "bot" | "local"
    level: str = ""    # a bot's level ("": the default level)
    taken: bool
    connected: bool
    standin: bool = False       # a bot plays this player's seat until they return
    label: str = ""             # how every screen names the seat: "Blue (bot until Ana returns)"
    clock: float | None = None  # seconds left on its turn timer when this was sent (None: no clock runs)


class Seats(Msg):
    t: Literal["seats"] = "seats"
    seats: list[SeatStatus]
    started: bool
    spectators: int = 0
    turn_time: float = 0.0  # seconds each seat has for each decision (0: no turn timer)
    rematch: list[int] = []  # after the game: the seats that asked for a rematch


class Error(Msg):
    t: Literal["error"] = "error"
    code: str
    message: str
    fatal: bool = False
    ack: int | None = None  # the ``n`` of the action refused, if it was one


class Over(Msg):
    t: Literal["over"] = "over"
    scores: list[float]
    winners: list[int]
    reason: str
    seed: Annotated[str, Field(max_length=80, pattern=r"^[0-9]+$")]  # revealed only now
    salt: str
    moves: list[dict[str, Any]]  # every move {seat, action}: lets each client replay the game
    digest: str


class Pong(Msg):
    t: Literal["pong"] = "pong"
    n: int = 0


class ChatLine(Msg):
    """A line of the table's chat as the host passes it on: who said it (their seat, or
    None: a spectator; their name at the table) and the cleaned text."""
    t: Literal["chat-line"] = "chat-line"
    seat: int | None
    name: str
    text: str
    spectator: bool = False  # said by a spectator (only spectators hear it)
    notice: bool = False     # the table's own word (a bot keeps a seat warm, a clock ran out): nobody said it


class Ticket(BaseModel):
    """A seat held at a table of a server: join it with ``Hello(table=, token=)``."""
    model_config = ConfigDict(extra="forbid", frozen=True)
    table: str
    seat: int
    token: str


class TableList(Msg):
    """A table server's lobby: its tables, the seats the asker holds, what it may open."""
    t: Literal["table-list"] = "table-list"
    server: str
    tables: list[TableInfo]
    mine: list[Ticket] = []
    games: list[str] = []        # the games a table may be opened for
    can_open: bool = True
    limit: str = ""              # the limits in one sentence (shown in the lobby)
    identity: str | None = None  # the asker's identity secret, to send with every request (keep it)
    your_turn: list[str] = []    # the tables (of ``mine``) where the asker is to act now


class Seated(Msg):
    t: Literal["ticket"] = "ticket"
    ticket: Ticket


class Moved(Msg):
    """Every human accepted a rematch: the new table, and this connection's token there
    (None: a spectator, who watches it).  The client joins it at once."""
    t: Literal["moved"] = "moved"
    table: str
    token: str | None = None


HostMessage = Annotated[Union[Welcome, Info, Update, Seats, Error, Over, Pong, ChatLine, Moved, TableList, Seated],
                        Field(discriminator="t")]

_CLIENT = TypeAdapter(ClientMessage)
_HOST = TypeAdapter(HostMessage)


def _check_version(obj: dict[str, Any]) -> None:
    v = obj.get("v")
    if v != PROTOCOL:
        raise FrameError(f"protocol version {v!r:.20} is not spoken here (this program speaks {PROTOCOL})")


def _explain(exc: ValidationError) -> str:
    first = exc.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])[:60]
    return f"bad message: {first['msg'][:80]} at {loc or 'top'}"


def parse_client(obj: dict[str, Any]) -> Any:
    """Validate a decoded frame from a client; ``FrameError`` says what is wrong."""
    _check_version(obj)
    try:
        return _CLIENT.validate_python(obj)
    except ValidationError as exc:
        raise FrameError(_explain(exc)) from None


_ACT_KEYS = frozenset(("v", "t", "seq", "action", "seat", "n"))
_U31 = 1 << 31


def act_fields(obj: dict[str, Any]) -> tuple[int, dict[str, Any], int | None, int] | None:
    """``(seq, action, seat, n)`` of a valid ``act`` frame, checked by hand as ``Act``'s
    schema would (strict types: a bool is not an int; no other keys; an action's keys
    are strings), or None when it is not exactly one: then ``parse_client`` says why.
    (The host's hot path: one action a move, no model built.)"""
    if obj.get("t") != "act" or obj.get("v") != PROTOCOL or not _ACT_KEYS.issuperset(obj):
        return None
    seq, action, seat, n = obj.get("seq"), obj.get("action"), obj.get("seat"), obj.get("n", 0)
    if type(seq) is not int or not 0 <= seq < _U31 or type(n) is not int or not 0 <= n < _U31:
        return None
    if seat is not None and (type(seat) is not int or not 0 <= seat < 64):
        return None
    if type(action) is not dict or not _STR.issuperset(map(type, action)):
        return None
    return seq, dict(action), seat, n


def parse_host(obj: dict[str, Any]) -> Any:
    _check_version(obj)
    try:
        return _HOST.validate_python(obj, context={"wire": True})
    except ValidationError as exc:
        raise FrameError(_explain(exc)) from None


def frame(msg: Msg) -> bytes:
    """The bytes of one message on the wire."""
    return encode_frame(msg.model_dump(mode="python"))


def update_frame(seq: int, view: ViewData, events: list[dict[str, Any]], to_act: list[int],
                 resync: bool = False, ack: int = 0) -> bytes:
    """The bytes of ``frame(Update(...))`` without building and validating the model: the
    host's own update.  ``events`` are ``WireEvent.wire`` maps.  The view must still be
    ``ViewData`` (made only from a ``View``): a raw state cannot be sent this way either."""
    return update_bytes(seq, view, _PACK(events), _PACK(to_act), resync, ack)


# The update map, key by key, in the order ``pack_frame`` of the Update's fields packs it.
_UPDATE_HEAD = b"\x88" + b"".join(_PACK(x) for x in ("v", PROTOCOL, "t", "update", "seq"))
_K_VIEW, _K_EVENTS, _K_TO_ACT, _K_ACK = (_PACK(k) for k in ("view", "events", "to_act", "ack"))
_K_RESYNC = {False: _PACK("resync") + _PACK(False), True: _PACK("resync") + _PACK(True)}


def update_bytes(seq: int, view: ViewData, events: bytes, to_act: bytes, resync: bool = False,
                 ack: int = 0) -> bytes:
    """``update_frame`` with the events and the seats to act already packed (the host
    packs them once per move for every seat): the frame is its parts' bytes joined,
    the same bytes as packing the whole map."""
    if type(view) is not ViewData:
        raise TypeError(f"an update's view must be ViewData made from a game's view(), not {type(view).__name__}")
    parts = [b"", _UPDATE_HEAD, _PACK(seq), _K_VIEW, view.packed, _K_EVENTS, events, _K_TO_ACT, to_act,
             _K_RESYNC[bool(resync)], _K_ACK, _PACK(ack)]
    parts[0] = HEADER.pack(sum(map(len, parts)))
    return b"".join(parts)


def update_tail(events: bytes, to_act: bytes, resync: bool = False) -> bytes:
    """The bytes of an update between its view and its ack's value: the packed events
    and seats to act with their keys, ``resync`` and the ack's key (the same for every
    seat a move's events and seats to act are sent to: joined once per move)."""
    return b"".join((_K_EVENTS, events, _K_TO_ACT, to_act, _K_RESYNC[bool(resync)], _K_ACK))


_FIXED = len(_UPDATE_HEAD) + len(_K_VIEW)


def update_with_tail(seq: int, view: ViewData, tail: bytes, ack: int = 0) -> bytes:
    """``update_bytes`` with its ``update_tail`` joined already."""
    if type(view) is not ViewData:
        raise TypeError(f"an update's view must be ViewData made from a game's view(), not {type(view).__name__}")
    try:
        packed = view._packed
    except AttributeError:
        packed = view.packed
    seq_b, ack_b = _PACK(seq), _PACK(ack)
    size = _FIXED + len(seq_b) + len(packed) + len(tail) + len(ack_b)
    return b"".join((HEADER.pack(size), _UPDATE_HEAD, seq_b, _K_VIEW, packed, tail, ack_b))
