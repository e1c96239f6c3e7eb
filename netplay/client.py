"""The client end of a seat: ``Client`` (connection, reconnect, verification) and
``RemoteSeat`` (the same interface as ``tui.seat_links.SeatLink``, so the game screens
that serve hot-seat play serve LAN play unchanged).

``RemoteSeat`` has every method of ``SeatLink`` (``view``, ``legal``, ``log``,
``submit``, ``undo``, ``waiting_for``, ...) but does not import ``tui``: the arrows
go ``tui -> netplay -> engine``; ``tests/test_netplay_client.py`` checks the match.

Legal actions are computed here from the view (``game.legal(view)``), so the screen
highlights moves without asking the host; the host checks them again anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import socket
from dataclasses import dataclass
from typing import Any, Callable

import msgpack

from engine.core import DEFAULT_BOT_LEVEL, Event, Game, IllegalAction, LogLine, SeatInfo, View, to_wire
from engine.match import Match
from engine.record import digest
from engine.registry import GAMES
from engine.text import counted

from . import messages
from .chat import chat_text
from .thinking import Thinker
from .tls import FingerprintError, Trust, open_connection
from .wire import MAX_HOST_FRAME, FrameError, read_frame

log = logging.getLogger("atlantis.client")


# Fatal errors that end the attempt to join (every other disconnect: reconnect).
REFUSALS = {"bad-token", "full", "no-table", "replaced", "hello-first", "spectators-full", "ticket-needed"}
# Fatal errors that say the table is gone for good (a host that closes its table may say so).
CLOSINGS = {"table-closed", "closed"}

#: The name a client sends with a seat's token to keep the name that seat has (the
#: host cleans a name to its printable part; nothing left: the seat keeps its name).
KEEP_NAME = " "


#: Chat lines a client keeps (a welcome starts them again: the host sends the lines it kept).
MAX_CHAT_LINES = 500

#: A connection that ended, in a few words (the status line, the turn line).  The reason
#: (``Client.last_error``) is said once, in the side panel and a toast, never nested in these.
DISCONNECTED = {"closed": "Disconnected: the table is closed", "refused": "Refused by the host"}


class Refused(Exception):
    """The host (or this program) refuses the connection for good: no reconnect."""


class TableClosed(Exception):
    """The host said that its table is closed: no reconnect."""


class Moving(Exception):
    """The host moved this client to a rematch's table: connect there now."""


class ConnectFailed(OSError):
    """The TCP connection itself could not be made (no such host, nothing listening,
    no answer): the message says which, in a sentence."""


def connect_problem(host: str, port: int, exc: BaseException, timeout: float) -> str:
    """Why ``host:port`` could not be reached, in a sentence a player can act on."""
    where = f"{host}:{port}"
    if isinstance(exc, socket.gaierror):
        return f"There is no host {host!r} ({exc.strerror or exc}): check the address."
    if isinstance(exc, ConnectionRefusedError):
        return f"Nothing is listening at {where} (connection refused): is the table open, on that port?"
    if isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        return f"{where} did not answer within {timeout:g} s: check the address and the network."
    if isinstance(exc, OSError):
        return f"Cannot reach {where}: {exc.strerror or exc}."
    return f"Cannot reach {where}: {exc or type(exc).__name__}."


def parse_address(text: str, default_port: int = 7341) -> tuple[str, int]:
    """``HOST:PORT``, ``HOST``, ``:PORT`` or ``[v6]:PORT``."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":") or str(default_port)
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    else:
        host, port = text, str(default_port)
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad port in {text!r}: give HOST:PORT")
    return host or "127.0.0.1", int(port)


def view_hash(data: Any) -> bytes:
    return hashlib.sha256(msgpack.packb(data, use_bin_type=True)).digest()


@dataclass
class Verification:
    ok: bool
    text: str


class Client:
    """A connection to a host's table that keeps itself alive.

    Listeners (``listeners``) are called with one word: ``"welcome"``, ``"update"``,
    ``"seats"``, ``"status"``, ``"error"``, ``"over"``, ``"chat"`` (a line in ``chat_lines``),
    ``"moved"`` (to a rematch's table: a new game follows)."""

    def __init__(self, host: str, port: int, name: str = "Player", token: str | None = None,
                 table: str | None = None, spectate: bool = False, *, read_timeout: float = 20.0,
                 ping_interval: float = 5.0, backoff: tuple[float, float] = (0.1, 3.0),
                 connect_timeout: float = 5.0, max_attempts: int | None = None,
                 games: dict[str, Game] | None = None, fail_fast: bool = True,
                 give_up_after: float | None = 30.0, give_up_tries: int = 5, trust: Trust = Trust(),
                 linger: bool = False):
        self.host, self.port = host, port
        self.trust = trust  # how the host's certificate is checked (``netplay.tls``)
        self.games = GAMES if games is None else games  # the games this program knows
        self.name = name
        self.token = token
        self.table = table
        self.spectate = spectate
        self.read_timeout = read_timeout
        self.ping_interval = ping_interval
        self.backoff = backoff
        self.connect_timeout = connect_timeout
        self.max_attempts = max_attempts
        # fail_fast: before the first welcome, an address that cannot be reached ends
        # the attempt at once (a typo, nothing listening); after it, every drop is retried
        # until the host has not answered for give_up_after seconds and give_up_tries
        # tries: then the table is taken to be closed (None: retry for ever).
        self.fail_fast = fail_fast
        # linger: stay at the table after the game (to chat, and to accept a rematch:
        # ``rematch``); the host's ``moved`` then takes this client to the new table.
        self.linger = linger
        self.give_up_after = give_up_after
        self.give_up_tries = give_up_tries
        self.lost_at: float | None = None  # when the connection was lost (loop time)
        self.listeners: list[Callable[[str], None]] = []
        # what we know
        self.game: Game | None = None
        self.welcome: messages.Welcome | None = None
        self.seat: int | None = None
        self.names: list[str] = []
        self.view: View | None = None
        self.version = 0
        self.events: list[Event] = []
        self.to_act: list[int] = []
        self.seats: messages.Seats | None = None
        self.seats_at = 0.0  # loop time the seat list came (the turn timers count down from it)
        self.over: messages.Over | None = None
        self.chat_lines: list[messages.ChatLine] = []  # the table's chat as heard here, oldest first
        self.verification: Verification | None = None
        self.last_error = ""
        self.status = "connecting"  # connecting | connected | reconnecting | refused | over | closed
        self.attempt = 0
        self.pending = 0            # the n of an action sent and not answered yet (0: none)
        self.sent = 0               # actions sent so far (each carries its count n)
        self.received: list[bytes] = []  # hashes of every view received, in order
        self.frames_in = 0
        self.bytes_in = 0
        self._writer: asyncio.StreamWriter | None = None
        self._stopping = False
        self._task: asyncio.Task | None = None
        self.ready = asyncio.Event()   # set at the first welcome (or refusal)
        self.finished = asyncio.Event()

    # --- life --------------------------------------------------------------------
    @property
    def has_started(self) -> bool:
        """Whether ``start`` has set the connection going (a second start would open a
        second connection, to the same seat)."""
        return self._task is not None

    def start(self) -> asyncio.Task:
        self._task = asyncio.get_running_loop().create_task(self.run())
        return self._task

    async def run(self) -> None:
        try:
            while not self._stopping:
                try:
                    await self._connect_once()
                except Refused as exc:
                    self._set_status("refused", str(exc))
                    break
                except TableClosed as exc:
                    self._set_status("closed", str(exc))
                    break
                except Moving:
                    continue  # (to the rematch's table, at once)
                except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, FrameError) as exc:
                    if self._stopping or self.over is not None:
                        break
                    if self.fail_fast and self.welcome is None and isinstance(exc, ConnectFailed):
                        self._set_status("refused", str(exc))
                        break
                    self.attempt += 1
                    if self.max_attempts is not None and self.attempt > self.max_attempts:
                        self._set_status("closed", f"Gave up after {counted(self.attempt - 1, 'attempt')}: {exc or type(exc).__name__}")
                        break
                    now = asyncio.get_running_loop().time()
                    if self.lost_at is None:
                        self.lost_at = now
                    if (self.give_up_after is not None and self.attempt >= self.give_up_tries
                            and now - self.lost_at >= self.give_up_after):
                        self._set_status("closed", f"The table is closed: the host has not answered for "
                                                   f"{now - self.lost_at:.0f} s ({counted(self.attempt, 'try', 'tries')}).")
                        break
                    if isinstance(exc, ConnectFailed):
                        self._set_status("reconnecting", f"Connection lost. {exc} Retrying.")
                    else:
                        why = str(exc) or type(exc).__name__
                        self._set_status("reconnecting", f"Connection lost ({why}); retrying.")
                    low, high = self.backoff
                    delay = min(high, low * (2 ** min(self.attempt - 1, 10)))
                    await asyncio.sleep(delay * (0.75 + 0.5 * random.random()))
                if self.over is not None:
                    break
        finally:
            if self.status not in ("refused", "over", "closed"):
                self._set_status("closed", self.last_error)
            self.ready.set()
            self.finished.set()

    async def close(self) -> None:
        self._stopping = True
        if self._writer is not None:
            try:
                self._send(messages.Bye())
                self._writer.close()
            except Exception:
                pass
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    async def _connect_once(self) -> None:
        try:
            if self.welcome is None:
                # Before taking a seat, check the host's rules (a refusing client must not
                # hold a seat): the same check runs again on the welcome.
                info = await probe(self.host, self.port, self.connect_timeout, self.trust)
                if self.table is None and len(info.tables) == 1:
                    self.table = info.tables[0].table  # (named: a sharded server routes on it)
                for t in info.tables:
                    if self.table in (None, t.table):
                        self._check_rules(t.game, t.rules, t.options, t.fingerprint)
                        break
            reader, writer = await asyncio.wait_for(
                open_connection(self.host, self.port, self.trust, table=self.table, limit=MAX_HOST_FRAME + 64),
                self.connect_timeout)
        except FingerprintError as exc:
            raise Refused(str(exc)) from None
        except (OSError, asyncio.TimeoutError) as exc:
            raise ConnectFailed(connect_problem(self.host, self.port, exc, self.connect_timeout)) from exc
        self._writer = writer
        pinger = None
        try:
            self._send(messages.Hello(name=self.name, token=self.token, table=self.table, spectate=self.spectate))
            pinger = asyncio.get_running_loop().create_task(self._ping())
            while not self._stopping:
                obj = await read_frame(reader, MAX_HOST_FRAME, self.read_timeout)
                self.frames_in += 1
                msg = messages.parse_host(obj)
                self._handle(msg)
                if self.over is not None and not self.linger:
                    self._send(messages.Bye())
                    return
        finally:
            if pinger is not None:
                pinger.cancel()
            self._writer = None
            writer.close()

    async def _ping(self) -> None:
        n = 0
        while True:
            await asyncio.sleep(self.ping_interval)
            n += 1
            self._send(messages.Ping(n=n))

    def _send(self, msg: messages.Msg) -> None:
        if self._writer is None or self._writer.is_closing():
            raise ConnectionError("not connected")
        self._writer.write(messages.frame(msg))

    def _set_status(self, status: str, message: str = "") -> None:
        self.status = status
        if message:
            self.last_error = message
        self._emit("status")

    def _emit(self, what: str) -> None:
        for fn in list(self.listeners):
            try:
                fn(what)
            except Exception:  # a listener's bug must not drop the connection
                log.exception("listener failed on %s", what)

    # --- what the host says ----------------------------------------------------------------
    def _handle(self, msg: Any) -> None:
        if isinstance(msg, messages.Welcome):
            self._welcome(msg)
        elif isinstance(msg, messages.Update):
            self._update(msg)
        elif isinstance(msg, messages.Seats):
            self.seats = msg
            self.seats_at = asyncio.get_running_loop().time()
            self.names = [s.name for s in msg.seats]
            self._emit("seats")
        elif isinstance(msg, messages.Error):
            self.last_error = msg.message
            if msg.ack is not None and msg.ack >= self.pending:
                self.pending = 0
            if msg.fatal and msg.code in REFUSALS:
                raise Refused(msg.message)
            if msg.fatal and msg.code in CLOSINGS:
                raise TableClosed(msg.message or "The host closed the table.")
            if msg.fatal:  # cut off (a timeout, say): come back
                raise ConnectionResetError(msg.message)
            self._emit("error")
        elif isinstance(msg, messages.Over):
            self.over = msg
            self.verification = self.verify(msg)
            self.status = "over"
            self._emit("over")
        elif isinstance(msg, messages.Moved):
            self._moved(msg)
        elif isinstance(msg, messages.ChatLine):
            self.chat_lines.append(msg)
            del self.chat_lines[:-MAX_CHAT_LINES]
            self._emit("chat")
        elif isinstance(msg, messages.Info):
            pass

    def _welcome(self, msg: messages.Welcome) -> None:
        game = self._check_rules(msg.game, msg.rules, msg.options, msg.fingerprint)
        if self.welcome is not None and msg.commitment != self.welcome.commitment:
            raise Refused("The host came back with a different game (its commitment changed).")
        self.game = game
        self.welcome = msg
        self.seat = msg.seat
        self.table = msg.table
        if msg.token:
            self.token = msg.token
        self.names = list(msg.names)
        self.chat_lines = []  # (the host's kept lines follow)
        if self.seat is not None and self.seat < len(self.names):
            self.name = self.names[self.seat]  # (a reconnect asks for the name the seat has)
        self.attempt = 0
        self.lost_at = None
        self._set_status("connected")
        self.ready.set()
        self._emit("welcome")

    def _moved(self, msg: messages.Moved) -> None:
        """Every player accepted a rematch: forget this game and join the new table."""
        self.table, self.token = msg.table, msg.token
        self.spectate = msg.token is None
        self.welcome = self.view = self.over = self.verification = self.seats = None
        self.seat = None
        self.version = self.pending = self.sent = 0
        self.events, self.to_act, self.received = [], [], []
        self._set_status("connecting", "")
        self._emit("moved")
        raise Moving()

    def rematch(self, accept: bool = True) -> str | None:
        """After the game: ask for a rematch (or turn it down).  When every player has
        asked, the host moves everyone to a new table (a ``lingering`` client follows)."""
        if self.over is None:
            return "The game is not over yet."
        if self.seat is None:
            return "Spectators follow the players to a rematch."
        try:
            self._send(messages.Rematch(accept=accept))
        except ConnectionError:
            return "Not connected to the host."
        return None

    def _check_rules(self, slug: str, rules: str, options: dict[str, Any], fingerprint: str) -> Game:
        game = self.games.get(slug)
        if game is None:
            raise Refused(f"The host plays {slug!r}, a game this program does not know.")
        mine = messages.rules_fingerprint(slug, game.rules_version, options)
        if mine != fingerprint:
            raise Refused(f"The host's rules differ from this program's (host: {rules}, "
                          f"here: {game.rules_version}, or different options): not joining.")
        return game

    def _update(self, msg: messages.Update) -> None:
        assert self.game is not None
        try:
            view = self.game.view_from_data(msg.view.data)
        except (ValueError, TypeError) as exc:
            raise FrameError(f"the host sent a view this program cannot read ({exc})") from None
        self.view = view
        self.version = msg.seq
        self.to_act = list(msg.to_act)
        new = [e.event() for e in msg.events]
        if msg.resync:
            self.events = new
            self.pending = 0  # (after a reconnect, an unanswered action is lost)
        else:
            self.events.extend(new)
        if msg.ack >= self.pending:
            self.pending = 0
        h = view_hash(msg.view.data)
        if any(e.kind == "undo" for e in new) and h in self.received:
            del self.received[len(self.received) - self.received[::-1].index(h):]
        elif not self.received or self.received[-1] != h:
            self.received.append(h)
        self._emit("update")

    # --- the seats as the host tells them -------------------------------------------------
    def seat_label(self, seat: int) -> str:
        """How the host names ``seat`` now: "Blue (bot until Ana returns)" while a bot
        keeps a player's seat warm, else the player's name."""
        st = self.seats.seats[seat] if self.seats is not None and seat < len(self.seats.seats) else None
        if st is not None and st.label:
            return st.label
        return self.names[seat] if seat < len(self.names) else f"seat {seat}"

    def clock(self, seat: int) -> float | None:
        """Seconds left on ``seat``'s turn timer now (None: no clock runs for it).  The
        host keeps the time; this only counts down from what it last said."""
        st = self.seats.seats[seat] if self.seats is not None and seat < len(self.seats.seats) else None
        if st is None or st.clock is None:
            return None
        try:
            now = asyncio.get_running_loop().time()
        except RuntimeError:
            return st.clock
        return max(0.0, st.clock - (now - self.seats_at))

    # --- acting ------------------------------------------------------------------
    def legal(self) -> list[Any]:
        if self.game is None or self.view is None or self.seat is None or self.over is not None:
            return []
        if self.seat not in self.to_act or self.pending or self.status != "connected":
            return []
        if self.seats is not None and not self.seats.started:
            return []  # the table waits for players
        return self.game.legal(self.view)

    def submit(self, action: Any) -> str | None:
        """Send an action of this seat on its turn.  Whether the rules allow it is the
        host's to say (a refusal comes back as an ``error`` with the engine's reason):
        ``legal()`` lists one action of each shape a screen can mark (one tile of a kind,
        one turn of a shape), not every action the rules accept, so a move is not
        checked against that list here."""
        if self.seat is None:
            return "Spectators cannot act."
        if self.status != "connected" or self.game is None or self.view is None:
            return "Not connected to the host."
        if self.pending:
            return "Waiting for the host to answer the last move."
        if self.seat not in self.to_act or (self.seats is not None and not self.seats.started):
            return "It is not your turn."
        try:
            self._send(messages.Act(seq=self.version, action=self.game.codec.encode(action), n=self.sent + 1))
        except ConnectionError:
            return "Not connected to the host."
        self.sent += 1
        self.pending = self.sent
        return None

    def undo(self) -> str | None:
        if self.seat is None:
            return "Spectators cannot undo."
        try:
            self._send(messages.Undo(seq=self.version))
        except ConnectionError:
            return "Not connected to the host."
        return None

    def chat(self, text: str) -> str | None:
        """Say ``text`` to the table (a spectator: to the other spectators, where the host
        allows it).  None when sent (the host echoes it as a ``chat-line``, or refuses it
        with an ``error``: too fast, nothing printable), else why it was not sent."""
        text = text.strip()
        if not text:
            return "Type something to say."
        if len(text) > messages.MAX_CHAT:
            return f"A chat line holds at most {messages.MAX_CHAT} characters."
        try:
            self._send(messages.Chat(text=text))
        except ConnectionError:
            return "Not connected to the host."
        return None

    # --- the host's honesty -----------------------------------------------------------------
    def verify(self, over: messages.Over) -> Verification:
        """Check the revealed seed against the commitment, replay the whole game from it,
        and check that every view this client was shown occurs in that replay, in order."""
        game, welcome = self.game, self.welcome
        if game is None or welcome is None:
            return Verification(False, "No game to verify.")
        if messages.commitment(over.seed, over.salt) != welcome.commitment:
            return Verification(False, "The host's revealed seed does not match its commitment!")
        try:
            match = Match(game, welcome.options, [SeatInfo(n) for n in welcome.names], int(over.seed))
            seen = [view_hash(to_wire(match.view(self.seat)))]
            for move in over.moves:
                match.act(int(move["seat"]), game.codec.decode(move["action"]))
                h = view_hash(to_wire(match.view(self.seat)))
                if h != seen[-1]:
                    seen.append(h)
            state = match.state
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            return Verification(False, f"The revealed moves do not replay: {exc}")
        if digest(state) != over.digest:
            return Verification(False, "The replayed game ends in a different state than the host says.")
        it = iter(seen)
        if not all(any(h == s for s in it) for h in self.received):
            return Verification(False, "Some view the host showed does not follow from the committed seed!")
        return Verification(True, f"Verified: all {len(self.received)} views follow from the committed seed.")


class RemoteSeat:
    """A ``tui.seat_links.SeatLink`` over the network (duck-typed: netplay does not import tui)."""

    read_only = False

    def __init__(self, client: Client):
        self.client = client

    @property
    def game(self) -> Game:  # type: ignore[override]
        """The table's game (known from the host's welcome: a screen is made only after it)."""
        if self.client.game is None:
            raise RuntimeError("not connected yet: the host has not said which game it plays")
        return self.client.game

    @property
    def seat(self) -> int | None:
        return self.client.seat

    @property
    def names(self) -> list[str]:
        return self.client.names

    @property
    def practice(self) -> bool:
        return bool(self.client.welcome and self.client.welcome.practice)

    def view(self) -> View | None:
        """This seat's view, None until the host's first update."""
        return self.client.view

    def legal(self) -> list[Any]:
        return self.client.legal()

    def my_turn(self) -> bool:
        return bool(self.legal())

    def log(self) -> list[LogLine]:
        game, names, seat = self.client.game, self.names, self.seat
        if game is None:
            return []
        return [game.describe(e, seat, names) for e in self.client.events]

    def submit(self, action: Any) -> str | None:
        return self.client.submit(action)

    def undo(self) -> str | None:
        return self.client.undo()

    def seat_label(self, seat: int) -> str:
        return self.client.seat_label(seat)

    def clock(self, seat: int) -> float | None:
        """Seconds left on ``seat``'s turn timer (None: none runs for it)."""
        return self.client.clock(seat)

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot the host chose for ``seat`` (None: a player's seat)."""
        seats = self.client.seats
        status = seats.seats[seat] if seats is not None and seat < len(seats.seats) else None
        return (status.level or DEFAULT_BOT_LEVEL) if status is not None and status.kind == "bot" else None

    def chat(self, text: str) -> str | None:
        """Say ``text`` to the table (``Client.chat``): None when sent, else why not."""
        return self.client.chat(text)

    def chat_log(self) -> list[str]:
        """The table's chat as lines to show: "Ana: hello", "(spectator) Zed: hi", and the
        table's own notices as they are ("A bot plays Blue until Ana returns.")."""
        return [chat_text(line) for line in self.client.chat_lines]

    def final_reveal(self) -> list[str]:
        """After the host's game-over frame: the game's ``reveal()`` of the final state,
        rebuilt from the revealed seed and moves ([] before the end or if they do not replay)."""
        c = self.client
        over, welcome, game = c.over, c.welcome, c.game
        if over is None or welcome is None or game is None:
            return []
        try:
            match = Match(game, welcome.options, [SeatInfo(n) for n in welcome.names], int(over.seed))
            for move in over.moves:
                match.act(int(move["seat"]), game.codec.decode(move["action"]))
        except (IllegalAction, ValueError, KeyError, TypeError):
            return []
        return list(game.reveal(match.state, self.names))

    def connection_line(self) -> str:
        c = self.client
        if c.status == "connected":
            return f"Connected to {c.host}:{c.port}"
        if c.status == "reconnecting":
            return f"Reconnecting to {c.host}:{c.port} (try {c.attempt})..."
        if c.status == "over":
            return "Game over."
        return DISCONNECTED.get(c.status, c.status.capitalize())

    def waiting_for(self) -> str:
        c = self.client
        if c.status == "reconnecting":
            return f"the host: reconnecting (try {c.attempt})"
        if c.status in DISCONNECTED:
            return f"the host ({DISCONNECTED[c.status].lower()})"
        if c.over is not None:
            return ""
        if c.pending:
            return "the host to answer"
        seats = c.seats.seats if c.seats else []
        parts = []
        for s in c.to_act:
            if s == c.seat:
                continue
            st = seats[s] if s < len(seats) else None
            name = self.names[s] if s < len(self.names) else f"seat {s}"
            clock = c.clock(s)
            left = "" if clock is None else f", {int(clock) // 60}:{int(clock) % 60:02d} left"
            if st is None:
                parts.append(name)
            elif st.standin:
                parts.append(f"{st.label or name} (thinking)")
            elif st.kind == "bot":
                parts.append(f"{name} ({st.level or DEFAULT_BOT_LEVEL} bot)")
            elif not st.connected:
                parts.append(f"{name} (disconnected)")
            else:
                parts.append(f"{name} (choosing{left})")
        if c.seats is not None and not c.seats.started:
            free = sum(1 for s in c.seats.seats if not s.taken)
            return f"{counted(free, 'more player')} to join"
        return ", ".join(parts)


async def probe(host: str, port: int, timeout: float = 2.0, trust: Trust = Trust()) -> messages.Info:
    """Ask a host what it offers (a 'probe' hello): the lobby confirms tables this way."""
    async def go() -> messages.Info:
        reader, writer = await open_connection(host, port, trust, limit=MAX_HOST_FRAME + 64)
        try:
            writer.write(messages.frame(messages.Hello(name="lobby", probe=True)))
            msg = messages.parse_host(await read_frame(reader, MAX_HOST_FRAME, timeout))
            if isinstance(msg, messages.Error):
                raise Refused(msg.message)
            if not isinstance(msg, messages.Info):
                raise FrameError(f"expected info, got {msg.t}")
            return msg
        finally:
            writer.close()

    return await asyncio.wait_for(go(), timeout)


#: Seconds a headless bot waits with nothing new before it sends its choice again.
BOT_NUDGE = 3.0


async def run_bot(client: Client, seed: int | None = None, delay: float = 0.0,
                  level: str = "normal", thinker: Thinker | None = None) -> Client:
    """Play a seat with the game's bot until the game ends (a headless client).  A slow
    (hard) bot decides in a worker process (``netplay.thinking``): the client keeps
    answering its host, and a screen over it keeps answering keys."""
    bots: dict[int, Any] = {}
    last: list[Any] = [None, None]  # the view the bot last chose on, and its choice
    thinker = thinker or Thinker(1)
    thought: list[Any] = [None, None]  # the view a slow bot is deciding on, and its task

    def send(action: Any) -> None:
        if delay:
            asyncio.get_running_loop().call_later(delay, client.submit, action)
        else:
            client.submit(action)

    async def think(seat: int, bot: Any, view: Any, legal: list[Any], seed_used: int) -> None:
        action, bots[seat] = await thinker.decide(
            bot, view, legal, lambda: client.game.make_bot(seat, seed_used, "normal"))  # type: ignore[union-attr]
        thought[0] = thought[1] = None
        last[0], last[1] = view, action
        if client.view == view:
            send(action)

    def on_change(what: str) -> None:
        # Act on views (every stale refusal and every reconnect is followed by a fresh
        # view) and when the table starts; on a view already decided (the answer was lost with the
        # connection) send the same choice again: the bot's own RNG advances once per
        # view, so a game survives a host crash with the same moves.
        if what not in ("update", "seats"):  # ("seats": the table may just have started)
            return
        if client.seat is None or client.game is None or client.view is None:
            return
        legal = client.legal()
        if not legal:
            return
        s = seed if seed is not None else int.from_bytes(
            hashlib.sha256((client.token or "").encode()).digest()[:4], "big")
        bot = bots.get(client.seat)
        if bot is None:
            bot = bots[client.seat] = client.game.make_bot(client.seat, s, level)
        if last[0] == client.view:
            action = last[1]
        elif bot.slow:
            if thought[0] != client.view:  # (not already deciding on this view)
                if thought[1] is not None:
                    thought[1].cancel()  # (a view gone by: its decision is dropped)
                thought[0] = client.view
                thought[1] = asyncio.ensure_future(think(client.seat, bot, client.view, legal, s))
            return
        else:
            action = bot.choose(client.view, legal)
            last[0], last[1] = client.view, action
        send(action)

    client.listeners.append(on_change)
    if not client.has_started:
        client.start()
    try:
        while not client.finished.is_set():
            # A bot never waits forever on a lost frame: when nothing has come for a while and
            # it may still act, it sends its choice for the view it holds again (a stale one is
            # answered with the current view, a repeated one is refused and changes nothing).
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(client.finished.wait(), BOT_NUDGE)
            if not client.finished.is_set():
                on_change("update")
    finally:
        if thought[1] is not None:
            thought[1].cancel()
        thinker.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await thinker.wait_closed()
    return client
