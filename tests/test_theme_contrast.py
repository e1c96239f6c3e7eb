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


#: The keys that open a screen's longer legend, for the games that fold theirs.
LEGEND_KEYS = {"atlantis": "g", "end-of-atlantis": "l"}


def scene(slug: str | None, over: bool = False) -> AtlantisApp:
    """The app on ``slug``'s mid-game scene (None: the menu; ``over``: the same game
    played to its end)."""
    table = None
    if slug is not None:
        setup = load_setups()[screen_entry(slug).screenshot]
        table = mid_game_table(slug, setup.seed, setup.players, 10**6 if over else setup.warmup_actions,
                               setup.options)
    return AtlantisApp(table=table, bot_delay=3600, autosave=False)  # (the bots wait: a still scene)


async def screenshots(slug: str | None, theme: str, keys: tuple[str, ...] = (),
                      over: bool = False) -> dict[str, tuple[str, list[Region] | None]]:
    """The screen of ``slug``'s scene in ``theme`` as SVG, then after each of ``keys`` in
    turn (a dialog one opens is closed again before the next key); with each, where a
    dialog lies (the screen under a dialog is dimmed on purpose: only the dialog need
    read).  One app shows them all, as one player would open them one after another."""
    app = scene(slug, over)
    shots = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.theme = theme
        await pilot.pause()
        while isinstance(app.screen, ModalScreen) and not over:  # (a summary of the last turn: read, and gone)
            await pilot.press("enter")
            await pilot.pause()
        for key in (None, *keys):
            if key is not None:
                await pilot.press(key)
                await pilot.pause()
            await pilot.pause()
            dialog = None
            if isinstance(app.screen, ModalScreen):
                dialog = [child.region for child in app.screen.children]
            shots[key or "the screen"] = app.export_screenshot(), dialog
            if dialog is not None and not over:
                await pilot.press("escape")
                await pilot.pause()
    return shots


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
def test_every_text_reads_against_its_background_and_so_do_the_longer_legend_and_the_help(
        slug, theme, started_in_the_other_theme):
    started_in_the_other_theme(theme)
    keys = () if slug is None else (*((LEGEND_KEYS[slug],) if slug in LEGEND_KEYS else ()), "question_mark")
    shots = asyncio.run(screenshots(slug, theme, keys))
    assert list(shots) == ["the screen", *keys]
    assert all(shots[key][1] is not None for key in keys if key == "question_mark")  # (the help: a dialog)
    assert {name: unreadable(*shot) for name, shot in shots.items() if unreadable(*shot)} == {}


@pytest.mark.parametrize("theme", THEMES)
def test_the_game_over_screen_reads(theme, started_in_the_other_theme):
    started_in_the_other_theme(theme)
    svg, dialog = asyncio.run(screenshots("pathways", theme, over=True))["the screen"]
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
