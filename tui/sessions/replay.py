"""Replay: a saved record shown one position at a time, as the whole table, a seat or
a spectator saw it.  The replay keys move the ``ReplaySeat`` (``step``, ``jump``,
``next_viewer``); the seat tells the session, and the session draws."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Session, Stage

if TYPE_CHECKING:
    from ..seat_links import ReplaySeat


class ReplaySession(Session):
    def __init__(self, app: Stage, replay: ReplaySeat):
        super().__init__(app)
        self.replay = replay
        self.link = replay

    def start(self) -> None:
        from ..games import screen_class
        from ..screens.replay import replay_screen_class

        self.screen = replay_screen_class(screen_class(self.replay.game.slug))(self.replay)
        self.replay.listeners.append(self.draw)
        self.draw()
        self.app.push_screen(self.screen)
        if self.replay.problem:
            self.app.notify(self.replay.problem, severity="error", timeout=10)

    def stop(self) -> None:
        if self.draw in self.replay.listeners:
            self.replay.listeners.remove(self.draw)

    def save_record(self) -> None:
        self.say("This is a replay of a saved record: there is nothing new to save.")

    def leave(self) -> None:
        """A replay changes nothing: ``q`` leaves at once."""
        self.app.leave_game()
