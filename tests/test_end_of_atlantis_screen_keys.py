"""End of Atlantis at a newcomer's first look: the footer names only the keys that work
now (a pressed key that does not still says why), a spectator is offered only what a
spectator can use, nothing is cut at 80x24, the legend has every symbol drawn, and the
Senate bids' reveal says why a tie went one way."""

from __future__ import annotations

from textual.app import ComposeResult

from engine.core import SeatInfo
from engine.end_of_atlantis.state import senate_order_of
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.end_of_atlantis import words
from tui.seat_links import LocalTable
from tui.seat_labels import seat_style
from tui.widgets.choice_list import ChoiceList
from tui.widgets.key_line import KeyLine
from tui.end_of_atlantis.player_screen import PlayerScreen
from tui.end_of_atlantis.ship_lanes import LaneShip, LanesPicture, ShipLanes
from tui.end_of_atlantis.voting_row import VoteCard, VoteRowLine, VotingRow
from tui.theme import ThemedApp

GAME = get_game("end-of-atlantis")
NAMES = ("Red", "Blue", "Green")


def make(humans: int, seed: int = 5, bot_delay: float = 0.001) -> tuple[LocalTable, AtlantisApp]:
    seats = [SeatInfo(n, "human" if i < humans else "bot") for i, n in enumerate(NAMES)]
    table = LocalTable.new(GAME, {}, seats, seed=seed)
    app = AtlantisApp(table=table, bot_delay=bot_delay, autosave=False)
    app.animation_level = "none"
    return table, app


async def until(pilot, test, tries: int = 600) -> None:
    for _ in range(tries):
        await pilot.pause(0.01)
        if test():
            return
    raise AssertionError("the table never got there")


def footer(app) -> list[str]:
    return [key.description for key in app.screen.query_one(KeyLine).drawn_keys()]


def message(app) -> str:
    return str(app.game_screen.query_one("#message").render())


async def test_the_footer_names_only_keys_that_work_now_and_the_senate_tie_is_explained():
    table, app = make(1)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: table.match.to_act() == frozenset({0}))
        assert "Bid" in footer(app) and "Pass" not in footer(app)  # the Senate: everyone bids
        blue = table.match.state.bids[1]  # (the test peeks: bid as Blue did, for a tie)
        await pilot.press(str(blue), "enter")
        await until(pilot, lambda: table.match.state.stage != "senate" and 0 in table.match.to_act())
        await pilot.pause()
        screen = app.game_screen
        view = screen.link.view()
        keys = footer(app)
        assert "Bid" not in keys and "Choose" in keys and "Undo" in keys
        await pilot.press("5")  # not shown, still explained
        assert "this is no bid" in message(app)
        # the reveal: every bid, the Senate order, and the tie broken by the markers in words
        reveal = str(screen.query_one("#last-vote").render())
        assert reveal.startswith("Senate bids: ") and f"Red {blue}, Blue {blue}" in reveal
        order = senate_order_of(view.senate_pool, view.markers)
        assert "Senate order: " + ", ".join(NAMES[p] for p in order) in reveal
        assert view.senate_pool[0] == view.senate_pool[1]  # (seed 5: nobody paid for a Faction yet)
        upper = NAMES[min(0, 1, key=order.index)]
        assert f"{upper}'s Faction marker" in reveal and "further left" in reveal
        assert f"so {upper} is higher" in reveal
        legend = str(screen.query_one("#legend").render())
        assert all(symbol in legend for symbol in ("┄┄┄┄", "≈", "won 2"))


async def test_a_spectator_is_offered_only_what_it_can_use_and_nothing_is_cut_at_80x24():
    table, app = make(0, bot_delay=1.0)  # (slow bots: the game is not over before the keys)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.game_screen._view is not None)
        await pilot.pause()
        assert footer(app) == ["Legend", "Help", "Save", "Leave"]
        await pilot.press("u")
        assert "watching" in message(app)
        await pilot.press("enter")
        assert "not your turn" in message(app)
        screen = app.game_screen
        me = screen.query_one(PlayerScreen)
        lines = [line.plain for line in me.lines(me.size.width)]
        assert all(len(line) <= me.size.width for line in lines) and " ".join(lines).endswith("hidden.")
        choices = screen.query_one(ChoiceList)
        assert len(choices.empty_text) <= choices.size.width and choices.empty_text.endswith(".")
        await pilot.press("l")
        legend = str(screen.query_one("#legend").render())
        assert all(symbol in legend for symbol in ("┄┄┄┄", "≈", "won 2"))


def test_a_long_choice_is_said_in_fewer_whole_words():
    room = 46  # the choice list's text at 80 columns
    for long, short in (
        ("Use Archont: end of Factions: draw 5 Politics cards, then discard 5", "Use Archont: draw 5 cards, then discard 5"),
        ("Play special: Night Boarding → ship B+ Science Vessel (in port)", "Play Night Boarding → ship B+ Science Vessel"),
        ("Discard a Green cube from ship B Science Vessel (in port)", "Discard a Green cube from B Science Vessel"),
        ("Remove up to 4 of Yellow's tokens from the Senate", "Remove up to 4 of Yellow's Senate tokens"),
    ):
        assert words.fit_choice(long, room) == short
    assert words.fit_choice("Bid 3", room) == "Bid 3"


class _Rows(ThemedApp):
    def compose(self) -> ComposeResult:
        yield VotingRow()
        yield ShipLanes()


async def test_a_voting_row_note_and_the_promised_land_line_are_never_cut():
    app = _Rows()
    async with app.run_test(size=(50, 12)) as pilot:
        row = app.query_one(VotingRow)
        cards = [VoteCard(None)] * 5
        row.show([VoteRowLine("R", seat_style(0), cards, "cards laid"),
                  VoteRowLine("B", seat_style(1), cards[:3], "")], -1, 5)
        await pilot.pause()
        lines = str(row.render()).splitlines()
        assert lines[1].endswith("cards laid") and len(lines[1]) <= 50
        lanes = app.query_one(ShipLanes)  # five players and neutrals in the Promised Land
        lanes.compact = True
        lanes.show(LanesPicture([LaneShip("A", "Ark", 7, False)],
                                [(letter, seat_style(0), 2) for letter in "RBGYPN"], 7))
        await pilot.pause()
        land = str(lanes.render()).splitlines()[-1]
        assert len(land) <= lanes.size.width and land.endswith("camp 7") and "N2" in land


def test_choices_side_by_side_are_shortened_alike():
    texts = ["Move ship A Ark (at sea) → Promised Land", "Move ship B Science Vessel (at sea) → Promised Land"]
    room = len("Move ship B Science Vessel → Promised Land")  # the first fits as it is; the second does not
    short = words.fit_choices(texts, room)
    assert short == ["Move ship A Ark → Promised Land", "Move ship B Science Vessel → Promised Land"]
    assert words.fit_choices(["Bid 3", "Bid 4"], 10) == ["Bid 3", "Bid 4"]


def test_a_card_the_seat_may_play_but_is_not_offered_is_said_why():
    """Seed 1, random choices: at move 26 Red may play its own card and Green's (first
    place), and neither can be carried out now."""
    import random

    from engine.core import SeatInfo
    from engine.match import Match
    from engine.registry import get_game

    game = get_game("end-of-atlantis")
    match = Match(game, {}, [SeatInfo(n, "bot") for n in ("Red", "Blue", "Green")], 1)
    choose = random.Random(1)
    for _ in range(26):
        seat = min(match.to_act())
        match.act(seat, choose.choice(game.legal(match.view(seat))))
    view = match.view(0)
    legal = game.legal(view)
    assert view.stage == "play" and not any(type(a).__name__ == "Play" for a in legal)
    text = words.unplayable_text(view, legal, match.names)
    assert text.startswith("Your ") and "is not offered: it cannot be carried out in full now." in text
    assert words.unplayable_text(view, [], match.names) == ""   # (nothing to choose: nothing to say)
