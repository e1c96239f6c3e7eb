"""The game's words: the event log's sentences and the help."""

from __future__ import annotations

from typing import Any, Sequence

from engine.core import Event

HELP = """# Tic-tac-toe with a hidden card

Put your mark on an empty square (keys 1-9, row by row); three in a row wins.  Your card
names your lucky square: a winning line through it scores 2 instead of 1.
"""


def describe(event: Event, seat: int | None, names: Sequence[str]) -> str:
    who = "You" if event.data.get("seat") == seat else names[event.data["seat"]]
    if event.kind == "placed":
        return f"{who} marked square {event.data['cell'] + 1}."
    return f"{who} made three in a row."


def describe_action(action: Any) -> str:
    return f"mark square {action.cell + 1}"
