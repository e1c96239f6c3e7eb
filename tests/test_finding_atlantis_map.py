"""The ocean map generator: every riddle constraint over 10,000+ seeds per size."""

from __future__ import annotations

from engine.finding_atlantis import data
from engine.finding_atlantis.mapgen import check_map, generate, inner_of
from engine.finding_atlantis.rules import FindingAtlantisGame
from engine.rng import Rng

from fa_helpers import terrain_for


def test_every_generated_map_meets_the_riddle_over_10000_seeds():
    """10,000 seeds, alternating 6x6 and 8x8 (5,000 maps of each size)."""
    for seed in range(10_000):
        n = 6 if seed % 2 == 0 else 8
        terrain, _ = generate(n, Rng.from_seed(seed, "mapgen-test"))
        problems = check_map(terrain, n)
        assert not problems, f"size {n} seed {seed}: {problems}"


def test_the_same_seed_gives_the_same_map():
    game = FindingAtlantisGame()
    for seed in (0, 1, 99, 12345):
        for size in (6, 8):
            a = game.setup(game.parse_options({"size": size}), 2, seed).terrain
            b = game.setup(game.parse_options({"size": size}), 3, seed).terrain
            assert a == b
    maps = {game.setup(game.parse_options({}), 2, s).terrain for s in range(50)}
    assert len(maps) > 45


def test_map_sizes_have_their_counts_of_atlantis_and_artifacts():
    for n, (atl, arts) in data.MAP_SIZES.items():
        terrain, _ = generate(n, Rng.from_seed(3, "x"))
        assert terrain.count(data.ATLANTIS) == atl and terrain.count(data.ARTIFACT) == arts
        assert len(terrain) == (n + 2) ** 2
    assert data.MAP_SIZES == {6: (4, 4), 8: (6, 6)}


def test_the_ring_beyond_the_edge_holds_no_trace_but_can_be_a_seamount():
    ring_seamounts = 0
    for seed in range(300):
        terrain, _ = generate(6, Rng.from_seed(seed, "ring"))
        for x, t in enumerate(terrain):
            if inner_of(6, x) < 0:
                assert t in (data.DEEP, data.SEAMOUNT)
                ring_seamounts += t == data.SEAMOUNT
    assert ring_seamounts > 0


def test_the_checker_catches_broken_maps():
    good = terrain_for(6, [14, 15, 21, 22], [0, 5, 30, 35])
    assert check_map(good, 6) == []
    apart = terrain_for(6, [0, 2, 4, 35], [7, 9, 11, 30])
    assert any("connected" in p for p in check_map(apart, 6))
    deep_next = list(good)
    deep_next[1 * 8 + 2] = data.DEEP  # a neighbour of the artifact at A1
    assert any("deep neighbour" in p for p in check_map(tuple(deep_next), 6))
    stray = list(good)
    deep = next(x for x, t in enumerate(good) if t == data.DEEP and inner_of(6, x) >= 0)
    stray[deep] = data.SEAMOUNT
    assert any("not next to a trace" in p for p in check_map(tuple(stray), 6))
