"""Game records: a header and the moves, each with the digest of the state after it.

File format (format version 2): a stream of msgpack maps.  The first is the header
``{"magic", "format", "game", "rules", "options", "seats", "seed", "practice",
"start"}``; every following map is one move ``{"seat", "action", "digest"}``.  The
seed is a decimal string (a secret seed has 128 bits, more than msgpack's integers
hold); ``practice`` is true when the seed was typed or came from a named setup, so
it was known to someone before the game began.  Format 1 (64-bit SplitMix64 keys)
is refused with one line: its shuffles cannot be rebuilt by this version.  A stream can be
appended to move by move, so the same format serves saved games, auto-saves and
the network host's crash log.  This module encodes and decodes; reading and writing
files is ``engine.storage``'s (``save_record``, ``load_record``).
"""

from __future__ import annotations

import dataclasses
import functools
import enum
import hashlib
import io
import operator
import threading
from itertools import compress
from operator import is_not
from dataclasses import dataclass, field
from typing import Any

import msgpack

from .core import Game, SeatInfo

MAGIC = "atlantis-record"
FORMAT_VERSION = 2
MAX_RECORD_BYTES = 64 * 1024 * 1024


class RecordError(Exception):
    """A record that cannot be read or does not replay; the message is one line."""


@functools.cache
def _field_getter(t: type) -> Any:
    """The getter of a dataclass type's field values, in order."""
    names = tuple(f.name for f in dataclasses.fields(t))
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda o, names=names: [getattr(o, n) for n in names]


def _default(obj: Any) -> Any:
    """msgpack's hook for what it cannot pack natively: dataclasses become lists of
    their fields in order, enums their value -- exactly what ``core.to_data`` does.
    Tuples (NamedTuples too) and scalars are packed natively, in C, the same way
    ``to_data`` would present them.  States hold no dicts (their key order would be
    insertion order here but sorted in ``to_data``); the tests compare both.  (A
    dataclass's fields come as one tuple from an ``attrgetter``: packed as the list.)"""
    t = type(obj)
    if dataclasses.is_dataclass(t):
        return _field_getter(t)(obj)
    if isinstance(obj, enum.Enum):
        return obj.value
    raise TypeError(f"cannot encode {t.__name__} canonically")


_PACKERS = threading.local()


def canonical_bytes(state: Any) -> bytes:
    """The canonical msgpack encoding of a state: the bytes of ``packb(to_data(state))``.

    ``Match.submit`` digests the state after every move, so this is on the hot path;
    the C packer with a small hook is about 3x faster than converting first."""
    packer = getattr(_PACKERS, "packer", None)
    if packer is None:  # one per thread: a Packer is not safe to share
        packer = _PACKERS.packer = msgpack.Packer(use_bin_type=True, default=_default)
    return packer.pack(state)


def digest(state: Any) -> str:
    """Hash of the canonical msgpack encoding of a state (hex, 32 chars)."""
    return hashlib.sha256(canonical_bytes(state)).hexdigest()[:32]


def _array_head(n: int) -> bytes:
    """The msgpack header of an array of ``n`` items."""
    if n < 16:
        return bytes((0x90 | n,))
    return b"\xdc" + n.to_bytes(2, "big") if n < 65536 else b"\xdd" + n.to_bytes(4, "big")


def repack(pack: Any, value: Any, old: Any, old_bytes: bytes) -> bytes:
    """``pack(value)``, given that ``old_bytes`` is ``pack(old)`` (both with the same
    packer, or the same conversion to plain data first): a tuple as long as the tuple
    ``old``, each of whose items took one byte (small ints, None, booleans, empty
    arrays), has only the items that are not the very objects ``old`` held written,
    when they are small ints (a board after one move: one cell changed)."""
    if type(value) is not tuple or type(old) is not tuple:
        return pack(value)
    n = len(value)
    head = len(old_bytes) - n
    if n < 16 or len(old) != n or head != (3 if n < 65536 else 5):
        return pack(value)
    changed = list(compress(range(n), map(is_not, value, old)))
    if len(changed) * 2 > n:
        return pack(value)
    out = bytearray(old_bytes)
    for i in changed:
        v = value[i]
        if type(v) is not int or not -32 <= v < 128:
            return pack(value)
        out[head + i] = v & 0xFF  # (a fixint is its own byte; -32..-1 are 0xe0..0xff)
    return bytes(out)


class Move:
    """One move of a record: the seat, the action as plain data, and the digest of the
    state after it.

    ``Match.act`` makes its moves with ``Move.lazy``: the action is encoded and the state
    digested only when first read (a record saved, a log written, a replay verified, or
    someone asks), so self-play and bots pay for neither on every move.  The value read
    is the same either way."""

    __slots__ = ("seat", "_action", "_digest", "_pending")

    def __init__(self, seat: int, action: dict[str, Any], digest: str):
        self.seat = seat
        self._action = action
        self._digest = digest
        self._pending: Any = None

    @classmethod
    def lazy(cls, seat: int, action: Any, encode: Any, state: Any) -> "Move":
        """A move whose action is ``encode(action)`` and digest ``digest(state)``, both
        computed on first read (until then ``_action`` and ``_digest`` are unset)."""
        return lazy_move(seat, (_Encoder(encode), None, state, seat, action))

    def _settle(self) -> None:
        # a Match step (game, before, after, seat, action, ...): see lazy_move
        game, before, state, _, action = self._pending[:5]
        self._pending = None
        self._action = game.codec.encode(action)
        self._digest = digest(state)

    @property
    def action(self) -> dict[str, Any]:
        try:
            return self._action
        except AttributeError:
            self._settle()
            return self._action

    @action.setter
    def action(self, value: dict[str, Any]) -> None:
        if self._pending is not None:
            self._settle()
        self._action = value

    @property
    def digest(self) -> str:
        try:
            return self._digest
        except AttributeError:
            self._settle()
            return self._digest

    @digest.setter
    def digest(self, value: str) -> None:
        if self._pending is not None:
            self._settle()
        self._digest = value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.seat, self.action, self.digest) == (other.seat, other.action, other.digest)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Move(seat={self.seat!r}, action={self.action!r}, digest={self.digest!r})"

    def to_map(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action, "digest": self.digest}


_SET_SEAT = Move.__dict__["seat"].__set__
_SET_PENDING = Move.__dict__["_pending"].__set__


def lazy_move(seat: int, step: Any) -> Move:
    """The move of a ``Match`` step ``(game, before, after, seat, action, ...)``: its action
    is encoded with ``game.codec`` and ``after`` digested when first read.  (It holds the
    step itself: a match keeps every move, so a move is as few objects as can be.)"""
    move = object.__new__(Move)
    _SET_SEAT(move, seat)
    _SET_PENDING(move, step)
    return move


class _Encoder:
    """Stands in for a game in ``Move.lazy``'s pending step: ``.codec.encode``."""

    __slots__ = ("codec", "encode")

    def __init__(self, encode: Any):
        self.codec = self
        self.encode = encode


def _seat(entry: Any) -> SeatInfo:
    """A seat of a record's header: ``[name, kind]``, or ``[name, kind, level]`` for a bot
    whose level was chosen."""
    if not isinstance(entry, list) or len(entry) not in (2, 3) or not all(isinstance(x, str) for x in entry):
        raise ValueError("a seat is [name, kind] or [name, kind, bot level]")
    return SeatInfo(*entry)


@dataclass
class GameRecord:
    game: str
    rules_version: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    seed: int
    start_digest: str = ""
    moves: list[Move] = field(default_factory=list)
    practice: bool = False  # the seed was typed or named: known before the game began

    # --- encoding --------------------------------------------------------------
    def header_map(self) -> dict[str, Any]:
        return {
            "magic": MAGIC,
            "format": FORMAT_VERSION,
            "game": self.game,
            "rules": self.rules_version,
            "options": self.options,
            "seats": [[s.name, s.kind, s.level] if s.level else [s.name, s.kind] for s in self.seats],
            "seed": str(self.seed),
            "practice": self.practice,
            "start": self.start_digest,
        }

    def to_bytes(self) -> bytes:
        out = [msgpack.packb(self.header_map(), use_bin_type=True)]
        out += [msgpack.packb(m.to_map(), use_bin_type=True) for m in self.moves]
        return b"".join(out)

    @staticmethod
    def move_bytes(move: Move) -> bytes:
        """``packb(move.to_map())`` (with one packer per thread: the host logs every move)."""
        packer = getattr(_PACKERS, "plain", None)
        if packer is None:
            packer = _PACKERS.plain = msgpack.Packer(use_bin_type=True)
        if type(move) is Move and move._pending is not None:
            move._settle()  # (what reading its action would do)
        return packer.pack({"seat": move.seat, "action": move.action, "digest": move.digest})

    # --- decoding --------------------------------------------------------------
    @classmethod
    def from_bytes(cls, data: bytes) -> "GameRecord":
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"record is {len(data)} bytes, more than the {MAX_RECORD_BYTES} allowed")
        if not data:
            raise RecordError("record file is empty")
        unpacker = msgpack.Unpacker(
            io.BytesIO(data), raw=False, max_buffer_size=MAX_RECORD_BYTES,
            max_str_len=1 << 20, max_bin_len=1 << 20, max_array_len=1 << 16,
            max_map_len=1 << 12, strict_map_key=True,
        )
        objs = []
        try:
            for obj in unpacker:
                objs.append(obj)
        except UnicodeDecodeError:
            raise RecordError(f"record is corrupt after {len(objs)} entries: "
                              "a text field holds bytes that are not text") from None
        except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError):
            raise RecordError(f"record is corrupt after {len(objs)} entries: "
                              "the bytes there are not a record entry") from None
        consumed = unpacker.tell()
        if consumed != len(data):
            what = "the header" if not objs else f"move {len(objs)}"
            raise RecordError(f"record is truncated: {what} is incomplete ({len(data) - consumed} stray bytes at the end)")
        if not objs:
            raise RecordError("record holds no header")
        header = objs[0]
        if not isinstance(header, dict) or header.get("magic") != MAGIC:
            raise RecordError("not an atlantis record (the header is missing its magic)")
        fmt = header.get("format")
        if isinstance(fmt, int) and 1 <= fmt < FORMAT_VERSION:
            raise RecordError(f"this record is from an older version of atlantis (record format {fmt}, "
                              f"rules {str(header.get('rules'))[:40]}); this version reads format "
                              f"{FORMAT_VERSION} and cannot replay it")
        if not isinstance(fmt, int) or fmt > FORMAT_VERSION or fmt < 1:
            raise RecordError(f"record format {fmt!r} is not supported (this program reads format {FORMAT_VERSION})")
        try:
            seats = [_seat(entry) for entry in header["seats"]]
            rec = cls(
                game=_typed(header, "game", str), rules_version=_typed(header, "rules", str),
                options=_typed(header, "options", dict), seats=seats,
                seed=_seed(header), start_digest=_typed(header, "start", str),
                practice=_typed(header, "practice", bool),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"record header is malformed: {exc}") from None
        for i, m in enumerate(objs[1:], start=1):
            if not (isinstance(m, dict) and isinstance(m.get("seat"), int)
                    and isinstance(m.get("action"), dict) and isinstance(m.get("digest"), str)):
                raise RecordError(f"move {i} is malformed")
            rec.moves.append(Move(m["seat"], m["action"], m["digest"]))
        return rec


def _typed(header: dict, key: str, typ: type) -> Any:
    value = header[key]
    if not isinstance(value, typ):
        raise TypeError(f"{key} should be {typ.__name__}")
    return value


def _seed(header: dict) -> int:
    text = _typed(header, "seed", str)
    if not (0 < len(text) <= 80 and text.isascii() and text.isdigit()):
        raise ValueError("seed should be a decimal number")
    return int(text)


def move_label(i: int, move: Move) -> str:
    """``move 3 (place by seat 0)`` for error messages.  The kind comes from a file
    or the wire, so it is shown escaped and cut short: messages stay one line."""
    kind = move.action.get("k")
    text = kind if isinstance(kind, str) and kind.isprintable() else repr(kind)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"move {i} ({text} by seat {move.seat})"
