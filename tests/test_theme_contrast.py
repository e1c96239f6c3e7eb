"""Every game screen, its legend and the menu read in ``textual-dark`` and
``textual-light``: in an SVG screenshot at 80x24 of a mid-game table (the named setups
of ``make screenshots``), every run of text has WCAG contrast 4.5:1 or more against the
background under it.  The app starts in the other theme and is switched, as a player
does from the command palette: a board that kept the old theme's colours fails too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.screen import ModalScreen

from contrast import low_contrast, is_text
from tui.app import AtlantisApp
from tui.config import Config, write_config
from tui.screenshots import SCENES, mid_game_table
from tui.setups import load_setups

THEMES = ("textual-dark", "textual-light")


def other(theme: str) -> str:
    return THEMES[1 - THEMES.index(theme)]


async def screenshot(slug: str | None, theme: str) -> str:
    """The screen of ``slug``'s mid-game scene (None: the menu) in ``theme``, as SVG."""
    table = None
    if slug is not None:
        setup = load_setups()[SCENES[slug]]
        table = mid_game_table(slug, setup.seed, setup.players, setup.warmup_actions, setup.options)
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)  # (the bots wait: a still scene)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.theme = theme
        await pilot.pause()
        while isinstance(app.screen, ModalScreen):  # (a summary of the last turn: read, and gone)
            await pilot.press("enter")
            await pilot.pause()
        await pilot.pause()
        return app.export_screenshot()


@pytest.fixture
def started_in_the_other_theme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def start(theme: str) -> None:
        path = tmp_path / "config.toml"
        write_config(path, Config(theme=other(theme)))
        monkeypatch.setenv("ATLANTIS_CONFIG", str(path))
    return start


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("slug", [*SCENES, None], ids=[*SCENES, "menu"])
def test_every_text_reads_against_its_background(slug, theme, started_in_the_other_theme):
    started_in_the_other_theme(theme)
    svg = asyncio.run(screenshot(slug, theme))
    unreadable = [str(run) for run in low_contrast(svg) if is_text(run.text)]
    assert unreadable == [], "\n".join(unreadable)
