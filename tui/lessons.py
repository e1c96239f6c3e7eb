"""Guided first games (``atlantis learn GAME``): a fixed table against bots, and a script of
steps that each say what to do and why, then wait for the player to do it.

A lesson is data (``tui/bundled/lessons/<game>.json``). It plays the real rules on the real
screen: the only thing it adds is a filter in front of the player's moves. A step names the
moves it waits for exactly (as a record stores them: ``{"k": "Place", "tile": 70, ...}``), so the game never leaves the script's
path and the bots, dealt from the lesson's fixed seed, answer the same way every time; any other
move is refused with the step's own hint. After the last step the player finishes the game on
their own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.core import Game
from engine.match import Match
from engine.registry import get_game

from .bundled import LESSONS_FOLDER
from .common import seats_for
from .seat_links import LocalSeat, LocalTable
from .setups import Setup


class Step(BaseModel):
    """What the player is asked to do next, with why: one or more moves, in order (a screen
    may send several for one choice: Atlantis's "figure 1 to space 8" is a figure and a card)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    say: str = Field(min_length=1)   # what to do now, and why, in a sentence or three
    keys: str = ""                   # how to do it on this screen ("4 picks the tee, Enter on A2")
    moves: tuple[dict[str, Any], ...] = Field(min_length=1)  # the moves it waits for, as records store them


class LessonScript(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    title: str
    setup: Setup
    steps: tuple[Step, ...] = Field(min_length=1)
    farewell: str = "That was the lesson: the rest of the game is yours."


def lesson_path(game: str) -> Path:
    return LESSONS_FOLDER / f"{game}.json"


def has_lesson(game: str) -> bool:
    return lesson_path(game).is_file()


def load_lesson(game: str) -> LessonScript:
    """A game's lesson; a missing one is a KeyError naming the games that have one."""
    path = lesson_path(game)
    if not path.is_file():
        have = ", ".join(sorted(p.stem for p in LESSONS_FOLDER.glob("*.json"))) or "none"
        raise KeyError(f"{game!r} has no guided first game; games with one: {have}")
    return LessonScript.model_validate(json.loads(path.read_text()))


def lesson_match(script: LessonScript) -> Match:
    """The lesson's table as a new match: its seats (the learner first, bots after) and seed."""
    setup = script.setup
    game = get_game(setup.game)
    return Match(game, game.parse_options(setup.options), seats_for(setup.game, setup.players, setup.bots),
                 setup.seed)


class Lesson:
    """Where the player is in a lesson script. The session asks ``refusal`` before it sends
    a move of the learning seat, and calls ``done`` after the move went through."""

    def __init__(self, game: Game, script: LessonScript, seat: int = 0):
        self.game = game
        self.script = script
        self.seat = seat
        self.index = 0
        self.made = 0  # moves of the current step made so far

    @property
    def step(self) -> Step | None:
        """The step being taught, or None once the script is over."""
        return self.script.steps[self.index] if self.index < len(self.script.steps) else None

    @property
    def over(self) -> bool:
        return self.step is None

    def progress(self) -> str:
        """"Lesson 3 of 12" (or the farewell once it is over): not "step", which a game's
        own turn line may count at the same time."""
        if self.over:
            return self.script.farewell
        return f"Lesson {self.index + 1} of {len(self.script.steps)}"

    def wants(self, action: Any) -> bool:
        step = self.step
        return step is None or _as_json(self.game.codec.encode(action)) == _as_json(step.moves[self.made])

    def refusal(self, action: Any) -> str | None:
        """Why the lesson does not send this move now (None: send it)."""
        step = self.step
        if step is None:
            return None
        if self.wants(action):
            return None
        how = f"{step.keys}." if step.keys else "what the lesson's card says."
        return f"Not this one. This step asks: {how} (L shows it again.)"

    def done(self, action: Any) -> None:
        """A move of the learning seat went through: the step it answered is over."""
        step = self.step
        if step is not None and self.wants(action):
            self.made += 1
            if self.made == len(step.moves):
                self.index, self.made = self.index + 1, 0


def _as_json(value: Any) -> str:
    """Tuples and lists compare alike, as they do once a script is read from JSON."""
    return json.dumps(value, sort_keys=True)


class LessonTable(LocalTable):
    """The lesson's table: a local table whose learning seat's moves pass the lesson first."""

    def __init__(self, script: LessonScript):
        match = lesson_match(script)
        super().__init__(match.game, match)
        self.lesson = Lesson(match.game, script)

    def link(self, seat: int | None) -> LocalSeat:
        return LessonSeat(self, seat) if seat == self.lesson.seat else LocalSeat(self, seat)


class LessonSeat(LocalSeat):
    """The learner's seat: a move the current step does not wait for is refused, in the
    lesson's words, the way an illegal move is (the screen says why and nothing changes)."""

    table: LessonTable

    def __init__(self, table: LessonTable, seat: int | None):
        super().__init__(table, seat)
        self.practice = False   # (the lesson's own line says where you are: no "seed known" line)

    def submit(self, action: Any) -> str | None:
        lesson = self.table.lesson
        refusal = lesson.refusal(action)
        if refusal is not None:
            return refusal
        problem = super().submit(action)
        if problem is None:
            lesson.done(action)
        return problem

    def undo(self) -> str | None:
        return "The lesson goes one way: no undo until it is over." if not self.table.lesson.over else super().undo()

