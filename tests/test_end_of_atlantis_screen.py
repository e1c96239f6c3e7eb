"""The End of Atlantis screen, driven by the keyboard the way a player drives it:
one Senate bid and one vote by keys, the hot-seat curtain between two humans in a
simultaneous phase, and the layout at 80x24."""

from __future__ import annotations

from engine.core import SeatInfo
from engine.end_of_atlantis.actions import Bid, LayCard
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.end_of_atlantis.screen import EndOfAtlantisScreen
from tui.screens.dialogs import CurtainScreen
from tui.seat_links import LocalTable
from tui.widgets.choice_list import ChoiceList
from tui.end_of_atlantis.ship_lanes import ShipLanes
from tui.end_of_atlantis.victory_track import VictoryTrack
from tui.end_of_atlantis.voting_row import VotingRow

GAME = get_game("end-of-atlantis")


def make_app(table: LocalTable) -> AtlantisApp:
    app = AtlantisApp(table=table, bot_delay=0.001, autosave=False)
    app.animation_level = "none"
    return app


async def until(pilot, test, tries: int = 600) -> None:
    for _ in range(tries):
        await pilot.pause(0.01)
        if test():
            return
    raise AssertionError("the table never got there")


def moves_of(table: LocalTable, seat: int) -> list:
    return [GAME.codec.decode(m.action) for m in table.match.record.moves if m.seat == seat]


async def test_one_senate_bid_and_one_vote_by_keyboard():
    seats = [SeatInfo("Red", "human")] + [SeatInfo(n, "bot") for n in ("Blue", "Green", "Yellow")]
    table = LocalTable.new(GAME, {}, seats, seed=11)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table.match.to_act() == frozenset({0}))
        screen = app.game_screen
        assert isinstance(screen, EndOfAtlantisScreen)
        assert screen.link.view().bids[1:] == (-2, -2, -2)  # the bots chose, unseen
        await pilot.press("3", "enter")
        await until(pilot, lambda: table.match.state.stage != "senate")
        assert moves_of(table, 0) == [Bid(3)]
        # Factions, abilities and the five voting cards: Enter takes the first choice
        for _ in range(30):
            await until(pilot, lambda: 0 in table.match.to_act() or table.match.state.stage == "vote")
            if table.match.state.stage == "vote" and 0 in table.match.to_act():
                break
            await pilot.press("enter")
        assert sum(type(a) is LayCard for a in moves_of(table, 0)) == 5
        assert table.match.state.stage == "vote"
        await pilot.press("2", "enter")
        await until(pilot, lambda: table.match.state.bids[0] == 2 or table.match.state.vote > 0
                    or table.match.state.stage != "vote")
        assert moves_of(table, 0)[-1] == Bid(2)
        assert table.match.state.tokens_on_cards[0][0] == 2 or table.match.state.bids[0] == 2


async def test_two_humans_bid_behind_the_curtain_and_never_see_each_others_bid():
    seats = [SeatInfo("Red", "human"), SeatInfo("Blue", "human"), SeatInfo("Green", "bot")]
    table = LocalTable.new(GAME, {}, seats, seed=4)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        await pilot.press("enter")
        await until(pilot, lambda: table.match.to_act() <= frozenset({0, 1}))
        assert app.game_screen.link.seat == 0
        await pilot.press("7", "enter")
        await until(pilot, lambda: isinstance(app.screen, CurtainScreen))
        assert table.match.to_act() == frozenset({1})
        await pilot.press("enter")
        await pilot.pause()
        screen = app.game_screen
        assert screen.link.seat == 1
        assert screen.link.view().bids[0] == -2  # Red's 7 is not in Blue's view
        assert "7" not in str(screen.query_one("#me").render())
        await pilot.press("1", "enter")
        await until(pilot, lambda: table.match.state.stage != "senate")
        assert table.match.state.senate_pool[:2] == (7, 1)


async def test_the_screen_fits_80_by_24_and_uses_a_bigger_terminal():
    seats = [SeatInfo("Red", "human")] + [SeatInfo(n, "bot") for n in ("Blue", "Green", "Yellow", "Purple")]
    table = LocalTable.new(GAME, {}, seats, seed=3)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table.match.to_act() == frozenset({0}))
        screen = app.game_screen
        for widget in (ShipLanes, VotingRow, ChoiceList):  # (the track shows from 26 rows)
            region = screen.query_one(widget).region
            assert region.height > 0 and region.right <= 80 and region.bottom <= 23, widget
        assert screen.query_one(VotingRow).region.height == 6  # five players, one line each
        lanes_small = screen.query_one(ShipLanes).lane_width()
        await pilot.resize_terminal(140, 44)
        await pilot.pause()
        assert screen.query_one(ShipLanes).lane_width() > lanes_small
        assert screen.query_one(VictoryTrack).wide()
