"""End of Atlantis read at a glance: the legend, one name per ship in board and log,
a hidden vote's reveal with every bid and the reason, 160x48 and 80x24 without
cut-off, and a key that is not allowed saying why."""

from __future__ import annotations

import pytest

from engine.core import SeatInfo
from engine.end_of_atlantis import text as T
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat import LocalTable
from tui.widgets.eventlog import EventLog
from tui.widgets.ship_lanes import ShipLanes

GAME = get_game("end-of-atlantis")
NAMES = ("Red", "Blue", "Green", "Yellow")


async def at_second_hidden_vote(size: tuple[int, int]):
    """An app whose human (Red) is to bid in the second hidden vote of turn 1."""
    seats = [SeatInfo("Red", "human")] + [SeatInfo(n, "bot") for n in NAMES[1:]]
    table = LocalTable.new(GAME, {}, seats, seed=11)
    app = AtlantisApp(table=table, bot_delay=0.001, autosave=False)
    app.animation_level = "none"
    return table, app


async def drive(pilot, table) -> None:
    for _ in range(600):
        await pilot.pause(0.01)
        st = table.match.state
        if 0 in table.match.to_act():
            if st.stage == "vote" and st.vote >= 1:
                await pilot.pause()
                return
            await pilot.press("enter")
    raise AssertionError("never reached the second vote")


def text_of(widget) -> str:
    return str(widget.render())


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
async def test_board_names_ships_as_the_log_does_and_the_reveal_shows_every_bid(size):
    table, app = await at_second_hidden_vote(size)
    async with app.run_test(size=size) as pilot:
        await drive(pilot, table)
        screen = app.game_screen
        view = screen.link.view()
        # one name per ship: the board's "B Science Vessel" is the log's
        log = "\n".join(screen.query_one(EventLog)._shown)
        assert "ship B Science Vessel" in log and "ship 2" not in log
        assert "B Science Vessel" in text_of(screen.query_one(ShipLanes))
        # the hidden vote's reveal: every seat's bid, who won and the tie rule in words
        reveal = text_of(screen.query_one("#last-vote"))
        for p, name in enumerate(NAMES):
            assert f"{name} {view.last_bids[p]}" in reveal
        assert "win" in reveal and "Senate order" in reveal and "Blue" in reveal.split("Senate order")[1]
        # nothing cut off: every board part inside the screen, the reveal shown whole
        w, h = size
        for part in ("#lanes", "#senate", "#voting", "#last-vote", "#me", "#choices"):
            region = screen.query_one(part).region
            assert region.height > 0 and region.right <= w and region.bottom <= h - 1, part
        box = screen.query_one("#last-vote")
        assert box.get_content_height(box.region, box.region, box.region.width) <= box.region.height
        # the legend: always on screen when tall, behind `l` when small
        box, legend = screen.query_one("#legend-box"), screen.query_one("#legend")
        if h >= 34:
            assert box.display and "▒▒▒▒" in text_of(legend)
        else:
            assert not box.display
            await pilot.press("l")
            assert box.display and "Ref1 = Refugees 1" in text_of(legend)
            assert box.region.bottom <= h - 1 and box.region.height >= 15


async def test_a_key_not_allowed_now_says_why():
    table, app = await at_second_hidden_vote((80, 24))
    async with app.run_test(size=(80, 24)) as pilot:
        await drive(pilot, table)
        await pilot.press("p")
        message = text_of(app.game_screen.query_one("#message"))
        assert "cannot pass" in message and "hidden vote" in message
        assert table.match.state.stage == "vote" and table.match.state.bids[0] == -1


def test_the_help_has_the_same_legend_and_a_tie_is_explained():
    help_text = GAME.help_markdown()
    for symbol, words in T.LEGEND:
        assert f"`{symbol}` {words}" in help_text
    words = T.vote_words({"vote": 0, "bids": (3, 3, 1), "winners": (1,), "order": (1, 0, 2),
                          "pool": (2, 2, 0), "no_card": (), "play_order": (1,)}, NAMES[:3], hidden=True)
    assert words.startswith("Vote 1 bids: Blue 3, Red 3, Green 1. Won by Blue.")
    places = T.vote_words({"vote": 0, "bids": (0, 2, 0), "winners": (1,), "order": (1, 0, 2), "pool": (2, 2, 0),
                           "no_card": (), "play_order": (1,), "places": 1}, NAMES[:3], hidden=False)
    assert "Won by Blue (the highest bid wins). A pass never wins an open vote." in places
    assert "Tie at 3 between Blue and Red: Blue is higher in the Senate order and wins" in words
    assert "Faction marker stands further left" in words


@pytest.mark.parametrize("players", [2, 4])
def test_the_log_names_each_ship_as_the_board_does(players):
    """Every ship event's sentence names the ship at that place in port (letter and name)."""
    from engine.end_of_atlantis import data as D
    from tui.selfplay import play_one

    match = play_one("end-of-atlantis", 3, players)
    ships = GAME.setup({}, players, 3).ships  # board order never changes; tiles only upgrade
    names = [f"P{i}" for i in range(players)]
    named = 0
    for e in match.events_for(None):
        if "ship" in e.data and e.data["ship"] >= 0 and e.kind != "special":
            line = GAME.describe(e, None, names)
            assert f"hip {D.ship_full_name(ships[e.data['ship']].tile)}" in line, line
            named += 1
    assert named > 5


def test_the_final_reveal_says_where_points_came_from_and_every_card():
    from tui.selfplay import play_one

    match = play_one("end-of-atlantis", 1, 3)
    s = match.state
    names = ["Ann", "Bo", "Cy"]
    lines = GAME.reveal(s, names)
    for p, name in enumerate(names):
        points = next(line for line in lines if line.startswith(f"{name}: "))
        assert f"{s.vp[p]} points: 2 at the start" in points and "during the game" in points
        assert any(line.startswith(f"{name}'s hand of Politics cards: ") for line in lines)
        assert any(line.startswith(f"{name}'s special cards: ") for line in lines)
    assert not any("Ref1" in line or " - " in line for line in lines)
