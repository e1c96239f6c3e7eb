"""Deterministic counter-based PRNG with a secret key.

The generator is a value, not an object with hidden state: ``Rng(key, counter)``.
Every draw returns the result *and* the next ``Rng``, so a game state that holds an
``Rng`` stays immutable and replays byte for byte.

A seat that could guess the key could rebuild every hidden card and map from its
first view (DESIGN.md, "Secrets start with the seed"), so the draw is a keyed
cryptographic function in counter mode: draw ``n`` is the first 8 bytes of
``BLAKE2b(n, key=key)``.  The key is 32 bytes (256 bits) derived from the seed and a
label; without the key no run of outputs says anything about the next draw, and
forks (``BLAKE2b(label, key=key)``) are independent streams that stay deterministic.
Nothing here depends on ``hash()``, ``PYTHONHASHSEED`` or the wall clock.
"""

from __future__ import annotations

import functools
import hashlib
import struct
from dataclasses import dataclass
from typing import Sequence, TypeVar

T = TypeVar("T")

KEY_BYTES = 32
SEED_BITS = 128          # a seed nobody typed: secrets.randbits(SEED_BITS)
_SPAN = 1 << 64
_SEED_PERSON = b"atl-seed"
_FORK_PERSON = b"atl-fork"
_DRAW_PERSON = b"atl-draw"

# One keyed hasher per stream, copied for each draw (a copy is ~40% cheaper than
# keying a new one).  Only a cache: the output is a pure function of key and counter.

# A draw is mostly hashing, so the code around it is kept short: the counter's 8
# little-endian bytes by one C call (``struct``: what ``counter.to_bytes(8, "little")``
# gives), and the next ``Rng`` made by setting its two slots (``_make``).
_COUNTER_BYTES = struct.Struct("<Q").pack
_from_bytes = int.from_bytes


def _limit(n: int) -> int:
    """The rejection limit of ``below(n)``: the largest multiple of ``n`` up to 2**64."""
    return _SPAN - (_SPAN % n)


def key_from(*parts: object) -> bytes:
    """A 256-bit key from any printable parts (seed, labels), stable across processes."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return hashlib.blake2b(text, digest_size=KEY_BYTES, person=_SEED_PERSON).digest()


def new_seed() -> int:
    """A seed for a game nobody chose a seed for: 128 bits from the OS (``secrets``)."""
    import secrets

    return secrets.randbits(SEED_BITS)


@functools.lru_cache(maxsize=512)
def _hasher(key: bytes) -> "hashlib._Hash":
    """The keyed hash a stream's draws copy (made once per key: keying costs a block)."""
    return hashlib.blake2b(key=key, digest_size=8, person=_DRAW_PERSON)


@dataclass(frozen=True, slots=True)
class Rng:
    key: bytes
    counter: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.key, bytes) or len(self.key) < 16:
            raise ValueError("an Rng key is at least 16 bytes (128 bits)")

    def __repr__(self) -> str:  # never print the key (logs, tracebacks)
        return f"Rng(key=<{len(self.key)} bytes>, counter={self.counter})"

    @classmethod
    def from_seed(cls, seed: int | str, label: str = "game") -> "Rng":
        return cls(key_from(seed, label), 0)

    def fork(self, label: str) -> "Rng":
        """An independent stream, e.g. one per bot, derived from this one's key."""
        return Rng(hashlib.blake2b(label.encode(), key=self.key, digest_size=KEY_BYTES,
                                   person=_FORK_PERSON).digest(), 0)

    def next64(self) -> tuple[int, "Rng"]:
        counter = self.counter + 1
        key = self.key
        base = _hasher(key)
        h = base.copy()
        h.update(_COUNTER_BYTES(counter))
        return _from_bytes(h.digest(), "little"), _make(key, counter)

    def below(self, n: int) -> tuple[int, "Rng"]:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        key, counter = self.key, self.counter
        base = _hasher(key)
        limit = _limit(n)
        while True:  # next64, inlined: bots and shuffles draw thousands of times a game
            counter += 1
            h = base.copy()
            h.update(_COUNTER_BYTES(counter))
            value = _from_bytes(h.digest(), "little")
            if value < limit:
                return value % n, _make(key, counter)

    def choice(self, items: Sequence[T]) -> tuple[T, "Rng"]:
        n = len(items)
        if n <= 0:
            raise ValueError("below() needs n > 0")
        key, counter = self.key, self.counter
        base = _hasher(key)
        limit = _limit(n)
        while True:  # below(len(items)), inlined: a random bot draws once an action
            counter += 1
            h = base.copy()
            h.update(_COUNTER_BYTES(counter))
            value = _from_bytes(h.digest(), "little")
            if value < limit:
                return items[value % n], _make(key, counter)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], "Rng"]:
        """Fisher-Yates over a copy; returns a tuple.  (Each swap draws ``below(i + 1)``
        through one ``Draws`` cursor: one ``Rng`` is made at the end, not one a card.)"""
        out = list(items)
        if len(out) < 2:
            return tuple(out), self
        draws = Draws(self)
        below = draws.below
        for i in range(len(out) - 1, 0, -1):
            j = below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), draws.rng


_SET_KEY = Rng.__dict__["key"].__set__
_SET_COUNTER = Rng.__dict__["counter"].__set__


def _make(key: bytes, counter: int) -> Rng:
    """The next ``Rng`` of a stream whose key was checked already: its two slots set
    through their own descriptors (the frozen ``__init__`` and the key check cost more
    than the draw)."""
    r = object.__new__(Rng)
    _SET_KEY(r, key)
    _SET_COUNTER(r, counter)
    return r


class Draws:
    """A stream read as a cursor: ``choice`` and ``below`` draw exactly what ``Rng``'s do,
    value for value, from the same key and counter, without making an ``Rng`` a draw
    (a bot's own stream, drawn from once an action; ``rng`` is where the cursor is, as
    an ``Rng``, and may be set)."""

    __slots__ = ("_key", "_counter", "_base")

    def __init__(self, rng: Rng):
        self.rng = rng

    @property
    def rng(self) -> Rng:
        return _make(self._key, self._counter)

    @rng.setter
    def rng(self, rng: Rng) -> None:
        if type(rng) is not Rng:
            raise TypeError("Draws needs an Rng")
        self._key, self._counter = rng.key, rng.counter
        # (the stream's keyed hasher, held: the shared cache may let it go)
        self._base = _hasher(rng.key)

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _limit(n)
        base, counter = self._base, self._counter
        while True:
            counter += 1
            h = base.copy()
            h.update(_COUNTER_BYTES(counter))
            value = _from_bytes(h.digest(), "little")
            if value < limit:
                self._counter = counter
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
