"""Finding Atlantis: sonar and deduction on a hidden ocean map."""

from ..manifest import GameManifest

MANIFEST = GameManifest(
    slug="finding-atlantis",
    title="Finding Atlantis",
    min_players=2,
    max_players=4,
    rules="engine.finding_atlantis.rules:FindingAtlantisGame",
    screen="tui.finding_atlantis",
    bot_levels=("normal", "easy", "hard", "random"),
    sample_hidden="engine.finding_atlantis.sampling:sample_hidden",
    evaluate="engine.finding_atlantis.evaluation:evaluate",
)
