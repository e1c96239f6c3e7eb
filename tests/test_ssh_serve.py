"""``atlantis serve-ssh`` over loopback with asyncssh's own client: every session is the
ordinary app in its own PTY child, a client of the table server the front runs."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from engine.pathways import data as pathways_data
from engine.pathways.actions import EndMove, EndPlays, Place, Remove, Special, Step
from netplay.host import HostTable
from engine.registry import get_game
from tui.pathways.slots import keep_slots
from tui.ssh.server import SshFront, SshLimits, fingerprint, load_host_key

pytestmark = pytest.mark.timeout(45)

LOOPBACK = "127.0.0.1"
ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")
KEYS = {"up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D", "enter": b"\r",
        "tab": b"\t", "backspace": b"\x7f", "ctrl+s": b"\x13"}
SHIFT_ARROWS = (b"\x1b[1;2A", b"\x1b[1;2C", b"\x1b[1;2B", b"\x1b[1;2D")  # N E S W


def text_of(raw: bytes) -> str:
    return ANSI.sub(b"", raw).decode("utf-8", errors="replace")


class Player:
    """One SSH session: the bytes its screen received, and keys to send."""

    def __init__(self, conn: asyncssh.SSHClientConnection, proc: asyncssh.SSHClientProcess):
        self.conn, self.proc = conn, proc
        self.raw = bytearray()
        self.closed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.proc.stdout.read(65536)
                if not data:
                    break
                self.raw.extend(data)
        except Exception:
            pass
        finally:
            self.closed.set()

    @property
    def text(self) -> str:
        return text_of(bytes(self.raw))

    async def type(self, *fields: tuple, pause: float = 0.3) -> None:
        """Groups of keys with a pause between (Tab moves the focus once the app has
        handled it: what is typed at once after it may land in the old field)."""
        for group in fields:
            self.send(*group)
            await asyncio.sleep(pause)

    def send(self, *keys: str | bytes) -> None:
        for k in keys:
            self.proc.stdin.write(k if isinstance(k, bytes) else KEYS.get(k, k.encode()))

    async def sees(self, what: str, timeout: float = 15.0, since: int = 0) -> None:
        end = time.monotonic() + timeout
        while what not in text_of(bytes(self.raw[since:])):
            if time.monotonic() > end or self.closed.is_set() and what not in text_of(bytes(self.raw[since:])):
                raise AssertionError(f"never saw {what!r}; screen ends with:\n{self.text[-1500:]}")
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        self.conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), 3)


@contextlib.asynccontextmanager
async def running_front(tmp_path: Path, **kw):
    key, _ = load_host_key(tmp_path / "host_key")
    limits = kw.pop("limits", SshLimits(child_grace=1.0))
    front = SshFront(key, bind=LOOPBACK, port=0, records=tmp_path / "records", limits=limits,
                     bot_delay=0.0, players=tmp_path / "players", **kw)
    await front.start()
    try:
        yield front
    finally:
        await front.close()


async def connect(front: SshFront, key=None, user: str = "ana", size=(100, 32), **kw) -> Player:
    conn = await asyncssh.connect(LOOPBACK, front.port, known_hosts=None, username=user,
                                  client_keys=[key] if key is not None else None, agent_path=None, **kw)
    proc = await conn.create_process(term_type=kw.pop("term", "xterm-256color"), term_size=size, encoding=None,
                                     env={"COLORTERM": "truecolor"})
    return Player(conn, proc)


def new_key():
    return asyncssh.generate_private_key("ssh-ed25519")


async def until(pred, timeout: float = 10.0, what: str = "condition") -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(f"{what} not reached in {timeout} s")
        await asyncio.sleep(0.02)


# --- keys for pathways, from the table's state -----------------------------------------------
def corner_then(cell: int) -> list[str]:
    """The cursor to the top-left corner (it stops at the edge), then to ``cell``."""
    r, c = divmod(cell, pathways_data.SIZE)
    return ["up"] * pathways_data.SIZE + ["left"] * pathways_data.SIZE + ["right"] * c + ["down"] * r


_SLOTS: dict[tuple[int, int], list[int | None]] = {}


def slot_key(table: HostTable, seat: int, hand: tuple[int, ...], tile: int) -> str:
    """The number key of ``tile``, numbered as the screen numbers its hand slots."""
    slots = keep_slots(_SLOTS.get((id(table), seat), []), hand)
    _SLOTS[(id(table), seat)] = slots
    return str(slots.index(tile) + 1)


def keys_for_turn(table: HostTable, seat: int) -> list[str | bytes] | None:
    view = table.match.view(seat)
    legal = table.match.legal(seat)
    places = [a for a in legal if type(a) is Place]
    if places:
        a = min(places, key=lambda a: (a.rot, a.cell))
        return [slot_key(table, seat, tuple(view.hand), a.tile)] + ["r"] * a.rot + corner_then(a.cell) + ["enter"]
    if any(type(a) is EndPlays for a in legal):
        return ["e"]
    steps = [a for a in legal if type(a) is Step and a.pod == seat]
    if steps and view.phase == "move" and not view.pending:
        return [SHIFT_ARROWS[steps[0].side]]
    if any(type(a) is EndMove for a in legal):
        return ["e"]
    removes = [a for a in legal if type(a) is Remove]  # (a TRADE played: take a tile off)
    if removes:
        return corner_then(removes[0].cell) + ["enter"]
    specials = [a for a in legal if type(a) is Special]
    if specials:
        return [slot_key(table, seat, tuple(view.hand), specials[0].tile), "enter"]
    return None


async def play_turns(table: HostTable, players: dict[int, Player], max_moves: int | None = None,
                     timeout: float = 30.0, on_move=None) -> None:
    """Play every human seat of ``table`` by keys until the game is over (or it has
    ``max_moves`` moves)."""
    end = time.monotonic() + timeout
    while table.match.result() is None and (max_moves is None or len(table.match.record.moves) < max_moves):
        assert time.monotonic() < end, "the game did not end in time"
        acting = [s for s in sorted(table.match.to_act()) if s in players]
        if not acting:
            await asyncio.sleep(0.02)
            continue
        seat = acting[0]
        before = len(table.match.record.moves)
        keys = keys_for_turn(table, seat)
        assert keys is not None, f"no key plan for {table.match.legal(seat)}"
        players[seat].send(*keys)
        try:
            await until(lambda: len(table.match.record.moves) > before or table.match.result() is not None,
                        10, "the keys played a move")
        except AssertionError:
            raise AssertionError(f"keys {keys} did nothing; screen:\n{players[seat].text[-2500:]}") from None
        if on_move is not None:
            on_move()


# --- the tests ----------------------------------------------------------------------------------
async def test_a_session_gets_a_pty_and_sees_the_lobby_with_play_here(tmp_path):
    async with running_front(tmp_path) as front:
        p = await connect(front, new_key())
        await p.sees("New table")
        await p.sees("Play here")
        await p.sees("No tables yet")
        assert b"\x1b[38;2;" in p.raw  # COLORTERM=truecolor from the client: 24-bit colour
        p.send("p")  # play here: the ordinary menu, hot-seat and bots in this terminal
        await p.sees("Start  (Ctrl+S)", since=len(p.raw))
        await p.close()
        await until(lambda: not front.children, 10, "the child stopped")


LIGHT_BACKGROUND = b"48;2;224;224;224"  # textual-light's $background, as a truecolor escape


async def test_each_client_key_starts_in_the_theme_it_chose_last(tmp_path):
    from tui.config import Config, read_config, write_config

    async with running_front(tmp_path) as front:
        light, other = new_key(), new_key()
        settings = front.settings_path(fingerprint(light))
        assert settings is not None and settings.parent == tmp_path / "players"
        assert front.settings_path(fingerprint(other)) != settings
        assert front.settings_path(None) is None  # (a client with no key keeps no settings)
        write_config(settings, Config(theme="textual-light"))  # as that key's last session saved it
        ana = await connect(front, light)
        await ana.sees("No tables yet")
        assert LIGHT_BACKGROUND in ana.raw
        bo = await connect(front, other, user="bo")
        await bo.sees("No tables yet")
        assert LIGHT_BACKGROUND not in bo.raw
        assert read_config(front.settings_path(fingerprint(other))).theme is None
        for p in (ana, bo):
            await p.close()


async def test_a_theme_picked_in_a_session_is_saved_for_its_key(tmp_path):
    from tui.config import read_config

    async with running_front(tmp_path) as front:
        key = new_key()
        ana = await connect(front, key)
        await ana.sees("No tables yet")
        ana.send("\x10")  # Ctrl+P: the command palette
        await ana.sees("Theme", since=0)
        await ana.type(("theme",), ("enter",), ("textual-light",), ("enter",))
        settings = front.settings_path(fingerprint(key))
        await until(lambda: settings.exists() and read_config(settings).theme == "textual-light", 10,
                    "the theme saved in the key's settings")
        await ana.close()
        again = await connect(front, key)
        await again.sees("No tables yet")
        assert LIGHT_BACKGROUND in again.raw
        await again.close()


async def test_a_session_opens_a_table_with_a_bot_and_plays_pathways_by_keys(tmp_path):
    async with running_front(tmp_path) as front:
        p = await connect(front, new_key(), size=(110, 40))
        await p.sees("No tables yet")
        p.send("n")
        await p.sees("Open a table")
        await asyncio.sleep(0.5)  # (the form takes focus once mounted)
        # players 2, bots 1, bot level normal, max rounds 60 -> 5, then Ctrl+S opens
        await p.type(("tab", "tab", "tab", "tab"), ("backspace", "backspace"), ("5",), ("ctrl+s",))
        await until(lambda: front.tables.tables, 10, "a table opened")
        table = next(iter(front.tables.tables.values()))
        assert [s.kind for s in table.slots] == ["open", "bot"] and table.match.record.options["max_rounds"] == 5
        assert table.slots[1].label() == "Blue (normal bot)"
        await until(lambda: table.slots[0].conn is not None, 10, "the session took its seat")
        await p.sees("Your turn", 15)
        await play_turns(table, {0: p}, timeout=35)
        result = table.match.result()
        assert result is not None and sum(1 for m in table.match.record.moves if m.seat == 0) >= 10
        await p.sees("Game over", 10)
        await p.close()
        assert list((tmp_path / "records").glob("pathways-server-*.atlrec"))  # the log stays


async def test_a_resize_changes_the_layout_at_once(tmp_path):
    def widest_box(text: str) -> int:
        runs = re.findall("╰(─+)╯", text)
        return max(map(len, runs)) if runs else 0

    async with running_front(tmp_path) as front:
        p = await connect(front, new_key(), size=(100, 30))
        await p.sees("No tables yet")
        await asyncio.sleep(0.3)
        assert widest_box(p.text) == 96
        mark = len(p.raw)
        started = time.monotonic()
        p.proc.change_terminal_size(60, 20)
        await until(lambda: widest_box(text_of(bytes(p.raw[mark:]))) == 56, 5, "the box redrawn 60 wide")
        assert time.monotonic() - started < 3
        await p.close()


def find_seed(max_rounds: int = 5) -> int:
    """A seed where Blue holds a special tile that Red does not (the canary)."""
    game = get_game("pathways")
    for seed in range(1, 2000):
        t = HostTable.create(game, {"max_rounds": max_rounds}, ["open", "open"], seed)
        red, blue = ({pathways_data.TILE_KIND[x] for x in h} for h in t.match.state.hands)
        if (blue & set(pathways_data.SPECIAL_SHORT)) - red and not red & set(pathways_data.SPECIAL_SHORT):
            return seed
    raise AssertionError("no seed found")


async def open_and_join(front, red: Player, blue: Player) -> HostTable:
    """Red opens a two-seat table without bots from the lobby, Blue joins it; both seated."""
    await red.sees("No tables yet")
    red.send("n")
    await red.sees("Open a table")
    await asyncio.sleep(0.5)
    await red.type(("tab", "tab"), ("left",), ("tab",), ("backspace", "backspace"), ("5",), ("ctrl+s",))  # no bot
    await until(lambda: front.tables.tables, 10, "a table opened")
    table = next(iter(front.tables.tables.values()))
    await blue.sees("1 of 2 open", 10)
    blue.send("enter")
    await until(lambda: table.started and all(s.conn is not None for s in table.slots), 15, "both seated")
    return table


async def two_sessions_with_canary(tmp_path: Path, play: bool = True) -> dict[str, int]:
    """Red and Blue play each other over SSH; after every move the labels of the special
    tiles in one seat's hand (read from the table server's state) that the other seat
    never held and nobody played must not be in the other's screen bytes."""
    seed = find_seed()
    async with running_front(tmp_path) as front:
        front.tables.seeds = iter([seed])
        red = await connect(front, new_key(), user="red", size=(110, 40))
        blue = await connect(front, new_key(), user="blue", size=(110, 40))
        table = await open_and_join(front, red, blue)
        players = {0: red, 1: blue}
        held: dict[int, set[str]] = {0: set(), 1: set()}   # special labels each seat ever held
        played: set[str] = set()                           # ... and those played (public)
        checks = {"checked": 0}

        def canary() -> None:
            state = table.match.state
            for seat, hand in enumerate(state.hands):
                held[seat] |= {pathways_data.SPECIAL_SHORT[pathways_data.TILE_KIND[t]] for t in hand if pathways_data.TILE_KIND[t] in pathways_data.SPECIAL_SHORT}
            played.update(pathways_data.SPECIAL_SHORT[pathways_data.TILE_KIND[t]] for t in state.discard
                          if pathways_data.TILE_KIND[t] in pathways_data.SPECIAL_SHORT)
            for seat, other in ((0, 1), (1, 0)):
                screen = players[seat].text
                for label in held[other] - held[seat] - played:
                    # ("MOVE 3" is part of "MOVE 3*": only labels no label seen contains)
                    if any(label in seen for seen in held[seat] | played):
                        continue
                    checks["checked"] += 1
                    assert label not in screen, f"seat {seat} saw {label!r} from the other hand"

        await red.sees("Your turn", 15)
        await asyncio.sleep(0.5)
        canary()
        # The check can fail: Blue's own screen shows the label that Red must not see (once
        # Blue's game screen is drawn: Red's turn says nothing of when that is).
        blue_own = held[1] - held[0]
        assert blue_own
        await until(lambda: any(label in blue.text for label in blue_own), 15, "Blue's screen shows its own hand")
        canary()
        if play:
            await play_turns(table, players, max_moves=16, timeout=40, on_move=canary)  # two rounds
            canary()
            assert len(table.match.record.moves) >= 16 and {m.seat for m in table.match.record.moves} == {0, 1}
        await red.close()
        await blue.close()
    return checks


async def test_two_sessions_play_each_other_and_neither_screen_shows_the_other_hand(tmp_path):
    checks = await two_sessions_with_canary(tmp_path)
    assert checks["checked"] >= 5, checks


async def test_the_canary_catches_a_host_that_leaks_a_hand(tmp_path, monkeypatch):
    """A host whose view of Red carries Blue's hand: the same check fails."""
    from dataclasses import replace

    game = get_game("pathways")
    honest = game.view

    def leaky(state, seat):
        view = honest(state, seat)
        return replace(view, hand=state.hands[1]) if seat == 0 else view

    monkeypatch.setattr(game, "view", leaky)
    with pytest.raises(AssertionError, match="seat 0 saw"):
        await two_sessions_with_canary(tmp_path, play=False)


async def test_a_dropped_session_comes_back_with_the_same_key_into_its_seat(tmp_path):
    async with running_front(tmp_path) as front:
        key = new_key()
        ana = await connect(front, key, user="ana")
        await ana.sees("No tables yet")
        ana.send("n")
        await ana.sees("Open a table")
        await asyncio.sleep(0.5)
        await ana.type(("tab", "tab"), ("left",), ("ctrl+s",))  # no bot: two players, waits for Bo
        await until(lambda: front.tables.tables, 10, "a table opened")
        table = next(iter(front.tables.tables.values()))
        bo = await connect(front, new_key(), user="bo")
        await bo.sees("1 of 2 open", 10)
        bo.send("enter")
        await until(lambda: table.started and all(s.conn is not None for s in table.slots), 15, "both seated")
        await ana.sees("Your turn", 15)
        await play_turns(table, {0: ana, 1: bo}, max_moves=2)  # Red places two tiles
        ana.conn.abort()  # dropped, mid-game
        await until(lambda: table.slots[0].conn is None, 10, "the seat shows disconnected")
        assert table.slots[0].taken and len(table.match.record.moves) == 2
        again = await connect(front, key, user="ana")   # the same key, no token typed
        await again.sees("(your seat)", 15)  # the lobby selects the table; Enter takes the seat back
        again.send("enter")
        await until(lambda: table.slots[0].conn is not None, 15, "back in the seat")
        await again.sees("Move:", 15)  # the move part of Red's turn, where it stopped
        await play_turns(table, {0: again, 1: bo}, max_moves=4)  # and it goes on playing, by keys
        stranger = await connect(front, new_key(), user="eve")  # another key: not that seat
        await stranger.sees("0 of 2 open", 10)
        assert table.slots[0].player == "ana"
        for p in (again, bo, stranger):
            await p.close()


async def test_login_and_idle_timeouts_close_sessions(tmp_path):
    quiet = [sys.executable, "-c", "import time; time.sleep(60)"]
    limits = SshLimits(login_timeout=0.5, idle_timeout=1.0, child_grace=0.5)
    async with running_front(tmp_path, limits=limits, child_argv=lambda name: quiet) as front:
        reader, writer = await asyncio.open_connection(LOOPBACK, front.port)  # says nothing
        started = time.monotonic()
        while await asyncio.wait_for(reader.read(1024), 5):
            pass
        assert time.monotonic() - started < 4
        writer.close()
        p = await connect(front, new_key())
        await p.sees("no key pressed for 1 s", 6)
        await asyncio.wait_for(p.closed.wait(), 5)
        await until(lambda: not front.children, 5, "the child stopped")


async def test_exec_sftp_and_forwarding_are_refused_with_one_line(tmp_path):
    async with running_front(tmp_path) as front:
        def fresh():
            return asyncssh.connect(LOOPBACK, front.port, known_hosts=None, username="x",
                                    client_keys=[new_key()], agent_path=None)

        async with fresh() as conn:
            result = await conn.run("cat /etc/passwd")
            assert result.exit_status == 1 and "runs no commands" in result.stderr
            assert result.stderr.count("\n") == 1 and result.stdout == ""
            with pytest.raises(asyncssh.ChannelOpenError) as one:  # one session per connection
                await conn.run("ls")
            assert "one session" in one.value.reason
        async with fresh() as conn:
            with pytest.raises(Exception):
                await asyncio.wait_for(conn.start_sftp_client(), 5)
        async with fresh() as conn:
            with pytest.raises(asyncssh.ChannelOpenError) as fwd:
                await conn.open_connection("127.0.0.1", front.tables.port)
            assert "no port forwarding" in fwd.value.reason
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        async with fresh() as conn:
            p = await conn.create_process(encoding=None)  # no PTY asked for
            out = await asyncio.wait_for(p.stderr.read(), 5)
            assert b"needs a terminal" in out and out.count(b"\n") == 1
        assert front.refused_requests >= 4 and not front.children


async def test_a_crashing_child_ends_only_its_session_and_a_hung_one_is_reaped(tmp_path):
    hung = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "signal.signal(signal.SIGHUP, signal.SIG_IGN); print('hung', flush=True); time.sleep(600)")
    crash = "import sys; print('boom', flush=True); sys.exit(3)"
    which = {"ana": hung, "bo": crash}
    argv = lambda name: [sys.executable, "-c", which[name]]  # noqa: E731
    async with running_front(tmp_path, child_argv=argv, limits=SshLimits(child_grace=0.5)) as front:
        a = await connect(front, new_key(), user="ana")
        await a.sees("hung")
        b = await connect(front, new_key(), user="bo")
        await b.sees("the game stopped (exit 3)")
        await asyncio.wait_for(b.closed.wait(), 5)
        assert not a.closed.is_set() and len(front.children) == 1  # the other session goes on
        (pid,) = front.children
        await a.close()
        await until(lambda: not front.children, 5, "the hung child reaped")
        assert front.reaped == 1
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_close_says_goodbye_and_stops_every_child(tmp_path):
    quiet = [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(60)"]
    async with running_front(tmp_path, child_argv=lambda name: quiet) as front:
        players = [await connect(front, new_key(), user=f"p{i}") for i in range(2)]
        for p in players:
            await p.sees("up")
        pids = list(front.children)
        await front.close()
        for p in players:
            await p.sees("shutting down", 5)
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)


def test_the_host_key_is_made_once_private_and_kept(tmp_path):
    path = tmp_path / "cfg" / "host_key"
    key, made = load_host_key(path)
    assert made and oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    again, made = load_host_key(path)
    assert not made and fingerprint(again) == fingerprint(key)


async def test_serve_ssh_prints_its_fingerprint_and_sigterm_closes_every_session(tmp_path):
    import signal

    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    env.pop("COLUMNS", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "serve-ssh", "--port", "0", "--bind", LOOPBACK,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env)
    try:
        lines = [(await asyncio.wait_for(proc.stdout.readline(), 15)).decode() for _ in range(3)]
        key_file = tmp_path / "config" / "atlantis" / "ssh_host_ed25519_key"
        assert lines[0].startswith("Made a new key") and key_file.exists()
        assert oct(key_file.stat().st_mode & 0o777) == "0o600"
        host_key = asyncssh.read_private_key(str(key_file))
        assert lines[1].strip() == f"Host key fingerprint: {fingerprint(host_key)}"
        port = int(re.search(r"on port (\d+)", lines[2]).group(1))
        conn = await asyncssh.connect(LOOPBACK, port, known_hosts=None, username="ana",
                                      client_keys=[new_key()], agent_path=None)
        assert fingerprint(conn.get_server_host_key()) == fingerprint(host_key)  # what players check
        p = Player(conn, await conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                                   encoding=None))
        await p.sees("No tables yet")
        proc.send_signal(signal.SIGTERM)
        await p.sees("shutting down", 10)
        assert await asyncio.wait_for(proc.wait(), 10) == 0
        await asyncio.wait_for(p.closed.wait(), 5)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_atlantis_serve_is_a_table_server_that_join_recognises(tmp_path):
    import signal

    from netplay.server import is_server

    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "serve", "--port", "0", "--bind", LOOPBACK, "--no-advertise",
        "--name", "Kitchen", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 15)).decode()
        assert "Table server 'Kitchen' listening on 127.0.0.1:" in line
        port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))
        assert await is_server(LOOPBACK, port)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 10) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_atlantis_join_on_a_table_server_shows_its_lobby(tmp_path):
    import pty
    import subprocess

    from netplay.server import TableServer
    from tui.ssh.server import set_winsize

    server = TableServer(name="Kitchen", host=LOOPBACK, port=0)
    await server.start()
    master, slave = pty.openpty()
    set_winsize(master, 100, 30)
    env = dict(os.environ, TERM="xterm-256color", XDG_DATA_HOME=str(tmp_path))
    child = subprocess.Popen([sys.executable, "-m", "tui.cli", "join", f"{LOOPBACK}:{server.port}"],
                             stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    os.set_blocking(master, False)
    raw = bytearray()
    try:
        end = time.monotonic() + 20
        while not ("Kitchen: tables" in text_of(bytes(raw)) and "New table" in text_of(bytes(raw))):
            assert time.monotonic() < end, text_of(bytes(raw))[-1000:]  # (the title, and the footer's keys)
            await asyncio.sleep(0.05)
            with contextlib.suppress(BlockingIOError):
                raw.extend(os.read(master, 65536))
    finally:
        child.terminate()
        child.wait(5)
        os.close(master)
        await server.close()
