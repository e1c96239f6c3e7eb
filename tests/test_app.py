"""The app shell: hot-seat curtain, bots, undo messages, game over, replay, menu."""

from __future__ import annotations

from pathlib import Path

from engine.core import SeatInfo
from engine.pathways.actions import EndMove, EndPlays, Place, Special
from engine.registry import get_game
from engine.storage import load_record
from tui.app import AtlantisApp
from tui.screens.dialogs import CurtainScreen, GameOverScreen, HelpScreen
from tui.screens.menu import MenuScreen
from tui.seat_links import LocalTable, ReplaySeat
from tui.selfplay import play_one

GAME = get_game("pathways")


def two_humans(seed: int = 4) -> LocalTable:
    return LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "human")], seed)


def finish_turn(app: AtlantisApp) -> None:
    """Play the current seat's turn through its screen: legal plays, then end the move."""
    screen = app.game_screen
    for _ in range(20):
        legal = screen.link.legal()
        if not legal:
            return
        plays = [a for a in legal if isinstance(a, (Place, Special)) and not isinstance(a, Special)]
        if plays:
            action = plays[0]
        elif EndPlays() in legal:
            action = EndPlays()
        else:
            action = EndMove() if EndMove() in legal else legal[0]
        assert screen.send(action)


async def test_curtain_hides_the_table_between_two_humans():
    table = two_humans()
    app = AtlantisApp(table=table, bot_delay=0, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)  # first player is called to the keyboard
        await pilot.press("enter")
        await pilot.pause()
        assert app.game_screen.link.seat == 0
        finish_turn(app)
        await pilot.pause()
        # Blue is to act: the curtain is up and the screen underneath still belongs to Red.
        assert table.match.to_act() == frozenset({1})
        assert isinstance(app.screen, CurtainScreen)
        assert app.game_screen.link.seat == 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.game_screen
        assert app.game_screen.link.seat == 1
        assert app.game_screen.link.view().hand == table.match.state.hands[1]


async def test_bots_play_until_the_human_is_to_act():
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 8)
    app = AtlantisApp(table=table, bot_delay=0, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, CurtainScreen)  # one human: no curtain needed
        finish_turn(app)
        for _ in range(600):  # bots step on timers: generous for a loaded machine
            await pilot.pause(0.01)
            if table.match.to_act() == frozenset({0}):
                break
        assert table.match.to_act() == frozenset({0})
        assert any(m.seat == 1 for m in table.match.record.moves)


async def test_undo_refusal_says_why():
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 2)
    app = AtlantisApp(table=table, bot_delay=0, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        message = app.game_screen.query_one("#message").render()
        assert "nothing to undo" in str(message).lower()


async def test_help_opens_with_the_rules():
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 2)
    app = AtlantisApp(table=table, bot_delay=0, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Atlantis" in app.screen.markdown
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.game_screen


async def test_game_over_screen_shows_the_winner_and_saves(tmp_path: Path):
    table = LocalTable.new(GAME, {"max_rounds": 5}, [SeatInfo("Red", "bot"), SeatInfo("Blue", "bot")], 9)
    path = tmp_path / "over.atlrec"
    app = AtlantisApp(table=table, bot_delay=0, save_path=path)
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(1500):
            await pilot.pause(0.01)
            if isinstance(app.screen, GameOverScreen):
                break
        assert isinstance(app.screen, GameOverScreen)
        assert "Winner" in app.screen.text
        await pilot.press("s")
        await pilot.pause()
    assert load_record(path).moves == table.match.record.moves


async def test_autosave_keeps_the_record_after_every_move(tmp_path: Path):
    path = tmp_path / "auto.atlrec"
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 6, autosave=path)
    app = AtlantisApp(table=table, bot_delay=0)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        finish_turn(app)
        await pilot.pause()
        assert len(load_record(path).moves) == len(table.match.record.moves) > 0


async def test_replay_steps_and_switches_viewer():
    match = play_one("pathways", seed=12, players=2)
    replay = ReplaySeat(GAME, match.record)
    app = AtlantisApp(replay=replay)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        end = len(replay.states) - 1
        assert replay.index == end
        await pilot.press("left", "left")
        assert replay.index == end - 2
        await pilot.press("home")
        assert replay.index == 0
        await pilot.press("right")
        assert replay.index == 1
        assert replay.watching == ReplaySeat.FULL
        assert any(line.text.startswith("Red held") for line in replay.log())  # the reveal
        await pilot.press("v")
        assert replay.seat == 0 and replay.view().hand == replay.states[1].hands[0]
        assert not any(line.text.startswith("Red held") for line in replay.log())
        await pilot.press("v", "v")
        assert replay.watching == ReplaySeat.PUBLIC and replay.view().hand is None


async def test_menu_starts_a_game():
    app = AtlantisApp(bot_delay=0, autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("ctrl+s")
        await pilot.pause()
        from engine.registry import GAMES

        # the menu opens on the first game by slug (which one depends on the games registered)
        assert app.table is not None and app.table.game.slug == sorted(GAMES)[0]
        assert [s.kind for s in app.table.match.seats] == ["human", "bot"]


async def test_keys_typed_ahead_are_handled_in_order():
    """Enter typed right after a cursor key acts on the new cursor cell."""
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 42)
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)
    async with app.run_test(size=(90, 28)) as pilot:
        await pilot.pause()
        await pilot.press("1")
        tile = table.match.state.hands[0][0]
        assert any(a.cell == 10 for a in table.match.legal(0) if isinstance(a, Place) and a.tile == tile)
        app.simulate_key("j")
        app.simulate_key("enter")
        await pilot.pause()
        await pilot.pause()
        first = GAME.codec.decode(table.match.record.moves[0].action)
        assert isinstance(first, Place) and first.cell == 10  # A2, below the start corner


async def test_menu_chooses_which_seats_are_bots():
    from tui.screens.menu_fields import CycleSelect

    from engine.registry import GAMES
    from tui.screens.menu import GameList

    app = AtlantisApp(bot_delay=3600, autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        menu = app.screen
        menu.query_one("#games", GameList).highlighted = sorted(GAMES).index("pathways")
        await pilot.pause()
        menu.query_one("#players", CycleSelect).value = 3
        await pilot.pause()
        seats = [s for s in menu.query(".seat-kind").results(CycleSelect) if s.display]
        assert [s.value for s in seats] == ["human", "bot:normal", "bot:normal"]
        seats[0].value = "bot:normal"
        seats[2].value = "human"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert [s.kind for s in app.table.match.seats] == ["bot", "bot", "human"]


async def test_menu_game_has_a_secret_seed_and_a_typed_one_is_practice():
    """No seed on the menu by default: the game draws 128 secret bits; a practice seed
    typed into the field makes a practice game, marked on the table screen."""
    from textual.widgets import Input, Static

    for typed, practice in (("", False), ("77", True)):
        app = AtlantisApp(bot_delay=3600, autosave=False)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            field = app.screen.query_one("#seed", Input)
            assert field.value == ""  # the menu never shows a seed
            field.value = typed
            await pilot.press("ctrl+s")
            await pilot.pause()
            match = app.table.match
            assert match.practice is practice and match.record.practice is practice
            assert (match.seed == 77) if practice else match.seed.bit_length() > 64
            line = app.screen.query_one("#practice", Static)
            assert line.display is practice
            if practice:
                assert "practice: seed known" in str(line.render())


async def test_menu_refuses_a_practice_seed_that_is_not_a_number():
    from textual.widgets import Input, Static

    app = AtlantisApp(bot_delay=3600, autosave=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.screen.query_one("#seed", Input).value = "abc"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and app.table is None
        assert "whole number" in str(app.screen.query_one("#error", Static).render())


# --- pacing, the first curtain, shared keys that say why, screenshots --------------------------
async def test_bots_are_paced_except_when_headless():
    from tui.app import BOT_DELAY

    assert BOT_DELAY == 0.4
    app = AtlantisApp(table=LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 2),
                      autosave=False)
    assert app.bot_delay is None  # not decided until the app knows where it runs
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.is_headless and app.bot_delay == 0


async def test_a_bot_about_to_act_is_shown_thinking():
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "bot"), SeatInfo("Blue", "human")], 2)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        thinking = app.game_screen.query_one("#thinking")
        assert str(thinking.render()) == "Red is thinking…"
        while table.step_bot():
            await pilot.pause()
        await pilot.pause()
        assert table.human_to_act() == 1 and str(thinking.render()) == ""


async def test_the_first_hand_is_drawn_only_behind_the_curtain():
    table = two_humans()
    app = AtlantisApp(table=table, autosave=False)
    drawn_before_curtain = []
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.game_screen
        original = screen.refresh_board

        def spy(view, legal):
            drawn_before_curtain.append(app.session.curtain_up)
            original(view, legal)

        screen.refresh_board = spy
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen) and not screen.is_mounted
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.link.seat == 0
    assert drawn_before_curtain and not any(drawn_before_curtain)  # never drawn while the curtain was up


async def test_a_screenshot_goes_into_the_data_folder_and_says_where(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 2)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True)
    notices = []
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.notify = lambda text, **kw: notices.append(text)  # type: ignore[method-assign]
        saved = app.deliver_screenshot()
    folder = tmp_path / "data" / "atlantis" / "screenshots"
    assert saved is not None and Path(saved).parent == folder and Path(saved).is_file()
    assert (folder.stat().st_mode & 0o777) == 0o700
    assert notices == [f"Screenshot saved to {Path(saved).resolve()}"]
