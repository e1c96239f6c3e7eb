"""The RNG: draws/s of the keyed BLAKE2b generator next to the SplitMix64 it replaced,
and random self-play actions/s of every game with each (the change may cost at most
10% of self-play).  The old generator is kept here only as the reference: SplitMix64
is invertible, so one output gave its 64-bit key and every later draw."""

from __future__ import annotations

import time

from engine import rng as rng_module
from engine.rng import Rng

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
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
    original = Rng.next64
    new_draws = old_draws = 0.0
    new_rates = dict.fromkeys(games, 0.0)
    old_rates = dict.fromkeys(games, 0.0)
    for _ in range(2):  # interleaved, best of two: the machine's load varies
        new_draws = max(new_draws, _draws_per_s(n))
        for slug, g in games.items():
            new_rates[slug] = max(new_rates[slug], _selfplay_rate(slug, g))
        try:
            Rng.next64 = _splitmix_next64  # type: ignore[method-assign]
            old_draws = max(old_draws, _draws_per_s(n))
            for slug, g in games.items():
                old_rates[slug] = max(old_rates[slug], _selfplay_rate(slug, g))
        finally:
            Rng.next64 = original  # type: ignore[method-assign]
    print("\n== RNG: keyed BLAKE2b (256-bit key) against SplitMix64 (64-bit key), best of 2 ==")
    print(f"  draws/s: BLAKE2b {new_draws:,.0f}  SplitMix64 {old_draws:,.0f}"
          f"  (ratio {new_draws / old_draws:.2f})")
    for slug in games:
        new, old = new_rates[slug], old_rates[slug]
        print(f"  {slug:<17} random self-play actions/s: BLAKE2b {new:,.0f}  SplitMix64 {old:,.0f}"
              f"  ({100 * (new / old - 1):+.1f}%; goal: no worse than -10%)")
    assert rng_module.KEY_BYTES * 8 >= 128
