"""The game's words: the event log's sentences and the help."""

from __future__ import annotations

from typing import Any

from engine.text import EventText

HELP = """# Tic-tac-toe with a hidden card

Put your mark on an empty square (keys 1-9, row by row); three in a row wins.  Your card
names your lucky square: a winning line through it scores 2 instead of 1.
"""


EVENT_TEXT = EventText(
    templates={
        "placed": "{who} marked square {cell}.",
        "won": "{who} made three in a row.",
    },
    fields={"cell": lambda cell: cell + 1},
)


def describe_action(action: Any, view: Any = None) -> str:
    return f"mark square {action.cell + 1}"
