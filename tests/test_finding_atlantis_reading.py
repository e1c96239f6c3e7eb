"""Finding Atlantis read at a glance (issue 14): the legend, your own results beside
other markers, a key that is not allowed now saying why, the last visible move of
another seat tinted, the true map at game over; and the words behind them (public
history in sentences, the reveal).  Pilot tests stay few: each key costs ~60 ms."""

from __future__ import annotations

from engine.components import put
from engine.core import SeatInfo, replace
from engine.finding_atlantis import data as D
from engine.finding_atlantis.rules import Declare, EndTurn, Explore, JellyRod, PickCell, Sonar
from engine.finding_atlantis.text import HELP, LEGEND, history, reveal
from tui.app import AtlantisApp
from tui.finding_atlantis.screen import FindingAtlantisScreen
from tui.seat import LocalTable
from tui.widgets.chart_grid import ChartGrid

from fa_helpers import GAME, at, cell, on_map, started

W = 8  # a 6x6 map with its ring


def world(name: str) -> int:
    c = cell(6, name)
    return (c // 6 + 1) * W + c % 6 + 1


def chart_text(chart: ChartGrid) -> str:
    return "\n".join("".join(seg.text for seg in chart.render_line(y)) for y in range(chart.size.height))


async def table_with(state, size=(80, 24)):
    table = LocalTable.new(GAME, {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")], seed=3)
    app = AtlantisApp(table=table, bot_delay=0.0, autosave=False)
    app.animation_level = "none"
    return table, app


async def on_screen(pilot, app, table, state) -> FindingAtlantisScreen:
    table.match.state = state
    for _ in range(300):
        await pilot.pause(0.01)
        if isinstance(app.screen, FindingAtlantisScreen):
            break
    screen = app.screen
    screen.refresh_view()
    await pilot.pause()
    return screen


def red_after_sonar():
    """Red at D4 on the test map has played Sonar; Blue started at C3 (a Sonar result)."""
    s = on_map(started(3))
    s = replace(at(s, 0, "D4"), starts=put(s.starts, 1, cell(6, "C3")), trail=((), ()))
    s, _ = GAME.apply(s, 0, Sonar())
    return s


async def test_legend_on_screen_names_every_symbol_drawn_and_own_result_shows_beside_a_marker():
    s = red_after_sonar()
    table, app = await table_with(s)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, s)
        chart = screen.query_one("#chart", ChartGrid)
        picture = chart.picture
        legend = {symbol for symbol, _, _ in picture.legend}
        drawn = {c.text for c in picture.cells if c.text}
        drawn |= {t for c in picture.cells for t, part in c.marks if part != "mark"}
        assert drawn <= legend, drawn - legend
        text = chart_text(chart)
        assert "seamount" in text and "you" in text and "started/surfaced" in text  # drawn, at 80x24
        # C3: Red's own Sonar result (a seamount) and Blue's start marker, both visible
        c3 = picture.cells[world("C3")]
        assert c3.text == "s" and ("B", "seat-1") in c3.marks
        lines = text.splitlines()
        at3 = next(i for i, line in enumerate(lines) if line.lstrip().startswith("3 "))
        below = lines[at3 + 1] if chart.cell_h > 1 else lines[at3]   # the marker's row
        x = lines[at3].index("s")                                     # C3: the first "s"
        assert "B" in below[x - 2:x + 3]
    for symbol, _, words in LEGEND:  # and the same legend, in full, in `?`
        assert f"`{symbol}` {words}" in HELP


async def test_keys_not_allowed_now_say_why():
    s = red_after_sonar()
    s = replace(s, actions_left=0, hands=put(s.hands, 0, ("surface",)))
    table, app = await table_with(s)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, s)
        message = screen.query_one("#message")
        said = {}
        for key in ("D", "x", "a", "9", "b", "enter"):
            screen.say("")
            await pilot.press(key)
            said[key] = str(message.render())
            assert said[key].strip(), key
        assert "Explore" in said["D"] and "Explore" in said["x"]
        assert "artifact" in said["a"]
        assert "no choice 9" in said["9"]
        assert "no actions left" in said["b"]
        table.match.state = replace(table.match.state, turn=1)
        screen.refresh_view()
        await pilot.press("1")
        assert "Blue's turn" in str(message.render())


async def test_another_seats_visible_move_is_tinted_until_your_next_action():
    s = red_after_sonar()
    table, app = await table_with(s)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, s)
        screen.send(EndTurn())  # Red's action: the baseline
        await pilot.pause()
        m = table.match
        m.state = replace(at(m.state, 0, "D4"), surfaced=put(m.state.surfaced, 1, cell(6, "F6")))
        screen.refresh_view()
        chart = screen.query_one("#chart", ChartGrid)
        assert chart.picture.cells[world("F6")].back == "recent"   # Blue surfaced there
        assert chart.picture.cells[world("C3")].back == "recent"   # and left its start
        assert "  " in {symbol for symbol, part, _ in chart.picture.legend if part == "recent"}
        screen.send(Sonar())
        await pilot.pause()
        assert all(c.back != "recent" for c in chart.picture.cells)


async def test_game_over_shows_the_true_map_beside_the_chart_with_right_and_wrong():
    s = red_after_sonar()
    s, _ = GAME.apply(s, 0, Explore())   # D4: Atlantis
    for name in ("C3", "D3", "D4", "E5"):
        s, _ = GAME.apply(s, 0, PickCell(cell(6, name)))
    table, app = await table_with(s)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, s)
        screen.marks[cell(6, "A2")] = "T"     # wrong: deep ocean
        screen.marks[cell(6, "A1")] = "T"     # right: an artifact
        screen.send(Declare())
        await pilot.pause()
        assert table.match.state.phase == "over"
        truth = screen.query_one("#truth", ChartGrid)
        assert truth.display and truth.region.width > 0
        cells = truth.picture.cells
        assert cells[world("D3")].text == "@" and ("✓", "right") in cells[world("D3")].marks
        assert ("✗", "wrong") in cells[world("A2")].marks
        assert ("✓", "right") in cells[world("A1")].marks
        assert cells[world("F6")].marks == () or cells[world("F6")].marks[0][1] != "wrong"


def test_public_history_reads_as_sentences():
    s = started(3)
    view = GAME.view(s, 0)
    blue = replace(view.public[1], trail=("first", "long", "burn:N"))
    assert history(blue, "Blue", 6).startswith("Blue started at ")
    assert history(blue, "Blue", 6).endswith(
        "then made 3 moves: its free hidden first move, Long Silent Running (2 spaces, unseen) "
        "and a burnt card (1 space north).")
    assert "You surfaced at B2 and have not moved since." == history(
        replace(view.public[0], surfaced=cell(6, "B2"), trail=()), "You", 6)


def test_reveal_says_who_won_why_and_every_secret():
    s = on_map(started(3))
    s = at(s, 0, "D4")
    s, _ = GAME.apply(s, 0, Explore())
    for name in ("C3", "D3", "D4", "E5"):
        s, _ = GAME.apply(s, 0, PickCell(cell(6, name)))
    s, _ = GAME.apply(s, 0, Declare())
    lines = reveal(s, ["Red", "Blue"])
    text = "\n".join(lines)
    assert "Red named every space of Atlantis" in lines[0]
    assert "Atlantis lay at C3, D3, D4 and E5." in text and "The artifacts lay at A1" in text
    assert sum(line.startswith("Row ") for line in lines) == 6
    for seat, name in enumerate(("Red", "Blue")):
        assert f"{name} ended at " in text and D.CAPTAINS[s.captain[seat]][0] in text
    assert "Blue never declared." in text
    assert all(D.ARTIFACTS[a][0] in text for a in s.deck)
    assert GAME.view(s, 1).truth == s.terrain and GAME.view(s, None).truth == s.terrain


def test_no_true_map_in_the_view_before_game_over():
    s = on_map(started(3))
    s, _ = GAME.apply(at(s, 0, "C2"), 0, JellyRod(0))
    assert GAME.view(s, 0).truth == () and GAME.view(s, None).truth == ()
