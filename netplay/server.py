"""A table server: one ``Host`` where players open their own tables (``atlantis serve``).

Built on ``netplay.host``: every table is an ordinary ``HostTable`` of one ``Host``
(so seats, tokens, spectators, bots, logs and every ``Limits`` cap work as for
``atlantis host``).  What the server adds is three lobby requests
(``netplay.messages``), each one request on its own connection, answered once:

* ``list-tables``: every table, the seats the asker holds (``mine``), what may be opened,
  and the asker's identity secret (a new one when it sent none the server knows);
* ``open-table``: a new table (game, options, players, how many are bots); the opener
  holds its first seat at once and gets the seat's ``ticket`` (table id and token);
* ``take-seat``: the next open seat of a table, as a ticket.

A seat is then taken with a ``hello`` carrying the ticket's table and token; a hello
without a token may only watch (``ticket-needed``): every seat goes through the lobby,
its one-seat-per-table rule and its caps.

Who is asking (the *identity*): a secret the client sends with every lobby request.
The server gives it out (``list-tables``: ``TableList.identity``) and can check it
without keeping a list (an HMAC under a key drawn at start), or it is a session secret
the SSH front registered with ``register_identity`` (it stands for the player's key
fingerprint).  Never the peer's address: players behind one NAT or one ``ssh -L``
tunnel are different people.  The server remembers every ticket it gave an identity
until the table is gone, so a player who comes back with the same identity finds the
seat in ``mine`` and takes it again without typing a token.

Limits (``ServerLimits``): tables open at once, and per identity; seats per identity; a
refusal is an ``error`` with a code (``tables-full``, ``player-tables``,
``player-seats``, ``no-identity``) and a sentence.  A seat whose player is not
connected for ``seat_timeout`` is given up when it was never connected at all, or
before the game began.  A finished table stays listed for ``keep_finished`` seconds;
its log, a normal record, stays in the records folder for ``keep_logs_days`` (and at
most ``max_logs`` such logs are kept).  A table nobody ever joined is dropped after
``abandon_after``.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from engine.options import options_data
from engine.record import RecordError
from engine.registry import GAMES
from engine.text import counted

from . import messages
from .chat import chat_log_path
from .conn import Conn
from .host import Host, HostTable, Limits, make_kinds, seat_kinds, token_hash
from .log import read_log
from .tls import Trust, open_connection

log = logging.getLogger("atlantis.server")


@dataclass
class ServerLimits:
    """What players may open and hold (README, "Table server")."""

    max_tables: int = 32              # tables at once (finished ones count until dropped)
    max_tables_per_player: int = 2    # unfinished tables one identity opened
    max_seats_per_player: int = 4     # seats one identity holds at unfinished tables
    seat_timeout: float = 60.0        # a seat never connected (or left before the start) is given up after this
    keep_finished: float = 120.0      # seconds a finished table stays listed
    abandon_after: float = 600.0      # a table with nobody connected and no move is dropped after this
    keep_logs_days: float = 30.0      # days the log of a table no longer played is kept
    max_logs: int = 1000              # ... and at most this many such logs (the oldest go first)
    sweep_every: float = 5.0
    prune_every: float = 3600.0       # how often old logs are looked for
    bot_after: float = 60.0           # --seat-timeout: a player away this long has a bot keep their seat warm (0: never)
    spectator_chat: bool = False      # --spectator-chat: spectators have a chat channel of their own


@dataclass
class Owned:
    owner: str
    opened: float
    tickets: dict[str, messages.Ticket] = field(default_factory=dict)  # identity -> ticket at this table
    away: dict[int, float] = field(default_factory=dict)        # seat -> since when its holder is not connected


# --- identities ----------------------------------------------------------------------------
class Identities:
    """The identity secrets of one server: those it gives out (checked by their HMAC, so
    none is stored) and the session secrets the SSH front registered."""

    NONCE = 22  # characters of the secret's random part (16 bytes, URL-safe base64)
    KEY_FILE = "server-identity.key"

    def __init__(self, folder: Path | None = None) -> None:
        """``folder``: the server's records folder, where its key is kept (0600), so that
        the identities it gave out stay its players' after a restart (None: a new key)."""
        self.key = self._load_key(folder) if folder is not None else secrets.token_bytes(32)
        self.registered: dict[str, str] = {}  # session secret -> identity (the SSH front's)

    @classmethod
    def _load_key(cls, folder: Path) -> bytes:
        from engine.storage import write_private

        path = Path(folder) / cls.KEY_FILE
        try:
            key = path.read_bytes()
            if len(key) == 32:
                return key
            log.warning("%s is not a key (it is %d bytes): a new one replaces it", path, len(key))
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("cannot read %s (%s): identities last until the server stops", path, exc)
            return secrets.token_bytes(32)
        key = secrets.token_bytes(32)
        try:
            write_private(path, key)
        except OSError as exc:
            log.warning("cannot keep the identity key in %s (%s): identities last until the server stops", path, exc)
        return key

    def _mac(self, nonce: str) -> str:
        mac = hmac.digest(self.key, nonce.encode(), hashlib.sha256)[:16]
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def issue(self) -> str:
        """A new identity secret (44 characters: a random part and its HMAC)."""
        nonce = secrets.token_urlsafe(16)
        return nonce + self._mac(nonce)

    def who(self, secret: str | None) -> str | None:
        """The identity ``secret`` stands for, or None when this server does not know it."""
        if secret is None:
            return None
        known = self.registered.get(secret)
        if known is not None:
            return known
        nonce, mac = secret[:self.NONCE], secret[self.NONCE:]
        if len(secret) == 2 * self.NONCE and hmac.compare_digest(self._mac(nonce), mac):
            return f"id:{nonce}"
        return None


NO_IDENTITY = ("no-identity", "The server does not know you yet: ask it for its tables first "
               "(it gives you an identity there), then open or join a table.")


def no_identity() -> messages.Error:
    return messages.Error(code=NO_IDENTITY[0], message=NO_IDENTITY[1], fatal=True)


def player_seats_error(cap: int) -> messages.Error:
    return messages.Error(code="player-seats", message=f"You hold {counted(cap, 'seat')} here, the most one player may: "
                   "finish or leave a game first.", fatal=True)


def record_name(game: str) -> str:
    """``GAME-server-YYYYmmdd-HHMMSS-XXXXXX.atlrec`` (the same shape as ``tui.app``'s)."""
    from datetime import datetime

    return f"{game}-server-{datetime.now().strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}.atlrec"


def tickets_path(table_log: Path) -> Path:
    """Where a server keeps a table's tickets: beside its log, ``GAME-....tickets``."""
    return Path(table_log).with_suffix(".tickets")


#: The names ``record_name`` makes: the only files log retention ever removes (with the
#: chat log and the tickets kept beside each).
RECORD_NAME = re.compile(r"[a-z0-9_]+(?:-[a-z0-9_]+)*-server-\d{8}-\d{6}-[0-9a-f]{6}\.atlrec")


#: A log written this recently (seconds) is never removed: it may be a game of another
#: server on this machine with the same records folder (``serve`` and ``serve-ssh``).
FRESH_LOG = 3600.0


def log_names(folder: Path) -> set[str]:
    """The names in ``folder`` shaped as the server's logs (``RECORD_NAME``)."""
    try:
        return {name for name in os.listdir(folder) if RECORD_NAME.fullmatch(name)}
    except OSError:
        return set()


def prune_logs(folder: Path | None, running: set[str], keep_days: float, max_logs: int,
               now: float | None = None, among: set[str] | None = None) -> list[Path]:
    """Remove the server's own logs (``RECORD_NAME``, regular files at the top of
    ``folder``) of tables no longer played: those last written more than ``keep_days``
    ago, then the oldest beyond ``max_logs``; never one written within ``FRESH_LOG``
    seconds.  ``running``: the paths of the logs of
    games still being played, never removed; ``among``: only these names are looked at
    (a listing made before ``running`` was asked for).  Returns the paths removed."""
    if folder is None:
        return []
    now = time.time() if now is None else now
    found: list[tuple[float, Path]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        if (not RECORD_NAME.fullmatch(entry.name) or (among is not None and entry.name not in among)
                or str(Path(folder) / entry.name) in running):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            found.append((st.st_mtime, Path(folder) / entry.name))
    found = sorted((mtime, p) for mtime, p in found if now - mtime > FRESH_LOG)
    old = [p for mtime, p in found if now - mtime > keep_days * 86400]
    kept = [p for mtime, p in found if now - mtime <= keep_days * 86400]
    doomed = old + kept[:max(0, len(kept) - max(0, max_logs))]
    removed = []
    for path in doomed:
        try:
            path.unlink()
            removed.append(path)
        except OSError as exc:
            log.warning("cannot remove the old log %s: %s", path, exc)
            continue
        for beside in (chat_log_path(path), tickets_path(path)):  # (its chat log and tickets go with it)
            try:
                beside.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                log.warning("cannot remove %s: %s", beside, exc)
    if removed:
        log.info("removed %s from %s", counted(len(removed), "old table log"), folder)
    return removed


class TableServer(Host):
    """A ``Host`` whose tables are opened by its players."""

    def __init__(self, name: str = "atlantis", host: str = "127.0.0.1", port: int = 0,
                 limits: Limits | None = None, server_limits: ServerLimits | None = None,
                 records: Path | None = None, bot_delay: float = 0.0, games: dict[str, Any] | None = None,
                 seeds: Any = None, plain: bool = False, certificate: Any = None):
        super().__init__([], host=host, port=port, limits=limits, bot_delay=bot_delay, plain=plain,
                         certificate=certificate)
        self.name = name
        self.server_limits = server_limits or ServerLimits()
        self.records = records            # where tables' logs go (None: no logs)
        self.games = GAMES if games is None else games
        self.ids = Identities(records)
        self.owned: dict[str, Owned] = {}      # table id -> who opened it, tickets given
        self.listeners: list[Callable[[], None]] = []  # the table list changed (discovery)
        self._sweeper: asyncio.Task | None = None
        # Tests only: an iterator of practice seeds for the tables opened (None: every
        # table draws a secret seed, as it must in play).
        self.seeds = seeds

    @classmethod
    def behind_front(cls, sessions: int, **kwargs: Any) -> "TableServer":
        """The table server of an SSH or web front: it listens on a Unix socket only this
        user may reach (the front's ``start`` makes it), so every player comes through the
        front's own login and limits.  All of the front's ``sessions`` share one peer
        address there: the per-address cap holds all of them (each keeps one connection,
        plus the lobby's asks)."""
        cap = 4 * sessions + 16
        return cls(host="", port=0, plain=True, limits=Limits(max_per_address=cap, max_connections=max(256, cap)),
                   **kwargs)

    # --- life -------------------------------------------------------------------------
    async def start(self) -> int:
        self.skipped = self.restore_tables()  # (before listening: a player who comes back finds the table)
        port = await super().start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        return port

    skipped: list[tuple[Path, str]] = []  # the logs ``restore_tables`` could not restore, and why

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        await super().close()

    def _check_done(self) -> None:  # a server is never done
        pass

    # --- identities ---------------------------------------------------------------------
    @property
    def identities(self) -> dict[str, str]:
        return self.ids.registered

    def register_identity(self, secret: str, identity: str) -> None:
        """The SSH front: a child that sends ``secret`` speaks for ``identity``."""
        self.ids.registered[secret] = identity

    def forget_identity(self, secret: str) -> None:
        self.ids.registered.pop(secret, None)

    def identity(self, sent: str | None) -> str | None:
        """Who sent ``sent`` (None: nobody this server knows)."""
        return self.ids.who(sent)

    def tickets_of(self, who: str) -> list[messages.Ticket]:
        """The seats ``who`` holds at unfinished tables (a seat given up, by saying bye
        before the start or by staying away, is no longer held)."""
        return [o.tickets[who] for tid, o in self.owned.items()
                if who in o.tickets and tid in self.tables and not self.tables[tid].over
                and self.holds(self.tables[tid], o.tickets[who])]

    def seats_of(self, who: str) -> int:
        return len(self.tickets_of(who))

    @staticmethod
    def holds(table: HostTable, ticket: messages.Ticket) -> bool:
        slot = table.slots[ticket.seat]
        return slot.token_hash is not None and slot.token_hash == token_hash(ticket.token)

    def open_by(self, who: str) -> int:
        return sum(1 for tid, o in self.owned.items()
                   if o.owner == who and tid in self.tables and not self.tables[tid].over)

    def limit_text(self) -> str:
        return limit_text(len(self.tables), self.server_limits)

    def your_turn(self, tickets: list[messages.Ticket]) -> list[str]:
        """The tables of ``tickets`` where their holder is to act now (correspondence play)."""
        return [t.table for t in tickets
                if self.tables[t.table].started and t.seat in self.tables[t.table].match.to_act()]

    def table_list(self, who: str) -> messages.TableList:
        lim = self.server_limits
        mine = self.tickets_of(who)
        held = {t.table for t in mine}  # (the asker's games in progress first)
        tables = sorted(self.tables.values(), key=lambda t: t.id not in held)
        return messages.TableList(server=self.name, tables=[t.info() for t in tables],
                           mine=mine, your_turn=self.your_turn(mine), games=sorted(self.games),
                           can_open=len(self.tables) < lim.max_tables
                           and self.open_by(who) < lim.max_tables_per_player
                           and self.seats_of(who) < lim.max_seats_per_player,
                           limit=self.limit_text())

    def default_table(self) -> HostTable | None:
        """A hello to a server names its table (a lone table excepted)."""
        return self.table if len(self.tables) == 1 else None

    # --- seats without a ticket ----------------------------------------------------------
    def claim_refusal(self, table: HostTable) -> tuple[str, str] | None:
        return ("ticket-needed", "This is a table server: take a seat from its lobby (atlantis join "
                "HOST:PORT), or come back with your seat's token; without one you may only watch.")

    # --- lobby requests (Host.request is the hook) -------------------------------------
    async def request(self, conn: Conn, msg: messages.Msg) -> bool:
        if isinstance(msg, messages.ListTables):
            secret = msg.identity
            who = self.identity(secret)
            if who is None:
                secret = self.ids.issue()
                who = self.identity(secret)
            conn.send(self.table_list(who).model_copy(update={"identity": secret}))
        elif isinstance(msg, (messages.OpenTable, messages.TakeSeat)):
            who = self.identity(msg.identity)
            if who is None:
                answer: messages.Ticket | messages.Error = no_identity()
            elif isinstance(msg, messages.OpenTable):
                answer = self.open_table(who, msg)
            else:
                answer = self.take_seat(who, msg.table, msg.name)
            if isinstance(answer, messages.Error):
                self.admission.refused += 1
                conn.send(answer)
            else:
                conn.send(messages.Seated(ticket=answer))
        else:
            return False
        await self._drain(conn)
        return True

    def open_table(self, who: str, msg: messages.OpenTable, seed: int | None = None) -> messages.Ticket | messages.Error:
        """A new table for ``who``, who holds its first seat (the ticket)."""
        lim = self.server_limits
        if len(self.tables) >= lim.max_tables:
            return messages.Error(code="tables-full", message=f"The server holds {counted(lim.max_tables, 'table')}, its limit: "
                           "join one of them or try again later.", fatal=True)
        if self.open_by(who) >= lim.max_tables_per_player:
            return messages.Error(code="player-tables", message=f"You have {lim.max_tables_per_player} tables open "
                           "here, the most one player may: finish or leave one first.", fatal=True)
        if self.seats_of(who) >= lim.max_seats_per_player:
            return player_seats_error(lim.max_seats_per_player)
        game = self.games.get(msg.game)
        if game is None:
            return messages.Error(code="no-game", message=f"This server has no game {msg.game[:40]!r}; it has "
                           f"{', '.join(sorted(self.games))}.", fatal=True)
        if not game.min_players <= msg.players <= game.max_players:
            return messages.Error(code="bad-table", message=f"{game.title} takes {game.min_players}-"
                           f"{game.max_players} players.", fatal=True)
        levels: list[str] = []
        try:
            kinds = make_kinds(msg.players, msg.bots)
            if msg.seats:
                if len(msg.seats) != msg.players:
                    raise ValueError(f"the seats name {counted(len(msg.seats), 'seat')} for {msg.players} players")
                kinds, levels = seat_kinds(game, list(msg.seats), others=("open",))
                if kinds.count("bot") != msg.bots:
                    raise ValueError(f"the seats hold {counted(kinds.count('bot'), 'bot')}, not {msg.bots}")
            if "open" not in kinds:
                raise ValueError("at least one seat must be a player's: fewer bots")
            options = options_data(game.parse_options({k: v for k, v in msg.options.items()}))
        except (ValueError, TypeError) as exc:
            return messages.Error(code="bad-table", message=f"Cannot open that table: {str(exc)[:160]}", fatal=True)
        if seed is None and self.seeds is not None:
            seed = next(self.seeds, None)
        path = self.records / record_name(game.slug) if self.records is not None else None
        try:
            table = HostTable.create(game, options, kinds, seed, name=msg.table_name.strip()[:40]
                                     or f"{msg.name[:20]}'s {game.title}", log_path=path, levels=levels)
        except (RecordError, OSError) as exc:
            return messages.Error(code="bad-table", message=f"Cannot open that table: {exc}", fatal=True)
        table.id = self.new_table_id(table.id)
        table.turn_time = msg.turn_time
        self.add_table(table, who)
        return self.take_seat(who, table.id, msg.name)  # (the first seat is open: a ticket)

    def new_table_id(self, drawn: str) -> str:
        """The id a new table gets (a worker of ``netplay.workers`` draws one of its shard)."""
        return drawn

    def add_table(self, table: HostTable, owner: str) -> None:
        """Serve ``table`` (as ``Host.start`` does for the tables it starts with).  A
        table restored from its log (``restore_tables``) keeps its log as it is."""
        self.tables[table.id] = table
        self.owned[table.id] = Owned(owner=owner, opened=time.monotonic())
        loop = asyncio.get_running_loop()
        table.loop = loop
        table.bot_delay = self.bot_delay
        table.seats_interval = self.limits.seats_interval
        table.limits = self.limits
        table.port, table.bind = self.port, self.bind
        table.bot_after, table.spectator_chat = self.server_limits.bot_after, self.server_limits.spectator_chat
        table.home = self.home
        if table.log is None or not table.log.sizes or table.where() != table.logged:
            table.write_log()
        table.logged = table.where()
        table.over_listeners.append(lambda: self._finished(table))
        table.seat_listeners.append(self._changed)
        table.on_rematch = self.rematch
        for slot in table.slots:  # (a restored table: its players are away until they come back)
            table.player_away(slot)
        table.kick_bots()
        self._changed()

    def rematch(self, table: HostTable) -> HostTable | None:
        """Every human at ``table`` asked for a rematch: a new table of the same opener,
        each player's ticket carried over to it, and everyone moved there."""
        if len(self.tables) >= self.server_limits.max_tables:
            for conn in table.connections():
                conn.error("tables-full", "The server holds as many tables as it may: no rematch now.")
            table.rematch_wanted.clear()
            table.seats_changed()
            return None
        owned = self.owned.get(table.id)
        path = self.records / record_name(table.game.slug) if self.records is not None else None
        new, tokens = table.rematch(path)
        new.id = self.new_table_id(new.id)
        self.add_table(new, owned.owner if owned is not None else "")
        if owned is not None:
            again = self.owned[new.id]
            for who, ticket in owned.tickets.items():
                if ticket.seat in tokens and self.holds(table, ticket):
                    again.tickets[who] = messages.Ticket(table=new.id, seat=ticket.seat, token=tokens[ticket.seat])
            self.keep_tickets(new)
        log.info("table %s: rematch at table %s", table.id, new.id)
        table.move_to(new, tokens)
        return new

    # --- tables that outlive a restart ---------------------------------------------------
    @property
    def home(self) -> str:
        """What names this server in its tables' logs, the same after a restart: where
        it listens (``ADDRESS:PORT``), or what its front says (``serve-ssh``: its SSH
        address, its own table server listening on a new socket each time)."""
        return self.named_home or f"{self.bind}:{self.port}"

    named_home: str | None = None

    def restores(self, table_id: str) -> bool:
        """Whether this server serves the table ``table_id`` when it is restored (a worker
        of ``netplay.workers``: only the tables of its shard)."""
        return True

    def restore_tables(self) -> list[tuple[Path, str]]:
        """Serve again every unfinished table whose log is in the records folder and was
        written by this server (``home``: ``serve`` after a crash or a restart, on the
        same address; a game can last days).  Each log is checked as ``host --resume``
        checks it (``HostTable.resume``); a damaged one is reported and skipped, never
        changed.  Returns the logs skipped and why (finished games are not listed)."""
        if self.records is None:
            return []
        skipped: list[tuple[Path, str]] = []
        for name in sorted(log_names(self.records)):
            path = self.records / name
            try:
                meta = read_log(path).meta
            except RecordError as exc:
                skipped.append((path, str(exc)))
                continue
            if meta.get("server") != self.home or not isinstance(meta.get("table"), str):
                continue  # (another server's table: serve on another address, or serve-ssh's)
            if not self.restores(meta["table"]) or meta["table"] in self.tables:
                continue
            try:
                table = HostTable.resume(path)
            except (RecordError, OSError, KeyError) as exc:
                skipped.append((path, str(getattr(exc, "strerror", None) or exc)))
                continue
            if table.over:
                if table.log is not None:
                    table.log.close()
                table.chat.close()
                continue
            for slot in table.slots:
                slot.joined = slot.token_hash is not None  # (its player held it before the restart)
            kept = self.kept_tickets(table)
            self.add_table(table, owner=kept.owner)
            self.owned[table.id].tickets = kept.tickets
            log.info("table %s restored from %s after %d moves", table.id, path, len(table.match.record.moves))
        for path, why in skipped:
            log.warning("not restored: %s: %s", path, why)
        return skipped

    def take_seat(self, who: str, table_id: str, name: str, seats_held: int | None = None) -> messages.Ticket | messages.Error:
        """The seat ``who`` holds at the table, else its next open seat (within the seats
        one identity may hold: ``seats_held`` of them, counted here when None)."""
        table = self.tables.get(table_id)
        owned = self.owned.get(table_id)
        if table is None or owned is None:
            return messages.Error(code="no-table", message="There is no such table here (it may have ended).",
                           fatal=True)
        if table.over:
            return messages.Error(code="over", message="That game is over; you may watch it.", fatal=True)
        held = owned.tickets.get(who)
        if held is not None and self.holds(table, held):  # (the same player asks again: the same seat)
            return held
        cap = self.server_limits.max_seats_per_player
        if (self.seats_of(who) if seats_held is None else seats_held) >= cap:
            return player_seats_error(cap)
        claimed = table.claim(name)
        if claimed is None:
            return messages.Error(code="full", message="Every seat at this table is taken; you may watch it.",
                           fatal=True)
        slot, token = claimed
        ticket = messages.Ticket(table=table.id, seat=slot.index, token=token)
        owned.tickets[who] = ticket
        owned.away[slot.index] = time.monotonic()  # (the ticket must be used within seat_timeout)
        self.keep_tickets(table)
        table.seats_changed()
        return ticket

    # --- who holds which seat, kept beside each table's log ------------------------------
    def keep_tickets(self, table: HostTable) -> None:
        """Write who opened ``table`` and the tickets it gave (``tickets_path``, 0600:
        they hold seat tokens) so that a restarted server gives each player their seat
        back from the lobby."""
        owned = self.owned.get(table.id)
        if owned is None or table.log is None:
            return
        from engine.storage import write_private

        data = {"owner": owned.owner, "tickets": {who: t.model_dump(mode="json") for who, t in owned.tickets.items()}}
        try:
            write_private(tickets_path(table.log.path), json.dumps(data, sort_keys=True).encode())
        except OSError as exc:
            log.warning("cannot keep the tickets of table %s: %s", table.id, exc)

    def kept_tickets(self, table: HostTable) -> Owned:
        """Who opened a restored table and the tickets it had given (those that still
        hold their seat); nobody's when the file is missing or unreadable."""
        owned = Owned(owner="", opened=time.monotonic())
        if table.log is None:
            return owned
        path = tickets_path(table.log.path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            owned.owner = str(data.get("owner", ""))
            for who, raw in dict(data.get("tickets", {})).items():
                ticket = messages.Ticket(**raw)
                if ticket.table == table.id and 0 <= ticket.seat < len(table.slots) and self.holds(table, ticket):
                    owned.tickets[str(who)] = ticket
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            log.warning("cannot read the tickets of table %s (%s): its players come back with their tokens",
                        table.id, exc)
        return owned

    # --- tables that end --------------------------------------------------------------
    def _changed(self) -> None:
        for fn in list(self.listeners):
            fn()

    def _finished(self, table: HostTable) -> None:
        if table.loop is not None:
            table.loop.call_later(self.server_limits.keep_finished, self.drop_table, table.id)
        self._changed()

    def drop_table(self, table_id: str) -> None:
        """Stop serving a table (its log stays where it was written)."""
        table = self.tables.pop(table_id, None)
        self.owned.pop(table_id, None)
        if table is None:
            return
        table.stop_thinking()
        for conn in table.connections():
            conn.close()
        if table.log is not None:
            table.log.close()
        table.chat.close()
        self._changed()

    def sweep(self) -> None:
        now = time.monotonic()
        self.release_seats(now)
        for tid, table in list(self.tables.items()):
            owned = self.owned.get(tid)
            if (owned is not None and not table.match.record.moves and not table.connections()
                    and not table.over and now - owned.opened > self.server_limits.abandon_after):
                log.info("table %s abandoned: dropped", tid)
                self.drop_table(tid)

    def release_seats(self, now: float | None = None) -> None:
        """Give up the seats whose players have stayed away ``seat_timeout``: a ticket
        never used (its seat never connected), or a seat left before the game began.
        (A seat that played stays its player's: they come back with their token.)"""
        now = time.monotonic() if now is None else now
        limit = self.server_limits.seat_timeout
        for tid, owned in self.owned.items():
            table = self.tables.get(tid)
            if table is None or table.over:
                continue
            released = False
            for slot in table.slots:
                if slot.kind != "open" or slot.token_hash is None or slot.conn is not None:
                    owned.away.pop(slot.index, None)
                    continue
                since = owned.away.setdefault(slot.index, now)
                if now - since >= limit and not (table.started and slot.joined):
                    log.info("table %s: seat %d given up (its player stayed away)", tid, slot.index)
                    slot.token_hash = None
                    slot.player = ""
                    owned.away.pop(slot.index, None)
                    released = True
            if released:
                table.write_log()
                table.seats_changed()

    def running_logs(self) -> set[str]:
        """The log paths of the games still being played (never removed)."""
        return {str(t.log.path) for t in self.tables.values() if t.log is not None and not t.over}

    async def prune_logs(self, now: float | None = None) -> list[Path]:
        """Remove old logs of tables no longer played (``ServerLimits.keep_logs_days``,
        ``max_logs``; async as ``ShardedServer.prune_logs``, which asks its workers)."""
        lim = self.server_limits
        return prune_logs(self.records, self.running_logs(), lim.keep_logs_days, lim.max_logs, now)

    async def _sweep_loop(self) -> None:
        pruned = float("-inf")
        while True:
            if time.monotonic() - pruned >= self.server_limits.prune_every:
                pruned = time.monotonic()
                try:
                    await self.prune_logs()
                except Exception:  # (the sweep goes on)
                    log.exception("pruning old logs failed")
            await asyncio.sleep(self.server_limits.sweep_every)
            self.sweep()


def limit_text(tables: int, lim: ServerLimits) -> str:
    return (f"{tables} of {lim.max_tables} tables in use; each player may have "
            f"{lim.max_tables_per_player} open and hold {lim.max_seats_per_player} seats.")


# --- the client side of the lobby requests ----------------------------------------------
async def ask(host: str, port: int, msg: messages.Msg, timeout: float = 5.0, trust: Trust = Trust()) -> Any:
    """Send one lobby request to a server and return its answer (``TableList``,
    ``Seated`` or ``Error``).  A single-table host answers ``Error(hello-first)``."""
    from .wire import MAX_HOST_FRAME, read_frame

    async def go() -> Any:
        reader, writer = await open_connection(host, port, trust, limit=MAX_HOST_FRAME + 64)
        try:
            writer.write(messages.frame(msg))
            return messages.parse_host(await read_frame(reader, MAX_HOST_FRAME, timeout))
        finally:
            writer.close()

    return await asyncio.wait_for(go(), timeout)


async def is_server(host: str, port: int, timeout: float = 3.0, trust: Trust = Trust()) -> bool:
    """Whether ``host:port`` is a table server (else a single-table host)."""
    try:
        return isinstance(await ask(host, port, messages.ListTables(), timeout, trust), messages.TableList)
    except Exception:
        return False


async def serve_forever(server: TableServer, announce: Callable[[str], None] | None = None,
                        advertise: Any = None, stop: asyncio.Event | None = None) -> None:
    """Run a table server until cancelled (or ``stop`` is set)."""
    await server.start()
    if announce is not None:
        announce(f"{server.bind}:{server.port}")
    try:
        if advertise is not None:
            try:
                await advertise.start(server)
            except Exception as exc:  # no multicast here: joining by address still works
                log.warning("not announced on the LAN: %s", exc)
                advertise = None
        await (stop or asyncio.Event()).wait()
    finally:
        if advertise is not None:
            await advertise.stop()
        await server.close()
