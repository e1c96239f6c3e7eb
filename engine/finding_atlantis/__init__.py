"""Finding Atlantis: sonar and deduction on a hidden ocean map."""

from ..manifest import GameManifest

MANIFEST = GameManifest(
    slug="finding-atlantis",
    title="Finding Atlantis",
    min_players=2,
    max_players=4,
    rules="engine.finding_atlantis.rules:FindingAtlantisGame",
    screen="tui.finding_atlantis",
)
