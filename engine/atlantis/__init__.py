"""Atlantis (Leo Colovini): a road of sinking plates to the mainland."""

from ..manifest import GameManifest

MANIFEST = GameManifest(
    slug="atlantis",
    title="Atlantis",
    min_players=2,
    max_players=4,
    rules="engine.atlantis.rules:AtlantisGame",
    screen="tui.atlantis",
    sample_hidden="engine.atlantis.sampling:sample_hidden",
    evaluate="engine.atlantis.evaluation:evaluate",
    bot_levels=("normal", "easy", "hard", "random-move", "random"),
)
