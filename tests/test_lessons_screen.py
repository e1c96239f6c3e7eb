"""Each guided first game on the real screen at 80x24: every step's card comes up when the
step is the learner's, the move it waits for goes through the screen's own send, another
move is refused on the screen in the lesson's words and changes nothing, the side panel
keeps the step's keys, and the farewell closes the lesson."""

from __future__ import annotations

import pytest

from tui.app import AtlantisApp
from tui.bundled import LESSONS_FOLDER
from tui.lessons import LessonTable, load_lesson
from tui.screens.lesson import LessonCard

LESSONS = sorted(path.stem for path in LESSONS_FOLDER.glob("*.json"))


async def card_on_top(pilot, app) -> LessonCard:
    """The lesson's card, once it is on top; a box of the game's own (End of Atlantis's
    Doom summary) comes first and is read and closed, never covered by the card."""
    for _ in range(30000):  # (generous: a loaded CI machine)
        if isinstance(app.screen, LessonCard) and app.screen.query("Static"):
            return app.screen
        if type(app.screen).__name__ == "DoomSummaryScreen":
            assert not any(isinstance(screen, LessonCard) for screen in app.screen_stack)
            await pilot.press("enter")
        await pilot.pause(0.001)
    raise AssertionError(f"no lesson card came up (on top: {type(app.screen).__name__})")


def card_text(card: LessonCard) -> str:
    return " ".join(str(static.render()) for static in card.query("Static"))


@pytest.mark.timeout(240)
@pytest.mark.parametrize("slug", LESSONS)
async def test_a_lesson_is_taught_step_by_step_on_the_real_screen(slug):
    table = LessonTable(load_lesson(slug))
    lesson, match = table.lesson, table.match
    app = AtlantisApp(table=table, autosave=False, bot_delay=0.001)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        refused_once = False
        while not lesson.over:
            step = lesson.step
            card = await card_on_top(pilot, app)
            assert step.say[:40] in card_text(card) and lesson.progress() in card_text(card)
            await pilot.press("enter")
            await pilot.pause()
            screen = app.game_screen
            assert app.screen is screen
            assert step.keys[:20] in str(screen.query_one("#lan-status").render())
            for _ in step.moves:
                legal = table.link(lesson.seat).legal()
                wanted = next(action for action in legal if lesson.wants(action))
                other = next((action for action in legal if not lesson.wants(action)), None)
                if other is not None and not refused_once:
                    moves_before = len(match.record.moves)
                    assert not screen.send(other)
                    await pilot.pause()
                    assert "Not this one" in str(screen.query_one("#message").render())
                    assert len(match.record.moves) == moves_before
                    refused_once = True
                assert screen.send(wanted) is not False
                for _ in range(30000):  # the bots answer, until the learner is to act again
                    await pilot.pause(0.001)
                    if lesson.over or lesson.seat in match.to_act() and not app.session.bot_waiting:
                        break
        card = await card_on_top(pilot, app)
        assert lesson.script.farewell[:40] in card_text(card)
        assert not any(type(screen).__name__ in ("GameOverScreen", "DoomSummaryScreen")
                       for screen in app.screen_stack)   # the farewell first: nothing under it
        assert refused_once
        if match.result() is not None:   # the result comes once the farewell is closed
            await pilot.press("enter")
            for _ in range(3000):
                await pilot.pause(0.001)
                if type(app.screen).__name__ == "GameOverScreen":
                    break
            assert type(app.screen).__name__ == "GameOverScreen", app.screen


async def test_f4_in_the_menu_starts_the_highlighted_games_lesson():
    from tui.screens.menu import MenuScreen

    app = AtlantisApp(autosave=False, bot_delay=0.001)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("f4")
        card = await card_on_top(pilot, app)
        table = app.table
        assert isinstance(table, LessonTable) and table.game.slug == app.screen_stack[-2].link.game.slug
        assert load_lesson(table.game.slug).steps[0].say[:40] in card_text(card)
