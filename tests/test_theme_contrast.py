"""Every game screen, its legend and the menu read in ``textual-dark`` and
``textual-light``: in an SVG screenshot at 80x24 of a mid-game table (the named setups
of ``make screenshots``), every run of text has WCAG contrast 4.5:1 or more against the
background under it, and every empty cell's dot 3:1; so do the longer legends, every game's help, the game-over
dialog and the table server's lobby.  The app starts in the other theme and is switched, as a player does from the
command palette: a board that kept the old theme's colours fails too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.screen import ModalScreen

from contrast import low_contrast, is_text
from tui.app import AtlantisApp
from tui.config import Config, write_config
from engine.registry import GAMES
from tui.screen_entry import screen_entry
from tui.screenshots import mid_game_table
from tui.setups import load_setups

THEMES = ("textual-dark", "textual-light")


def other(theme: str) -> str:
    return THEMES[1 - THEMES.index(theme)]


#: Screens behind a key: the longer legends of the games that fold theirs, and the help.
KEYED = [("atlantis", "g"), ("end-of-atlantis", "l"), *((slug, "question_mark") for slug in GAMES)]


async def screenshot(slug: str | None, theme: str, key: str | None = None,
                     over: bool = False) -> tuple[str, list[Region] | None]:
    """The screen of ``slug``'s mid-game scene (None: the menu; ``over``: the same
    game played to its end) in ``theme``, after ``key`` if one is given, as SVG; and
    where a dialog it opened lies (the screen under a dialog is dimmed on purpose: only
    the dialog need read)."""
    table = None
    if slug is not None:
        setup = load_setups()[screen_entry(slug).screenshot]
        table = mid_game_table(slug, setup.seed, setup.players, 10**6 if over else setup.warmup_actions,
                               setup.options)
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)  # (the bots wait: a still scene)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.theme = theme
        await pilot.pause()
        while isinstance(app.screen, ModalScreen) and not over:  # (a summary of the last turn: read, and gone)
            await pilot.press("enter")
            await pilot.pause()
        if key is not None:
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause()
        dialog = None
        if isinstance(app.screen, ModalScreen):
            dialog = [child.region for child in app.screen.children]
        return app.export_screenshot(), dialog


#: Marks a player reads as well as words, held to 3:1 (a drawing's minimum): the dot of an
#: empty cell (where a tile may go, a space not yet known).
MARKS = "·"


def unreadable(svg: str, dialog: list[Region] | None) -> list[str]:
    return [str(run) for run in low_contrast(svg) if (is_text(run.text) or any(mark in run.text for mark in MARKS))
            and (dialog is None or any(part.contains(run.column, run.line) for part in dialog))]


@pytest.fixture
def started_in_the_other_theme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def start(theme: str) -> None:
        path = tmp_path / "config.toml"
        write_config(path, Config(theme=other(theme)))
        monkeypatch.setenv("ATLANTIS_CONFIG", str(path))
    return start


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("slug", [*GAMES, None], ids=[*GAMES, "menu"])
def test_every_text_reads_against_its_background(slug, theme, started_in_the_other_theme):
    started_in_the_other_theme(theme)
    assert unreadable(*asyncio.run(screenshot(slug, theme))) == []


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("slug, key", KEYED, ids=[f"{slug}-{key}" for slug, key in KEYED])
def test_the_long_legends_and_the_help_read_too(slug, key, theme, started_in_the_other_theme):
    started_in_the_other_theme(theme)
    assert unreadable(*asyncio.run(screenshot(slug, theme, key))) == []


@pytest.mark.parametrize("theme", THEMES)
def test_the_game_over_screen_reads(theme, started_in_the_other_theme):
    started_in_the_other_theme(theme)
    svg, dialog = asyncio.run(screenshot("pathways", theme, over=True))
    assert dialog is not None  # (the game-over dialog is up)
    assert unreadable(svg, dialog) == []


class TwoTables:
    """A table server's lobby answering with two tables, one of them selected."""

    host, port = "/tmp/tables.sock", 0

    async def list_tables(self, timeout: float = 5.0):
        from netplay import messages

        tables = [messages.TableInfo(table=f"t{i}", name=f"Table {i}", game="pathways", rules="1", fingerprint="f",
                              players=2, open=1, started=False, over=False) for i in range(2)]
        return messages.TableList(server="Kitchen", tables=tables)


@pytest.mark.parametrize("theme", THEMES)
def test_the_server_lobby_reads(theme):
    from tui.ssh.lobby import ServerLobbyScreen
    from tui.theme import ThemedApp

    async def shoot() -> str:
        app = ThemedApp()
        async with app.run_test(size=(80, 24)) as pilot:
            app.theme = theme
            await app.push_screen(ServerLobbyScreen(TwoTables(), "ana"))
            await pilot.pause()
            await pilot.pause()
            return app.export_screenshot()

    assert unreadable(asyncio.run(shoot()), None) == []
