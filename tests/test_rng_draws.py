"""The draws' fast paths give exactly the values of the obvious generator:
draw ``n`` of a stream is the first 8 bytes of ``BLAKE2b(n, key=key)``, little-endian,
rejected at or above the largest multiple of ``n`` below 2**64."""

from __future__ import annotations

import hashlib
import pickle

import pytest

from engine.rng import Draws, Rng

SPAN = 1 << 64


def _value(key: bytes, counter: int) -> int:
    h = hashlib.blake2b(counter.to_bytes(8, "little"), key=key, digest_size=8, person=b"atl-draw")
    return int.from_bytes(h.digest(), "little")


def slow_below(rng: Rng, n: int) -> tuple[int, Rng]:
    counter = rng.counter
    while True:
        counter += 1
        value = _value(rng.key, counter)
        if value < SPAN - SPAN % n:
            return value % n, Rng(rng.key, counter)


def slow_shuffled(rng: Rng, items: list) -> tuple[tuple, Rng]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, rng = slow_below(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), rng


SIZES = (1, 2, 3, 6, 7, 64, 255, 256, 1000, 1024, 1025, 4097, 2**33 + 1, 2**63 + 3)


def test_below_choice_and_shuffled_draw_what_the_obvious_generator_draws():
    for k in range(40):
        rng = Rng(Rng.from_seed(k, "t").key, k * 13)
        for n in SIZES:
            want, after = slow_below(rng, n)
            got, got_after = rng.below(n)
            assert (got, got_after) == (want, after) and type(got_after) is Rng
            if n < 5000:
                item, got_after = rng.choice(range(100, 100 + n))
                assert (item, got_after) == (100 + want, after)
            rng = after
        cards = list(range(k % 30))
        assert rng.shuffled(cards) == slow_shuffled(rng, cards)


def test_a_draws_cursor_draws_the_same_stream_as_its_rng():
    rng = Rng.from_seed(5, "bot")
    draws = Draws(rng)
    for i in range(300):
        n = 1 + (i * 7) % 50
        if i % 2:
            want, rng = rng.choice(range(n))
            assert draws.choice(range(n)) == want
        else:
            want, rng = rng.below(n)
            assert draws.below(n) == want
        assert draws.rng == rng and type(draws.rng) is Rng
    draws.rng = Rng.from_seed(6, "other")
    assert draws.below(10) == Rng.from_seed(6, "other").below(10)[0]
    with pytest.raises(ValueError):
        draws.choice([])
    with pytest.raises(ValueError):
        draws.below(0)


def test_a_made_rng_is_a_plain_frozen_value():
    _, rng = Rng.from_seed(1).below(6)
    assert rng == Rng(rng.key, rng.counter) and hash(rng) == hash(Rng(rng.key, rng.counter))
    assert pickle.loads(pickle.dumps(rng)) == rng
    with pytest.raises(AttributeError):
        rng.counter = 0  # type: ignore[misc]
    one = Rng.from_seed(2)
    assert one.shuffled([7]) == ((7,), one) and one.shuffled([]) == ((), one)
