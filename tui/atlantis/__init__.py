"""The Atlantis (Leo Colovini) screen."""

from ..screen_entry import ScreenEntry

SCREEN = ScreenEntry(
    slug='atlantis',
    screen='tui.atlantis.screen:AtlantisScreen',
    pitch='Run a road of sinking plates to land.',
    picture=(
        '  ~~ ATLANTIS ~~',
        '  [A][C]  [J]  [L][N]',
        '   |  road of plates |',
        '  ~~~~ water ~~~~ >> ##',
        '               mainland',
    ),
    about=(
        'Atlantis is sinking: lead your three figures from Atlantis along a road of coloured '
        'plates to the mainland. Play a card and a figure goes on to the next free plate of that '
        'colour, then take the first free plate behind it. Crossing water costs plates or cards. '
        "The game ends when a player's third figure arrives; plates score their value, cards 1 "
        'each.'
    ),
    screenshot='atlantis-screenshot',
    min_size=(80, 24),  # (the whole board, side panel and footer at 80x24: checked by test_screen_kit)
)
