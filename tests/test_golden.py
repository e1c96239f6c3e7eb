"""Golden per-seat transcripts of every game, through the one harness in
``tests/golden_harness.py``.  Regenerate after an intended change with
``UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py`` and read the diff."""

from __future__ import annotations

import pytest

from engine.registry import GAMES as REGISTERED
from golden_harness import Golden, check, private_lines_by_viewer, transcript

GAMES = [
    Golden("pathways", players=2, level="random", max_moves=120, max_bytes=300_000,
           header=lambda seed, n, names, _o: f"# pathways seed {seed}, {len(names)} players "
                                             f"({', '.join(names)}), random bots, first {n} moves"),
    Golden("finding-atlantis", players=2, level="normal", max_moves=70, max_bytes=400_000,
           options={1: {}, 2: {"pirate": True, "monsters": "roaming"}}, private_prefix="me:",
           header=lambda seed, n, _names, o: f"# finding-atlantis seed {seed}, options {o}, U-Bots, "
                                             f"first {n} moves"),
    Golden("end-of-atlantis", players=3, level="random", max_moves=70, max_bytes=400_000,
           end_line=False,
           header=lambda seed, n, names, _o: f"# end-of-atlantis seed {seed}, {len(names)} players, "
                                             f"random bots, first {n} moves"),
]
ATLANTIS_LEVELS = {1: "random", 2: "normal"}
GAMES += [
    Golden("survive", players=3, level="random", max_moves=90, max_bytes=600_000, private_prefix="\0",
           header=lambda seed, n, names, _o: f"# survive seed {seed}, {len(names)} players "
                                             f"({', '.join(names)}), random bots, first {n} moves"),
    Golden("atlantis", players=2, level=ATLANTIS_LEVELS, max_moves=60, max_bytes=400_000,
           header=lambda seed, n, names, _o: f"# atlantis seed {seed}, {len(names)} players "
                                             f"({', '.join(names)}), {ATLANTIS_LEVELS[seed]} bots,"
                                             f" first {n} moves"),
]
BY_SLUG = {g.slug: g for g in GAMES}
# Survive has no per-seat hand line (explorer values are checked below instead).
PRIVATE_LINE_GAMES = sorted(s for s, g in BY_SLUG.items() if g.private_prefix != "\0")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("slug", list(REGISTERED))
def test_golden_transcript(slug, seed):
    assert slug in BY_SLUG, f"give {slug} its golden transcript: a Golden(...) line in tests/test_golden.py"
    check(BY_SLUG[slug], seed)


@pytest.mark.parametrize("slug", sorted(BY_SLUG))
def test_transcript_is_stable_within_a_process(slug):
    spec = BY_SLUG[slug]
    assert transcript(spec, 1, max_moves=20) == transcript(spec, 1, max_moves=20)


@pytest.mark.parametrize("slug", PRIVATE_LINE_GAMES)
def test_each_seat_sees_only_its_own_private_line_and_the_spectator_none(slug):
    for viewer, count in private_lines_by_viewer(BY_SLUG[slug], 2, max_moves=15):
        assert count == (0 if viewer == "spectator" else 1), (viewer, count)


def test_finding_atlantis_spectator_log_never_shows_a_private_result():
    t = transcript(BY_SLUG["finding-atlantis"], 1, max_moves=20)
    assert "log: Sonar:" not in "\n".join(l for l in t.splitlines() if l.startswith("   spectator"))


def test_survive_shows_values_to_their_owner_during_setup_only():
    from engine.registry import get_game

    names = get_game("survive").seat_names
    t = transcript(BY_SLUG["survive"], 2, max_moves=45)
    for block in t.split("-- ")[1:]:
        header = block.splitlines()[0]
        value_lines = [line for line in block.splitlines()[1:]
                       if line.split(":")[0] in names and "=" in line.split("|")[0]]
        if header.startswith("spectator"):
            assert value_lines == []
        else:
            assert all(line.startswith(header.split()[0]) for line in value_lines)
    assert "phase=place_boat" in t and "phase=move" in t


def test_atlantis_spectator_never_sees_what_was_drawn():
    t = transcript(BY_SLUG["atlantis"], 2, max_moves=30)
    spectator = [line for line in t.splitlines() if line.startswith("   spectator log")]
    assert spectator and not any(" drew: " in line for line in spectator)
