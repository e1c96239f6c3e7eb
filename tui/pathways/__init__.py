"""The Pathways of the Deep screen."""

from ..screen_entry import ScreenEntry

SCREEN = ScreenEntry(
    slug="pathways",
    screen="tui.pathways.screen:PathwaysScreen",
    pitch="Lay paths on the sea floor to the city.",
    picture=(
        "  R══╗           ╔══B",
        "     ╚═══╗   ╔═══╝",
        "        [CITY]",
        "     ╔═══╝   ╚═══╗",
        "  G══╝           ╚══Y",
    ),
    about=(
        "Lay path tiles from your corner towards the sunken city in the middle of the sea floor, "
        "and play action tiles to move or trade; the first subpod inside the city wins."
    ),
    screenshot="pathways-screenshot",
    min_size=(80, 24),  # (the whole board, side panel and footer at 80x24: checked by test_screen_kit)
)
