"""End of Atlantis read at 80x24 through a whole turn: the Senate order explained as it
was used, the log read back by keys, and the Doom phase summed up for the player."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tui.end_of_atlantis import words

NAMES = ("Red", "Blue", "Green")


def factions_view(**changes):
    """Blue and Green tie at 6 in the pool; Green's marker (on space 1) was left of
    Blue's (space 3) when the bids were revealed, so Green chose first.  Then Blue took
    Basileus (space 0): by the markers now, Blue would be first."""
    view = SimpleNamespace(family=False, stage="faction", last_bids=(3, 6, 6), players=3,
                           senate_pool=(3, 6, 6), markers=(5, 0, 1), faction_order=(2, 1, 0),
                           faction_holders=(1, -1, -1, -1, -1, -1, -1))
    for key, value in changes.items():
        setattr(view, key, value)
    return view


def test_the_senate_order_explained_is_the_one_the_factions_phase_used():
    long = words.senate_reveal_text(factions_view(), NAMES)
    assert "Senate order: Green, Blue, Red." in long
    assert "Green's Faction marker stood further left when the bids were revealed, so Green is higher" in long
    assert "Basileus" not in long  # (where Blue's marker stands now says nothing about then)
    short = words.senate_reveal_text(factions_view(), NAMES, short=True)
    assert "Senate order: G, B, R." in short and "G's marker was further left at the reveal" in short


def test_before_anyone_moved_a_marker_the_tie_names_where_the_markers_stand():
    view = factions_view(markers=(5, 3, 1), faction_holders=(-1,) * 7)
    assert ("Green's Faction marker stands further left (Green on "
            in words.senate_reveal_text(view, NAMES))


def three_seat_app(seed: int = 4, humans: int = 1, near_the_doom_phase: bool = False):
    """Red (and Blue with ``humans=2``) at the keyboard, the other seats bots.
    ``near_the_doom_phase``: every seat's first choice is made in the match before the
    app starts, up to turn 1's last vote (the app then plays the vote, the last plays and
    the Doom phase after them, as at the end of any turn, without drawing the whole turn)."""
    from engine.core import SeatInfo
    from engine.match import Match
    from engine.registry import get_game
    from tui.app import AtlantisApp
    from tui.seat_links import LocalTable

    seats = [SeatInfo(name, "human" if i < humans else "bot") for i, name in enumerate(NAMES)]
    game = get_game("end-of-atlantis")
    table = LocalTable.new(game, {}, seats, seed)
    if near_the_doom_phase:
        scratch = Match(game, {}, seats, seed)
        turn_one = []  # (seat, its first choice, whether every seat was to choose)
        while scratch.state.turn < 2:
            seat = min(scratch.to_act())
            turn_one.append((seat, game.legal(scratch.view(seat))[0], len(scratch.to_act()) == len(seats)))
            scratch.act(seat, turn_one[-1][1])
        last_vote = max(i for i, (_, _, everyone) in enumerate(turn_one) if everyone)
        for seat, action, _ in turn_one[:last_vote]:
            table.match.act(seat, action)
    app = AtlantisApp(table=table, bot_delay=0.001, autosave=False)
    app.animation_level = "none"
    return table, app


async def to_turn_two(pilot, table, app) -> None:
    """Red chooses the first of every list until turn 2 asks for its Senate bid (a
    summary on the way is acknowledged with Enter, as a player would)."""
    for _ in range(30000):
        await pilot.pause(0.001)
        if table.match.state.turn >= 2 and 0 in table.match.to_act() and app.screen is app.game_screen:
            await pilot.pause()
            return
        if 0 in table.match.to_act() or app.screen is not app.game_screen:
            await pilot.press("enter")
    raise AssertionError("never reached turn 2")


async def test_at_80x24_tab_gives_the_log_the_side_panel_and_up_pgup_home_read_it_back():
    from tui.widgets.eventlog import EventLog

    table, app = three_seat_app(near_the_doom_phase=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_turn_two(pilot, table, app)
        screen = app.game_screen
        log = screen.query_one(EventLog)
        await pilot.press("tab")
        await pilot.pause()
        assert screen.focused is log
        assert log.region.height >= 12  # the log has the side panel, not 5 rows of it
        assert log.region.bottom <= 23  # and is on screen whole
        assert "Up, PgUp, Home" in str(screen.query_one("#message").render())
        bottom = log.scroll_y
        await pilot.press("up")
        assert log.scroll_y == bottom - 1
        await pilot.press("pageup")
        assert log.scroll_y < bottom - 5
        await pilot.press("home")
        assert log.scroll_y == 0
        await pilot.press("shift+tab")
        await pilot.pause()
        assert log.region.height < 12  # the players and the last turn are back


async def test_enter_after_tab_into_the_log_still_makes_the_choice():
    table, app = three_seat_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await pilot.pause(0.001)
            if 0 in table.match.to_act():
                break
        screen = app.game_screen
        assert table.match.state.stage == "senate"
        await pilot.press("tab", "1", "enter")
        await pilot.pause()
        assert table.match.state.bids[0] == 1 or table.match.state.last_bids[0] == 1
        assert screen.focused is screen.choices


async def test_the_doom_phase_is_summed_up_and_acknowledged_before_the_next_turn():
    from tui.end_of_atlantis.screen import DoomSummaryScreen

    table, app = three_seat_app(near_the_doom_phase=True)
    async with app.run_test(size=(80, 24)) as pilot:
        summary = None
        for _ in range(30000):
            await pilot.pause(0.001)
            if isinstance(app.screen, DoomSummaryScreen):
                summary = app.screen
                break
            if 0 in table.match.to_act():
                await pilot.press("enter")
        assert summary is not None, "no Doom phase summary"
        text = str(summary.query_one("#doom-lines").render())
        assert "Event: " in text and "Tokens come home." in text and "scored" in text
        assert "End of turn 1" in str(summary.query_one("#doom-title").render())
        box = summary.query_one("#doom-lines").region
        assert box.bottom <= 24 and box.right <= 80
        assert table.match.state.turn == 2
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.game_screen
        for _ in range(200):  # shown once: the next refreshes do not bring it back
            await pilot.pause(0.001)
        assert not isinstance(app.screen, DoomSummaryScreen)


@pytest.mark.parametrize("near_the_doom_phase", [False, True])
async def test_in_hot_seat_each_human_gets_the_summary_once_and_never_the_others(near_the_doom_phase):
    """Also when the last play of turn 1 is Blue's and turn 2 opens with Red (the seats
    that end one turn and begin the next differ): Blue's summary never waits under the
    curtain to be shown to Red."""
    from tui.end_of_atlantis.screen import DoomSummaryScreen
    from tui.screens.dialogs import CurtainScreen

    table, app = three_seat_app(humans=2, near_the_doom_phase=near_the_doom_phase)
    shown = set()  # (the summary, the seat at the keyboard, the summary's turn) while one is up
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40000):
            await pilot.pause(0.001)
            if isinstance(app.screen, DoomSummaryScreen):
                shown.add((id(app.screen), app.game_screen.link.seat, app.screen.turn))
            if table.match.state.turn >= 2 and table.match.state.stage != "senate" and len(shown) >= 2:
                break
            if isinstance(app.screen, (DoomSummaryScreen, CurtainScreen)) or table.human_to_act() is not None:
                await pilot.press("enter")
        assert sorted((seat, turn) for _summary, seat, turn in shown) == [(0, 1), (1, 1)]
        assert len({summary for summary, _seat, _turn in shown}) == 2  # one each, never the other's


async def test_when_the_keyboard_passes_the_last_seats_summary_goes_and_the_new_seat_gets_its_own():
    from tui.end_of_atlantis.screen import DoomSummaryScreen

    table, app = three_seat_app(humans=2, near_the_doom_phase=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40000):
            await pilot.pause(0.001)
            if isinstance(app.screen, DoomSummaryScreen):
                break
            if table.human_to_act() is not None or app.screen is not app.game_screen:
                await pilot.press("enter")
        first = app.screen
        assert isinstance(first, DoomSummaryScreen)
        screen = app.game_screen
        other = 1 - screen.link.seat
        app.session.sit(other)
        app.session.draw()
        await pilot.pause()
        assert isinstance(app.screen, DoomSummaryScreen) and app.screen is not first
        assert first not in app.screen_stack


def test_the_doom_phase_is_found_by_its_events_kinds_not_by_their_words():
    from engine.core import LogLine
    from tui.end_of_atlantis.screen import doom_phase_lines

    log = [LogLine(None, "turn", "Turn 1 begins."), LogLine(0, "bid", "You have chosen your bid."),
           LogLine(None, "doom_phase", "The Doom phase begins."), LogLine(1, "score", "Blue scored 2."),
           LogLine(None, "event", "Event: Doom!")]
    assert doom_phase_lines(log) == (-1, [])   # not finished: the next turn has not begun
    log.append(LogLine(None, "turn", "Turn 2 begins."))
    assert doom_phase_lines(log) == (2, ["Blue scored 2.", "Event: Doom!"])
