"""What the last new-player review tripped over, each checked where it shows: Finding
Atlantis's cards, compass and chart at 80x24, and the words behind the other screens."""

from __future__ import annotations

from rich.style import Style

from tui.finding_atlantis.chart_grid import OFF_MAP, ChartGrid
from tui.finding_atlantis.words import PLAYED, cards_text, question_keys

from test_finding_atlantis_reading import chart_text, on_screen, red_after_sonar, table_with

CARDS = [("played", "sonar", "Sonar"), ("played", "rod", "Jelly Rod"), ("card", "explore", "Explore"),
         ("card", "surface", "Surface"), ("card", "silent", "Silent Running"),
         ("played", "long", "Long Silent Running"), ("card", "captain", "Navy Captain")]


def plain_cards(menu, width: int = 42, rows: int = 3) -> list[str]:
    class View:
        seat = 0
    return cards_text(View(), menu, [], lambda name: Style(), "", width, rows).plain.splitlines()


def test_played_cards_sit_on_their_own_line_named_or_numbered_never_wrapped_among_the_playable():
    lines = plain_cards(CARDS[:2] + [("card",) + card[1:] for card in CARDS[2:]])
    played = [line for line in lines if PLAYED in line]
    assert len(played) == 1 and played[0].startswith(PLAYED) and "Sonar" in played[0]
    assert all("Sonar" not in line for line in lines if PLAYED not in line)
    lines = plain_cards(CARDS)   # names too long for one line: the numbers only
    assert lines[-1].split() == [PLAYED, "1", "2", "6"], lines
    assert all(len(line.rstrip()) <= 42 for line in lines) and len(lines) <= 3
    only_explore = [("played",) + card[1:] if card[1] == "explore" else ("card",) + card[1:] for card in CARDS]
    lines = plain_cards(only_explore)   # three rows of playable cards: the played one ends the last, whole
    assert len(lines) == 3 and lines[-1].rstrip().endswith(f"{PLAYED} 3 Explore"), lines
    assert len(plain_cards(only_explore, rows=5)) == 4   # (a taller box: a line of its own)


def test_the_number_keys_show_a_compass_while_a_direction_is_asked():
    assert question_keys(None) is None and question_keys({"need": "seat", "what": ""}) is None
    compass = question_keys({"need": "dir", "what": ""}).plain.splitlines()
    assert compass[0].split() == ["8", "NW", "1", "N", "2", "NE"] and "you" in compass[1]
    assert compass[2].split() == ["6", "SW", "5", "S", "4", "SE"]
    assert "2 E-W" in question_keys({"need": "axis", "what": ""}).plain


async def test_finding_atlantis_at_80x24_markers_beside_their_space_ring_rows_labelled_compass_shown():
    state = red_after_sonar()
    table, app = await table_with(state)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, state)
        text = chart_text(screen.query_one("#chart", ChartGrid))
        row3 = next(line for line in text.splitlines() if line.lstrip().startswith("3 "))
        assert "sB" in row3, text   # Blue's start marker beside Red's result on C3, on row 3's line
        assert sum(line.lstrip().startswith(OFF_MAP) for line in text.splitlines()) == 2, text
        cards = screen.query_one("#cards")
        assert "Sonar" in str(cards.render()) and "Played: 1" in str(cards.render())
        await pilot.press("6")   # Long Silent Running: which way?
        await pilot.pause()
        shown = str(cards.render())
        assert "8 NW" in shown and "4 SE" in shown and "Sonar" not in shown
        await pilot.press("escape")
        await pilot.pause()
        assert "Sonar" in str(cards.render())


def end_of_atlantis_rebid():
    """A 3-player End of Atlantis position (random moves, seed 3) where Red holds the
    Demagogos and is to bid again, having looked at another bid."""
    import random

    from engine.registry import get_game

    game = get_game("end-of-atlantis")
    rng = random.Random(3)
    state = game.setup(game.parse_options({}), 3, 3)
    while not (state.stage == "rebid" and 0 in game.to_act(state)):
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal(game.view(state, seat))))
    return game, state


async def test_end_of_atlantis_rebid_starts_on_keep_it_and_no_word_breaks_at_80x24():
    from engine.core import SeatInfo
    from tui.app import AtlantisApp
    from tui.seat_links import LocalTable

    game, state = end_of_atlantis_rebid()
    table = LocalTable.new(game, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot"),
                                      SeatInfo("Green", "bot")], seed=3)
    app = AtlantisApp(table=table, bot_delay=0.0, autosave=False)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table.match.state = state
        app.session.draw()
        await pilot.pause()
        screen = app.game_screen
        choices = screen.choices
        assert "(keep it)" in choices.items[choices.cursor], (choices.items, choices.cursor)
        me = screen.query_one("#me")
        lines = [line.plain for line in me.lines(me.size.width)]
        assert any(line.strip().startswith("Green bid") for line in lines), lines   # whole, on its own line
        assert all(len(line) <= me.size.width for line in lines)


async def lesson_at_its_first_move_step(slug: str, size=(80, 24)):
    """A lesson app and a helper that plays its steps (as the learner, through the
    screen's send) until ``until(lesson)`` holds with the learner to act."""
    from tui.app import AtlantisApp
    from tui.lessons import LessonTable, load_lesson

    table = LessonTable(load_lesson(slug))
    app = AtlantisApp(table=table, autosave=False, bot_delay=0.001)
    app.animation_level = "none"
    return table, app


async def play_until(pilot, app, table, until) -> None:
    from tui.screens.lesson import LessonCard

    lesson, match = table.lesson, table.match
    for _ in range(3000):
        await pilot.pause(0.01)
        if isinstance(app.screen, LessonCard):
            await pilot.press("enter")
            continue
        if lesson.seat not in match.to_act() or app.session.bot_waiting:
            continue
        if until(lesson):
            await pilot.pause()
            return
        legal = table.link(lesson.seat).legal()
        app.game_screen.send(next(action for action in legal if lesson.wants(action)))
    raise AssertionError("the lesson never got there")


def widget_lines(widget) -> list[str]:
    return ["".join(segment.text for segment in widget.render_line(y)) for y in range(widget.size.height)]


async def test_pathways_lesson_at_80x24_step_marks_on_their_row_and_the_log_in_view():
    from tui.widgets.eventlog import EventLog

    table, app = await lesson_at_its_first_move_step("pathways")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(pilot, app, table, lambda lesson: lesson.index == 2)   # the first move
        screen = app.game_screen
        lines = widget_lines(screen.board)
        row2 = next(line for line in lines if line.startswith("  2 "))
        assert "+" in row2, "\n".join(lines)   # A2's step mark, on row 2's line (not the gap above)
        assert not screen.query_one("#last-turn").display
        log = screen.query_one(EventLog)
        assert log.region.y + 2 < app.size.height - 1, log.region   # its lines in view, above the footer
        players = str(screen.query_one("#players").render())
        assert all(len(line) <= 30 for line in players.splitlines()), players
        assert "seed known" not in str(screen.query_one("#practice").render()) or \
            not screen.query_one("#practice").display


def test_survive_names_explorers_by_owner_and_hex_as_the_board_shows_them():
    from engine.registry import get_game
    from engine.survive.text import _explorers

    game = get_game("survive")
    names = ("Red", "Blue", "Green")
    state = game.setup(game.parse_options({}), 3, 1)
    for _ in range(3):
        seat = min(game.to_act(state))
        action = game.legal(game.view(state, seat))[0]
        assert "#" not in game.describe_action(action, game.view(state, seat))
        state, events = game.apply(state, seat, action)
        for event in events:
            for viewer in (None, 0, 1):
                text = game.describe(event, viewer, names).text
                assert "#" not in text and "placed an explorer on " in text, text

    assert _explorers((0, 1, 11), 0, names) == "2 of your explorers and Blue's explorer"


def test_the_atlantis_lesson_names_what_the_board_draws_and_counts_lessons_not_steps():
    import re

    from tui.lessons import Lesson, load_lesson

    script = load_lesson("atlantis")
    for step in script.steps:   # the board draws plates and ▲ marks, not space numbers
        assert not re.search(r"space \d", step.say + step.keys), step.say
    assert all("▲" in step.keys for step in script.steps if step.keys.startswith(("1 (▲", "3 (▲")))
    lesson = Lesson(None, script)
    assert lesson.progress() == f"Lesson 1 of {len(script.steps)}"   # (the game's turn line counts steps)


def test_survive_legend_gives_each_symbol_one_meaning():
    from tui.survive.hex_board import LEGEND

    glyphs = [glyph for glyph, _, _, _ in LEGEND]
    assert len(glyphs) == len(set(glyphs)), glyphs   # ("~" is the sea, not also "changed")


async def test_the_help_names_its_scroll_keys():
    from engine.core import SeatInfo
    from engine.registry import get_game
    from tui.app import AtlantisApp
    from tui.screens.dialogs import HelpScreen
    from tui.seat_links import LocalTable

    table = LocalTable.new(get_game("survive"), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=1)
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        keys = app.screen.query_one("#help-keys")
        assert "PgDn" in str(keys.render()) and keys.region.y < 23 and keys.region.width > 0


async def test_seat_chips_take_a_custom_themes_seat_colours():
    from textual.theme import Theme

    from engine.core import SeatInfo
    from engine.registry import get_game
    from tui.app import AtlantisApp
    from tui.seat_links import LocalTable

    table = LocalTable.new(get_game("pathways"), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=1)
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.register_theme(Theme(name="own-seats", primary="#0178d4", dark=True,
                                 variables={"seat-red": "#00aa44"}))
        app.theme = "own-seats"
        await pilot.pause()
        app.session.draw()
        await pilot.pause()
        screen = app.game_screen
        players = screen.query_one("#players").content
        chips = {span.style.bgcolor.triplet.hex for span in players.spans
                 if hasattr(span.style, "bgcolor") and span.style.bgcolor is not None}
        assert "#00aa44" in chips and "#ff5f57" not in chips, chips
        marks = [style for cell in screen.board.picture.markers.values() for letter, style in cell if letter == "R"]
        assert marks and all(style.bgcolor.triplet.hex == "#00aa44" for style in marks)


def test_a_chart_cell_keeps_a_free_column_beside_its_neighbour():
    from tui.finding_atlantis.chart_grid import ChartCell

    grid = ChartGrid(6)
    full = ChartCell("@", "cell", (("<>", "cell"), ("R*", "cell")))
    rows = grid._cell_lines(full, 5, 2, Style(), {"cell": Style()})
    assert "".join(t for t, _ in rows[0]).strip() == "@" and "<>R*" in "".join(t for t, _ in rows[1])
    rows = grid._cell_lines(ChartCell("s", "cell", (("R*", "cell"),)), 5, 2, Style(), {"cell": Style()})
    assert "".join(t for t, _ in rows[0]) == "  sR*"


async def test_end_of_atlantis_at_80x24_leaves_last_turn_to_the_log():
    from engine.core import SeatInfo
    from tui.app import AtlantisApp
    from tui.seat_links import LocalTable

    game, state = end_of_atlantis_rebid()
    table = LocalTable.new(game, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot"),
                                      SeatInfo("Green", "bot")], seed=3)
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.game_screen.query_one("#last-turn").display   # (the log right under it has its lines)
