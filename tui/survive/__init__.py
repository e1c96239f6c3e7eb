"""The Survive: Escape from Atlantis screen."""

from ..screen_entry import ScreenEntry

SCREEN = ScreenEntry(
    slug="survive",
    screen="tui.survive.screen:SurviveScreen",
    pitch="Get explorers off before the volcano.",
    picture=(
        "     .-^^-.   volcano",
        "  __/ o  o \\__ island",
        " ~~~~~~~~~~~~~~~~~~~~~~",
        "  [boat]~>   ~S~ shark",
        "  safe island <~ o",
    ),
    about=(
        "The island sinks a tile a turn. Walk your explorers to the coast, into boats and across "
        "the sea to the safe islands, past sea serpents, sharks and whales; when the volcano "
        "erupts, the treasure of your saved explorers is counted."
    ),
    screenshot="survive-screenshot",
    min_size=(80, 24),  # (the whole board, side panel and footer at 80x24: checked by test_screen_kit)
)
