"""The table server's "Open a table" form: the menu's choice widgets (players, bots, the
game's own option fields), not free text, and the focused field plain to see in text."""

from __future__ import annotations

from tui.theme import ThemedApp as App

from netplay import messages as M
from tui.screens.menu_fields import CycleSelect, FieldBox
from tui.ssh.lobby import OpenTableScreen


class FormApp(App):
    def __init__(self) -> None:
        super().__init__()
        self.answers: list[M.OpenTable | None] = []

    def on_mount(self) -> None:
        self.push_screen(OpenTableScreen(["pathways", "survive"], "Ana"), self.answers.append)


async def test_open_a_table_with_choice_widgets():
    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = app.screen
        assert isinstance(form.query_one("#players"), CycleSelect) and isinstance(form.query_one("#bots"), CycleSelect)
        assert not form.query("#options Input#options")  # (no free-text "name=value" box)
        assert form.query_one("#opt-max_rounds")            # the game's own option field
        # the focused field: its label reversed and a bar beside it (text, not only colour)
        game_box = form.query_one("#field-game", FieldBox)
        assert app.focused is form.query_one("#game") and game_box.has_focus_within
        assert game_box.styles.border_left[0] == "thick"
        await pilot.press("enter")                          # on to Players
        assert app.focused is form.query_one("#players")
        await pilot.press("right", "right")                 # 4 players
        await pilot.press("enter", "right")                 # 2 bots (1 at first)
        assert form.query_one("#bots", CycleSelect).value == 2
        await pilot.press("ctrl+s")
        await pilot.pause()
        request, = app.answers
        assert request.game == "pathways" and request.players == 4 and request.bots == 2
        assert request.options == {"max_rounds": 60}  # (the option field, checked and sent as a number)


async def test_a_game_change_brings_its_seats_and_options():
    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = app.screen
        await pilot.press("right")                          # Survive
        await pilot.pause()
        assert form.slug == "survive"
        assert not form.query("#opt-max_rounds")
        bots = form.query_one("#bots", CycleSelect)
        assert [v for _, v in bots.options] == list(range(form.query_one("#players", CycleSelect).value))
        assert bots.value == 1  # (as before: one bot, the last seat)
