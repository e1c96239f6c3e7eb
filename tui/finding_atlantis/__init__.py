"""The Finding Atlantis screen."""

from ..screen_entry import ScreenEntry

SCREEN = ScreenEntry(
    slug='finding-atlantis',
    screen='tui.finding_atlantis.screen:FindingAtlantisScreen',
    pitch='Sonar and logic: chart the sunken city.',
    picture=(
        '  . . ^ . . .',
        '  . ^ # ^ . .   sonar',
        '  . . ^ . s .   ((o))',
        '  . . . . . .',
        '  chart: # city ^ mount',
    ),
    about=(
        "Hidden movement and deduction on a 6x6 or 8x8 ocean: each screen is that player's own "
        'chart. Play Sonar, Jelly Rod, Explore and silent moves, note the private answers, and be '
        'first to name every Atlantis space. Solo: you against the U-Bot.'
    ),
    screenshot='finding-atlantis-screenshot',
    min_size=(80, 24),  # (the whole board, side panel and footer at 80x24: checked by test_screen_kit)
)
