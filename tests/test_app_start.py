"""The app's start skips Textual's work nobody sees (issue 15), and every resize still counts."""

from __future__ import annotations

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.screens.common import ConfirmScreen
from tui.seat import LocalTable


def _table() -> LocalTable:
    return LocalTable.new(get_game("pathways"), {}, [SeatInfo("Red", "human"), SeatInfo("Bot", "bot")], 3)


class CountingApp(AtlantisApp):
    """Counts the resizes the game screen is laid out for."""

    resized: list = []

    def start_table(self, table: LocalTable) -> None:
        super().start_table(table)
        screen, sizes = self.game_screen, self.resized
        original = screen._screen_resized

        def counted(size):
            sizes.append(tuple(size))
            original(size)

        screen._screen_resized = counted


async def test_the_terminals_first_resize_lays_no_screen_out_again_but_real_resizes_do():
    app = CountingApp(table=_table(), autosave=False, manual_bots=True)
    app.resized = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.game_screen
        # once, for its own first layout; not again for the driver's Resize of the same size
        assert app.resized == [(80, 24)]
        assert str(screen.query_one("#turn-line").render()).startswith("Your turn R Red")  # drawn
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert screen.query_one("#size-notice").display
        await pilot.resize_terminal(80, 24)  # back to the start's size: laid out again
        await pilot.pause()
        assert app.resized[-1] == (80, 24) and (60, 20) in app.resized
        assert not screen.query_one("#size-notice").display and screen.query_one("#body").display


async def test_the_blank_default_screen_is_no_background_under_an_opaque_screen_only():
    app = AtlantisApp(table=_table(), autosave=False, manual_bots=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen_stack[0].id == "_default" and app.screen is app.game_screen
        assert app.game_screen.styles.background.a == 1
        assert app._background_screens == []
        await pilot.press("q")  # the leave dialog, see-through: the table shows behind it
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert app._background_screens[-1] is app.game_screen


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
    """`atlantis play` builds its table and app without pydantic (~70 ms of CPU at every
    start; setups and option checks import it where they are used)."""
    assert _cli_start(
        "from tui.cli import main\n"
        "main(['play', 'end-of-atlantis', '--players', '2', '--bots', '1', '--no-autosave'])\n"
        "assert made and made[0].table is not None\n"
        "print('pydantic' in sys.modules)\n"
    ) == "False"


def test_atlantis_alone_opens_the_menu_without_the_parser_or_a_match():
    """`atlantis` with no arguments makes the menu's app straight away: no argument parser
    is built and nothing a table needs (the match, its records and seats) is loaded
    before the menu's first frame (issue 15: ~20 ms of every start)."""
    assert _cli_start(
        "import tui.cli\n"
        "tui.cli.build_parser = lambda: 1 / 0\n"
        "sys.argv = ['atlantis']\n"
        "assert tui.cli.main() == 0 and made and made[0].table is None\n"
        "heavy = ['engine.match', 'engine.record', 'tui.seat', 'msgpack', 'tui.selfplay']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    ) == "[]"
