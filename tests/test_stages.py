"""The kit's stage table (``engine.stages``): a tiny two-stage game written as one table,
as every game's ``rules.py`` writes its own."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from engine.core import Event, IllegalAction
from engine.stages import GAME_OVER, NOBODY, StageRule, nobody, nothing, whose_turn


@dataclass(frozen=True)
class Counting:
    """Two seats take turns adding 1 or 2; whoever reaches 5 wins."""
    phase: str
    turn: int
    total: int


@dataclass(frozen=True)
class Add:
    amount: int


@dataclass(frozen=True)
class Stop:
    """An action no stage of the toy table takes."""


def add(state: Counting, seat: int, action: Add) -> tuple[Counting, list[Event]]:
    total = state.total + action.amount
    if total >= 5:
        return replace(state, phase="over", total=total), [Event("won", {"seat": seat})]
    return replace(state, turn=1 - seat, total=total), [Event("added", {"seat": seat})]


STAGES = {
    "count": StageRule(whose_turn, lambda x, seat: [Add(1), Add(2)], {Add: add},
                       "Add 1 or 2 to the total."),
    "over": GAME_OVER,
}


def apply(state: Counting, seat: int, action: object) -> tuple[Counting, list[Event]]:
    rule = STAGES[state.phase]
    if seat not in rule.actors(state):
        raise IllegalAction("It is not your turn.")
    step = rule.step(action)
    if action not in rule.choices(state, seat):
        raise IllegalAction("You may add only 1 or 2.")
    return step(state, seat, action)


def test_the_seat_whose_turn_it_is_acts_alone():
    state = Counting("count", 1, 0)
    assert STAGES["count"].actors(state) == frozenset({1})
    assert nobody(state) == NOBODY == frozenset()


def test_a_step_carries_the_action_out():
    state, events = apply(Counting("count", 0, 0), 0, Add(2))
    assert state == Counting("count", 1, 2)
    assert [e.kind for e in events] == ["added"]


def test_an_action_of_a_kind_the_stage_does_not_take_is_refused_with_its_hint():
    with pytest.raises(IllegalAction, match="Add 1 or 2 to the total."):
        apply(Counting("count", 0, 0), 0, Stop())


def test_an_action_of_the_right_kind_is_checked_against_the_choices():
    with pytest.raises(IllegalAction, match="only 1 or 2"):
        apply(Counting("count", 0, 0), 0, Add(3))


def test_the_game_over_stage_has_no_actors_no_choices_and_refuses_everything():
    state, _ = apply(Counting("count", 0, 4), 0, Add(1))
    assert state.phase == "over"
    assert STAGES["over"].actors(state) == frozenset()
    assert nothing(state, 0) == [] and STAGES["over"].choices(state, 0) == []
    with pytest.raises(IllegalAction, match="The game is over."):
        GAME_OVER.step(Add(1))


def test_a_stage_rule_is_a_value():
    rule = StageRule(whose_turn, nothing, {})
    with pytest.raises(AttributeError):
        rule.hint = "changed"  # type: ignore[misc]
    assert rule.hint == "That is not possible now."
