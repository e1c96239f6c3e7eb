"""The digest of a move's state reuses the bytes of the state before (``record._after``)
and writes only the changed cells of a board (``record.repack``): the bytes and digests
must be those of packing the whole state, for every game, along whole games."""

from __future__ import annotations

import random

import msgpack
import pytest

from engine.core import SeatInfo
from engine.match import Match
from engine.record import _after, canonical_bytes, digest, repack
from engine.registry import GAMES


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


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_moves_digest_from_the_state_before_is_the_whole_states(slug):
    game = GAMES[slug]
    for seed in (1, 2):
        players = game.min_players + seed % 2
        match = Match(game, {}, [SeatInfo(f"s{i}", "bot") for i in range(players)], seed)
        bots = [game.make_bot(i, seed, "random") for i in range(players)]
        before = match.state
        for _ in range(80):
            if match.result() is not None:
                break
            seat = min(match.to_act())
            view = match.view(seat)
            match.act(seat, bots[seat].choose(view, game.legal(view)))
            state = match.state
            assert _after(state, before) == canonical_bytes(state)
            assert match.record.moves[-1].digest == digest(state, before) == digest(state)
            before = state
