"""Keys that are not allowed now say why (DESIGN.md "Screens every game shares").

A game screen gates its commands with ``check_action`` so that the footer names only what
a key does *now* (Enter reads "Place", "Step" or "Trade" as the turn goes on).  A key
whose every command is refused would then do nothing at all; ``why_not_commands`` adds,
after the game's own commands, one hidden command per key that Textual runs only when no
real command of that key is allowed.  It calls the screen's ``action_why_not(key)``,
which puts the reason in the side panel through ``GameScreen.say``.

A leaf module: it imports only the command registry.
"""

from __future__ import annotations

from typing import Iterable

from .commands import Command


def why_not_commands(table: Iterable[Command], prefix: str) -> tuple[Command, ...]:
    """One hidden fallback command per key used in ``table`` (in first-use order)."""
    keys: list[str] = []
    for command in table:
        for key in command.key.split(","):
            if key not in keys:
                keys.append(key)
    return tuple(Command(f"{prefix}-why-{key}", key, "Why not", f"why_not({key!r})",
                         show=False, palette=False) for key in keys)


def wait_reason(read_only: bool, over: bool, waiting: str) -> str:
    """Why a game key does nothing now because it is not this player's moment: a replay,
    the end of the game, or another seat's turn (``waiting``: who the table waits for)."""
    if read_only:
        return "This is a replay: nothing can be played."
    if over:
        return "The game is over."
    return f"Not your turn: waiting for {waiting}." if waiting else "Not your turn."
