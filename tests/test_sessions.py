"""The sessions' state machines without a running app: the curtain, the bots' timer and
who sits at the keyboard (hot-seat), the replay's position, and a LAN seat before its
first view.  A stand-in for the app records what a session asks of it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from engine.core import SeatInfo
from engine.match import Match
from engine.registry import get_game
from netplay.client import RemoteSeat
from tui.screens.dialogs import CurtainScreen
from tui.screens.game import GameScreen
from tui.seat_links import LocalTable, ReplaySeat
from tui.sessions.hot_seat import BOT, OVER, SWITCH, WAIT, HotSeatSession
from tui.sessions.replay import ReplaySession

GAME = get_game("pathways")


class StandIn:
    """What a session uses of the app, recorded: screens pushed, callbacks for later, timers."""

    def __init__(self) -> None:
        self.session: Any = None
        self.menu_home = False
        self.sub_title = ""
        self.screen_stack: list[Any] = []
        self.later: list[Any] = []
        self.timers: list[Any] = []
        self.notices: list[str] = []
        self.callbacks: dict[int, Any] = {}

    @property
    def screen(self) -> Any:
        return self.screen_stack[-1] if self.screen_stack else None

    def push_screen(self, screen: Any, callback: Any = None) -> None:
        self.screen_stack.append(screen)
        self.callbacks[id(screen)] = callback

    def pop_screen(self) -> None:
        self.screen_stack.pop()

    def dismiss(self, screen: Any) -> None:
        """The player leaves ``screen`` (Enter on the curtain)."""
        self.screen_stack.remove(screen)
        callback = self.callbacks.pop(id(screen))
        if callback is not None:
            callback(None)

    def call_later(self, callback: Any, *args: Any) -> bool:
        self.later.append((callback, args))
        return True

    def run_later(self) -> None:
        while self.later:
            callback, args = self.later.pop(0)
            callback(*args)

    def set_timer(self, delay: float, callback: Any) -> Any:
        self.timers.append(callback)
        return SimpleNamespace(stop=lambda: self.timers.remove(callback))

    def set_interval(self, interval: float, callback: Any) -> Any:
        """(The side panel's ticking seconds while a bot thinks: not run here.)"""
        return SimpleNamespace(stop=lambda: None)

    def fire_timers(self) -> None:
        timers, self.timers = self.timers, []
        for callback in timers:
            callback()

    def notify(self, message: str, **kwargs: Any) -> None:
        self.notices.append(message)

    def begin(self, session: Any) -> None:
        self.session = session
        session.start()


def table(*kinds: str, seed: int = 5) -> LocalTable:
    names = ("Red", "Blue", "Green", "Yellow")
    return LocalTable.new(GAME, {}, [SeatInfo(names[i], kind) for i, kind in enumerate(kinds)], seed)


def drawn_seat(session: HotSeatSession) -> int | None:
    """The seat whose view the screen was given last."""
    view, _ = session.screen._given
    return view.seat


def act_until(table: LocalTable, seat: int) -> None:
    """Play the first legal action of whoever is to act until ``seat`` is."""
    while seat not in table.match.to_act():
        actor = min(table.match.to_act())
        assert table.submit(actor, table.match.legal(actor)[0]) is None


def test_two_players_with_hands_meet_the_curtain_first_and_at_every_change_of_seat():
    app, local = StandIn(), table("human", "human")
    session = HotSeatSession(app, local)
    app.begin(session)
    assert isinstance(app.screen, CurtainScreen) and session.curtain_up
    assert session.screen not in app.screen_stack and session.screen._given[0] is None  # nothing shown yet
    app.run_later()
    assert isinstance(app.screen, CurtainScreen)  # (the table waits behind it)
    app.dismiss(app.screen)
    assert app.screen is session.screen and session.viewer == 0 and drawn_seat(session) == 0
    act_until(local, 1)
    app.run_later()
    assert isinstance(app.screen, CurtainScreen) and session.viewer == 0  # Blue's turn, Red still seated
    assert drawn_seat(session) == 0  # Red saw the end of their own turn, not Blue's hand
    app.dismiss(app.screen)
    assert session.viewer == 1 and session.screen.link.seat == 1 and drawn_seat(session) == 1


def test_without_hidden_information_the_keyboard_passes_without_a_curtain():
    class OpenTable(LocalTable):
        def hides_information(self) -> bool:
            return False

    app = StandIn()
    local = OpenTable(GAME, Match(GAME, {}, [SeatInfo("Red"), SeatInfo("Blue")], 5))
    session = HotSeatSession(app, local)
    act_until(local, 1)
    assert session.viewer == 0 and session.next_step().what == SWITCH


def test_a_bot_acts_on_the_sessions_timer_and_the_human_gets_the_table_back():
    app, local = StandIn(), table("bot", "human")
    session = HotSeatSession(app, local)
    app.begin(session)
    assert app.screen is session.screen and session.viewer == 1  # one human: no curtain
    app.run_later()
    assert session.next_step().what == BOT and len(app.timers) == 1
    while app.timers:
        app.fire_timers()
        app.run_later()
    assert session.next_step().what == WAIT and local.human_to_act() == 1 and drawn_seat(session) == 1
    assert session.screen._given[1]  # Blue may act: the legal actions were given with the view


def test_manual_bots_wait_for_someone_to_step_them():
    app, local = StandIn(), table("bot", "human")
    session = HotSeatSession(app, local, manual_bots=True)
    app.begin(session)
    app.run_later()
    assert session.next_step() == (BOT, 0) and not app.timers


def test_a_finished_table_says_over_and_a_stopped_session_forgets_its_table():
    app, local = StandIn(), table("human", "bot")
    session = HotSeatSession(app, local)
    app.begin(session)
    app.run_later()
    session.stop()
    assert session._table_changed not in local.listeners and not app.timers
    while local.match.result() is None:
        actor = min(local.match.to_act())
        local.match.act(actor, local.match.legal(actor)[-1])
    assert session.next_step().what == OVER


def test_the_replay_session_draws_each_position_the_keys_move_to():
    app, local = StandIn(), table("human", "human")
    act_until(local, 1)
    replay = ReplaySeat(GAME, local.match.record)
    session = ReplaySession(app, replay)
    app.begin(session)
    last = session.screen._given[0]
    replay.step(-1)
    assert replay.index == len(replay.states) - 2 and session.screen._given[0] != last
    replay.jump(-1)
    assert session.screen._given[0] == last
    replay.next_viewer()
    assert session.screen._given[0].seat == 0  # the full table, then Red's own view


def test_a_lan_seat_has_no_view_before_the_hosts_first_update_and_a_screen_draws_nothing():
    link = RemoteSeat(SimpleNamespace(view=None, game=GAME, legal=lambda: []))  # type: ignore[arg-type]
    assert link.view() is None
    screen = GameScreen(link)
    screen.show(link.view(), link.legal())  # (no view yet: nothing is drawn, nothing fails)
    assert screen._given == (None, []) and not screen._drawn


def test_the_hosts_save_key_writes_a_copy_and_never_touches_the_hosts_log(tmp_path, monkeypatch):
    from netplay.host import Host, HostTable
    from tui.lan.hosting import HostedTable
    from tui.sessions.hosted import HostedSession

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    log = tmp_path / "host.atlrec"
    hosted_table = HostTable.create(GAME, {}, ["local", "open"], 3, name="t", log_path=log)
    app = StandIn()
    session = HostedSession(app, HostedTable(Host([hosted_table], host="127.0.0.1", port=0), hosted_table))
    kept = log.read_bytes() if log.exists() else None  # (the host writes its log once it opens)
    session.save_record()
    assert (log.read_bytes() if log.exists() else None) == kept and session.save_path == log  # (the log is still the record to resume)
    assert session._copy is not None and session._copy != log and session._copy.is_file()
    assert app.notices == [f"Saved to {session._copy}"]


def test_a_remote_seat_waits_on_the_connecting_screen_until_its_first_view_then_gets_the_games_screen():
    from netplay.client import RemoteSeat
    from tui.lan.screens import ConnectingScreen
    from tui.pathways.screen import PathwaysScreen
    from tui.sessions.remote import RemoteSession

    local = table("human", "human")
    client = SimpleNamespace(host="127.0.0.1", port=4, listeners=[], view=None, game=None, seat=None,
                             names=local.names, status="connecting", has_started=True, attempt=0,
                             last_error="", welcome=SimpleNamespace(table_name="t", practice=False),
                             legal=lambda: [], events=[], seats=None, to_act=[], over=None)
    app = StandIn()
    session = RemoteSession(app, client)  # type: ignore[arg-type]
    app.begin(session)
    assert isinstance(app.screen, ConnectingScreen) and session.screen is None  # no view yet
    assert RemoteSeat(client).view() is None  # type: ignore[arg-type]
    for listener in client.listeners:
        listener("seats")
    app.run_later()
    assert isinstance(app.screen, ConnectingScreen) and session.screen is None
    client.view, client.game = local.match.view(None), GAME
    for listener in client.listeners:
        listener("update")
    app.run_later()
    assert isinstance(app.screen, PathwaysScreen) and app.screen is session.screen
    assert not any(isinstance(s, ConnectingScreen) for s in app.screen_stack)
    assert session.screen._given[0] is client.view and app.notices == []  # (no toast: the side panel says it)
    assert session.screen._said == "Joined 't' as a spectator."
    session.stop()
    assert not client.listeners
