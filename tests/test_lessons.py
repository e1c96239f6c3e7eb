"""The guided first games: every lesson plays through with the real rules and the bots the
app seats, each step's move is legal when the step comes, and any other move is refused."""

from __future__ import annotations

import pytest

from tui.bundled import LESSONS_FOLDER
from tui.lessons import Lesson, has_lesson, lesson_match, load_lesson

LESSONS = sorted(path.stem for path in LESSONS_FOLDER.glob("*.json"))


def test_every_lesson_file_is_valid_and_names_a_known_game():
    from engine.registry import GAMES

    assert LESSONS, "no lesson is bundled"
    for slug in LESSONS:
        script = load_lesson(slug)
        assert script.setup.game == slug in GAMES
        assert script.setup.bots == script.setup.players - 1, "a lesson is one learner against bots"


@pytest.mark.parametrize("slug", LESSONS)
def test_a_lesson_plays_through_step_by_step_and_refuses_other_moves(slug):
    script = load_lesson(slug)
    match = lesson_match(script)
    game = match.game
    lesson = Lesson(game, script)
    bots = {seat: game.make_bot(seat, match.seed) for seat, info in enumerate(match.seats) if info.kind == "bot"}
    while not lesson.over:
        assert match.result() is None, f"the game ended before step {lesson.index + 1}"
        seat = min(match.to_act())
        view = match.view(seat)
        legal = game.legal(view)
        if seat in bots:
            match.act(seat, bots[seat].choose(view, legal))
            continue
        assert seat == lesson.seat
        wanted = [action for action in legal if lesson.wants(action)]
        assert len(wanted) == 1, f"step {lesson.index + 1}: its move {lesson.step.moves[lesson.made]} is not legal now"
        others = [action for action in legal if not lesson.wants(action)]
        if others:
            refusal = lesson.refusal(others[0])
            assert refusal and lesson.step.keys in refusal  # what to do instead, in the card's words
        assert lesson.refusal(wanted[0]) is None
        at = (lesson.index, lesson.made)
        match.act(seat, wanted[0])
        lesson.done(wanted[0])
        assert (lesson.index, lesson.made) > at
    assert lesson.refusal(object()) is None, "once the lesson is over, the player plays freely"


def test_a_game_without_a_lesson_says_which_games_have_one():
    assert not has_lesson("no-such-game")
    with pytest.raises(KeyError, match="pathways"):
        load_lesson("no-such-game")

