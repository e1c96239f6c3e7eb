"""The End of Atlantis screen."""

from ..screen_entry import ScreenEntry

SCREEN = ScreenEntry(
    slug="end-of-atlantis",
    screen="tui.end_of_atlantis.screen:EndOfAtlantisScreen",
    pitch="Bid in secret to get your people aboard.",
    picture=(
        "    _/|_    _/|_",
        "   |_A__|  |_B__|  ~~",
        "  ~~~~~~~~~~~~~~~~~~~~",
        "  Senate: ? ? ? (bids)",
        "  -> the Promised Land",
    ),
    about=(
        "The island sinks in three Doom! cards. Bid in secret for the Senate, play Factions, cast "
        "five votes a turn and send your people aboard the ships to the Promised Land. Every "
        "secret choice is made by all at once, behind the curtain in hot-seat."
    ),
    screenshot="end-of-atlantis-screenshot",
    min_size=(80, 24),  # (the whole board, side panel and footer at 80x24: checked by test_screen_kit)
)
