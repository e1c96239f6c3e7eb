"""Atlantis: Pathways of the Deep: paths of tiles to the sunken city."""

from ..manifest import GameManifest

MANIFEST = GameManifest(
    slug="pathways",
    title="Atlantis: Pathways of the Deep",
    min_players=2,
    max_players=4,
    rules="engine.pathways.rules:PathwaysGame",
    screen="tui.pathways",
    bot_levels=("normal", "easy", "hard", "random"),
    sample_hidden="engine.pathways.sampling:sample_hidden",
    evaluate="engine.pathways.evaluation:evaluate",
    rollout_depth=2,  # (8 random actions, the opponent's too, misjudge the race: 38% of 40 against 44% of 60)
)
