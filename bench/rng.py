"""The RNG: draws/s of the keyed BLAKE2b generator next to the SplitMix64 it replaced,
and random self-play actions/s of every game with each (the change may cost at most
10% of self-play).  The old generator is kept here only as the reference: SplitMix64
is invertible, so one output gave its 64-bit key and every later draw.  The reference
runs swap every way the engine draws (``Rng.next64``, ``below``, ``choice`` and
``shuffled``, which inline their draws, and the bots' ``Draws`` cursor) for SplitMix64
versions with the same rejection sampling; before, only ``next64`` was swapped, which
the engine no longer calls on its hot paths, so both columns ran BLAKE2b."""

from __future__ import annotations

import time
from typing import Any

from engine import rng as rng_module
from engine.rng import Rng

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SPAN = 1 << 64
_KEYS: dict[bytes, int] = {}


def _splitmix_next64(self: Rng) -> tuple[int, Rng]:
    """SplitMix64 over a 64-bit key, as engine/rng.py drew before (the reference)."""
    key = _KEYS.get(self.key)
    if key is None:
        key = _KEYS[self.key] = int.from_bytes(self.key[:8], "big")
    z = (key + (self.counter + 1) * _GOLDEN) & _MASK
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31), Rng(self.key, self.counter + 1)


def _key_int(key: bytes) -> int:
    k = _KEYS.get(key)
    if k is None:
        k = _KEYS[key] = int.from_bytes(key[:8], "big")
    return k


def _sm(k: int, counter: int) -> int:
    z = (k + counter * _GOLDEN) & _MASK
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def _sm_draw(k: int, counter: int, n: int) -> tuple[int, int]:
    """(value in range(n), counter after it): the same rejection sampling as engine/rng.py."""
    limit = _SPAN - (_SPAN % n)
    while True:
        counter += 1
        value = _sm(k, counter)
        if value < limit:
            return value % n, counter


def _sm_below(self: Rng, n: int) -> tuple[int, Rng]:
    if n <= 0:
        raise ValueError("below() needs n > 0")
    value, counter = _sm_draw(_key_int(self.key), self.counter, n)
    return value, rng_module._make(self.key, counter)


def _sm_choice(self: Rng, items: Any) -> tuple[Any, Rng]:
    value, rng = _sm_below(self, len(items))
    return items[value], rng


def _sm_shuffled(self: Rng, items: Any) -> tuple[tuple[Any, ...], Rng]:
    out = list(items)
    if len(out) < 2:
        return tuple(out), self
    k, counter = _key_int(self.key), self.counter
    for i in range(len(out) - 1, 0, -1):
        j, counter = _sm_draw(k, counter, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), rng_module._make(self.key, counter)


def _sm_draws_below(self: Any, n: int) -> int:
    if n <= 0:
        raise ValueError("below() needs n > 0")
    value, self._counter = _sm_draw(_key_int(self._key), self._counter, n)
    return value


def _sm_draws_choice(self: Any, items: Any) -> Any:
    return items[_sm_draws_below(self, len(items))]


#: What the engine draws through (``below``, ``choice`` and ``shuffled`` inline their
#: draws rather than calling ``next64``, and the random bots read a ``Draws`` cursor), each
#: with its SplitMix64 stand-in: the reference mode swaps them all.
_SWAPS = [(Rng, "next64", _splitmix_next64), (Rng, "below", _sm_below), (Rng, "choice", _sm_choice),
          (Rng, "shuffled", _sm_shuffled), (rng_module.Draws, "below", _sm_draws_below),
          (rng_module.Draws, "choice", _sm_draws_choice)]


def _draws_per_s(n: int) -> float:
    r = Rng.from_seed(1, "bench")
    start = time.perf_counter()
    for _ in range(n):
        _, r = r.next64()
    return n / (time.perf_counter() - start)


def _selfplay_rate(slug: str, games: int) -> float:
    from .selfplay import random_selfplay

    return random_selfplay(slug, games, reference=False).actions_per_s


def run(quick: bool = False, seeds: int = 200) -> None:
    n = 50_000 if quick else 200_000
    games = {"pathways": 10, "finding-atlantis": 10, "end-of-atlantis": 10}
    if not quick:
        games = {k: v * 3 for k, v in games.items()}
    new_draws = old_draws = 0.0
    new_rates = dict.fromkeys(games, 0.0)
    old_rates = dict.fromkeys(games, 0.0)
    for _ in range(2):  # interleaved, best of two: the machine's load varies
        new_draws = max(new_draws, _draws_per_s(n))
        for slug, g in games.items():
            new_rates[slug] = max(new_rates[slug], _selfplay_rate(slug, g))
        originals = [(cls, name, cls.__dict__[name]) for cls, name, _ in _SWAPS]
        try:
            for cls, name, stand_in in _SWAPS:
                setattr(cls, name, stand_in)
            old_draws = max(old_draws, _draws_per_s(n))
            for slug, g in games.items():
                old_rates[slug] = max(old_rates[slug], _selfplay_rate(slug, g))
        finally:
            for cls, name, was in originals:
                setattr(cls, name, was)
    print("\n== RNG: keyed BLAKE2b (256-bit key) against SplitMix64 (64-bit key), best of 2 ==")
    print(f"  draws/s: BLAKE2b {new_draws:,.0f}  SplitMix64 {old_draws:,.0f}"
          f"  (ratio {new_draws / old_draws:.2f})")
    for slug in games:
        new, old = new_rates[slug], old_rates[slug]
        print(f"  {slug:<17} random self-play actions/s: BLAKE2b {new:,.0f}  SplitMix64 {old:,.0f}"
              f"  ({100 * (new / old - 1):+.1f}%; goal: no worse than -10%)")
    assert rng_module.KEY_BYTES * 8 >= 128
