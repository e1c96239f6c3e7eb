"""The screen entry of tic-tac-toe with a hidden card."""

from tui.screen_entry import ScreenEntry

SCREEN = ScreenEntry(
    slug="hidden-tic-tac-toe",
    screen="sixth_game.tui.screen:TicTacToeScreen",
    pitch="Three in a row, a lucky square in hand.",
    picture=(
        " X | O |  ",
        "---+---+---",
        "   | X |    card: ?",
        "---+---+---",
        " O |   | X",
    ),
    about=("Take turns marking squares; three in a row wins, and a line through the lucky "
           "square on your hidden card scores double."),
    screenshot="hidden-tic-tac-toe-screenshot",
)
