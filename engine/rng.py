"""Deterministic counter-based PRNG.

The generator is a value, not an object with hidden state: ``Rng(key, counter)``.
Every draw returns the result *and* the next ``Rng``, so a game state that holds an
``Rng`` stays immutable and replays byte for byte.  The mixing function is
SplitMix64 applied to ``key + counter * golden``, which is fast in pure Python and
has no dependence on ``hash()``, ``PYTHONHASHSEED`` or the wall clock.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def key_from(*parts: object) -> int:
    """A 64-bit key from any printable parts (seed, labels), stable across processes."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class Rng:
    key: int
    counter: int = 0

    @classmethod
    def from_seed(cls, seed: int | str, label: str = "game") -> "Rng":
        return cls(key_from(seed, label), 0)

    def fork(self, label: str) -> "Rng":
        """An independent stream, e.g. one per bot, derived from this one's key."""
        return Rng(key_from(self.key, label), 0)

    def next64(self) -> tuple[int, "Rng"]:
        value = _mix((self.key + (self.counter + 1) * _GOLDEN) & _MASK)
        return value, Rng(self.key, self.counter + 1)

    def below(self, n: int) -> tuple[int, "Rng"]:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return value % n, rng

    def choice(self, items: Sequence[T]) -> tuple[T, "Rng"]:
        index, rng = self.below(len(items))
        return items[index], rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], "Rng"]:
        """Fisher-Yates over a copy; returns a tuple."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng
