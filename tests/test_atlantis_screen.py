"""The Atlantis screen, driven by the keyboard the way a player drives it.

Red (a human) plays against Blue (a bot) from a position the bots reach in a few
turns (seed 1, 10 actions), where one of Red's destinations crosses water.  The keys
are worked out from the screen's own list of choices, so a change to the deal does not
break the test; what happened is checked in the match's record.  Key presses are few.
"""

from __future__ import annotations

from engine.atlantis import data
from engine.atlantis import route
from engine.atlantis.actions import Choose, NoBridge, PayCard
from engine.registry import get_game
from rich.style import Style
from test_pathways_screen import footer_keys, make_app, until_seat_to_act
from tui.atlantis.screen import AtlantisScreen
from tui.screenshots import mid_game_table
from tui.seat_links import LocalTable
from tui.atlantis.route_track import RouteTrack
from tui.widgets.turn_line import TurnLine
from tui.widgets.seat_styles import recent_style


def red_against_bot(seed: int = 1, warmup: int = 10) -> LocalTable:
    return mid_game_table("atlantis", seed, 2, warmup)


def wet_destination(table: LocalTable) -> tuple[int, int]:
    """(figure, space) of Red's first payable destination that costs water by boat."""
    view = table.match.view(0)
    for a in table.match.legal(0):
        if type(a) is Choose:
            for dest in route.destinations(view, a.figure):
                if dest.water and any(w.payable for w in dest.ways):
                    wealth = route.resources(len(view.hand), view.plates[0])
                    if wealth - len(dest.ways[0].cards) >= dest.water:
                        return a.figure, dest.space
    raise AssertionError("no destination across water in this position")


def pay_key(screen: AtlantisScreen) -> tuple[int, bool]:
    """The cheapest payment: a card (1) if there is one, else the smallest plate."""
    options = screen._options
    cards = [i for i, o in enumerate(options) if type(o.actions[0]) is PayCard]
    if cards:
        return cards[0], False
    index = min(range(len(options)), key=lambda i: options[i].actions[0].value)
    return index, options[index].overpays > 0


def text(screen: AtlantisScreen, selector: str) -> str:
    widget = screen.query_one(selector)
    return widget.plain if isinstance(widget, TurnLine) else str(widget.render())


async def test_a_whole_turn_by_keyboard_crosses_water_by_boat_and_pays_with_a_warning():
    table = red_against_bot()
    figure, space = wet_destination(table)
    start = len(table.match.record.moves)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AtlantisScreen)
        assert "Step 1/4" in text(screen, "#atl-step")
        # Point at the figure (f cycles), then pick the wet destination by its digit.
        for _ in range(3):
            if screen.chosen_figure() == figure:
                break
            await pilot.press("f")
        assert screen.chosen_figure() == figure
        index = next(i for i, o in enumerate(screen._options) if o.position == space)
        assert "water" in screen._options[index].words
        assert any(m.position == space for m in screen.track.picture.marks)  # ▲ on the route
        await pilot.press(str(index + 1))
        view = table.match.view(0)
        assert view.phase == "bridge" and view.cursor == space
        assert "Step 3/4" in text(screen, "#atl-step")
        assert "Water: " in text(screen, "#atl-pay") and "you have" in text(screen, "#atl-pay")

        # Cross by boat: keep the bridge.
        boat = next(i for i, o in enumerate(screen._options) if o.actions == [NoBridge()])
        await pilot.press(str(boat + 1))
        view = table.match.view(0)
        assert view.phase == "pay" and view.bridges[0] == -1
        owed = view.owed
        assert f"still owed {owed}" in text(screen, "#atl-pay")

        # Pay: an overpaying plate is warned about first (nothing is paid), Esc takes
        # the warning back; then pay exactly, cheapest first (cards cost 1 each).
        over = [i for i, o in enumerate(screen._options) if o.overpays]
        assert over, "this position has a plate that overpays"
        if over:
            moves = len(table.match.record.moves)
            await pilot.press(str(over[0] + 1))
            assert len(table.match.record.moves) == moves
            assert "\n! plate" in text(screen, "#atl-pay") and "overpays" in text(screen, "#atl-pay")
            await pilot.press("escape")
            assert "\n" not in text(screen, "#atl-pay")
        first_payment = True
        while table.match.view(0).phase == "pay" and table.match.view(0).turn == 0:
            index, overpays = pay_key(screen)
            await pilot.press(str(index + 1))
            if overpays:
                await pilot.press(str(index + 1))   # the second press pays anyway
            if first_payment and table.match.view(0).phase == "pay":
                assert f"given {table.match.view(0).paid}: " in text(screen, "#atl-pay")
                assert "nothing yet" not in text(screen, "#atl-pay")
            first_payment = False
        await until_seat_to_act(pilot, table, 0)

        moves = [(m.seat, m.action["k"]) for m in table.match.record.moves[start:]]
        red = [k for s, k in moves[:moves.index((1, "choose"))] if s == 0] if (1, "choose") in moves \
            else [k for s, k in moves if s == 0]
        assert red[0] == "choose" and "play" in red and "no_bridge" in red
        assert red[-1].startswith("pay_")                      # the turn ended with the water paid
        assert any(s == 1 for s, _ in moves)                   # Blue (the bot) played its turn
        assert table.match.view(0).figures[0][figure] == space  # Red's figure stands across the water
        assert "Your turn" in text(screen, "#turn-line")
        # What Blue changed (the plate it took, where its figure went) stays tinted `recent`
        # until Red acts again.
        assert screen.track.picture.recent
        tint = recent_style().bgcolor
        assert any(span.style.bgcolor == tint for span in screen.track.render().spans
                   if isinstance(span.style, Style))
        moves_before = len(table.match.record.moves)
        app.session.manual_bots = True  # (no bot may move before the check)
        screen.action_option(0)
        await pilot.pause()  # (the session draws the table once it changed)
        assert len(table.match.record.moves) > moves_before and not screen.track.picture.recent


async def test_the_route_cursor_and_enter_pick_a_destination_too():
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        track = screen.query_one(RouteTrack)
        start = len(table.match.record.moves)
        first = screen._options[0]
        assert first.position is not None
        await pilot.press("n")   # the route's next destination ...
        if track.position != first.position:
            track.position = first.position
            await pilot.pause()
        assert "▲1" in track.picture.words[track.position]
        await pilot.press("enter")  # ... chosen with Enter on the route
        assert table.match.record.moves[start].action["k"] == "choose"
        assert table.match.view(0).figures[0][first.figure] == first.position or \
            table.match.view(0).turn != 0 or table.match.view(0).phase in ("bridge", "pay")


async def test_keys_that_cannot_be_used_now_are_not_in_the_footer_and_the_screen_fits_80x24():
    table = red_against_bot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        keys = footer_keys(screen)
        assert keys.get("1") == "Choose" and "escape" not in keys
        assert ("f" in keys) == (len(screen.movable()) > 1)
        # The route, the list of choices and the legend are all on screen.
        assert screen.choices.size.height >= 3
        assert screen.track.region.bottom <= 23 and screen.track.picture.legend
        assert screen.track.size.width >= 11 * 4 + 2
        assert data.SPACES == len(screen.track.picture.spaces)


# --- legend, keys that are not allowed (the recent tint: the whole-turn test) ----------------
async def test_g_shows_the_whole_legend_at_80x24_and_the_help_explains_the_screen():
    app = make_app(red_against_bot())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.track.picture.legend and screen.track.picture.legend_rows == 1
        await pilot.press("g")
        legend = screen.track.render().plain
        for words in ("colours", "water", "bridge", "go: key 1", "chosen", "changed"):
            assert words in legend, words
        assert screen.choices.size.height >= 3
    help_text = get_game("atlantis").help_markdown()
    assert "**What the screen shows.**" in help_text and "`N` navy" in help_text


async def test_a_key_that_is_not_allowed_now_says_why():
    app = make_app(red_against_bot())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        assert "Nothing to cancel" in text(app.screen, "#message")
        await pilot.press("9")   # fewer than 9 choices
        assert "There are only" in text(app.screen, "#message")


# --- a big terminal is used well ---------------------------------------------------------------
async def test_at_160x48_the_whole_legend_stands_beside_the_choices_with_the_steps_and_full_word_players():
    app = make_app(red_against_bot())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = app.screen
        legend = screen.query_one("#atl-legend")
        guide = screen.query_one("#atl-guide")
        assert legend.display and guide.display and not screen.track.picture.legend
        # beside the choices, every colour by name and every symbol, one a line, none cut
        assert legend.region.x >= screen.choices.region.right and legend.region.y == screen.choices.region.y
        words = str(legend.render())
        for name in data.COLOURS:
            assert name in words, name
        for line in ("a stack of 2 plates", "water", "a bridge", "where the figure can go", "changed"):
            assert line in words, line
        assert len(words.splitlines()) <= legend.size.height
        assert max(len(line) for line in words.splitlines()) <= legend.size.width
        assert "▶ 1 Sell" in str(guide.render())           # the step under way is marked
        players = str(screen.query_one("#players").render())
        assert "figures: " in players and "Atlantis" in players and "Cards" in players
        assert screen.query_one("#side").size.width >= 44
        assert data.SPACES == len(screen.track.picture.spaces) and screen.track.big()
    small = make_app(red_against_bot())
    async with small.run_test(size=(80, 24)) as pilot:   # and none of it at 80x24
        await pilot.pause()
        assert not small.screen.query_one("#atl-legend").display and small.screen.track.picture.legend


async def test_every_player_keeps_one_line_in_the_narrow_side_panel_at_80x24():
    """The narrow players panel (side panel 30 wide, less its border, padding and the scroll
    bar it shows when its lines overflow: 26 columns) holds each player's row on one line
    even at its widest: three figures on two-digit spaces, two-digit cards, plates and score.
    (A 27-column row once put the score on a line of its own.)"""
    from dataclasses import replace

    table = mid_game_table("atlantis", 3, 4, 8)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        view = replace(screen._view, figures=((10, 11, 12),) * 4, hand_sizes=(10, 11, 12, 13),
                       plates=(tuple(range(12)),) * 4, scores=(99, 98, 97, 96))
        panel = screen.players_panel(view)
        rows = [line for line in panel.plain.splitlines() if "11,12,13" in line]
        assert len(rows) == 4
        assert max(map(len, rows)) <= 26, rows
        players = screen.query_one("#players")
        players.styles.max_height = None
        screen._show("#players", panel)
        await pilot.pause()
        lines = [strip.text for strip in players.render_lines(players.content_region.reset_offset)]
        assert sum("11,12,13" in line for line in lines) == 4
        assert all(line.rstrip().endswith(("99", "98", "97", "96")) for line in lines if "11,12,13" in line)
