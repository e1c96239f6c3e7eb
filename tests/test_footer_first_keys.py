"""A table's start (issue 15, item 2): the footer gets the first view's keys before the
first frame (no recompose after it), later changes of the enabled keys still reach it, and
only a change of the keys it shows composes it anew."""

from __future__ import annotations

from engine.registry import get_game
from textual._context import active_message_pump
from textual.widgets._footer import FooterKey

from frame_counting import next_move
from tui.app import AtlantisApp
from tui.common import seats_for
from tui.screens.game import GameFooter
from tui.seat import LocalTable


def _app(game: str = "pathways") -> AtlantisApp:
    table = LocalTable.new(get_game(game), {}, seats_for(game, 2, 1), 7)
    return AtlantisApp(table=table, autosave=False, manual_bots=True)


def _shown(footer: GameFooter) -> set[str]:
    return {k.key for k in footer.query(FooterKey) if not k.has_class("-disabled")}


async def test_the_start_mounts_the_first_keys_without_a_recompose_and_a_later_change_recomposes(monkeypatch):
    recomposed: list[int] = []
    original = GameFooter.recompose

    async def recompose(self):
        recomposed.append(1)
        await original(self)

    monkeypatch.setattr(GameFooter, "recompose", recompose)
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(5):
            await pilot.pause()
        screen = app.game_screen
        footer = screen.query_one(GameFooter)
        assert {"question_mark", "u", "q"} <= _shown(footer)
        assert recomposed == []  # (the keys were mounted with the first view)
        before = screen.check_action
        screen.check_action = lambda action, parameters: False if action == "undo" else before(action, parameters)
        screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert recomposed and "u" not in _shown(footer)
        screen.check_action = before
        screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert "u" in _shown(footer)


async def test_the_palette_key_is_born_compact_as_its_watcher_would_make_it():
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(GameFooter)
        palette = [k for k in footer.query(FooterKey) if k.has_class("-command-palette")]
        assert palette and all(k.has_class("-compact") for k in palette)
        token = active_message_pump.set(footer)
        try:
            born = [w for w in footer.compose() if isinstance(w, FooterKey) and w.has_class("-command-palette")]
        finally:
            active_message_pump.reset(token)
        assert born and all(k.has_class("-compact") for k in born)


def _keys_shown(footer: GameFooter) -> list[tuple[str, str, bool]]:
    """The footer's keys as drawn: key, description, enabled."""
    return [(k.key, k.description, not k.disabled) for k in footer.query(FooterKey)]


async def test_the_footer_is_composed_anew_only_when_the_keys_it_shows_change(monkeypatch):
    # Atlantis: the digit keys 2-9 are hidden bindings whose action changes as your turn
    # begins and ends; that alone recomposed the footer (a compose, a layout, two frames)
    recomposed: list[tuple[list, list]] = []
    original = GameFooter.recompose

    async def recompose(self):
        before = _keys_shown(self)
        await original(self)
        recomposed.append((before, _keys_shown(self)))

    monkeypatch.setattr(GameFooter, "recompose", recompose)
    app = _app("atlantis")
    table = app.table
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(5):
            await pilot.pause()
        hidden_changed = 0
        for _ in range(30):
            if table.match.result() is not None:
                break
            hidden = {k: b.action for k, (_, b, _, _) in app.game_screen.active_bindings.items() if not b.show}
            next_move(table)
            for _ in range(4):
                await pilot.pause()
            now = {k: b.action for k, (_, b, _, _) in app.game_screen.active_bindings.items() if not b.show}
            hidden_changed += now != hidden
        assert hidden_changed  # (the moves did change hidden keys)
        assert recomposed  # (and the shown ones, now and then)
        for before, after in recomposed:
            assert before != after  # every compose changed what the footer shows
