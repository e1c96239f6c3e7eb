"""Survive: Escape from Atlantis: explorers off a sinking island."""

from ..manifest import GameManifest

MANIFEST = GameManifest(
    slug="survive",
    title="Survive: Escape from Atlantis",
    min_players=2,
    max_players=4,
    rules="engine.survive.rules:SurviveGame",
    screen="tui.survive",
    bot_levels=("normal", "easy", "hard", "random"),
    sample_hidden="engine.survive.sampling:sample_hidden",
    evaluate="engine.survive.evaluation:evaluate",
    # (8 random actions wreck a turn's moves: at the same CPU per decision, normal-bot
    # rollouts won 48% of 20 games against 15% for random ones)
    rollout="normal",
    search_iterations=170,  # about a CPU second of normal-bot rollouts
)
