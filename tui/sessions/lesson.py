"""A guided first game (``atlantis learn``): hot-seat against bots, with a lesson card.

When a new step of the lesson comes up and it is the learner's turn, the session shows the
step's card (what to do, why, and the keys) over the table; the side panel keeps a one-line
reminder, and ``L`` shows the card again.  The lesson's filter on the learner's moves lives
in the learner's seat link (``tui.lessons.LessonSeat``): this session only shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hot_seat import HotSeatSession

if TYPE_CHECKING:
    from ..lessons import LessonTable
    from .base import Stage


class LessonSession(HotSeatSession):
    table: LessonTable

    def __init__(self, app: Stage, table: LessonTable, bot_delay: float = 0.0, **kwargs: Any):
        super().__init__(app, table, bot_delay, **kwargs)
        self.lesson = table.lesson
        self._card_for: int | None = None  # the step whose card was shown last (-1: the farewell)
        self._card_up = False

    def advance(self) -> None:
        super().advance()
        if self._stopped or self.screen is None or self.curtain_up:
            return
        self.screen.status_lines(self.reminder())
        if self._card_up or self.bot_waiting:
            return
        over = self.table.match.result() is not None
        index = -1 if self.lesson.over else self.lesson.index
        if index != self._card_for and (self.lesson.seat in self.table.match.to_act() or over and index == -1):
            if self.app.screen is not self.screen:
                # a box of the game's own (the Doom phase's summary) is read first: the card
                # comes once it is closed, never over it
                self.app.set_timer(0.2, self._card_when_free)
                return
            self.show_card()

    def _card_when_free(self) -> None:
        if not self._stopped and not self._card_up:
            self.advance()

    def farewell_due(self) -> bool:
        return self.lesson.over and self._card_for != -1

    def show_game_over(self) -> None:
        """A lesson that ends the game says its farewell first; the result comes after it."""
        if self.farewell_due() and not self._card_up:
            self.show_card()
            return
        if not self._card_up:
            super().show_game_over()

    def reminder(self) -> str:
        """The side panel's line: where the lesson is and the keys of the step."""
        step = self.lesson.step
        if step is None:
            return "Lesson over: the game is yours."
        keys = f"\nKeys: {step.keys}." if step.keys else ""
        lesson = self.lesson   # (one short line: the log stays in view at 80x24)
        return f"Lesson {lesson.index + 1}/{len(lesson.script.steps)} · L repeats it{keys}"

    def show_card(self) -> None:
        """The current step's card (or the farewell once the lesson is over)."""
        from ..screens.lesson import LessonCard

        lesson = self.lesson
        step = lesson.step
        self._card_for = -1 if step is None else lesson.index
        self._card_up = True
        if step is None:
            card = LessonCard(lesson.script.title, "The lesson is over", lesson.script.farewell, "")
        else:
            card = LessonCard(lesson.script.title, lesson.progress(), step.say, step.keys)
        self.app.push_screen(card, lambda _: self._card_closed())

    def _card_closed(self) -> None:
        self._card_up = False
        if self.table.match.result() is not None and not self._stopped:
            self.show_game_over()   # (held back while a card was up: the farewell comes first)
