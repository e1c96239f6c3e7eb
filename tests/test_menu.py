"""The opening menu: the game list, fields that fit their values, errors beside the
field and in view at 80x24, only Start starts, the menu's state kept across screens."""

from __future__ import annotations

import io

import pytest

from rich.console import Console
from textual.widgets import Input, Static, Switch
from tui.screens.menu_fields import CycleSelect

from engine.registry import GAMES
from tui.app import AtlantisApp
from tui.screens.menu import GameList, MenuScreen
from tui.screen_entry import PICTURE_WIDTH, PITCH_WIDTH, screen_entry

SMALL = (80, 24)


def catch_start(menu: MenuScreen) -> list:
    """What the menu hands to the app, without starting a game screen."""
    chosen: list = []
    menu.dismiss = chosen.append  # type: ignore[method-assign]
    return chosen


async def pick_game(pilot, slug: str) -> MenuScreen:
    menu = pilot.app.screen
    menu.query_one("#games", GameList).highlighted = sorted(GAMES).index(slug)
    await pilot.pause()
    assert menu.slug == slug
    return menu


def test_every_game_has_a_card_with_a_short_pitch_and_a_small_picture_and_a_help_paragraph():
    for slug in GAMES:
        card = screen_entry(slug)
        assert card.slug == slug
        assert 0 < len(card.pitch) <= PITCH_WIDTH, card.slug
        assert 3 <= len(card.picture) <= 5 and max(map(len, card.picture)) <= PICTURE_WIDTH, card.slug
        assert len(card.about) > len(card.pitch), card.slug


async def test_the_game_list_shows_name_players_and_pitch_and_the_card_its_picture():
    app = AtlantisApp(autosave=False, bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        games = app.screen.query_one("#games", GameList)
        assert games.option_count == len(GAMES)
        for index, slug in enumerate(sorted(GAMES)):
            text = str(games.get_option_at_index(index).prompt)
            game = GAMES[slug]
            assert game.title in text and f"{game.min_players}-{game.max_players} players" in text
            assert screen_entry(slug).pitch in text
        menu = await pick_game(pilot, "survive")
        assert screen_entry("survive").picture[1] in str(menu.query_one("#card", Static).render())


async def test_enter_in_a_menu_field_does_not_start_the_game():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        chosen = catch_start(app.screen)
        seed = app.screen.query_one("#seed", Input)
        seed.focus()
        await pilot.press("4", "enter")
        assert chosen == [] and isinstance(app.screen, MenuScreen)
        assert app.focused is not seed  # Enter went on to the next field
        await pilot.press("ctrl+s")
        assert [c.seed for c in chosen] == [4]


async def test_an_on_off_option_is_a_switch_that_toggles_and_reaches_the_game():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, "survive")
        chosen = catch_start(menu)
        switch = menu.query_one("#opt-memory", Switch)
        assert switch.value is True and "on" in str(menu.query_one("#word-memory", Static).render())
        switch.focus()
        await pilot.press("space")
        assert switch.value is False and "off" in str(menu.query_one("#word-memory", Static).render())
        await pilot.press("ctrl+s")
        assert [c.options["memory"] for c in chosen] == [False]


async def test_a_bad_seed_is_refused_beside_its_field_and_scrolled_into_view_at_80x24():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, "finding-atlantis")  # the longest form
        menu.query_one("#seed", Input).value = "abc"
        menu.query_one("#games").focus()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and app.table is None
        error = menu.query_one("#error-seed", Static)
        assert "whole number" in str(error.render())
        assert app.focused is menu.query_one("#seed", Input)
        visible = menu.query_one("#menu").region
        for _ in range(100):  # (the scroll runs after a refresh: a loaded machine takes a few frames)
            if error.region.height and visible.contains_region(error.region):
                break
            await pilot.pause(0.02)
        assert error.region.height and visible.contains_region(error.region)


async def test_an_option_out_of_range_is_named_under_its_field():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, "pathways")
        menu.query_one("#opt-max_rounds", Input).value = "3"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.table is None
        assert "greater than or equal to 5" in str(menu.query_one("#error-max_rounds", Static).render())
        assert menu.query_one("#opt-max_rounds", Input).has_class("-invalid")  # marked as typed, too
        assert str(menu.query_one("#error-seed", Static).render()) == ""


async def test_an_open_seat_is_only_for_hosting():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, "pathways")
        menu.query_one("#seat-1", CycleSelect).value = "open"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.table is None and "Host (F2)" in str(menu.query_one("#error-seats", Static).render())


async def test_letters_typed_into_a_text_field_stay_there_and_the_palette_offers_start():
    from tui.commands import palette_commands

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, "end-of-atlantis")
        ships = menu.query_one("#opt-chosen_ships", Input)
        ships.focus()
        await pilot.press("H", "J", "q")  # Host, Join and Quit letters: text here
        assert ships.value == "HJq" and app.screen is menu
        titles = [title for title, _, _ in palette_commands(menu)]
        assert "Start" in titles and "Host on LAN" in titles and "Join LAN" in titles


async def test_j_and_k_move_in_the_game_list_like_the_arrows():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = app.screen
        await pilot.press("j", "j")
        assert menu.slug == sorted(GAMES)[2]
        assert str(menu.query_one("#games", GameList).get_option_at_index(2).prompt).startswith("▶")
        await pilot.press("k")
        assert menu.slug == sorted(GAMES)[1]


async def test_the_game_list_goes_round_jumps_to_its_ends_and_a_pick_moves_on_to_the_players():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = app.screen
        games = menu.query_one("#games", GameList)
        slugs = sorted(GAMES)
        await pilot.press("up")  # from the first game round to the last
        assert menu.slug == slugs[-1] and games.highlighted == len(slugs) - 1
        await pilot.press("down")
        assert menu.slug == slugs[0]
        await pilot.press("end")
        assert menu.slug == slugs[-1]
        await pilot.press("home")
        assert menu.slug == slugs[0]
        marked = [i for i in range(games.option_count) if str(games.get_option_at_index(i).prompt).startswith("▶")]
        assert marked == [0]
        await pilot.press("enter")  # picked: on to how many players
        assert app.focused is menu.query_one("#players", CycleSelect) and menu.slug == slugs[0]
        # the game under the pointer is marked (and no longer once it leaves)
        await pilot.hover("#games", offset=(5, 1 + 2 * 2))
        assert games._hover == 2
        await pilot.hover("#players")
        assert games._hover is None
        # a click on a game's second line picks that game
        await pilot.click("#games", offset=(5, 1 + 2 * 3 + 1))
        await pilot.pause()
        assert menu.slug == slugs[3] and games.highlighted == 3
        assert app.focused is menu.query_one("#players", CycleSelect)


async def test_the_buttons_step_by_tab_and_arrows_and_each_presses_by_enter_or_a_click():
    from tui.screens.menu_keys import FormButtons

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        menu = app.screen
        started: list = []
        menu.action_start = lambda lan="": started.append(lan or "start")  # type: ignore[method-assign]
        buttons = menu.query_one("#buttons", FormButtons)
        menu.query_one("#seed", Input).focus()
        await pilot.press("tab")  # from the last field into the buttons: the first one
        assert app.focused is buttons and buttons.current_id == "start"
        await pilot.press("tab", "enter")
        assert buttons.current_id == "host" and started == ["host"]
        await pilot.press("right", "right", "space")  # (it stops at the last)
        assert started == ["host", "join"]
        await pilot.press("left", "shift+tab")
        assert app.focused is buttons and buttons.current_id == "start"
        await pilot.press("shift+tab")  # back out of the row, to the last field
        assert app.focused is menu.query_one("#seed", Input)
        await pilot.press("tab", "tab", "tab", "tab")  # past the last button: on round the form
        assert app.focused is not buttons
        await pilot.press("shift+tab")  # into the row from after it: the last button
        assert app.focused is buttons and buttons.current_id == "join"
        await pilot.hover("#buttons", offset=(1, 0))
        assert buttons._hover == 0
        # a click presses the button under it ("Start  (Ctrl+S)" is 17 cells, then 2 between)
        await pilot.click("#buttons", offset=(17 + 2 + 3, 0))
        assert started == ["host", "join", "host"] and buttons.current_id == "host"


async def test_a_seat_steps_through_human_bot_levels_open_by_keys_and_typed_letters():
    from textual.widgets._select import SelectOverlay

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = app.screen
        assert not menu.query(SelectOverlay)  # one-line choices: no drop-down lists built
        seat = menu.query_one("#seat-1", CycleSelect)
        seat.focus()
        assert seat.value == "bot:normal" and "B bot: normal" in str(seat.render())  # the default bot
        await pilot.press("space")
        assert seat.value == "bot:hard" and "‹ B bot: hard ›" in str(seat.render())
        await pilot.press("space")
        assert seat.value == "open"
        await pilot.press("right")
        assert seat.value == "human"  # round again
        await pilot.press("right")
        assert seat.value == "bot:easy"  # the levels, the easiest first
        await pilot.press("left", "left", "b")
        assert seat.value == "bot:easy" and app.screen is menu  # a letter jumps to the next bot
        await pilot.press("b", "b")
        assert seat.value == "bot:hard" and menu._remember().kinds[1] == "bot:hard"
        await pilot.press("o", "h")
        assert seat.value == "human" and menu._remember().kinds[1] == "human"
        await pilot.press("enter")  # Enter goes on to the next field, as in the whole form
        assert seat.value == "human" and app.focused is not seat


async def test_the_menus_bot_levels_make_the_tables_bots():
    """Start with a hard and an easy bot: the table builds each at its level and names it so
    (the bots wait an hour before they act: nothing searches here)."""
    from engine.levels import EasyBot
    from engine.search import SearchBot

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = app.screen
        menu.query_one("#players", CycleSelect).value = 3
        await pilot.pause()
        menu.query_one("#seat-1", CycleSelect).value = "bot:hard"
        menu.query_one("#seat-2", CycleSelect).value = "bot:easy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        table = app.session.table
        assert isinstance(table.bots[1], SearchBot) and isinstance(table.bots[2], EasyBot)
        assert [s.level for s in table.match.record.seats] == ["", "hard", "easy"]
        link = table.link(0)
        assert [link.seat_label(s) for s in range(3)][1:] == ["Blue (hard bot)", "Green (easy bot)"]
        assert app.screen.table_status() == "Bots: Blue (hard), Green (easy)"


async def test_a_menu_opens_composed_on_the_game_it_was_left_on():
    from tui.screens.menu import MenuState

    state = MenuState(game="survive", players=3, kinds=["bot", "human", "human"],
                      options={"survive": {"memory": False}})
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = MenuScreen(state)
        await app.push_screen(menu)
        await pilot.pause()
        games = menu.query_one("#games", GameList)
        assert menu.slug == "survive" and games.highlighted == sorted(GAMES).index("survive")
        marked = [i for i in range(games.option_count) if str(games.get_option_at_index(i).prompt).startswith("▶")]
        assert marked == [games.highlighted] and app.focused is games
        assert menu.query_one("#players", CycleSelect).value == 3
        assert [s.value for s in menu.query(".seat-kind").results(CycleSelect) if s.display] == ["bot:normal", "human",
                                                                                                 "human"]
        assert menu.query_one("#opt-memory", Switch).value is False


async def test_the_key_line_shows_the_menus_keys_and_a_click_on_one_presses_it():
    from tui.widgets.key_line import KeyLine

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        chosen = catch_start(app.screen)
        line = app.screen.query_one(KeyLine)
        shown = line.plain()
        assert shown.startswith(" ^S Start  F2 Host on LAN  F3 Join LAN  F4 Learn  q Quit") and shown.endswith("▏^p palette ")
        await pilot.click(KeyLine, offset=(2, 0))
        assert len(chosen) == 1


async def test_question_mark_opens_the_menus_help_but_is_typed_in_a_text_box():
    from tui.screens.menu import MenuHelp

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, "end-of-atlantis")
        ships = menu.query_one("#opt-chosen_ships", Input)
        ships.focus()
        await pilot.press("question_mark")
        assert ships.value == "?" and app.screen is menu
        menu.query_one("#games").focus()
        await pilot.press("question_mark")
        assert isinstance(app.screen, MenuHelp)
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(app.screen.query_one("#menu-help-text", Static).content)
        shown = console.export_text()
        for words in ("Practice seed", "Shift+Tab", "Ctrl+S", "F2", "F3", *(g.title for g in GAMES.values())):
            assert words in shown, words
        await pilot.press("escape")
        assert app.screen is menu


async def test_below_80x24_the_menu_asks_for_a_bigger_terminal_and_comes_back():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = app.screen
        assert not menu.query("#size-notice") or not menu.query_one("#size-notice").display
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        notice = menu.query_one("#size-notice", Static)
        assert str(notice.render()) == ("The menu needs a screen of at least 80×24 (this one is 60×20).\n"
                                        "Make the terminal bigger; on a phone, turn it sideways or zoom out.")
        assert notice.display and not menu.query_one("#menu").display
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert not notice.display and menu.query_one("#menu").display
        assert app.focused is not None


async def test_the_hint_line_is_whole_at_80_columns():
    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        about = app.screen.query_one("#about", Static)
        assert about.size.height == 1 and "Ctrl+S starts" in str(about.render())


async def test_a_fields_label_is_drawn_by_its_box_wrapped_and_reversed_while_the_field_has_the_focus():
    from textual.widgets import Switch

    from tui.screens.menu_fields import FieldBox

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, "end-of-atlantis")
        box = menu.query_one("#field-aggressive_neutrals", FieldBox)
        assert box.render().plain == "aggressive\nneutrals" and box.size.height == 2  # (whole, on two lines)
        assert not box.render().spans or not any(s.style and "reverse" in str(s.style) for s in box.render().spans)
        menu.query_one("#opt-aggressive_neutrals", Switch).focus()
        await pilot.pause()
        assert all("reverse" in str(s.style) for s in box.render().spans) and box.render().spans
        seed = menu.query_one("#field-seed", FieldBox)
        assert seed.label == "Practice seed" and seed.render().plain == "Practice seed"


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_at_80x24_the_start_button_is_in_view_above_the_key_line(slug):
    from tui.screens.menu_keys import FormButtons, KeyLine

    app = AtlantisApp(autosave=False, bot_delay=3600)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        menu = await pick_game(pilot, slug)
        await pilot.pause()
        buttons = menu.query_one("#buttons", FormButtons).region
        key_line = menu.query_one(KeyLine).region
        assert buttons.height == 1 and 0 <= buttons.y and buttons.bottom <= key_line.y
        assert not menu.query_one("#menu").region.overlaps(buttons)
