"""The stage table: the one shape in which every game's rules say, for each part of a
turn, who acts, what they may do and what each action does.

A game's ``rules.py`` holds ``STAGES: dict[key, StageRule]``, keyed by the name its
state gives the part of the turn (``phase``, ``stage``, ...).  ``to_act`` reads the
``actors`` column, ``legal`` the ``choices`` column (on a view), and ``apply`` checks
both on the state before it runs the ``steps`` entry: legality is stated once.

* ``actors(x)`` answers the seats that act now as a frozenset.  It reads only public
  fields, so the state and every seat's view give the same seats (a simultaneous stage:
  everyone who has still to choose).  ``whose_turn`` is it for a game where the seat
  ``x.turn`` acts; ``nobody`` for a stage where no seat acts.
* ``choices(x, seat, ...)`` lists an actor's legal actions from what that seat may know:
  on its view, or on the state with the seat's own hidden things passed in (a game adds
  what it needs after ``seat``: Atlantis the hand; Survive the hand and the explorer
  values the seat sees).  ``nothing`` offers none.
* ``steps`` maps each kind of action the stage takes to the function carrying it out,
  ``step(state, seat, action) -> (state, events)``.
* ``hint`` says what to do now: the refusal of an action of a kind the stage does not
  take (``StageRule.step``).  Why an action of the right kind is refused depends on the
  action, so each game words that itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .core import Event, IllegalAction

Step = Callable[[Any, int, Any], tuple[Any, list[Event]]]

NOBODY: frozenset[int] = frozenset()
_ONLY = tuple(frozenset((seat,)) for seat in range(16))  # one set per seat, shared by every state


@dataclass(frozen=True, slots=True)
class StageRule:
    """One stage of a game's turn: who acts, what they may do, what each action does."""

    actors: Callable[[Any], frozenset[int]]
    choices: Callable[..., list[Any]]
    steps: Mapping[type, Step]
    hint: str = "That is not possible now."

    def step(self, action: Any) -> Step:
        """The step carrying ``action`` out; an ``IllegalAction`` saying what to do now for
        an action of a kind this stage does not take."""
        step = self.steps.get(type(action))
        if step is None:
            raise IllegalAction(self.hint)
        return step


def whose_turn(x: Any) -> frozenset[int]:
    """The seat whose turn it is (``x.turn``), alone."""
    return _ONLY[x.turn]


def nobody(x: Any) -> frozenset[int]:
    """No seat acts (the game is over, or the stage carries on by itself)."""
    return NOBODY


def nothing(x: Any, seat: int, *known: Any) -> list[Any]:
    """No action is legal."""
    return []


GAME_OVER = StageRule(nobody, nothing, {}, "The game is over.")
