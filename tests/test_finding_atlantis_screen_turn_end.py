"""Finding Atlantis at 80x24: every turn ends with e, an e with actions unused asks
first, and the cards line says in words which cards are played."""

from __future__ import annotations

import pytest

from engine.components import put
from engine.core import replace
from engine.finding_atlantis.actions import ChooseCaptain, FirstMove
from tui.finding_atlantis.screen import FindingAtlantisScreen

from fa_helpers import cell, on_map
from test_finding_atlantis_screen import GAME, make_app, red_against_ubot, until


def at_red_turn(m) -> None:
    """Past the opening, Red to play with 2 actions on a known map."""
    state = m.state
    while state.phase != "play":
        a = ChooseCaptain(state.offers[state.turn][0]) if state.phase == "captain" else FirstMove(0)
        state, _ = GAME.apply(state, state.turn, a)
    m.state = replace(on_map(state), turn=0, actions_left=2, pos=put(state.pos, 0, cell(6, "C2")))


def shown(screen, selector: str) -> str:
    return str(screen.query_one(selector).content)


async def red_screen(pilot, app, table):
    await until(pilot, lambda: isinstance(app.screen, FindingAtlantisScreen))
    at_red_turn(table.match)
    app.session.draw()
    await pilot.pause()
    return app.screen


async def test_the_turn_waits_for_e_after_every_second_action():
    table = red_against_ubot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        m = table.match
        screen = await red_screen(pilot, app, table)
        await pilot.press("1")           # Sonar
        await until(pilot, lambda: m.state.actions_left == 1)
        assert "Played: 1 Sonar" in shown(screen, "#cards")
        await pilot.press("4")           # Surface: every card back in hand
        await until(pilot, lambda: m.state.actions_left == 0)
        await pilot.pause()
        assert m.to_act() == frozenset({0})   # not passed on by itself
        line = shown(screen, "#turn-line")
        assert "1-9 play a card" not in line and "e ends your turn" in line
        assert "Played:" not in shown(screen, "#cards")
        await pilot.press("e")            # no question: nothing is thrown away
        await until(pilot, lambda: m.state.turn == 1 or m.state.round > 1)


async def test_e_with_actions_unused_asks_first():
    table = red_against_ubot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        m = table.match
        screen = await red_screen(pilot, app, table)
        await pilot.press("e")
        await pilot.pause()
        assert "2 actions unused" in shown(screen, "#message")
        assert m.state.turn == 0 and m.state.actions_left == 2
        await pilot.press("escape")       # play on
        await pilot.press("e")
        await pilot.pause()
        assert m.state.turn == 0
        await pilot.press("e")            # e again: ended
        await until(pilot, lambda: m.state.turn != 0 or m.state.round > 1)


async def test_played_cards_are_marked_in_words():
    table = red_against_ubot()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        m = table.match
        screen = await red_screen(pilot, app, table)
        assert "Played:" not in shown(screen, "#cards")
        await pilot.press("3")            # Explore
        await until(pilot, lambda: m.state.actions_left == 1)
        await pilot.pause()
        cards = shown(screen, "#cards")
        assert "Played: 3 Explore" in cards and "1 Sonar" in cards.split("Played:")[0]
        await pilot.press("3")
        await pilot.pause()
        assert "Explore is played" in shown(screen, "#message")


@pytest.mark.parametrize("size", [(80, 24), (100, 32)])
async def test_the_chart_keeps_its_layout_from_one_action_to_the_next(size):
    """The chart's cell size depends on the terminal's size only: not on how many lines
    the cards (played cards, artifacts) or the legend take now."""
    table = red_against_ubot()
    app = make_app(table)
    async with app.run_test(size=size) as pilot:
        m = table.match
        screen = await red_screen(pilot, app, table)
        chart = screen.chart
        layouts = set()

        async def look() -> None:
            await pilot.pause()
            chart.render_line(0)
            layouts.add((chart.cell_w, chart.cell_h, chart.show_labels, chart.region))

        await look()
        await pilot.press("1")            # Sonar: the legend grows
        await until(pilot, lambda: m.state.actions_left == 1)
        await look()
        state = m.state
        m.state = replace(state, arts=put(state.arts, 0, tuple((a, 0) for a in ("seed", "trident", "orb"))))
        app.session.draw()
        await look()                      # the cards need more lines
        await pilot.press("4")            # Surface
        await until(pilot, lambda: m.state.actions_left == 0)
        await look()
        assert len(layouts) == 1, layouts
        (w, h, labels, _), = layouts
        assert (h, labels) == (2, True)   # the larger form, with row and column names


def test_the_last_turn_line_leaves_out_the_end_turn_every_turn_has():
    from engine.core import LogLine
    from tui.finding_atlantis.words import turn_summary

    def blue(kind: str, text: str) -> LogLine:
        return LogLine(1, kind, text)

    played_explore, played_sonar = blue("played", "Blue played Explore."), blue("played", "Blue played Sonar.")
    ended = blue("end_turn", "Blue ended the turn.")
    assert turn_summary("Blue", [played_explore, played_sonar, ended]) == "Blue played Explore, then Sonar."
    assert turn_summary("Blue", [played_sonar, blue("end_turn", "Blue ended the turn with 1 action unused.")]) \
        == "Blue played Sonar, then ended the turn with 1 action unused."
    assert turn_summary("Blue", [ended]) == "Blue ended the turn."
    attacked = LogLine(1, "monster_attack", "The sea monster at B1 attacked Blue: pushed back, one action lost.")
    assert turn_summary("Blue", [attacked, played_sonar]) \
        == "The sea monster at B1 attacked Blue: pushed back, one action lost, then played Sonar."
