"""A game's own screen as a replay viewer: ``replay_screen_class(cls)`` mixes
``ReplayMixin`` into the game's screen class.

In a replay the footer shows only the replay keys, help and leave; the game's keys and
the shared undo and save stay bound (hidden), so pressing one still says why it does
nothing here (the link refuses every action, the app explains save).  The board tints
what the move into the position shown changed (``baseline_view`` is the position
before it, seen by the same viewer).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..commands import Command, bindings
from ..seat_links import ReplaySeat
from ..widgets.eventlog import EventLog

#: The shared keys a replay keeps in its footer.
REPLAY_SHOWS = ("help", "leave")


class ReplayMixin:
    """Mixed into a game's screen class to make it a replay viewer.

    Textual only merges BINDINGS of DOMNode classes, so ``replay_screen_class`` puts the
    bindings of its command table into the generated class (replay commands in front of
    the game's ``COMMAND_TABLE``, for the footer, the palette and the help)."""

    REPLAY_COMMANDS = (
        Command("replay-back", "left,comma", "Back", "replay_step(-1)", "One move back.", priority=True),
        Command("replay-forward", "right,full_stop", "Forward", "replay_step(1)", "One move forward.",
                priority=True),
        Command("replay-start", "home", "Start", "replay_jump(0)", "The position before the first move.",
                priority=True),
        Command("replay-end", "end", "End", "replay_jump(-1)", "The last position.", priority=True),
        Command("replay-viewer", "v", "Whose view", "replay_viewer",
                "Watch as the full table, as each seat, or as a spectator.", priority=True),
    )
    REPLAY_BINDINGS = bindings(REPLAY_COMMANDS)

    # (The replay keys move the record's position or its viewer; the replay session,
    # told by the ReplaySeat, draws what that shows.)
    def action_replay_step(self, delta: int) -> None:
        self.link.step(delta)  # type: ignore[attr-defined]

    def action_replay_jump(self, where: int) -> None:
        self.link.jump(where)  # type: ignore[attr-defined]

    def action_replay_viewer(self) -> None:
        self.link.next_viewer()  # type: ignore[attr-defined]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay_jump" and isinstance(self.focused, EventLog):  # type: ignore[attr-defined]
            return None  # Home/End go to the log's first / last line while it has the focus
        return super().check_action(action, parameters)  # type: ignore[misc]

    @property
    def active_bindings(self) -> dict[str, Any]:
        """The footer's keys: the screen's own and the app's, not the board's (Enter on a
        focused board still runs, and the game says it cannot play in a replay)."""
        mine = (self, self.app)  # type: ignore[attr-defined]
        return {key: b for key, b in super().active_bindings.items()  # type: ignore[misc]
                if b.node in mine}

    def baseline_view(self) -> Any | None:
        """The position before the move shown, as the same viewer saw it."""
        link: ReplaySeat = self.link  # type: ignore[attr-defined]
        if link.index <= 0:
            return None
        return link.game.view(link.states[link.index - 1], link.seat)

    def turn_line(self, view: Any, legal: list[Any]) -> str:
        return self.link.waiting_for()  # type: ignore[attr-defined]


def replay_commands(table: tuple[Command, ...]) -> tuple[Command, ...]:
    """The replay's command table: its own commands, help and leave, then every other
    command of the game's screen kept bound but out of the footer and the palette."""
    shown = tuple(c for c in table if c.id in REPLAY_SHOWS)
    hidden = tuple(dataclasses.replace(c, show=False, palette=False)
                   for c in table if c.id not in REPLAY_SHOWS)
    return (*ReplayMixin.REPLAY_COMMANDS, *shown, *hidden)


def replay_screen_class(cls: type) -> type:
    """``cls`` (a game's screen class) as a replay viewer."""
    table = replay_commands(cls.COMMAND_TABLE)
    return type(f"Replay{cls.__name__}", (ReplayMixin, cls), {
        "BINDINGS": bindings(table), "COMMAND_TABLE": table}, inherit_bindings=False)
