"""Choosing the bots' levels for a table: ``--level`` and ``--seats`` on ``play`` and
``host``, the server's open-table, the SSH form; each bot is built at its level, named
with it ("Blue (hard bot)"), and keeps it through the record, a resume and a rematch.

The tables are built, never played: a hard bot is only constructed here (``SearchBot``),
so nothing searches."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from engine.core import SeatInfo, bot_seat
from engine.levels import EasyBot
from engine.match import Match
from engine.record import GameRecord, RecordError
from engine.registry import GAMES
from engine.search import SearchBot
from engine.storage import load_record
from netplay import messages
from netplay.host import HostTable, deputy_level
from tui.cli import _resolve_table, build_parser
from tui.common import parse_seat_words
from tui.lan.commands import make_table
from tui.seat_links import LocalTable

pytestmark = pytest.mark.timeout(30)


def play_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", *argv])


# --- play: --level and --seats ------------------------------------------------------------
def test_play_level_makes_every_bot_of_that_level():
    game, _, seats, _ = _resolve_table(play_args("pathways", "--players", "3", "--bots", "2", "--level", "hard"))
    assert [(s.kind, s.level) for s in seats] == [("human", ""), ("bot", "hard"), ("bot", "hard")]
    table = LocalTable.new(game, {}, seats, 1)
    assert all(isinstance(table.bots[s], SearchBot) for s in (1, 2))


def test_play_seats_gives_each_seat_its_word():
    _, _, seats, _ = _resolve_table(play_args("survive", "--seats", "human,hard,easy,bot", "--level", "easy"))
    assert [(s.kind, s.level) for s in seats] == [("human", ""), ("bot", "hard"), ("bot", "easy"), ("bot", "easy")]
    _, _, seats, _ = _resolve_table(play_args("survive", "--seats", "human,normal"))
    assert seats[1] == SeatInfo("Blue", "bot")  # the default level is kept as "": records read as before


@pytest.mark.parametrize("argv, said", [
    (("--level", "super"), "--level super: Atlantis: Pathways of the Deep has the bot levels normal, easy, hard, random"),
    (("--seats", "human,hrd"), "'hrd' is no seat: a seat is human, bot, or one of"),
    (("--seats", "human"), "--seats names 1 seat: Atlantis: Pathways of the Deep takes 2-4 players"),
    (("--seats", "human,hard", "--players", "3"), "--seats names 2 seats but --players is 3"),
    (("--seats", "human,hard", "--bots", "1"), "--seats says which seats are bots: leave out --bots"),
    (("--seats", "human,open"), "'open' is no seat"),  # (play has no seats for LAN players)
])
def test_play_refuses_bad_seats_in_one_line(capsys, argv, said):
    assert _resolve_table(play_args("pathways", *argv)) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_the_seat_words_are_the_games_levels():
    assert parse_seat_words("atlantis", "human,random-move,hard") == ["human", "random-move", "hard"]
    with pytest.raises(ValueError, match="Atlantis's bot levels \\(normal, easy, hard, random-move, random\\)"):
        parse_seat_words("atlantis", "human,mean")


# --- records and resume -------------------------------------------------------------------
def test_a_record_keeps_the_levels_and_a_resumed_table_has_the_same_bots(tmp_path):
    game = GAMES["pathways"]
    seats = [SeatInfo("Red"), bot_seat("Blue", "hard"), bot_seat("Green", "easy"), bot_seat("Yellow", "normal")]
    path = tmp_path / "game.atlrec"
    LocalTable.new(game, {}, seats, 7, autosave=path)
    record = load_record(path)
    assert [s.level for s in record.seats] == ["", "hard", "easy", ""]
    table = LocalTable(game, Match.from_record(record, game))
    assert isinstance(table.bots[1], SearchBot) and isinstance(table.bots[2], EasyBot)
    assert type(table.bots[3]) is type(game.make_bot(3, 1))
    assert table.link(0).seat_label(1) == "Blue (hard bot)" and table.link(0).seat_label(3) == "Yellow (normal bot)"


def test_a_record_without_levels_reads_and_a_level_the_game_lacks_is_refused():
    game = GAMES["pathways"]
    plain = Match(game, {}, [SeatInfo("Red"), SeatInfo("Blue", "bot")], 3).record
    assert plain.header_map()["seats"] == [["Red", "human"], ["Blue", "bot"]]  # as records always were
    assert GameRecord.from_bytes(plain.to_bytes()).seats[1].bot_level == "normal"
    with pytest.raises(ValueError, match="has no bot level 'mean'"):
        Match(game, {}, [SeatInfo("Red"), bot_seat("Blue", "mean")], 3)
    odd = GameRecord.from_bytes(Match(game, {}, [SeatInfo("Red"), bot_seat("Blue", "hard")], 3).record.to_bytes())
    odd.seats[1] = SeatInfo("Blue", "bot", "mean")
    with pytest.raises(RecordError, match="has no bot level"):
        Match.from_record(GameRecord.from_bytes(odd.to_bytes()), game)


# --- host: --level and --seats, the log, resume, rematch, the stand-in ---------------------------
def host_args(tmp_path, *argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv, "--log", str(tmp_path / "host.atlrec")])


def test_host_seats_and_level_make_the_tables_bots(tmp_path):
    table = make_table(host_args(tmp_path, "pathways", "--seats", "human,open,hard,easy"))
    assert [(s.kind, s.level) for s in table.slots] == [("local", ""), ("open", ""), ("bot", "hard"), ("bot", "easy")]
    assert isinstance(table.slots[2].bot, SearchBot) and isinstance(table.slots[3].bot, EasyBot)
    assert [s.label() for s in table.slots[2:]] == ["Green (hard bot)", "Yellow (easy bot)"]
    assert table.bot_level == "normal"  # mixed levels: a player's stand-in plays normal
    table = make_table(host_args(tmp_path, "pathways", "--players", "3", "--bots", "1", "--level", "hard", "--force"))
    assert [s.level for s in table.slots] == ["", "", "hard"] and table.bot_level == "hard"


@pytest.mark.parametrize("argv, said", [
    (("--seats", "human,hard"), "no seat is open for the LAN: make one of --seats open"),
    (("--seats", "open,hard", "--local", "1"), "leave out --local"),
    (("--seats", "open,mean"), "'mean' is no seat: a seat is human, open, bot, or one of"),
    (("--level", "mean"), "--level mean: Atlantis: Pathways of the Deep has the bot levels"),
])
def test_host_refuses_bad_seats_in_one_line(tmp_path, argv, said):
    with pytest.raises(ValueError) as caught:
        make_table(host_args(tmp_path, "pathways", *argv))
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_resumed_or_rematched_host_table_keeps_its_bots_levels(tmp_path):
    table = make_table(host_args(tmp_path, "pathways", "--seats", "open,hard,hard"))
    table.write_log()
    again = HostTable.resume(tmp_path / "host.atlrec")
    assert [s.level for s in again.slots] == ["", "hard", "hard"] and isinstance(again.slots[1].bot, SearchBot)
    assert again.bot_level == "hard"
    fresh, _ = again.rematch(None)
    assert [s.level for s in fresh.slots] == ["", "hard", "hard"] and fresh.bot_level == "hard"
    assert isinstance(fresh.slots[2].bot, SearchBot)
    with pytest.raises(ValueError, match="--resume takes the game, its seats, .* leave out --level"):
        make_table(build_parser().parse_args(["host", "--resume", str(tmp_path / "host.atlrec"), "--level", "easy"]))


def test_the_stand_in_plays_the_level_the_tables_bots_share():
    assert deputy_level([SeatInfo("a", "remote"), bot_seat("b", "hard"), bot_seat("c", "hard")]) == "hard"
    assert deputy_level([SeatInfo("a", "remote"), bot_seat("b", "hard"), bot_seat("c", "easy")]) == "normal"
    assert deputy_level([SeatInfo("a", "remote"), SeatInfo("b", "remote")]) == "normal"
    table = HostTable.create(GAMES["pathways"], {}, ["open", "bot"], 1, levels=["", "easy"])
    assert isinstance(table.deputy(table.slots[0]), EasyBot)


def test_the_seats_message_carries_each_bots_level():
    table = HostTable.create(GAMES["pathways"], {}, ["open", "bot", "bot"], 1, levels=["", "hard", ""])
    sent = table.seats_message()
    seats = messages.parse_host(sent.model_dump(mode="python")).seats  # (as a client reads it)
    assert [(s.kind, s.level, s.label) for s in seats] == [
        ("open", "", "Red"), ("bot", "hard", "Blue (hard bot)"), ("bot", "", "Green (normal bot)")]


# --- the table server's open-table and its SSH form ------------------------------------------
async def test_the_server_opens_a_table_with_the_seats_it_was_asked_for(tmp_path):
    from netplay.server import ServerLimits, TableServer

    from netplay_helpers import ALL_GAMES, LOOPBACK

    server = TableServer(name="t", host=LOOPBACK, port=0, records=tmp_path, server_limits=ServerLimits(),
                         games=ALL_GAMES)
    await server.start()
    try:
        who = "ana-identity"
        ask = dict(game="pathways", players=3, bots=2, name="Ana")
        ticket = server.open_table(who, messages.OpenTable(**ask, seats=["open", "hard", "easy"]))
        assert isinstance(ticket, messages.Ticket), ticket
        table = server.tables[ticket.table]
        assert [(s.kind, s.level) for s in table.slots] == [("open", ""), ("bot", "hard"), ("bot", "easy")]
        assert isinstance(table.slots[1].bot, SearchBot) and table.slots[2].label() == "Green (easy bot)"
        for seats, said in ((["open", "hard"], "the seats name 2 seats for 3 players"),
                            (["open", "hard", "open"], "the seats hold 1 bot, not 2"),
                            (["open", "hard", "mean"], "'mean' is no seat: a seat is open, or one of"),
                            (["human", "hard", "hard"], "'human' is no seat")):
            answer = server.open_table(who + "x", messages.OpenTable(**ask, seats=seats))
            assert isinstance(answer, messages.Error) and answer.code == "bad-table" and said in answer.message
    finally:
        await server.close()


async def test_the_ssh_open_table_form_sends_the_bots_level():
    from tui.screens.menu_fields import CycleSelect
    from tui.ssh.lobby import OpenTableScreen
    from tui.theme import ThemedApp

    class FormApp(ThemedApp):
        answers: list = []

        def on_mount(self) -> None:
            self.push_screen(OpenTableScreen(["pathways"], "Ana"), self.answers.append)

    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = app.screen
        form.query_one("#players", CycleSelect).value = 3
        await pilot.pause()
        form.query_one("#bots", CycleSelect).value = 2
        level = form.query_one("#bot-level", CycleSelect)
        assert level.value == "normal" and [v for _, v in level.options] == ["easy", "normal", "hard"]
        level.focus()
        await pilot.press("space")
        await pilot.press("ctrl+s")
        await pilot.pause()
    request, = app.answers
    assert request.players == 3 and request.bots == 2 and request.seats == ["open", "hard", "hard"]


async def test_the_lan_host_form_offers_each_seat_the_levels():
    from textual.widgets import Select

    from tui.lan.screens import HostSetupScreen
    from tui.theme import ThemedApp

    class FormApp(ThemedApp):
        answers: list = []

        def on_mount(self) -> None:
            self.push_screen(HostSetupScreen("Pathways", ["Red", "Blue", "Green"], 1, "table", 0,
                                             kinds=["human", "open", "bot"], levels=["", "", "hard"]),
                             self.answers.append)

    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = app.screen
        assert [form.query_one(f"#seat-{i}", Select).value for i in range(3)] == ["local", "open", "bot:hard"]
        form.query_one("#seat-0", Select).value = "bot:easy"
        await pilot.press("ctrl+s")
        await pilot.pause()
    setup, = app.answers
    assert setup.kinds == ["bot", "open", "bot"] and setup.levels == ["easy", "", "hard"]


def test_an_exported_game_keeps_its_bots_levels(tmp_path):
    from tui.export import export_json, export_text, load, record_from_json

    path = tmp_path / "game.atlrec"
    game = GAMES["pathways"]
    table = LocalTable.new(game, {"max_rounds": 5}, [SeatInfo("Red"), bot_seat("Blue", "hard")], 7)
    bots = {seat: game.make_bot(seat, 7) for seat in (0, 1)}  # (normal bots play it out: nothing searches)
    while table.match.result() is None:
        seat = min(table.match.to_act())
        view = table.match.view(seat)
        table.submit(seat, bots[seat].choose(view, game.legal(view)))
    table.save(path)
    data = export_json(load(path))
    assert data["seats"] == [{"name": "Red", "kind": "human"}, {"name": "Blue", "kind": "bot", "level": "hard"}]
    assert "1 Blue (hard bot)" in export_text(load(path))
    assert record_from_json(data).seats[1] == bot_seat("Blue", "hard")


def test_a_recorded_demo_keeps_its_bots_levels():
    from tui.demo import PlayArgs, make_table as demo_table

    play = PlayArgs(game="pathways", players=3, bots=2, seed=5, levels=["", "hard", "easy"])
    table = demo_table(play)
    assert isinstance(table.bots[1], SearchBot) and isinstance(table.bots[2], EasyBot)
    assert PlayArgs(game="pathways", players=2, bots=1, seed=5).levels is None  # (older demos: default bots)


@pytest.mark.parametrize("argv, said", [
    (["join", "127.0.0.1:1", "--level", "hard"], "--level hard: that is the level of the bot that plays this seat; add --bot"),
    (["join", "127.0.0.1:1", "--bot", "--level", "x"], "invalid choice: 'x'"),
])
def test_join_takes_its_bots_level_only_with_bot(capsys, argv, said):
    from tui.cli import main

    try:
        code = main(argv)
    except SystemExit as exit:  # (argparse's own refusal of a word it does not know)
        code = exit.code
    assert code == 2
    assert said in capsys.readouterr().err


def test_a_joined_seats_bot_plays_at_the_level_asked_for(monkeypatch):
    """``join --bot --level hard``: the remote session's bot is made at that level."""
    import netplay.client
    from tui.sessions.remote import RemoteSession

    asked = {}

    async def run_bot(client, delay=0.0, level="normal", thinker=None):
        asked["level"] = level

    monkeypatch.setattr(netplay.client, "run_bot", run_bot)
    client = argparse.Namespace(host="127.0.0.1", port=4, listeners=[], view=None, has_started=True)
    app = argparse.Namespace(push_screen=lambda *args: None, call_later=lambda *args: None)
    session = RemoteSession.__new__(RemoteSession)
    session.app, session.client, session.back = app, client, None
    session.bot, session.bot_delay, session.bot_level = True, 0.0, "hard"

    async def start_and_let_it_run():
        session.start()
        await asyncio.sleep(0)

    asyncio.run(start_and_let_it_run())
    assert asked == {"level": "hard"}


def test_every_link_says_which_seats_bots_play_and_at_what_level(tmp_path):
    """The side panel's "Bots" line comes from each link's ``bot_level``: a hot-seat
    table's and a replay's alike."""
    from tui.screens.game import bots_line
    from tui.seat_links import ReplaySeat

    game = GAMES["pathways"]
    seats = [SeatInfo("Red"), bot_seat("Blue", "hard"), bot_seat("Green", "easy"), bot_seat("Yellow", "normal")]
    path = tmp_path / "game.atlrec"
    table = LocalTable.new(game, {}, seats, 7, autosave=path)
    replay = ReplaySeat(game, load_record(path))
    for link in (table.link(0), replay):
        assert [link.bot_level(seat) for seat in range(4)] == [None, "hard", "easy", "normal"]
    assert bots_line(replay.names, {1: "hard", 2: "easy"}) == "Bots: Blue (hard), Green (easy)"
    assert bots_line(replay.names, {1: "normal", 3: "normal"}) == "Bots (normal): Blue, Yellow"
