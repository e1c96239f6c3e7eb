"""A table's start and resizes, and what the command line loads before the first screen."""

from __future__ import annotations

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat_links import LocalTable


def _table() -> LocalTable:
    return LocalTable.new(get_game("pathways"), {}, [SeatInfo("Red", "human"), SeatInfo("Bot", "bot")], 3)


async def test_a_resize_below_the_minimum_shows_the_notice_and_back_shows_the_table():
    app = AtlantisApp(table=_table(), autosave=False, manual_bots=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        assert screen.query_one("#turn-line").plain.startswith("Your turn R Red")  # drawn
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert screen.query_one("#size-notice").display and not screen.query_one("#body").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.query_one("#size-notice").display and screen.query_one("#body").display


# A fresh interpreter's start through the command line, the app's run() replaced by
# noting the app made: what the script prints.
_CLI_PREFIX = (
    "import sys\n"
    "import tui.app\n"
    "made = []\n"
    "tui.app.AtlantisApp.run = lambda self, *a, **k: made.append(self)\n"
)


def _cli_start(script: str) -> str:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", _CLI_PREFIX + script], cwd=root, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_command_line_reaches_a_table_without_importing_pydantic():
    """`atlantis play` builds its table and app without pydantic (slow to import at every
    start; setups and option checks import it where they are used)."""
    assert _cli_start(
        "from tui.cli import main\n"
        "main(['play', 'end-of-atlantis', '--players', '2', '--bots', '1', '--no-autosave'])\n"
        "assert made and made[0].opens.table is not None\n"
        "print('pydantic' in sys.modules)\n"
    ) == "False"


def test_atlantis_alone_opens_the_menu_without_the_parser_or_a_match():
    """`atlantis` with no arguments makes the menu's app straight away: no argument parser
    is built and nothing a table needs (the match, its records and seats) is loaded
    before the menu's first frame."""
    assert _cli_start(
        "import tui.cli\n"
        "tui.cli.build_parser = lambda: 1 / 0\n"
        "sys.argv = ['atlantis']\n"
        "assert tui.cli.main() == 0 and made and made[0].opens.table is None\n"
        "heavy = ['engine.match', 'engine.record', 'tui.seat_links', 'msgpack', 'tui.selfplay']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    ) == "[]"


async def test_shrinking_below_the_minimum_and_back_keeps_the_board_focused_and_the_arrows_working():
    app = AtlantisApp(table=_table(), autosave=False, manual_bots=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        focused = screen.focused
        assert focused is not None
        await pilot.press("right")
        before = str(screen.query_one("#turn-line").render())
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert screen.focused is focused
        await pilot.press("right")
        await pilot.pause()
        assert str(screen.query_one("#turn-line").render()) != before  # the cursor moved on
