"""The SeatLink interface that game screens talk to, and the local table.

A game screen never touches engine state: it reads ``link.view()``,
``link.legal()``, ``link.log()`` and sends actions with ``link.submit()``.
``SeatLink`` is a ``typing.Protocol``: ``LocalSeat`` links a screen to an in-process
``LocalTable`` (hot-seat and bots), ``ReplaySeat`` shows a stored game one position
at a time and refuses every action (both subclass it, for its defaults; each tells its
listeners when what it shows changed, and the session draws), and
``netplay.client.RemoteSeat`` conforms without importing it (netplay must not import
tui; ``tests/test_seat_link.py`` checks that it conforms).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

from engine.core import Bot, Event, Game, IllegalAction, LogLine, SeatInfo, View, bot_label
from engine.match import Match
from engine.record import GameRecord, canonical_bytes
from engine.storage import save_record


@runtime_checkable
class SeatLink(Protocol):
    """What a game screen may use. ``seat`` is None for a spectator."""

    game: Game
    seat: int | None
    names: list[str]
    read_only: bool = False
    practice: bool = False  # the seed was typed or named: the screen says "practice: seed known"

    def view(self) -> View | None:
        """What this seat sees now; None while there is no view yet (a LAN seat before
        the host's first update)."""
        raise NotImplementedError

    def legal(self) -> list[Any]:
        raise NotImplementedError

    def my_turn(self) -> bool:
        return bool(self.legal())

    def log(self) -> list[LogLine]:
        """Every event this seat was shown, as log lines (who acted, the kind, the words)."""
        raise NotImplementedError

    def submit(self, action: Any) -> str | None:
        """Send an action. Returns None if accepted (or sent), else why not."""
        raise NotImplementedError

    def undo(self) -> str | None:
        return "Undo is not available here."

    def waiting_for(self) -> str:
        """A short line saying who the table is waiting for ('' when nobody)."""
        return ""

    def seat_label(self, seat: int) -> str:
        """How the table names ``seat`` now ("Blue (bot until Ana returns)" while a bot
        keeps a LAN player's seat warm)."""
        return f"{self.names[seat]}"

    def clock(self, seat: int) -> float | None:
        """Seconds left on ``seat``'s turn timer (None: no clock runs for it)."""
        return None

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot chosen to play ``seat`` (None: a player's seat)."""
        return None

    def chat_log(self) -> list[str] | None:
        """The table's chat, one line each, oldest first (None: this table has no chat)."""
        return None

    def chat(self, text: str) -> str | None:
        """Say ``text`` to the table: None when said, else why not."""
        return "There is no chat here: a table has one when it is played over the LAN or a server."

    def final_reveal(self) -> list[str]:
        """Once the game is over: the game's ``reveal()`` of the final state (where the
        points came from, every secret), one sentence a line; [] before the end."""
        return []


@dataclass
class TableSeat:
    info: SeatInfo
    bot: Bot | None = None


class LocalTable:
    """An in-process table: a Match, its bots, and the humans at this keyboard."""

    def __init__(self, game: Game, match: Match, bot_seed: int | None = None,
                 autosave: Path | None = None):
        self.game = game
        self.match = match
        seed = self.bot_seed = match.seed if bot_seed is None else bot_seed
        self.bots: dict[int, Bot] = {
            i: game.make_bot(i, seed, s.bot_level) for i, s in enumerate(match.seats) if s.kind == "bot"
        }
        self.listeners: list[Callable[[], None]] = []
        self.autosave = autosave
        if autosave is not None:
            self.save(autosave)

    @classmethod
    def new(cls, game: Game, options: Any, seats: list[SeatInfo], seed: int | None = None,
            autosave: Path | None = None) -> "LocalTable":
        """``seed=None``: a secret seed (the usual game); a given seed: a practice game."""
        return cls(game, Match(game, options, seats, seed), autosave=autosave)

    # --- who is who ------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return self.match.names

    @property
    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.match.seats) if s.kind != "bot"]

    def bot_to_act(self) -> int | None:
        for seat in sorted(self.match.to_act()):
            if seat in self.bots:
                return seat
        return None

    def human_to_act(self) -> int | None:
        for seat in sorted(self.match.to_act()):
            if seat not in self.bots:
                return seat
        return None

    def hides_information(self) -> bool:
        """Whether seats see different things (then the curtain is needed)."""
        return hides_information(self.game, self.match.state, self.human_seats)

    # --- acting ----------------------------------------------------------------
    def link(self, seat: int | None) -> "LocalSeat":
        return LocalSeat(self, seat)

    def submit(self, seat: int, action: Any) -> str | None:
        try:
            self.match.act(seat, action)
        except IllegalAction as exc:
            return exc.reason
        self._changed()
        return None

    def undo(self, seat: int) -> str | None:
        try:
            self.match.undo(seat)
        except IllegalAction as exc:
            return exc.reason
        self._changed()
        return None

    def bot_decision(self) -> tuple[int, Bot, View, list[Any]] | None:
        """The next bot to act, and what it decides from (its view and legal actions);
        None when no bot is to act."""
        seat = self.bot_to_act()
        if seat is None or self.match.result() is not None:
            return None
        view = self.match.view(seat)
        return seat, self.bots[seat], view, self.game.legal(view)

    def step_bot(self) -> bool:
        """Let one bot make one action, here and now. Returns False if no bot is to act."""
        decision = self.bot_decision()
        if decision is None:
            return False
        seat, bot, view, legal = decision
        return self.play_bot(seat, view, bot.choose(view, legal), bot)

    def play_bot(self, seat: int, view: View, action: Any, bot: Bot) -> bool:
        """Play the action ``bot`` chose for ``seat`` on ``view`` (keeping ``bot``, as it
        is after deciding, for the seat's next decision); False, and nothing changed, when
        the seat no longer decides on that view (the table moved on while it thought)."""
        if seat not in self.match.to_act() or self.match.result() is not None or self.match.view(seat) != view:
            return False
        self.bots[seat] = bot
        self.match.act(seat, action)
        self._changed()
        return True

    def _changed(self) -> None:
        if self.autosave is not None:
            self.save(self.autosave)
        for listener in list(self.listeners):
            listener()

    def save(self, path: Path) -> Path:
        return save_record(self.match.record, path)


def secret_line(game: Game, event: Event, names: Sequence[str]) -> LogLine:
    """A secret event told to the whole table after the game (the replay's full-table view,
    an exported transcript): in the words a spectator would read (every seat by its name),
    after the seats it was for: "(secret, Blue) Blue's secret bid: 6."."""
    owners = [names[s] for s in event.to or () if s < len(names)]
    line = game.describe(event, None, names)
    return LogLine(line.actor, line.kind, f"(secret, {', '.join(owners)}) {line.text}")


def past_views(game: Game, record: GameRecord, seat: int | None) -> list[View]:
    """``seat``'s view at the start and after every move of ``record``."""
    return [game.view(step.state, seat) for step in Match.replay(record, game) if step.problem is None]


def hides_information(game: Game, state: Any, seats: list[int]) -> bool:
    """Whether the first two of ``seats`` see different things in ``state`` (then a
    curtain is needed between the players at one keyboard)."""
    views = [game.view(state, s) for s in seats[:2]]
    if len(views) < 2:
        return False
    a, b = (canonical_bytes(_strip_seat(v)) for v in views)
    return a != b


def _strip_seat(view: View) -> View:
    return dataclasses.replace(view, seat=None) if dataclasses.is_dataclass(view) else view


class MatchSeat(SeatLink):
    """A seat of a table whose match runs in this process (a local table or a hosted one):
    what both read of the match and send to the table alike."""

    table: Any  # LocalTable or tui.lan.hosting.HostedTable: .game, .match, .submit, .undo

    def view(self) -> View:
        return self.table.match.view(self.seat)

    def past_views(self) -> list[View]:
        """This seat's view at the start and after every move so far, replayed from the
        record: what a screen open all game long would have seen (a screen that keeps
        something of earlier views, such as the hand's numbered slots, starts from them
        after ``--resume``)."""
        return past_views(self.game, self.table.match.record, self.seat)

    def submit(self, action: Any) -> str | None:
        if self.seat is None:
            return "Spectators cannot act."
        return self.table.submit(self.seat, action)

    def undo(self) -> str | None:
        if self.table.match.result() is not None:
            return "The game is over: there is nothing to take back."
        if self.seat is None:
            return "Spectators cannot undo."
        return self.table.undo(self.seat)

    def final_reveal(self) -> list[str]:
        m = self.table.match
        return list(self.game.reveal(m.state, m.names)) if m.result() is not None else []


class LocalSeat(MatchSeat):
    def __init__(self, table: LocalTable, seat: int | None):
        self.table = table
        self.game = table.game
        self.seat = seat
        self.names = table.names
        self.practice = table.match.practice

    def legal(self) -> list[Any]:
        if self.seat is None or self.seat in self.table.bots:
            return []
        return self.table.match.legal(self.seat)

    def log(self) -> list[LogLine]:
        """Every event this seat was shown, as log lines (the lines of events already told
        are kept: a redraw describes only the new ones)."""
        m = self.table.match
        events = m.events_for(self.seat)
        told, lines = self._told
        keep = len(told) if len(told) <= len(events) and all(a is b for a, b in zip(told, events)) else 0
        names = m.names
        lines = lines[:keep] + [self.game.describe(e, self.seat, names) for e in events[keep:]]
        self._told = (events, lines)
        return list(lines)

    _told: tuple[list[Event], list[LogLine]] = ([], [])

    def waiting_for(self) -> str:
        m = self.table.match
        if m.result() is not None:
            return ""
        waiting = [s for s in sorted(m.to_act()) if s != self.seat]
        parts = []
        for s in waiting:
            kind = f"{m.seats[s].bot_level} bot" if s in self.table.bots else "choosing"
            parts.append(f"{m.names[s]} ({kind})")
        return ", ".join(parts)

    def seat_label(self, seat: int) -> str:
        """A bot with its level ("Blue (hard bot)"), a player by their name."""
        info = self.table.match.seats[seat]
        return bot_label(info.name, info.level) if info.kind == "bot" else info.name

    def bot_level(self, seat: int) -> str | None:
        info = self.table.match.seats[seat]
        return info.bot_level if info.kind == "bot" else None


#: The kind of a replay's lines of what was hidden (the game's ``reveal()``) and their headings.
REVEAL_KIND = "reveal"
#: The full-table view's log: what was hidden first, then the events (newest last, in view).
HIDDEN_HEADING = "What was hidden at this move:"
EVENTS_HEADING = "What happened, newest last:"


class ReplaySeat(SeatLink):
    """A read-only link over a stored game: a position index and a viewer.

    The viewer is ``FULL`` (the whole table: public board, every event, and what
    was hidden, via ``game.reveal``), a seat number, or ``PUBLIC`` (what a
    spectator saw).  Replays are watched after the fact, so showing secrets is fine.
    """

    read_only = True
    FULL = "full"
    PUBLIC = "public"

    def __init__(self, game: Game, record: GameRecord):
        self.game = game
        self.record = record
        self.names = [s.name for s in record.seats]
        self.practice = record.practice
        self.states: list[Any] = []
        self.events: list[tuple[Event, ...]] = []  # the events of the move into each position
        self.problem: str | None = None
        for step in Match.replay(record, game):
            if step.problem:
                self.problem = step.problem
                break
            self.states.append(step.state)
            self.events.append(step.events)
        self.index = len(self.states) - 1
        self.watching: int | str = self.FULL
        self.listeners: list[Callable[[], None]] = []  # told when the position or the viewer changed

    @property
    def seat(self) -> int | None:  # type: ignore[override]
        return self.watching if isinstance(self.watching, int) else None

    def bot_level(self, seat: int) -> str | None:
        info = self.record.seats[seat]
        return info.bot_level if info.kind == "bot" else None

    def viewers(self) -> list[int | str]:
        return [self.FULL, *range(len(self.names)), self.PUBLIC]

    def next_viewer(self) -> None:
        order = self.viewers()
        self.watching = order[(order.index(self.watching) + 1) % len(order)]
        self._changed()

    def step(self, delta: int) -> None:
        """``delta`` moves on (back when negative), within the record."""
        self.index = max(0, min(len(self.states) - 1, self.index + delta))
        self._changed()

    def jump(self, where: int) -> None:
        """To the position before the first move (0) or to the last one (-1)."""
        self.index = 0 if where == 0 else len(self.states) - 1
        self._changed()

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def view(self) -> View:
        return self.game.view(self.states[self.index], self.seat)

    def legal(self) -> list[Any]:
        return []

    def log(self) -> list[LogLine]:
        """The events up to the position, newest last (the log shows its end: the move
        just stepped to); in the full-table view, what was hidden comes first, headed."""
        out = []
        full = self.watching == self.FULL
        for i in range(1, self.index + 1):
            for e in self.events[i]:
                if full and e.to:
                    out.append(self.secret_line(e))
                elif e.visible_to(self.seat):
                    out.append(self.game.describe(e, self.seat, self.names))
        if full:
            hidden = [LogLine(None, REVEAL_KIND, line) for line in self.game.reveal(self.states[self.index], self.names)]
            return [LogLine(None, REVEAL_KIND, HIDDEN_HEADING), *hidden,
                    LogLine(None, REVEAL_KIND, EVENTS_HEADING), *out]
        return out

    def secret_line(self, event: Event) -> LogLine:
        return secret_line(self.game, event, self.names)

    def final_reveal(self) -> list[str]:
        if not self.states or self.index != len(self.states) - 1:
            return []
        return list(self.game.reveal(self.states[-1], self.names))

    def submit(self, action: Any) -> str | None:
        return "This is a replay: nothing can be played."

    def waiting_for(self) -> str:
        """The replay's turn line: the position, and exactly what the board and the log show."""
        if self.watching == self.FULL:
            shown = ("board: what everyone saw; log: what was hidden, then every event, each secret one "
                     "marked with its seat")
        elif self.watching == self.PUBLIC:
            shown = "board and log: what a spectator saw"
        else:
            shown = f"board and log: what {self.names[self.seat]} saw"
        return f"Replay: move {self.index} of {len(self.states) - 1}; {shown}."
