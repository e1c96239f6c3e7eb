"""Finding Atlantis read at a glance: the legend, your own results beside
other markers, a key that is not allowed now saying why, the last visible move of
another seat tinted, the true map at game over; and the words behind them (public
history in sentences, the reveal).  Pilot tests stay few: each key is slow."""

from __future__ import annotations

from engine.components import put
from engine.core import SeatInfo, replace
from engine.finding_atlantis import data
from engine.finding_atlantis.actions import Declare, EndTurn, Explore, JellyRod, PickCell, Sonar
from engine.finding_atlantis.text import HELP, LEGEND, history, reveal
from tui.app import AtlantisApp
from tui.finding_atlantis.screen import FindingAtlantisScreen
from tui.seat_links import LocalTable
from tui.finding_atlantis.words import ask_text
from tui.finding_atlantis.chart_grid import ChartGrid, ChartPicture

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
    app.session.draw()
    await pilot.pause()
    return screen


def red_after_sonar():
    """Red at D4 on the test map has played Sonar; Blue started at C3 (a Sonar result)."""
    state = on_map(started(3))
    state = replace(at(state, 0, "D4"), starts=put(state.starts, 1, cell(6, "C3")), trail=((), ()))
    state, _ = GAME.apply(state, 0, Sonar())
    return state


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
        x = lines[at3].index("s")                                     # C3: the first "s"
        assert "B" in lines[at3][x:x + 3]   # beside it, on its row label's line (not the next row's)
    for symbol, _, words in LEGEND:  # and the same legend, in full, in `?`
        assert f"`{symbol}` {words}" in HELP


async def test_keys_not_allowed_now_say_why():
    state = red_after_sonar()
    state = replace(state, actions_left=0, hands=put(state.hands, 0, ("surface",)))
    table, app = await table_with(state)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, state)
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
        app.session.draw()
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
        app.session.draw()
        chart = screen.query_one("#chart", ChartGrid)
        assert chart.picture.cells[world("F6")].back == "recent"   # Blue surfaced there
        assert chart.picture.cells[world("C3")].back == "recent"   # and left its start
        assert "+" in {symbol for symbol, part, _ in chart.picture.legend if part == "recent"}
        for name in ("F6", "C3"):   # not by the tint alone: a glyph too
            assert ("+", "recent") in chart.picture.cells[world(name)].marks
        screen.send(Sonar())
        await pilot.pause()
        assert all(c.back != "recent" for c in chart.picture.cells)


async def test_game_over_shows_the_true_map_beside_the_chart_with_right_and_wrong():
    state = red_after_sonar()
    state, _ = GAME.apply(state, 0, Explore())   # D4: Atlantis
    for name in ("C3", "D3", "D4", "E5"):
        state, _ = GAME.apply(state, 0, PickCell(cell(6, name)))
    table, app = await table_with(state)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, state)
        screen.marks[cell(6, "A2")] = "T"     # wrong: deep ocean
        screen.marks[cell(6, "A1")] = "T"     # right: an artifact
        screen.send(Declare())
        await pilot.pause()
        assert table.match.state.phase == "over"
        truth = screen.query_one("#truth", ChartGrid)
        assert truth.display and truth.region.width > 0
        cells = truth.picture.cells     # the 6x6 spaces only: no ring beyond the edge
        assert len(cells) == 36
        assert cells[cell(6, "D3")].text == "@" and ("✓", "right") in cells[cell(6, "D3")].marks
        assert ("✗", "wrong") in cells[cell(6, "A2")].marks
        assert ("✓", "right") in cells[cell(6, "A1")].marks
        assert cells[cell(6, "F6")].marks == () or cells[cell(6, "F6")].marks[0][1] != "wrong"
        # drawn at 80x24, each row reads as the reveal's "Row r, columns A to F" line, and
        # no symbol of the map lies outside its 6 rows (the legend aside)
        said = {line.split(":")[0]: line.split(": ")[1].split() for line in reveal(table.match.state, ["Red", "Blue"])
                if line.startswith("Row ")}
        rows = {}
        for line in chart_text(truth).splitlines():
            head = line.split()
            if head and head[0].isdigit():
                rows[f"Row {head[0]}, columns A to F"] = [t for t in line.replace("✓", " ").replace("✗", " ").split()[1:]]
            elif "bare seamount" not in line:
                assert not set(line) & set("^#$@") or "Atlantis" in line or "deep ocean" in line, line
        assert rows == said
        # and the true map's rows are on the chart's lines: row 1 reads across both
        chart = screen.query_one("#chart", ChartGrid)
        chart.render_line(0), truth.render_line(0)
        assert truth.row_one() == chart.row_one() is not None
        legend = {symbol: words for symbol, _, words in truth.picture.legend}
        assert legend["^"] == "bare seamount"


def footer_keys(screen) -> set[str]:
    return {key for key, b in screen.active_bindings.items() if b.binding.show and b.enabled}


async def test_side_panel_keys_match_the_footer_and_a_b_still_work_while_declaring_at_80_columns():
    state = red_after_sonar()                # Red: 1 action left, no artifact card
    table, app = await table_with(state)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, state)
        line = screen.query_one("#turn-line").plain
        assert "a use an artifact" not in line and "a" not in footer_keys(screen)
        assert "b burn" in line and "b" in footer_keys(screen)
        # holding artifacts, Explore on Atlantis: x and D join the footer and q still fits
        state = replace(state, arts=put(state.arts, 0, tuple((a, 0) for a in ("seed", "trident", "orb", "compass", "pearl"))))
        state, _ = GAME.apply(state, 0, Explore())
        table.match.state = state
        app.session.draw()
        await pilot.pause()
        keys = footer_keys(screen)
        assert {"x", "D", "e", "q"} <= keys and not {"a", "b"} & keys
        spans = screen.query_one("KeyLine").key_spans()
        assert spans and max(end for _start, end, _key in spans) <= 80
        cards = screen.query_one("#cards")   # 3 rows at 80x24 (the chart keeps its size): it scrolls
        lines = len(cards.render().plain.splitlines())
        box = screen.query_one("#cards-box")
        assert box.region.height == 3 and cards.region.height == lines >= 6 and box.max_scroll_y == lines - 3
        await pilot.press("a")           # not in the footer, yet it works: the artifact question
        asked = screen.query_one("#turn-line").plain   # naming every artifact held
        assert "Which artifact" in asked and "5 Pearl of the Current" in asked


def test_each_legend_symbol_has_one_meaning_and_seats_share_their_words():
    shorts = [short for _, short, _ in LEGEND]
    assert len(set(shorts)) == len(shorts) and not any("," in short for short in shorts)
    assert dict((sym, short) for sym, short, _ in LEGEND)["^"] == "bare seamount"
    grid = ChartGrid(6)
    grid.picture = ChartPicture(legend=[("·", "empty", "unknown"), ("B", "seat-1", ""),
                                        ("R", "seat-0", "started/surfaced")])
    lines = ["".join(t for t, _ in line) for line in grid.legend_lines(22)]
    assert lines == ["· unknown", "B R started/surfaced"]
    # the free first move cannot be cancelled: its question does not offer Esc
    view = GAME.view(GAME.setup(GAME.parse_options({}), 2, 1), 0)
    ask = {"need": "dir", "what": "Your free hidden first move"}
    assert "Esc" not in ask_text(ask, replace(view, phase="first_move"), ["Red", "Blue"])
    assert "Esc cancels" in ask_text(ask, replace(view, phase="play"), ["Red", "Blue"])


def test_public_history_reads_as_sentences():
    state = started(3)
    view = GAME.view(state, 0)
    blue = replace(view.public[1], trail=("first", "long", "burn:N"))
    assert history(blue, "Blue", 6).startswith("Blue started at ")
    assert history(blue, "Blue", 6).endswith(
        "then made 3 moves: its free hidden first move, Long Silent Running (2 spaces, unseen) "
        "and a burnt card (1 space north).")
    assert "You surfaced at B2 and have not moved since." == history(
        replace(view.public[0], surfaced=cell(6, "B2"), trail=()), "You", 6)


def test_reveal_says_who_won_why_and_every_secret():
    state = on_map(started(3))
    state = at(state, 0, "D4")
    state, _ = GAME.apply(state, 0, Explore())
    for name in ("C3", "D3", "D4", "E5"):
        state, _ = GAME.apply(state, 0, PickCell(cell(6, name)))
    state, _ = GAME.apply(state, 0, Declare())
    lines = reveal(state, ["Red", "Blue"])
    text = "\n".join(lines)
    assert "Red named every space of Atlantis" in lines[0]
    assert "Atlantis lay at C3, D3, D4 and E5." in text and "The artifacts lay at A1" in text
    assert sum(line.startswith("Row ") for line in lines) == 6
    for seat, name in enumerate(("Red", "Blue")):
        assert f"{name} ended at " in text and data.CAPTAINS[state.captain[seat]][0] in text
    assert "Blue never declared." in text
    assert all(data.ARTIFACTS[a][0] in text for a in state.deck)
    assert GAME.view(state, 1).truth == state.terrain and GAME.view(state, None).truth == state.terrain


def test_no_true_map_in_the_view_before_game_over():
    state = on_map(started(3))
    state, _ = GAME.apply(at(state, 0, "C2"), 0, JellyRod(0))
    assert GAME.view(state, 0).truth == () and GAME.view(state, None).truth == ()
