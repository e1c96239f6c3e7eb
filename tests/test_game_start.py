"""A table's start (issue 15, item 2): the game screen draws its view once, and its footer
is composed once, with the keys the view enables (not three times, not empty)."""

from __future__ import annotations

from engine.registry import get_game
from tui.app import AtlantisApp
from tui.common import seats_for
from textual.widgets._footer import FooterKey

from tui.screens.game import GameFooter, GameScreen
from tui.seat import LocalTable


async def test_a_table_starts_with_one_footer_and_one_drawing_of_its_view(monkeypatch):
    composed: list[int] = []
    drawn: list[int] = []
    original_compose = GameFooter.compose
    original_refresh = GameScreen.refresh_view

    def compose(self):
        composed.append(len(self.screen.active_bindings))
        return original_compose(self)

    def refresh_view(self):
        drawn.append(1)
        return original_refresh(self)

    monkeypatch.setattr(GameFooter, "compose", compose)
    monkeypatch.setattr(GameScreen, "refresh_view", refresh_view)
    table = LocalTable.new(get_game("pathways"), {}, seats_for("pathways", 2, 1), 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(5):
            await pilot.pause()
        footer = app.screen.query_one(GameFooter)
        keys = {k.key for k in footer.query(FooterKey)}
        assert {"1", "question_mark", "q"} <= keys  # the game's keys and the shared ones
        # compose runs once empty (bindings not ready) and once with the keys: no rebuilds
        assert len(composed) == 2, composed
        assert len(drawn) == 1
        assert app.game_screen.shows_current_view()
        screen = app.game_screen
        assert screen.send(screen.link.legal()[0])  # a move changes the table: drawn again
        for _ in range(3):
            await pilot.pause()
        assert len(drawn) == 2 and screen.shows_current_view()


async def test_the_footer_composes_its_keys_whoever_runs_the_recompose():
    """Footer's keys bind to Footer.compact, which needs the footer as the active message
    pump; a recompose the screen runs (a callback it invokes) must still compose."""
    from textual._context import active_message_pump

    table = LocalTable.new(get_game("pathways"), {}, seats_for("pathways", 2, 1), 7)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(GameFooter)
        token = active_message_pump.set(app.screen)  # as when the screen runs the callback
        try:
            keys = [w for w in footer.compose() if isinstance(w, FooterKey)]
        finally:
            active_message_pump.reset(token)
        assert {k.key for k in keys} >= {"1", "q"}
