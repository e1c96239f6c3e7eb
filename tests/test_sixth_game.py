"""A game is its two packages and one line: ``tests/sixth_game`` (tic-tac-toe where each
player also holds a hidden card: its rules, text, bot and a one-widget screen) is registered
with the one call ``register_game``, and then the menu, ``atlantis games``, ``selfplay``, the
leak harness and a screenshot find it, with no other file of the project edited for it."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from engine.core import View
from engine.registry import GAME_PACKAGES, GAMES, MANIFESTS, register_game, unregister_game
from leakcheck import WrappedGame, assert_no_leak, play_and_check
from tui.app import AtlantisApp
from tui.cli import main
from tui.screen_entry import screen_entry
from tui.screens.menu import GameList, MenuHelp, MenuScreen

SLUG = "hidden-tic-tac-toe"


@dataclass(frozen=True)
class LeakyView(View):
    inner: Any
    leak: tuple


@pytest.fixture
def sixth_game():
    manifest = register_game("sixth_game.engine")
    yield manifest
    unregister_game(manifest.slug)


def test_it_is_registered_by_the_one_call_and_forgotten_after():
    assert "sixth_game.engine" not in GAME_PACKAGES and SLUG not in GAMES
    manifest = register_game("sixth_game.engine")
    try:
        assert SLUG in GAMES and MANIFESTS[SLUG] is manifest and list(GAMES) == sorted(GAMES)
        assert GAMES[SLUG].title == manifest.title
    finally:
        unregister_game(SLUG)
    assert SLUG not in GAMES


async def test_the_menu_lists_it_with_its_card_and_help_and_starts_a_table_of_it(sixth_game):
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        games = menu.query_one("#games", GameList)
        index = sorted(GAMES).index(SLUG)
        prompt = str(games.get_option_at_index(index).prompt)
        assert sixth_game.title in prompt and "2-2 players" in prompt and screen_entry(SLUG).pitch in prompt
        games.highlighted = index
        await pilot.pause()
        assert menu.slug == SLUG
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, MenuHelp)
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(app.screen.query_one("#menu-help-text", Static).content)
        shown = console.export_text()
        assert sixth_game.title in shown and "lucky" in shown
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+s")
        for _ in range(50):
            await pilot.pause()
            if type(app.screen).__name__ == "TicTacToeScreen":
                break
        screen = app.screen
        assert type(screen).__name__ == "TicTacToeScreen"
        await pilot.press("5")
        await pilot.pause()
        assert "X" in str(screen.query_one("#board").render())


def test_atlantis_games_lists_it(sixth_game, capsys):
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith(SLUG) and sixth_game.title in line and "2-2 players" in line for line in lines)


def test_selfplay_plays_it_at_each_bot_level(sixth_game, capsys):
    for level in sixth_game.bot_levels:
        assert main(["selfplay", SLUG, "--games", "4", "--level", level, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["game"] == SLUG and out["finished"] == 4 and len(set(out["digests"])) >= 1
    assert main(["selfplay", SLUG, "--level", "strongest"]) == 2
    assert "normal, random" in capsys.readouterr().err


def test_the_leak_harness_finds_no_leak_and_catches_one(sixth_game):
    game = GAMES[SLUG]
    rerandomise = sixth_game.rerandomiser(game)
    report = play_and_check(game, range(12), players=(2,), rerandomise=rerandomise)
    assert_no_leak(report)
    assert report.rerandomised_differs and report.events_compared

    def show_every_card(inner, state, seat):
        return LeakyView(inner.view(state, seat), state.cards)

    leaky = play_and_check(WrappedGame(game, view=show_every_card), range(2), players=(2,), rerandomise=rerandomise)
    assert any("view of seat" in leak for leak in leaky.leaks), leaky.summary()


async def test_its_screenshot_is_taken_from_its_setup(sixth_game, tmp_path):
    from tui.screenshots import shoot
    from tui.setups import Setup

    setups = {screen_entry(SLUG).screenshot: Setup(game=SLUG, players=2, bots=1, seed=3, warmup_actions=2)}
    path = await shoot(SLUG, tmp_path, 80, 24, setups=setups)
    picture = path.read_text(encoding="utf-8")
    assert path.name == f"{SLUG}.svg" and "lucky" in picture and "square" in picture
