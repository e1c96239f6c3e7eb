"""The shared screen kit: one command table per screen feeds its bindings, footer, command
palette and help key list; one footer compaction; one module of seat letters and colours;
one game-over summary (DESIGN.md "Code style": braindrop's command registry)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.actions import parse

from engine.core import SeatInfo
from engine.registry import GAMES, get_game
from engine.storage import load_record, save_record
from tui.app import AtlantisApp
from tui.screens.replay import ReplayMixin
from tui.commands import Command, bindings, help_markdown, key_list
from tui.games import screen_class
from tui.screen_entry import screen_entry
from tui.screens.dialogs import HelpScreen, game_over_line, game_over_summary
from tui.screens.game import GameScreen
from tui.seat_links import LocalTable, ReplaySeat
from tui.seat_labels import SEAT_LETTERS, seat_label, seat_letter, seat_text
from tui.selfplay import play_one
from tui.widgets.key_line import KeyLine

ROOT = Path(__file__).resolve().parents[1]
SCREEN_CLASSES = [screen_class(slug) for slug in GAMES]


# --- the command table ---------------------------------------------------------------------
@pytest.mark.parametrize("cls", [GameScreen, *SCREEN_CLASSES], ids=lambda c: c.__name__)
def test_a_screens_bindings_are_its_command_table(cls):
    assert [b.id for b in cls.BINDINGS] == [c.id for c in cls.COMMAND_TABLE]
    assert [(b.key, b.action, b.description, b.show) for b in cls.BINDINGS] == \
        [(c.key, c.action, c.label, c.show) for c in cls.COMMAND_TABLE]
    ids = [c.id for c in cls.COMMAND_TABLE]
    assert len(ids) == len(set(ids)), "every binding has its own id (keymaps refer to it)"


@pytest.mark.parametrize("cls", SCREEN_CLASSES, ids=lambda c: c.__name__)
def test_a_game_screen_keeps_the_shared_keys_after_its_own(cls):
    shared = GameScreen.COMMAND_TABLE
    # (hidden "why not" fallbacks of a shared key may follow it: tui/why_not.py)
    table = tuple(c for c in cls.COMMAND_TABLE if not ("-why-" in c.id and not c.show))
    assert table[-len(shared):] == shared
    assert all(c.id not in {s.id for s in shared} for c in table[:-len(shared)])


@pytest.mark.parametrize("cls", [GameScreen, *SCREEN_CLASSES], ids=lambda c: c.__name__)
def test_every_key_in_the_footer_is_explained_in_the_help(cls):
    for command in cls.COMMAND_TABLE:
        if command.show:
            assert command.help, command.id
    keys = key_list(cls.COMMAND_TABLE)
    assert keys.startswith("## Keys")
    for command in cls.COMMAND_TABLE:
        if command.help:
            assert f"`{command.keys_shown}`" in keys and command.help in keys


def test_the_key_list_names_keys_as_a_player_reads_them():
    table = (Command("a", "question_mark", "Help", "app.help", "Help."),
             Command("b", "left,comma", "Back", "back", "Back."),
             Command("c", "1", "Pick", "pick(0)", "Pick.", key_display="1-4"),
             Command("d", "2", "Pick 2", "pick(1)", show=False))
    assert [c.keys_shown for c in table[:3]] == ["?", "←, ,", "1-4"]
    assert "Pick 2" not in key_list(table)  # no help text: covered by the 1-4 row
    assert help_markdown("# Rules\n", table).startswith("# Rules\n\n## Keys")
    assert help_markdown("# Rules\n", table[3:]) == "# Rules\n"
    assert [b.id for b in bindings(table)] == ["a", "b", "c", "d"]


# --- the app: help, palette, footer -----------------------------------------------------------
def pathways_table() -> LocalTable:
    game = get_game("pathways")
    return LocalTable.new(game, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], 3)


async def test_the_help_screen_ends_with_the_screens_key_list():
    app = AtlantisApp(table=pathways_table(), bot_delay=0, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.markdown
        assert text.startswith(get_game("pathways").help_markdown().rstrip())
        assert "## Keys" in text and "Turn the picked tile a quarter turn." in text


async def test_the_command_palette_offers_the_screens_commands_that_are_allowed_now():
    app = AtlantisApp(table=pathways_table(), bot_delay=0, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        titles = [c.title for c in app.get_system_commands(screen)]
        assert {"Help", "Save", "Leave", "Undo"} <= set(titles)
        assert {"Theme", "Screenshot"} <= set(titles)  # Textual's own commands are still there,
        # but not its Quit (it would skip the leave dialog: "Leave" asks first), nor its
        # widget commands (Keys, Maximize)
        assert not {"Quit", "Keys", "Maximize", "Minimize"} & set(titles)
        await pilot.press("tab")  # (a focused widget: Textual would offer "Maximize" now)
        assert "Maximize" not in [c.title for c in app.get_system_commands(screen)]
        undo = next(c for c in screen.COMMAND_TABLE if c.id == "undo")
        assert screen.check_action("undo", ()) is True and undo.label in titles
        # A command the screen does not allow now is not offered (its footer key is hidden too).
        def allowed(command: Command) -> bool:
            namespace, name, params = parse(command.action)
            return (app if namespace == "app" else screen).check_action(name, params) is True

        offered = {c.label for c in screen.COMMAND_TABLE if c.in_palette and allowed(c)}
        mine = {c.label for c in screen.COMMAND_TABLE if c.in_palette}
        assert set(titles) & mine == offered
        assert offered != mine  # (some are not allowed at the start of a turn)
        help_command = next(c for c in app.get_system_commands(screen) if c.title == "Help")
        await help_command.callback()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_a_replay_offers_its_own_commands_and_no_undo(tmp_path):
    match = play_one("pathways", 2, 2, max_actions=30)
    path = save_record(match.record, tmp_path / "g.atlrec")
    replay = ReplaySeat(get_game("pathways"), load_record(path))
    app = AtlantisApp(replay=replay)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        assert [c.id for c in screen.COMMAND_TABLE[:len(ReplayMixin.REPLAY_COMMANDS)]] == \
            [c.id for c in ReplayMixin.REPLAY_COMMANDS]
        titles = [c.title for c in app.get_system_commands(screen)]
        assert "Forward" in titles and "Whose view" in titles
        assert "Undo" not in titles  # check_action hides it in a replay, as in the footer


@pytest.mark.parametrize("slug", list(GAMES))
@pytest.mark.parametrize("width,compact", [(100, True), (120, False)])
async def test_the_footer_drops_its_padding_on_a_narrow_terminal(slug, width, compact):
    game = get_game(slug)
    seats = [SeatInfo("Red", "human")] + [SeatInfo(f"Bot{i}", "bot") for i in range(1, game.min_players)]
    app = AtlantisApp(table=LocalTable.new(game, {}, seats, 5), bot_delay=0, autosave=False, manual_bots=True)
    async with app.run_test(size=(width, 34)) as pilot:
        await pilot.pause()
        assert app.game_screen.query_one(KeyLine).compact is compact


# --- seats and the game-over summary ---------------------------------------------------------
def test_seat_letters_are_written_in_one_place():
    copies = []
    for path in sorted((ROOT / "tui").rglob("*.py")):
        if path.name == "seat_labels.py" and path.parent.name == "tui":
            continue
        text = path.read_text(encoding="utf-8")
        colours_here = path.relative_to(ROOT).as_posix() == "tui/theme.py"  # (the seat colours' one place)
        if re.search(r"[\"']RBGY", text) or not colours_here and re.search(r"#ff5f57|#5c9dff", text):
            copies.append(str(path.relative_to(ROOT)))
    assert copies == []


def test_a_player_reads_as_letter_and_name():
    assert seat_letter(1) == "B" and SEAT_LETTERS.startswith("RBGYP")
    text = seat_text(2, "Gus")
    assert text.plain == "G Gus"
    assert text.spans[0].end == 1 and text.spans[0].style.bgcolor is not None
    assert seat_label(0, "Ann") == "Ann (R)"


def test_the_game_over_summary_lists_winners_reason_scores_and_notes():
    text = game_over_summary(["Ann", "Bob"], [1], "Bob reached Atlantis", [3, 7.5], ["12 moves."])
    assert text.splitlines() == ["[b]Game over[/b]", "", "Winner: Bob (B)", "Why: Bob reached Atlantis", "",
                                 "  R Ann        3 points", "  B Bob        7.5 points", "", "12 moves."]
    # a game without points (Pathways, Finding Atlantis) shows who won, not 1 and 0
    text = game_over_summary(["Ann", "Bob"], [1], "Bob reached Atlantis", [0, 1], [], unit="")
    assert "  R Ann        -" in text.splitlines() and "  B Bob        won" in text.splitlines()
    line = game_over_line(["Ann", "Bob"], [0], "wins: the city is reached.")
    assert line.plain == "Game over. R Ann wins: the city is reached."


# --- the shared side panel: what the other seats did, small terminals, one frame a key --------
async def test_each_seat_keeps_its_own_baseline_view_from_right_after_its_last_action():
    game = get_game("pathways")
    table = LocalTable.new(game, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "human")], 4)
    app = AtlantisApp(table=table, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("enter")  # the curtain: Red comes to the keyboard
        screen = app.game_screen
        opening = {s: table.match.view(s) for s in (0, 1)}
        assert screen.link.seat == 0 and screen.baseline_view() == opening[0]  # the table as it opened
        assert screen.send(screen.link.legal()[0])
        red_after = table.match.view(0)
        assert screen.baseline_view() == red_after
        app.session.sit(1)  # (as the curtain does) Blue has not acted yet:
        assert screen.baseline_view() == opening[1]  # Red's opening moves show as recent
        app.session.sit(0)
        while 1 not in table.match.to_act():
            assert screen.send(screen.link.legal()[-1])
        app.session.sit(1)
        assert screen.send(screen.link.legal()[0])
        assert screen.baseline_view() == table.match.view(1)
        app.session.sit(0)
        assert screen.baseline_view() is not None and screen.baseline_view() != table.match.view(0)


async def test_the_recent_tint_is_a_css_class_and_a_rich_style():
    from textual.widgets import Static

    from tui.screens.game import recent_style

    app = AtlantisApp(table=pathways_table(), autosave=False, manual_bots=True)
    async with app.run_test(size=(100, 32)) as pilot:
        marked = Static("x", classes=GameScreen.RECENT)
        await app.game_screen.mount(marked)
        await pilot.pause()
        assert recent_style().bgcolor is not None
        assert marked.styles.background.rich_color == recent_style().bgcolor


async def test_the_side_panel_sums_up_the_other_seats_last_turn():
    table = pathways_table()
    app = AtlantisApp(table=table, autosave=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        while table.match.to_act() == frozenset({0}):
            assert screen.send(screen.link.legal()[-1])
        for _ in range(300):
            await pilot.pause(0.01)
            if table.match.to_act() == frozenset({0}):
                break
        await pilot.pause()
        text = str(screen.query_one("#last-turn").render())
        assert text.startswith("Last turn:") and "Blue " in text
        assert screen.send(screen.link.legal()[0])  # your move: the summary is gone
        app.session.draw()
        assert str(screen.query_one("#last-turn").render()) == ""


@pytest.mark.parametrize("slug", list(GAMES))
async def test_below_80x24_a_screen_asks_for_more_and_at_80x24_its_footer_clips_no_label(slug):
    from textual.command import CommandPalette

    game = get_game(slug)
    seats = [SeatInfo("Red", "human")] + [SeatInfo(f"Bot{i}", "bot") for i in range(1, game.min_players)]
    app = AtlantisApp(table=LocalTable.new(game, {}, seats, 5), autosave=False, manual_bots=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        notice = screen.query_one("#size-notice")
        min_w, min_h = screen.min_size
        assert screen.min_size == screen_entry(slug).min_size  # (the game's screen entry says)
        want = (f"{game.title} needs a screen of at least {min_w}×{min_h} (this one is 60×20).\n"
                "Make the terminal bigger; on a phone, turn it sideways or zoom out.")
        assert notice.display and str(notice.render()) == want
        assert not screen.query_one("#body").display
        await pilot.resize_terminal(min_w, min_h)
        await pilot.pause()
        assert not notice.display and screen.query_one("#body").display
        footer = screen.query_one(KeyLine)
        assert not footer.show_command_palette  # (no room for "^p palette" at 80 columns)
        spans = footer.key_spans()
        assert spans and max(end for _start, end, _key in spans) <= min_w
        assert all(f"{key.display} {key.description}" in footer.plain() for _s, _e, key in spans)
        await pilot.press("ctrl+p")  # the palette still opens
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_a_redraw_that_changes_nothing_rebuilds_neither_footer_nor_side_panel():
    from textual.widgets import Static

    app = AtlantisApp(table=pathways_table(), autosave=False, manual_bots=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        published, updated = [], []
        screen.bindings_updated_signal.subscribe(screen, published.append)
        for static in screen.query("#side Static"):
            original = static.update
            static.update = lambda *a, _o=original, _s=static, **k: (updated.append(_s.id), _o(*a, **k))
        app.session.draw()
        await pilot.pause()
        assert published == [] and updated == []
        screen.say("Not now.")  # a change is still drawn
        assert updated == ["message"]

