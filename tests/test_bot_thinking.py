"""A bot never freezes the screen or its server: a slow bot (a hard bot's search) decides
off the event loop (``netplay.thinking``).  The slow bots here are fakes that wait for
the test to let them answer, so the order of things is asserted, never a time."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from engine.core import Bot, SeatInfo
from engine.levels import hard_bot
from engine.match import Match
from engine.registry import GAMES
from netplay.host import Host, HostTable
from netplay.thinking import Thinker
from tui.app import AtlantisApp
from tui.screens.dialogs import ConfirmScreen, HelpScreen
from tui.seat_links import LocalTable

from netplay_helpers import LOOPBACK, client, until, wait
from netplay_toygame import Pick, TOY

PATHWAYS = GAMES["pathways"]


class SlowBot(Bot):
    """A slow bot that answers (its inner bot's move) only once the test says so."""

    slow = True

    def __init__(self, inner: Bot):
        self.inner = inner
        self.asked = threading.Event()
        self.answer = threading.Event()
        self.decisions = 0

    def choose(self, view: Any, legal: list[Any]) -> Any:
        self.asked.set()
        self.answer.wait(20)
        self.decisions += 1
        return self.inner.choose(view, legal)


class BrokenBot(Bot):
    slow = True

    def choose(self, view: Any, legal: list[Any]) -> Any:
        raise ValueError("a bug in the search")


def slow_table(first: str = "bot") -> tuple[LocalTable, SlowBot]:
    """A Pathways table of a slow bot (Red, to act first) and a human (Blue)."""
    seats = [SeatInfo("Red", "bot"), SeatInfo("Blue", "human")]
    table = LocalTable(PATHWAYS, Match(PATHWAYS, {}, seats, 3))
    bot = table.bots[0] = SlowBot(table.bots[0])
    return table, bot


# --- the screen ---------------------------------------------------------------------------
async def test_the_screen_answers_keys_while_a_bot_thinks_and_says_who_thinks():
    table, bot = slow_table()
    app = AtlantisApp(table=table, autosave=False)
    app.thinker = Thinker(threads=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait(pilot, bot.asked.is_set)
        thinking = app.game_screen.query_one("#thinking")
        assert str(thinking.render()).startswith("Red is thinking…")
        await pilot.press("question_mark")  # (help opens while the bot still thinks)
        await wait(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert not bot.answer.is_set() and not table.match.record.moves
        await pilot.press("escape")
        await wait(pilot, lambda: app.screen is app.game_screen)
        bot.answer.set()
        await wait(pilot, lambda: table.match.record.moves)
        assert table.bots[0] is bot and bot.decisions >= 1  # (the bot that decided is the one kept)


async def test_leaving_while_a_bot_thinks_drops_its_move():
    table, bot = slow_table()
    app = AtlantisApp(table=table, autosave=False)
    app.thinker = Thinker(threads=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait(pilot, bot.asked.is_set)
        await pilot.press("q")
        await wait(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait(pilot, lambda: app.session is None or not app.is_running)
    bot.answer.set()  # (its answer comes after the app is gone: nothing is played, nothing raises)
    await asyncio.sleep(0.05)
    assert not table.match.record.moves


def test_the_ticking_line_names_the_seat_and_its_whole_seconds():
    from tui.sessions.base import thinking_text

    assert thinking_text("Blue", 0.4) == "Blue is thinking…"
    assert thinking_text("Blue", 3.7) == "Blue is thinking… 3s"


# --- the kit --------------------------------------------------------------------------------
def first_decision(seed: int = 5) -> tuple[Any, list[Any]]:
    match = Match(PATHWAYS, {}, [SeatInfo("a", "bot"), SeatInfo("b", "bot")], seed)
    seat = min(match.to_act())
    view = match.view(seat)
    return view, PATHWAYS.legal(view)


async def test_a_worker_process_makes_the_same_move_and_hands_back_the_bot_as_it_is_after():
    view, legal = first_decision()
    here = hard_bot(PATHWAYS, view.seat, 9, iterations=12, think=None)
    there = hard_bot(PATHWAYS, view.seat, 9, iterations=12, think=None)
    thinker = Thinker(1)
    try:
        action, after = await thinker.decide(there, view, legal, lambda: PATHWAYS.make_bot(view.seat, 9))
    finally:
        thinker.close()
    assert action == here.choose(view, legal)
    assert after is not there and after.rng == here.rng  # (its stream moved on as it would have here)


async def test_a_failing_bot_gives_way_to_the_fallback_with_a_warning(caplog):
    view, legal = first_decision()
    normal = PATHWAYS.make_bot(view.seat, 9)
    broken = BrokenBot()
    with caplog.at_level(logging.WARNING, "atlantis.bots"):
        action, kept = await Thinker(threads=True).decide(broken, view, legal, lambda: PATHWAYS.make_bot(view.seat, 9))
    assert action == normal.choose(view, legal) and kept is broken
    assert "the normal bot decides" in caplog.text


async def test_a_hung_bot_gives_way_to_the_fallback(monkeypatch, caplog):
    import netplay.thinking

    monkeypatch.setattr(netplay.thinking, "HUNG_AFTER", 0.01)
    view, legal = first_decision()
    hung = SlowBot(PATHWAYS.make_bot(view.seat, 1))
    try:
        with caplog.at_level(logging.WARNING, "atlantis.bots"):
            action, _ = await Thinker(threads=True).decide(hung, view, legal, lambda: PATHWAYS.make_bot(view.seat, 9))
    finally:
        hung.answer.set()
    assert action == PATHWAYS.make_bot(view.seat, 9).choose(view, legal)
    assert "did not come back" in caplog.text


def test_a_quick_bot_decides_at_once_without_a_worker():
    view, legal = first_decision()
    thinker = Thinker(1)
    action, kept = asyncio.run(thinker.decide(PATHWAYS.make_bot(view.seat, 9), view, legal, lambda: 1 / 0))
    assert action in legal and not thinker.workers


# --- the server -----------------------------------------------------------------------------
async def test_another_tables_move_is_answered_while_a_bot_thinks():
    thinking_table = HostTable.create(TOY, {}, ["bot", "open"], 1, name="a bot thinks here")
    other = HostTable.create(TOY, {}, ["open", "open"], 2, name="another table")
    bot = thinking_table.slots[0].bot = SlowBot(thinking_table.slots[0].bot)
    host = Host([thinking_table, other], host=LOOPBACK, port=0)
    host.thinker = Thinker(threads=True)
    await host.start()
    clients = [client(host, name="a", table=thinking_table.id),
               client(host, name="b", table=other.id), client(host, name="c", table=other.id)]
    try:
        for c in clients:
            c.start()
        await until(lambda: bot.asked.is_set() and all(c.view is not None and c.legal() for c in clients[1:]))
        assert 0 in thinking_table.thinking
        assert clients[1].submit(Pick(2)) is None
        await until(lambda: not clients[1].pending)  # (the other table answered...)
        assert not bot.answer.is_set() and 0 in thinking_table.thinking  # (... while the bot still thinks)
        assert other.match.record.moves
        bot.answer.set()
        await until(lambda: not thinking_table.thinking and thinking_table.match.record.moves)
        assert thinking_table.slots[0].bot is bot
    finally:
        bot.answer.set()
        for c in clients:
            await c.close()
        await host.close()


# --- LAN screens: the host's and a remote player's ------------------------------------------
def thinking_line(app: AtlantisApp) -> str:
    screen = app.game_screen
    return str(screen.query_one("#thinking").render()) if screen is not None and screen.is_mounted else ""


async def test_the_hosts_screen_says_its_bot_thinks_and_answers_help_meanwhile():
    from tui.lan.hosting import HostedTable

    table = HostTable.create(PATHWAYS, {}, ["bot", "local"], 3, name="a bot thinks here")
    bot = table.slots[0].bot = SlowBot(table.slots[0].bot)
    host = Host([table], host=LOOPBACK, port=0)
    host.thinker = Thinker(threads=True)
    app = AtlantisApp(hosted=HostedTable(host, table, None), bot_delay=0)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await wait(pilot, lambda: bot.asked.is_set() and "is thinking…" in thinking_line(app))
            await pilot.press("question_mark")
            await wait(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert not table.match.record.moves
            bot.answer.set()
            await wait(pilot, lambda: table.match.record.moves)
    finally:
        bot.answer.set()


async def test_a_remote_player_sees_the_hosts_bot_thinking():
    table = HostTable.create(PATHWAYS, {}, ["bot", "open"], 3, name="a bot thinks here")
    bot = table.slots[0].bot = SlowBot(table.slots[0].bot)
    host = Host([table], host=LOOPBACK, port=0)
    host.thinker = Thinker(threads=True)
    await host.start()
    me = client(host, name="Alice")
    app = AtlantisApp(remote=me, bot_delay=0)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await wait(pilot, lambda: bot.asked.is_set() and "is thinking…" in thinking_line(app))
            bot.answer.set()
            await wait(pilot, lambda: table.match.record.moves)
    finally:
        bot.answer.set()
        await me.close()
        await host.close()


async def test_a_bot_client_with_a_slow_bot_decides_off_the_loop():
    from netplay.client import run_bot

    from netplay_helpers import running_host

    made: list[SlowBot] = []

    class SlowPathways(type(PATHWAYS)):  # (its bots are slow ones that answer at once)
        def make_bot(self, seat: int, seed: int, level: str = "normal") -> Bot:
            made.append(SlowBot(PATHWAYS.make_bot(seat, seed)))
            made[-1].answer.set()
            return made[-1]

    async with running_host(PATHWAYS, ["open", "open"], seed=4) as host:
        players = [client(host, name=f"b{i}") for i in range(2)]
        for c in players:
            c.games = {PATHWAYS.slug: SlowPathways()}
        runs = [asyncio.ensure_future(run_bot(c, thinker=Thinker(threads=True))) for c in players]
        await until(lambda: len(host.table.match.record.moves) >= 6, timeout=20)
        assert sum(bot.decisions for bot in made) >= 6
        for task in runs:
            task.cancel()
        for c in players:
            await c.close()


async def test_a_worker_that_dies_or_hangs_is_gone_and_the_normal_bot_decides(monkeypatch, caplog):
    import os

    import netplay.thinking
    from thinking_bots import DyingBot, HungBot

    here = os.path.dirname(__file__)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    view, legal = first_decision()
    normal = PATHWAYS.make_bot(view.seat, 9).choose(view, legal)
    thinker = Thinker(1)
    try:
        with caplog.at_level(logging.WARNING, "atlantis.bots"):
            action, _ = await thinker.decide(DyingBot(), view, legal, lambda: PATHWAYS.make_bot(view.seat, 9))
            assert action == normal and "failed" in caplog.text and not thinker.workers
            monkeypatch.setattr(netplay.thinking, "HUNG_AFTER", 0.5)  # (past its start, on a loaded machine too)
            started: list[Any] = []
            start = netplay.thinking.Worker.start

            async def kept() -> Any:
                started.append(await start())
                return started[-1]

            monkeypatch.setattr(netplay.thinking.Worker, "start", staticmethod(kept))
            action, _ = await thinker.decide(HungBot(), view, legal, lambda: PATHWAYS.make_bot(view.seat, 9))
        assert action == normal and "did not come back" in caplog.text and not thinker.workers
        assert await started[0].proc.wait() != 0  # (the hung worker was killed: no process is left)
    finally:
        thinker.close()
