"""``record.repack`` writes only the changed cells of a board: the bytes must be those of
packing the whole tuple."""

from __future__ import annotations

import random

import msgpack

from engine.record import repack


def test_repack_is_packing_the_whole_tuple():
    rng = random.Random(5)
    pack = msgpack.Packer(use_bin_type=True).pack
    items = [0, 1, 5, 127, 128, -1, -32, -33, 300, None, True, False, (), "a"]
    for _ in range(3000):
        n = rng.choice([0, 3, 15, 16, 17, 40, 100, 70000 if rng.random() < 0.005 else 50])
        small = rng.random() < 0.7  # (mostly boards of small ints: the case it writes in place)
        old = tuple(rng.randrange(-32, 128) if small else rng.choice(items) for _ in range(n))
        new = list(old)
        for _ in range(rng.choice([0, 1, 2, 5, n // 2 + 1])):
            if n:
                new[rng.randrange(n)] = rng.randrange(-40, 140) if rng.random() < 0.8 else rng.choice(items)
        if rng.random() < 0.1 and n:
            new.pop()
        value = tuple(new) if rng.random() < 0.95 else new
        assert repack(pack, value, old, pack(old)) == pack(value)
