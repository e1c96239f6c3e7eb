"""One screen shape: a game's screen states its own keys, and GameScreen builds the rest
(the command table, the bindings); the words modules are pure functions."""

from __future__ import annotations

import ast
from pathlib import Path

from tui.commands import bindings
from engine.registry import GAMES
from tui.games import screen_class
from tui.screens.game import GameScreen

TUI = Path(__file__).resolve().parents[1] / "tui"


def test_each_game_screen_gets_its_command_table_and_bindings_from_its_own_keys():
    for slug in GAMES:
        cls = screen_class(slug)
        table = cls.COMMAND_TABLE
        assert table[:len(cls.GAME_KEYS)] == cls.GAME_KEYS, slug  # the game's keys first
        shared = [c.id for c in table if c in GameScreen.SHARED_KEYS]
        assert shared == [c.id for c in GameScreen.SHARED_KEYS], slug
        assert [(b.key, b.action, b.id) for b in cls.BINDINGS] == \
            [(b.key, b.action, b.id) for b in bindings(table)], slug


def test_the_words_modules_are_functions_of_what_they_are_given():
    for words in sorted(TUI.glob("*/words.py")):
        tree = ast.parse(words.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = [a.arg for a in node.args.args]
                assert args[:1] != ["self"], f"{words.relative_to(TUI)}: {node.name} leans on a screen"
