"""End of Atlantis: secret bids for the Senate and seats on the ships."""

from ..manifest import SEAT_COLOURS, GameManifest

MANIFEST = GameManifest(
    slug="end-of-atlantis",
    title="End of Atlantis",
    min_players=2,
    max_players=5,
    rules="engine.end_of_atlantis.rules:EndOfAtlantisGame",
    screen="tui.end_of_atlantis",
    bot_levels=("normal", "easy", "hard", "random"),
    sample_hidden="engine.end_of_atlantis.sampling:sample_hidden",
    evaluate="engine.end_of_atlantis.evaluation:evaluate",
    seat_names=SEAT_COLOURS[:5],
)
