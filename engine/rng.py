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

import hashlib
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
_HASHERS: dict[bytes, "hashlib._Hash"] = {}
_HASHERS_MAX = 512


def key_from(*parts: object) -> bytes:
    """A 256-bit key from any printable parts (seed, labels), stable across processes."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return hashlib.blake2b(text, digest_size=KEY_BYTES, person=_SEED_PERSON).digest()


def new_seed() -> int:
    """A seed for a game nobody chose a seed for: 128 bits from the OS (``secrets``)."""
    import secrets

    return secrets.randbits(SEED_BITS)


def _hasher(key: bytes) -> "hashlib._Hash":
    h = _HASHERS.get(key)
    if h is None:
        if len(_HASHERS) >= _HASHERS_MAX:
            _HASHERS.clear()
        h = _HASHERS[key] = hashlib.blake2b(key=key, digest_size=8, person=_DRAW_PERSON)
    return h


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
        h = (_HASHERS.get(key) or _hasher(key)).copy()
        h.update(counter.to_bytes(8, "little"))
        return int.from_bytes(h.digest(), "little"), _make(key, counter)

    def below(self, n: int) -> tuple[int, "Rng"]:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _SPAN - (_SPAN % n)
        key, counter = self.key, self.counter
        base = _HASHERS.get(key) or _hasher(key)
        while True:  # next64, inlined: bots and shuffles draw thousands of times a game
            counter += 1
            h = base.copy()
            h.update(counter.to_bytes(8, "little"))
            value = int.from_bytes(h.digest(), "little")
            if value < limit:
                return value % n, _make(key, counter)

    def choice(self, items: Sequence[T]) -> tuple[T, "Rng"]:
        n = len(items)
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _SPAN - (_SPAN % n)
        key, counter = self.key, self.counter
        base = _HASHERS.get(key) or _hasher(key)
        while True:  # below(len(items)), inlined: a random bot draws once an action
            counter += 1
            h = base.copy()
            h.update(counter.to_bytes(8, "little"))
            value = int.from_bytes(h.digest(), "little")
            if value < limit:
                return items[value % n], _make(key, counter)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], "Rng"]:
        """Fisher-Yates over a copy; returns a tuple."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng


_SET_KEY = Rng.__dict__["key"].__set__
_SET_COUNTER = Rng.__dict__["counter"].__set__


def _make(key: bytes, counter: int) -> Rng:
    """The next ``Rng`` of a stream whose key was checked already: its slots filled
    directly (the frozen ``__init__`` and the key check cost more than the draw)."""
    r = object.__new__(Rng)
    _SET_KEY(r, key)
    _SET_COUNTER(r, counter)
    return r
