"""A table at the host: its Match, seats and tokens, spectators, bots and log.

``HostTable`` owns the only full state of one game and sends each seat its own view
(``messages.ViewData``, made only from a ``View``: nothing here encodes a state; the
frames are its ``Updates``).  The sockets, limits and sessions are in ``host.py`` and
``conn.py``; a connection is seen here only as a ``Peer`` (``netplay.peer``).
"""


from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine.core import DEFAULT_BOT_LEVEL, Game, IllegalAction, SeatInfo, bot_label, bot_seat
from engine.match import Delivery, Match
from engine.record import Move, RecordError
from engine.registry import get_game

from . import messages
from .chat import TableChat
from .limits import Limits
from .log import HostLog, read_log
from .peer import Peer
from .text import MAX_NAME, clean_name, clean_text
from .thinking import Thinker
from .updates import Updates

log = logging.getLogger("atlantis.host")

SEAT_KINDS = ("open", "bot", "local")
RECORD_KIND = {"open": "remote", "bot": "bot", "local": "human"}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Slot:
    index: int
    kind: str
    name: str
    level: str = ""  # a bot seat's level ("": the default level)
    token_hash: str | None = None
    conn: Peer | None = None
    bot: Any = None
    version: int = 0
    last_view: Any = None
    player: str = ""  # the name the remote player gave
    last_sent: int = 0
    # Staleness: an action is judged on the view it was chosen on (its ``seq``).  It is
    # stale if that view is older than this seat's own last accepted move (a double
    # submit) or than the moment the seat last came to act (a view from before its
    # turn).  Views that changed only because *other* seats acted meanwhile (secret
    # simultaneous choices) do not make it stale: the engine still checks it.
    window: int = 0
    own: int = 0
    acked: int = 0
    acting: bool = False
    joined: bool = False  # a connection has held this seat (a table server gives up seats never joined)
    # A player's seat kept warm: after ``HostTable.bot_after`` seconds away, ``deputy`` (a
    # bot of the table's level, playing from this seat's view only) plays it until they
    # are back (``standin``); when the seat's turn timer runs out it decides the rest of
    # that turn (``hurried``).
    deputy: Any = None
    standin: bool = False
    away_timer: Any = None
    clock: Any = None        # the turn timer's handle while this seat is to act
    hurried: bool = False    # its clock ran out: the bot decides until the seat's turn is over
    deadline: float = 0.0    # ... and the loop time it runs out at

    @property
    def taken(self) -> bool:
        return self.kind != "open" or self.token_hash is not None

    def label(self) -> str:
        """The seat as every screen names it: "Blue (bot until Ana returns)" while a
        bot keeps a player's seat warm, else the player's name (or the seat's)."""
        if self.standin:
            return f"{self.name} (bot until {self.player or 'its player'} returns)"
        if self.kind == "bot":
            return bot_label(self.name, self.level)
        return self.player or self.name


@dataclass
class Audience:
    """The version of the public view that every spectator of a table is sent."""
    version: int = 0
    last_view: Any = None
    last_sent: int = 0


class HostTable:
    """One game at the host."""

    def __init__(self, game: Game, match: Match, kinds: list[str], *, name: str, table_id: str,
                 salt: str, bot_seed: int | None = None):
        self.game = game
        self.match = match
        self.name = name
        self.id = table_id
        self.salt = salt
        self.commitment = messages.commitment(match.seed, salt)
        self.fingerprint = messages.rules_fingerprint(game.slug, game.rules_version, match.record.options)
        self.slots = [Slot(i, k, match.seats[i].name, match.seats[i].level) for i, k in enumerate(kinds)]
        seed = self.bot_seed = match.seed if bot_seed is None else bot_seed
        for slot in self.slots:
            if slot.kind == "bot":
                slot.bot = game.make_bot(slot.index, seed, slot.level or DEFAULT_BOT_LEVEL)
        self.bot_level = deputy_level(match.seats)
        self.spectators: list[Peer] = []
        self.public = Audience()  # the spectators' view version (they share one public view)
        self.listeners: list[Callable[[], None]] = []   # the host's own screen
        self.seat_listeners: list[Callable[[], None]] = []  # discovery (open seats)
        self.over_listeners: list[Callable[[], None]] = []
        self.log: HostLog | None = None
        self.port = 0
        self.over = match.result() is not None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.bot_delay = 0.0
        self._bot_pending: set[int] = set()
        #: The seats whose bot is thinking off the loop (a slow bot), and since when (loop time).
        self.thinking: dict[int, float] = {}
        self._thoughts: dict[int, asyncio.Task[None]] = {}
        self.thinker: Thinker | None = None  # (the Host's: where slow bots decide)
        self._bots = any(s.kind == "bot" for s in self.slots)
        self.bot_moves: set[int] = set()  # the moves (numbered from 1) a deputy bot made for a player
        self.chat = TableChat()
        self.limits = Limits()  # (the Host sets its own)
        self.rematch_wanted: set[int] = set()  # after the game: the seats that asked for another
        self.on_rematch: Callable[["HostTable"], None] | None = None  # (the Host's: every human accepted)
        self.last_error: str = ""
        match.on_move = self._logged
        self.updates = Updates(match, self.slots, self.public, self.spectators)  # the frames out

    # --- making tables ------------------------------------------------------------
    @classmethod
    def create(cls, game: Game, options: Any, kinds: list[str], seed: int, *, name: str = "",
               names: list[str] | None = None, log_path: Path | None = None,
               levels: list[str] | None = None) -> "HostTable":
        """A new table; ``levels``: each seat's bot level ("" or missing: the default level)."""
        if any(k not in SEAT_KINDS for k in kinds):
            raise ValueError(f"seat kinds are {', '.join(SEAT_KINDS)}")
        base = list(names or []) + list(game.seat_names[len(names or []):])
        levels = list(levels or []) + [""] * (len(kinds) - len(levels or []))
        seats = [bot_seat(base[i], levels[i]) if k == "bot" else SeatInfo(base[i], RECORD_KIND[k])
                 for i, k in enumerate(kinds)]
        match = Match(game, options, seats, seed)
        table = cls(game, match, list(kinds), name=name or f"{game.title} table",
                    table_id=secrets.token_hex(4), salt=secrets.token_hex(16))
        if log_path is not None:
            table.log = HostLog(log_path)
            table.chat.keep_log(log_path)
        return table

    # --- keeping a table going (README, "A table that keeps going") -------------------
    bot_after: float = 60.0   # seconds a player may be away before a bot keeps their seat warm (0: never)
    bot_level: str = DEFAULT_BOT_LEVEL  # the level of the bots that keep seats warm or beat the clock (``deputy_level``)
    turn_time: float = 0.0    # seconds each seat has for each decision (0: no turn timer)
    spectator_chat: bool = False  # spectators have a chat channel of their own
    home: str | None = None   # the table server that serves it (``TableServer.home``; None: a LAN host's)

    def deputy(self, slot: Slot) -> Any:
        """The bot that plays ``slot`` for its player (made once, from a seed of the
        table's own: a resumed table's deputy plays as it would have)."""
        if slot.deputy is None:
            seed = int.from_bytes(hashlib.sha256(f"deputy:{self.salt}:{slot.index}".encode()).digest()[:8], "big")
            slot.deputy = self.game.make_bot(slot.index, seed, self.bot_level)
        return slot.deputy

    def player_away(self, slot: Slot) -> None:
        """``slot``'s player is not connected: after ``bot_after`` seconds a bot plays for them."""
        if (slot.kind != "open" or slot.token_hash is None or slot.conn is not None or slot.standin
                or self.over or not self.started or self.bot_after <= 0 or self.loop is None):
            return
        if slot.away_timer is None:
            slot.away_timer = self.loop.call_later(self.bot_after, self._keep_warm, slot)

    def _keep_warm(self, slot: Slot) -> None:
        slot.away_timer = None
        if slot.conn is not None or self.over or slot.token_hash is None:
            return
        slot.standin = True
        self._bots = True
        log.info("table %s: a bot plays %s's seat %d until they return", self.id, slot.player or slot.name,
                 slot.index)
        self._notice(f"A bot plays {slot.name} until {slot.player or 'its player'} returns.")
        self.seats_changed()

    def player_back(self, slot: Slot) -> None:
        """``slot``'s player is connected again: the seat is theirs at its next decision."""
        if slot.away_timer is not None:
            slot.away_timer.cancel()
            slot.away_timer = None
        if slot.standin:
            slot.standin = False
            log.info("table %s: %s takes seat %d back from the bot", self.id, slot.player or slot.name, slot.index)
            self._notice(f"{slot.player or slot.name} is back: {slot.name} is theirs again.")

    def _run_clocks(self) -> None:
        """Start the turn timer of each seat that has just come to act (each its own:
        simultaneous secret choices have a clock per seat), stop it for each that no
        longer acts; tell everyone when a clock started or stopped."""
        if self.turn_time <= 0 or self.loop is None:
            return
        changed = False
        for slot in self.slots:
            if not slot.acting:
                slot.hurried = False
            runs = slot.acting and not self.over and slot.kind != "bot" and not slot.standin and not slot.hurried
            if runs and slot.clock is None:
                slot.deadline = self.loop.time() + self.turn_time
                slot.clock = self.loop.call_at(slot.deadline, self._out_of_time, slot)
                changed = True
            elif not runs and slot.clock is not None:
                slot.clock.cancel()
                slot.clock = None
                changed = True
        if changed:
            self.seats_changed()

    def _out_of_time(self, slot: Slot) -> None:
        """The seat's clock ran out: the bot makes its decision (until its turn is over;
        the player keeps the seat and has the clock again next turn)."""
        slot.clock = None
        if self.over or slot.index not in self.match.to_act():
            return
        log.info("table %s: %s's clock ran out: the bot decides for seat %d", self.id, slot.player or slot.name,
                 slot.index)
        slot.hurried = True
        self._bots = True
        self._notice(f"{slot.player or slot.name}'s time ran out: a bot decides for {slot.name} this turn.")
        self.seats_changed()

    def clock_left(self, slot: Slot) -> float | None:
        """Seconds left on ``slot``'s turn timer (None: it has no clock running)."""
        if slot.clock is None or self.loop is None:
            return None
        return max(0.0, round(slot.deadline - self.loop.time(), 1))

    def _deputy_move(self, seat: int, action: Any) -> None:
        """A bot's move for a player's seat (chosen from that seat's view only); kept in the
        log as the bot's."""
        self._by_deputy = True
        try:
            error = self.submit(seat, action)
        finally:
            self._by_deputy = False
        if error:
            log.error("the bot of seat %d chose a refused action: %s", seat, error)
            return
        n = len(self.match.record.moves)
        self.bot_moves.add(n)
        log.info("table %s: move %d by the bot for %s (seat %d): %s", self.id, n,
                 self.slots[seat].player or self.slots[seat].name, seat, self.game.describe_action(action))

    _by_deputy = False

    @classmethod
    def resume(cls, path: Path) -> "HostTable":
        """Rebuild a table from its log (after a crash): same moves, same digest.

        The whole file is read and checked first: a host log whose header and moves
        are whole and whose moves replay with their digests.  Only then is a move the
        crash cut short dropped from its end; anything else wrong raises
        ``RecordError`` (one sentence) and leaves the file byte for byte as it was."""
        found = read_log(path)
        record, meta = found.record, found.meta
        try:
            game = get_game(record.game)
        except KeyError:
            raise RecordError(f"it is a log of the game {record.game[:40]!r}, which this program "
                              "does not know.") from None
        try:
            match = Match.from_record(record, game)
        except RecordError as exc:
            raise RecordError(f"its moves do not replay: {str(exc).rstrip('.')}.") from None
        except Exception as exc:  # an engine bug on a strange move: still one sentence
            raise RecordError(f"its moves do not replay: replaying them raised {type(exc).__name__}.") from None
        kinds, hashes = meta.get("kinds"), meta.get("tokens")
        if not (isinstance(kinds, list) and isinstance(hashes, list)
                and len(kinds) == len(hashes) == len(match.seats)
                and all(k in SEAT_KINDS and RECORD_KIND[k] == s.kind for k, s in zip(kinds, match.seats))
                and all(h is None or (isinstance(h, str) and len(h) == 64) for h in hashes)):
            raise RecordError("its netplay header does not match its seats (seat kinds or token hashes).")
        where = {"port": meta.get("port", 0), "bind": meta.get("bind"), "advertise": meta.get("advertise"),
                 "interfaces": meta.get("interfaces")}
        if not (all(isinstance(meta.get(k), str) for k in ("table", "name", "salt"))
                and isinstance(where["port"], int) and 0 <= where["port"] <= 65535
                and isinstance(where["bind"], (str, type(None)))
                and isinstance(where["advertise"], (bool, type(None)))
                and (where["interfaces"] is None or (isinstance(where["interfaces"], list)
                                                     and all(isinstance(i, str) for i in where["interfaces"])))):
            raise RecordError("its netplay header is malformed (table, name, salt or listening address).")
        players = meta.get("players", [""] * len(kinds))  # (a log written before names were kept: none)
        if not (isinstance(players, list) and len(players) == len(kinds)
                and all(isinstance(p, str) and clean_text(p, MAX_NAME) == p for p in players)
                and all(not p or k == "open" for p, k in zip(players, kinds))):
            raise RecordError("its netplay header is malformed (the players' names).")
        turn_time = meta.get("turn_time", 0.0)  # (a log written before turn timers: none)
        if not (isinstance(turn_time, (int, float)) and not isinstance(turn_time, bool) and 0 <= turn_time <= 7 * 86400):
            raise RecordError("its netplay header is malformed (the turn time).")
        table = cls(game, match, list(kinds), name=meta["name"], table_id=meta["table"], salt=meta["salt"])
        table.turn_time = float(turn_time)
        home = meta.get("server")
        table.home = home if isinstance(home, str) else None
        table.port, table.bind, table.advertise = where["port"], where["bind"], where["advertise"]
        table.interfaces = where["interfaces"]
        table.logged = table.where()
        for slot, h, player in zip(table.slots, hashes, players):
            slot.token_hash = h
            slot.player = player if h is not None else ""
        table.logged_players = [s.player for s in table.slots]
        table.bot_moves = set(found.bot_moves)
        table.log = HostLog(Path(path))
        table.log.adopt(found)  # (the one write: a partial last move is cut off)
        table.chat.keep_log(Path(path))
        return table

    # Where the host listens (the port is an instance field): kept in the log's header,
    # so that ``--resume`` listens and announces itself as before unless told otherwise.
    bind: str | None = None                # None: not known (the command's default)
    advertise: bool | None = None          # announced by zeroconf (None: not known)
    interfaces: list[str] | None = None    # ... on these interfaces only (None: all)
    logged: dict[str, Any] | None = None   # what the log's header says about it

    def where(self) -> dict[str, Any]:
        return {"port": self.port, "bind": self.bind, "advertise": self.advertise,
                "interfaces": self.interfaces}

    def header(self) -> dict[str, Any]:
        head = self.match.record.header_map()
        head["netplay"] = {
            "table": self.id, "name": self.name, "kinds": [s.kind for s in self.slots],
            "salt": self.salt, "tokens": [s.token_hash for s in self.slots],
            "players": [s.player for s in self.slots], "turn_time": self.turn_time, **self.where(),
        }
        if self.home is not None:
            head["netplay"]["server"] = self.home
        return head

    def write_log(self) -> None:
        if self.log is not None:
            self.log.write(self.header(), self.match.record.moves, self.bot_moves)
            self.logged_players = [s.player for s in self.slots]

    logged_players: list[str] | None = None  # the remote players' names the log's header keeps

    def _logged(self, move: Move) -> None:
        if self.log is not None:
            self.log.append(move, by_bot=self._by_deputy)

    # --- state of the table --------------------------------------------------------
    @property
    def started(self) -> bool:
        """Play begins once every seat is taken, and then stays begun."""
        if not self._started and (all(s.taken for s in self.slots) or self.match.record.moves):
            self._started = True
        return self._started

    _started = False

    def open_seats(self) -> int:
        return sum(1 for s in self.slots if not s.taken)

    def names(self) -> list[str]:
        return [s.player or s.name for s in self.slots]

    def info(self) -> messages.TableInfo:
        return messages.TableInfo(table=self.id, name=self.name, game=self.game.slug,
                           rules=self.game.rules_version, fingerprint=self.fingerprint,
                           players=len(self.slots), open=self.open_seats(), started=self.started,
                           over=self.over, options=self.match.record.options, turn_time=self.turn_time)

    def seats_message(self) -> messages.Seats:
        return messages.Seats(seats=[messages.SeatStatus(name=n, kind=s.kind, level=s.level, taken=s.taken,
                                           connected=s.kind != "open" or s.conn is not None,
                                           standin=s.standin, label=s.label(), clock=self.clock_left(s))
                              for s, n in zip(self.slots, self.names())],
                       started=self.started, spectators=len(self.spectators), turn_time=self.turn_time,
                       rematch=sorted(self.rematch_wanted))

    def connections(self) -> list[Peer]:
        return [s.conn for s in self.slots if s.conn is not None] + list(self.spectators)

    # --- seats ------------------------------------------------------------------------
    def claim(self, name: str) -> tuple[Slot, str] | None:
        """Give the first free open seat to a newcomer: the slot and its new token."""
        for slot in self.slots:
            if slot.kind == "open" and not slot.taken:
                token = secrets.token_urlsafe(24)
                slot.token_hash = token_hash(token)
                slot.joined = False
                slot.player = self.player_name(slot, name)
                self.write_log()  # the header keeps the token's hash (for --resume)
                return slot, token
        return None

    def player_name(self, slot: Slot, sent: str) -> str:
        """The name a remote player gets at ``slot`` from the name it sent: printable
        only, trimmed, 1-24 characters (``netplay.text.clean_name``; nothing printable
        left, as in a token's blank name: the name the seat has, its player's or its
        own), unique among the names in use at the table (the
        other taken seats: players, bots and local seats; an open seat nobody holds
        yet does not keep its colour from a newcomer who asks for it)."""
        others = [n for s, n in zip(self.slots, self.names()) if s is not slot and s.taken]
        return clean_name(sent, slot.player or slot.name, others)  # (a blank name keeps the seat's)

    def slot_for_token(self, token: str) -> Slot | None:
        h = token_hash(token)
        for slot in self.slots:
            if slot.token_hash is not None and secrets.compare_digest(slot.token_hash, h):
                return slot
        return None

    def attach(self, conn: Peer, slot: Slot | None, token: str | None) -> None:
        """``conn`` takes ``slot`` (None: it watches) and is sent all it needs to play."""
        if slot is None:
            conn.spectator = True
            self.spectators.append(conn)
        else:
            if slot.conn is not None and slot.conn is not conn:
                slot.conn.error("replaced", "Your seat was taken over by a new connection with your token.",
                                fatal=True)
            slot.conn = conn
            slot.joined = True
            conn.seat = slot.index
            self.player_back(slot)
            if self.log is not None and self.logged_players != [s.player for s in self.slots]:
                self.write_log()  # (a player back with a new name: --resume gives it back)
        conn.send(messages.Welcome(table=self.id, table_name=self.name, game=self.game.slug,
                            rules=self.game.rules_version, options=self.match.record.options,
                            fingerprint=self.fingerprint, seat=conn.seat, token=token,
                            names=self.names(), commitment=self.commitment,
                            practice=self.match.practice))
        self.seats_changed(conn)  # (before the view: the client knows whether play has begun)
        self.resync(conn)
        self._sync_windows()
        for line in self.chat.heard_by(conn.seat):
            conn.send(line)
        if self.over:
            conn.send(self.over_message())

    def detach(self, conn: Peer) -> None:
        if conn.spectator:
            if conn in self.spectators:
                self.spectators.remove(conn)
            self.chat.forget(id(conn))
        elif conn.seat is not None and self.slots[conn.seat].conn is conn:
            # The seat stays its player's, before the start as during play: it shows as
            # taken but disconnected, and their client comes back with its token.  A
            # claimed seat counts as taken, so the game begins once every seat is claimed.
            # A player who says goodbye before the start gives the seat up for someone else.
            slot = self.slots[conn.seat]
            slot.conn = None
            if conn.said_bye and not self.started:
                slot.token_hash = None
                slot.player = ""
                self.write_log()
            self.player_away(slot)
        self.seats_changed()

    def seats_changed(self, joined: Peer | None = None) -> None:
        """The seat list changed (a join, a leave, a spectator more or fewer).

        Coalesced: every connection gets the new ``seats`` message once, when this turn
        of the event loop is done, however many changes the turn brought, and at most
        once per ``seats_interval`` (``Limits.seats_interval``) while a crowd keeps
        arriving: n joins cost far fewer than n encodings and n x connections sends.
        ``joined``, a connection that has just attached, gets it at once: it must know
        whether play has begun before its first view arrives."""
        self._seats_gen += 1
        for slot in self.slots:  # (the table may just have started with a player away)
            self.player_away(slot)
        if self.turn_time > 0 and self.started:  # (... or with its first clock to start)
            self._sync_windows()
        if joined is not None and not joined.closed:
            joined.seats_gen = self._seats_gen
            joined.send(self.seats_message())
        self.kick_bots()  # (the table may just have started)
        if self._seats_flush is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no event loop: a table driven directly)
            self._flush_seats()
            return
        wait = self._seats_sent + self.seats_interval - loop.time()
        if wait > 0:  # (a crowd arriving: at most one seat list per interval)
            self._seats_flush = loop.call_later(wait, self._flush_seats)
        else:
            self._seats_flush = loop.call_soon(self._flush_seats)

    _seats_gen = 0
    _seats_flush: asyncio.TimerHandle | asyncio.Handle | None = None
    _seats_sent = float("-inf")  # loop time of the last broadcast
    seats_interval = 0.0         # (the Host sets it from its Limits)

    def _flush_seats(self) -> None:
        self._seats_flush = None
        try:
            self._seats_sent = asyncio.get_running_loop().time()
        except RuntimeError:
            pass
        gen, frame = self._seats_gen, None
        for c in self.connections():
            if c.seats_gen != gen:
                if frame is None:
                    frame = messages.frame(self.seats_message())
                c.seats_gen = gen
                c.send_bytes(frame)
        for fn in list(self.seat_listeners) + list(self.listeners):
            fn()

    # --- views out (the frames themselves: ``updates.Updates``) ----------------------
    def publish(self, deliveries: dict[int | None, Delivery]) -> None:
        # Every frame is made first and then they are sent back to back: the last seat's
        # view goes out one send after the first, not after the others' views are built
        # (a woken client may take this core between two sends, or sleep between them).
        updates = self.updates
        for conn, frame in updates.move_frames(deliveries):
            conn.send_bytes(frame)
        updates.sent()  # (what the state before shared is freed once every frame is out)
        self._sync_windows()
        for fn in list(self.listeners):
            fn()
        if self.match.result() is not None:
            self.finish()
        else:
            self.kick_bots()

    def _sync_windows(self) -> None:
        to_act = self.updates.acting() if self.started else ()
        for slot in self.slots:
            now = slot.index in to_act
            if now and not slot.acting:
                slot.window = slot.version
            slot.acting = now
        self._run_clocks()

    def over_message(self) -> messages.Over:
        result = self.match.result()
        return messages.Over(scores=list(result.scores), winners=list(result.winners), reason=result.reason,
                      seed=str(self.match.seed), salt=self.salt,
                      moves=[{"seat": m.seat, "action": m.action} for m in self.match.record.moves],
                      digest=self.match.digest())

    def finish(self) -> None:
        if self.over and self._over_sent:
            return
        self.over = True
        self._over_sent = True
        for slot in self.slots:
            for timer in (slot.clock, slot.away_timer):
                if timer is not None:
                    timer.cancel()
            slot.clock = slot.away_timer = None
        msg = messages.frame(self.over_message())
        for c in self.connections():
            c.send_bytes(msg)
        for fn in list(self.over_listeners) + list(self.seat_listeners):
            fn()

    _over_sent = False

    # --- acting -----------------------------------------------------------------------
    def submit(self, seat: int, action: Any) -> str | None:
        """Apply an action of ``seat`` (a local human, a bot, or a client's, once checked).
        Returns None when accepted, else the reason it was refused."""
        if self.over:
            return "The game is over."
        if not self.started:
            return "The table is waiting for players to join."
        try:
            deliveries = self.match.submit(seat, action)
        except IllegalAction as exc:
            return exc.reason
        except Exception as exc:  # an engine bug on a strange action: refuse, keep serving
            log.exception("action %r of seat %s raised", action, seat)
            return f"That action cannot be played ({type(exc).__name__})."
        self.publish(deliveries)
        self.slots[seat].own = self.slots[seat].version
        return None

    def undo(self, seat: int) -> str | None:
        if self.over:
            return "The game is over."
        try:
            deliveries = self.match.undo(seat)
        except IllegalAction as exc:
            return exc.reason
        if self.log is not None:
            self.log.pop()
        self.bot_moves.discard(len(self.match.record.moves) + 1)
        self.publish(deliveries)
        self.slots[seat].own = self.slots[seat].version
        return None

    def kick_bots(self) -> None:
        if self.over or not self.started or self.loop is None or not self._bots:
            return
        for seat in sorted(self.match.to_act()):
            slot = self.slots[seat]
            if (slot.kind == "bot" or slot.standin or slot.hurried) and seat not in self._bot_pending:
                self._bot_pending.add(seat)
                self.loop.call_later(self.bot_delay, self._bot_step, seat)

    def _bot_of(self, seat: int) -> Any:
        """The bot that decides for ``seat`` now: its own, a deputy keeping a player's seat
        warm, or None (a player back in time plays this decision themselves)."""
        slot = self.slots[seat]
        if slot.kind == "bot":
            return slot.bot
        return self.deputy(slot) if slot.standin or slot.hurried else None

    def _bot_step(self, seat: int) -> None:
        self._bot_pending.discard(seat)
        if self.over or seat not in self.match.to_act():
            return
        bot = self._bot_of(seat)
        if bot is None:
            return
        view = self.match.view(seat)
        legal = self.game.legal(view)
        if bot.slow and self.thinker is not None and self.loop is not None:
            self._bot_pending.add(seat)  # (no second decision of this seat while it thinks)
            self.thinking[seat] = self.loop.time()
            self._thoughts[seat] = self.loop.create_task(self._think(seat, bot, view, legal))
            self._tell_screen()
            return
        self._bot_move(seat, bot.choose(view, legal))

    async def _think(self, seat: int, bot: Any, view: Any, legal: list[Any]) -> None:
        """A slow bot decides off the loop (``netplay.thinking``); its move is played if the
        seat still has to decide on the same view, and the bot that decided is kept."""
        assert self.thinker is not None
        try:
            action, after = await self.thinker.decide(
                bot, view, legal, lambda: self.game.make_bot(seat, self.bot_seed, "normal"))
        finally:
            self._bot_pending.discard(seat)
            self.thinking.pop(seat, None)
            self._thoughts.pop(seat, None)
        if (not self.over and seat in self.match.to_act() and self._bot_of(seat) is bot
                and self.match.view(seat) == view):
            slot = self.slots[seat]
            if slot.kind == "bot":
                slot.bot = after
            else:
                slot.deputy = after
            self._bot_move(seat, action)
        else:
            self._tell_screen()  # (its thinking is over; the table moved on meanwhile)
        self.kick_bots()

    def _bot_move(self, seat: int, action: Any) -> None:
        if self.slots[seat].kind != "bot":
            self._deputy_move(seat, action)
            return
        error = self.submit(seat, action)
        if error:
            log.error("bot of seat %d chose a refused action: %s", seat, error)

    def _tell_screen(self) -> None:
        for fn in list(self.listeners):
            fn()

    def stop_thinking(self) -> None:
        """The table closes: the decisions under way are dropped (their workers end)."""
        for task in list(self._thoughts.values()):
            task.cancel()

    # --- what clients send -----------------------------------------------------------------
    def resync(self, conn: Peer) -> None:
        """Send ``conn`` its full view and whole event log (``Updates.resync``)."""
        self.updates.resync(conn)

    def client_act(self, conn: Peer, msg: messages.Act) -> None:
        self.client_action(conn, msg.seq, msg.action, msg.seat, msg.n)

    def client_action(self, conn: Peer, seq: int, sent: dict[str, Any], seat: int | None, n: int) -> None:
        """An ``act`` of ``conn`` (its fields: ``messages.act_fields`` or an ``Act``)."""
        if conn.seat is None:
            conn.error("spectator", "Spectators cannot act.", ack=n)
            return
        if seat is not None and seat != conn.seat:
            conn.error("not-your-seat", f"You hold seat {conn.seat}, not seat {seat}.", ack=n)
            return
        slot = self.slots[conn.seat]
        if n > slot.acked:
            slot.acked = n
        if self.over:
            conn.error("over", "The game is over.", ack=n)
            return
        if not self.started:
            conn.error("not-started", "The table is waiting for players to join.", ack=n)
            return
        if not max(slot.window, slot.own) <= seq <= slot.version:
            conn.error("stale", "That action was chosen on an older view: here is the current one.", ack=n)
            self.resync(conn)
            return
        try:
            action = self.game.codec.decode(sent)
        except IllegalAction as exc:
            conn.error("bad-action", exc.reason, ack=n)
            return
        error = self.submit(conn.seat, action)
        if error:
            conn.error("illegal", error, ack=n)

    def client_chat(self, conn: Peer, msg: messages.Chat) -> None:
        """A chat line of ``conn`` (``netplay.chat``): a player's to everyone at the
        table, a spectator's to the spectators only (and only with ``spectator_chat``)."""
        if conn.seat is None and not self.spectator_chat:
            conn.error("chat-spectator", "Spectators may read the players' chat at this table, not write in it.")
            return
        if conn.seat is None:
            said = self._say(id(conn), None, conn.name or "Spectator", msg.text)
        else:
            said = self._say(conn.seat, conn.seat, self.names()[conn.seat], msg.text)
        if said is not None:
            conn.errors += 1  # (a flood of refused lines ends like any other: cut off)
            conn.error(*said, fatal=conn.errors > self.limits.max_errors)

    def local_chat(self, seat: int, text: str) -> str | None:
        """A chat line of a player at the host's own terminal (a ``local`` seat): None
        when said, else why not.  The host's screen reads ``chat.lines`` (its listeners
        are called on every line)."""
        if not 0 <= seat < len(self.slots) or self.slots[seat].kind != "local":
            return "Only a player at this terminal can chat from here."
        said = self._say(seat, seat, self.names()[seat], text)
        return None if said is None else said[1]

    def _say(self, speaker: Any, seat: int | None, name: str, text: str) -> tuple[str, str] | None:
        """Pass a line on to those who hear it; the refusal (code, sentence) or None."""
        said = self.chat.line(speaker, seat, name, text, self.limits)
        if isinstance(said, tuple):
            return said
        self._pass_on(said)
        return None

    def _notice(self, text: str) -> None:
        """The table's own word in the chat, to everyone (a seat kept warm, a clock run out)."""
        self._pass_on(self.chat.notice(text))

    def _pass_on(self, said: messages.ChatLine) -> None:
        frame = messages.frame(said)
        for peer in (self.spectators if said.spectator else self.connections()):
            peer.send_bytes(frame)
        for fn in list(self.listeners):
            fn()

    # --- rematch ------------------------------------------------------------------------
    def humans(self) -> set[int]:
        """The seats whose players must accept a rematch: the local ones and the taken open ones."""
        return {s.index for s in self.slots if s.kind == "local" or (s.kind == "open" and s.token_hash is not None)}

    def want_rematch(self, seat: int, accept: bool = True) -> str | None:
        """``seat`` asks for a rematch (or turns it down: then nobody's request stands).
        Once every human has asked, ``on_rematch`` makes the new table.  Returns why not, or None."""
        if not self.over:
            return "The game is not over yet."
        if accept:
            self.rematch_wanted.add(seat)
        else:
            self.rematch_wanted.clear()
        self.seats_changed()
        if accept and self.humans() <= self.rematch_wanted and self.on_rematch is not None:
            self.on_rematch(self)
        return None

    def client_rematch(self, conn: Peer, msg: messages.Rematch) -> None:
        if conn.seat is None:
            conn.error("spectator", "Spectators cannot ask for a rematch (they follow the players to it).")
            return
        error = self.want_rematch(conn.seat, msg.accept)
        if error:
            conn.error("not-over", error)

    def rematch(self, log_path: Path | None) -> tuple["HostTable", dict[int, str]]:
        """A new table with the same game, options, seats, names and bots and a new secret
        seed; every player's seat is claimed for them (the tokens, by seat)."""
        record = self.match.record
        kinds = [s.kind for s in self.slots]
        table = HostTable.create(self.game, record.options, kinds, None, name=self.name,
                                 names=[s.name for s in record.seats], log_path=log_path,
                                 levels=[s.level for s in record.seats])
        table.bot_after, table.bot_level, table.turn_time = self.bot_after, self.bot_level, self.turn_time
        table.spectator_chat, table.limits = self.spectator_chat, self.limits
        tokens = {}
        for old, new in zip(self.slots, table.slots):
            if old.kind == "open" and old.token_hash is not None:
                new.token_hash = token_hash(token := secrets.token_urlsafe(24))
                new.player = old.player
                tokens[old.index] = token
        return table, tokens

    def move_to(self, table: "HostTable", tokens: dict[int, str]) -> None:
        """Tell everyone here to join ``table`` (each player with their new token)."""
        for slot in self.slots:
            if slot.conn is not None:
                slot.conn.send(messages.Moved(table=table.id, token=tokens.get(slot.index)))
        for conn in self.spectators:
            conn.send(messages.Moved(table=table.id))

    def client_undo(self, conn: Peer, msg: messages.Undo) -> None:
        if conn.seat is None:
            conn.error("spectator", "Spectators cannot undo.")
            return
        slot = self.slots[conn.seat]
        if not max(slot.window, slot.own) <= msg.seq <= slot.version:
            conn.error("stale", "Undo was asked on an older view: here is the current one.")
            self.resync(conn)
            return
        error = self.undo(conn.seat)
        if error:
            conn.error("undo", error)


def seat_kinds(game: Game, words: list[str], others: tuple[str, ...] = ("open", "local")) -> tuple[list[str], list[str]]:
    """One word a seat (one of ``others``, or a bot level of the game) as the table's seat
    kinds and bot levels ("" for a seat that is no bot).  A ValueError says which word is
    wrong, in one sentence."""
    levels_known = game.manifest.bot_levels if game.manifest is not None else (DEFAULT_BOT_LEVEL,)
    kinds, levels = [], []
    for word in words:
        if word in others:
            kinds.append(word)
            levels.append("")
        elif word in levels_known:
            kinds.append("bot")
            levels.append(word)
        else:
            raise ValueError(f"{word[:16]!r} is no seat: a seat is {' or '.join(others)}, or one of "
                             f"{game.title}'s bot levels ({', '.join(levels_known)})")
    return kinds, levels


def deputy_level(seats: list[SeatInfo]) -> str:
    """The level of the bot that keeps a player's seat warm or decides when their clock
    runs out: the level of the table's bots when they all play one, else the default
    (normal): a table of hard bots gets a hard stand-in, a mixed table a normal one."""
    levels = {seat.bot_level for seat in seats if seat.kind == "bot"}
    return levels.pop() if len(levels) == 1 else DEFAULT_BOT_LEVEL


def make_kinds(players: int, bots: int, local: int = 0) -> list[str]:
    """N seats: ``local`` humans at the host first, then the open ones, then ``bots``."""
    if bots < 0 or local < 0 or bots + local > players:
        raise ValueError(f"bots and local seats must fit in {players} seats")
    return ["local"] * local + ["open"] * (players - bots - local) + ["bot"] * bots
