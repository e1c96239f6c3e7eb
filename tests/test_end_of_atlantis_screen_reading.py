"""End of Atlantis read at a glance: the legend, one name per ship in board and log,
a hidden vote's reveal with every bid and the reason, 160x48 and 80x24 without
cut-off, and a key that is not allowed saying why."""

from __future__ import annotations

import pytest

from engine.core import SeatInfo
from engine.end_of_atlantis import text
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.seat_links import LocalTable
from tui.widgets.eventlog import EventLog
from tui.end_of_atlantis.ship_lanes import ShipLanes

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
    for symbol, words in text.LEGEND:
        assert f"`{symbol}` {words}" in help_text
    words = text.vote_words({"vote": 0, "bids": (3, 3, 1), "winners": (1,), "order": (1, 0, 2),
                          "pool": (2, 2, 0), "no_card": (), "play_order": (1,)}, NAMES[:3], hidden=True)
    assert words.startswith("Vote 1. Bids: Blue 3, Red 3, Green 1. Won by Blue.")
    places = text.vote_words({"vote": 0, "bids": (0, 2, 0), "winners": (1,), "order": (1, 0, 2), "pool": (2, 2, 0),
                           "no_card": (), "play_order": (1,), "places": 1}, NAMES[:3], hidden=False)
    assert "Won by Blue (the highest bid wins). A pass never wins an open vote." in places
    assert "Tie at 3 between Blue and Red: Blue is higher in the Senate order and wins" in words
    assert "Faction marker stands further left" in words


def _ship_names_in_log_and_board(options: dict, players: int, seed: int):
    """Play a bot game; yield (the log line, the event's kind, the ship's place, the names
    the board gives that place before and after the move) for every ship event the
    spectator is shown (checking that the event's tile is the one public at that place)."""
    from engine.end_of_atlantis import data
    from engine.match import Match

    names = list(NAMES[:players])
    match = Match(GAME, options, [SeatInfo(n, "bot") for n in names], seed)
    bots = [GAME.make_bot(i, seed, "random") for i in range(players)]
    while match.result() is None:
        seat = min(match.to_act())
        was = [sh.tile for sh in match.view(None).ships]
        before = [data.ship_full_name(tile) for tile in was]
        delivery = match.submit(seat, bots[seat].choose(match.view(seat), match.legal(seat)))[None]
        after = [data.ship_full_name(sh.tile) for sh in delivery.view.ships]
        board = text.render_view(delivery.view, names)
        for i, name in enumerate(after):  # the text board names each place as the screen's board
            assert f"ship{i + 1} {name} " in board
        for e in delivery.events:
            places = e.data.get("ships") or ((e.data["ship"],) if e.data.get("ship", -1) >= 0 else ())
            tiles = e.data.get("tiles") or (e.data.get("tile"),) * len(places)
            for i, tile in zip(places, tiles):
                assert tile in (was[i], delivery.view.ships[i].tile)  # the public tile at that place
                yield GAME.describe(e, None, names).text, e.kind, i, before[i], after[i]


@pytest.mark.parametrize("options,players,seed", [
    ({"chosen_ships": "B,D,D+,E+"}, 4, 3),      # A and C left out, D twice (its two tiles)
    ({"chosen_ships": "A+,C,C+"}, 2, 5),        # 2 players with the Ark, no B
    ({"chosen_ships": "E", "aggressive_neutrals": True}, 3, 2),
])
def test_chosen_ships_are_named_in_the_log_as_on_the_board(options, players, seed):
    """In a chosen_ships game that leaves out or repeats a letter, every ship event names
    the ship at its place by the board's name for it, and no two ships share a name."""
    from engine.end_of_atlantis import data
    from engine.end_of_atlantis.actions import parse_ships

    tiles = parse_ships(options["chosen_ships"])
    board = [data.ship_full_name(t) for t in tiles]
    assert len(set(board)) == len(board)
    named = 0
    for line, kind, i, before, after in _ship_names_in_log_and_board(options, players, seed):
        assert before == after == board[i]          # chosen ships are never upgraded
        assert f"hip {board[i]}" in line or (kind == "neutrals" and board[i] in line), line
        if kind != "neutrals":                      # (a list of the ships neutrals boarded)
            rest = line.replace(board[i], "")
            assert not any(n in rest for j, n in enumerate(board) if j != i), line
        named += 1
    assert named > 5


@pytest.mark.parametrize("players", [2, 4])
def test_usual_ships_are_named_in_the_log_as_on_the_board_also_once_upgraded(players):
    upgraded = named = 0
    for line, kind, i, before, after in _ship_names_in_log_and_board({}, players, 3):
        assert before in line or after in line, line
        upgraded += "+" in after
        named += 1
    assert named > 5 and upgraded


def test_the_final_reveal_says_where_points_came_from_and_every_card():
    from tui.selfplay import play_one

    match = play_one("end-of-atlantis", 1, 3)
    state = match.state
    names = ["Ann", "Bo", "Cy"]
    lines = GAME.reveal(state, names)
    for p, name in enumerate(names):
        points = next(line for line in lines if line.startswith(f"{name}: "))
        assert f"{state.vp[p]} points: 2 at the start" in points and "during the game" in points
        assert any(line.startswith(f"{name}'s hand of Politics cards: ") for line in lines)
        assert any(line.startswith(f"{name}'s special cards: ") for line in lines)
    assert not any("Ref1" in line or " - " in line for line in lines)


async def test_a_chosen_ships_game_names_each_ship_in_the_log_as_the_board_draws_it():
    """A and C left out, D twice: the screen's board and log both say "D+ Airship"."""
    import re

    seats = [SeatInfo("Red", "human")] + [SeatInfo(n, "bot") for n in NAMES[1:]]
    table = LocalTable.new(GAME, {"chosen_ships": "B,D,D+,E+"}, seats, seed=11)
    app = AtlantisApp(table=table, bot_delay=0.001, autosave=False)
    app.animation_level = "none"
    async with app.run_test(size=(160, 48)) as pilot:
        await drive(pilot, table)
        screen = app.game_screen
        board = text_of(screen.query_one(ShipLanes))
        for name in ("B Science Vessel", "D Airship", "D+ Airship", "E+ Warship"):
            assert name in board
        log = "\n".join(screen.query_one(EventLog)._shown)
        said = re.findall(r"hip ([A-E]\+? [A-Z][a-z]+(?: Vessel)?)", log)
        assert said and set(said) <= {"B Science Vessel", "D Airship", "D+ Airship", "E+ Warship"}, said
