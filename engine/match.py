"""Match: a game, its state, the record, each seat's event log, and undo.

Hot-seat, the network host and bots all drive a ``Match``; nothing else calls
``apply``.  ``submit`` returns what every seat (and spectators, key ``None``) must
now be shown: its fresh view and the events addressed to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable, Iterator, Sequence

from .core import Event, Game, IllegalAction, Result, SeatInfo, View
from .options import options_data
from .record import GameRecord, Move, RecordError, digest, lazy_move, move_label
from .rng import new_seed


class Delivery:
    """What one seat must now be shown: its fresh view and the events addressed to it.

    The view is built on first access: ``submit`` returns a delivery for every seat and
    the spectators after each move, and a bot or self-play loop reads none of them, so
    building them all eagerly was a large share of the cost of a move.  Pass ``view`` to
    give it directly, or ``make`` (a no-argument callable) to build it when first read.
    (``Match.deliveries`` makes them without ``__init__``: the view and the seat's share of
    the events are both worked out when first read; a slot not yet filled holds None:
    no view or events list is None, and a test for None is far cheaper than the
    AttributeError of an unset slot, which the host met 8 times a move.)
    """

    __slots__ = ("_view", "_events", "_source", "_seat")

    def __init__(self, view: View | None = None, events: tuple[Event, ...] = (), *,
                 make: Callable[[], View] | None = None):
        if view is None and make is None:
            raise TypeError("Delivery needs a view or a way to make it")
        self._view = view
        self._source = make
        self._events = events if type(events) is tuple else tuple(events)

    @property
    def view(self) -> View:
        view = self._view
        if view is not None:
            return view
        source = self._source
        if type(source) is _Moment:
            view = source.view(source.state, self._seat)
        else:
            view = source()  # type: ignore[misc]
            self._source = None
        self._view = view
        return view

    @property
    def events(self) -> tuple[Event, ...]:
        events = self._events
        if events is not None:
            return events
        m, seat = self._source, self._seat  # only a moment's deliveries lack their events
        events = m.events if m.public else tuple(e for e in m.events if e.visible_to(seat))
        self._events = events
        return events

    @events.setter
    def events(self, value: Sequence[Event]) -> None:
        self._events = value if type(value) is tuple else tuple(value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Delivery):
            return NotImplemented
        return self.view == other.view and self.events == other.events

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Delivery(view={self.view!r}, events={self.events!r})"


_new = object.__new__


class _Moment:
    """One position and its events, shared by every seat's ``Delivery`` of a move."""

    __slots__ = ("view", "state", "events", "_public")

    def __init__(self, view: Callable[[Any, int | None], View], state: Any, events: tuple[Event, ...]):
        self.view = view
        self.state = state
        self.events = events
        self._public: bool | None = None

    @property
    def public(self) -> bool:
        public = self._public
        if public is None:
            public = self._public = all(e.to is None for e in self.events)
        return public


@dataclass(frozen=True)
class Replayed:
    """One position of a replayed record: ``index`` 0 is the start, ``index`` i the
    position after move i; ``events`` are that move's events (all of them: the caller
    filters per seat); ``problem`` is a one-line description of the first move that does
    not replay (illegal, or its digest differs), and then the iteration ends."""

    index: int
    state: Any
    events: tuple[Event, ...] = ()
    problem: str | None = None


class _Step(tuple):
    """One applied move, for undo: ``before``, ``after``, ``seat``, ``action``, ``events``
    (a tuple, made in one call: a move makes one; a match keeps every one, so each is as
    few objects as can be).  ``barrier`` (why it may not be undone, or None) is asked of
    the game only when someone wants to undo: ``undo_barrier`` is pure and cheap."""

    __slots__ = ()
    before = property(itemgetter(1))
    after = property(itemgetter(2))
    seat = property(itemgetter(3))
    action = property(itemgetter(4))
    events = property(itemgetter(5))

    @property
    def barrier(self) -> str | None:
        game, before, after, seat, action, _ = self
        return game.undo_barrier(before, after, seat, action)


class Match:
    def __init__(self, game: Game, options: Any, seats: Sequence[SeatInfo], seed: int | None = None,
                 on_move: Callable[[Move], None] | None = None, practice: bool | None = None):
        """``seed=None`` draws a secret 128-bit seed; a given seed makes a practice game
        (its seed was known before play) unless ``practice`` says otherwise (a record
        being rebuilt keeps its own flag)."""
        if not game.min_players <= len(seats) <= game.max_players:
            raise ValueError(f"{game.title} takes {game.min_players}-{game.max_players} players, not {len(seats)}")
        levels = game.manifest.bot_levels if game.manifest is not None else ()
        for seat in seats:
            if seat.level and seat.level not in levels:
                raise ValueError(f"{game.title} has no bot level {seat.level[:20]!r} (it has {', '.join(levels)})")
        self.game = game
        self.options = game.parse_options(options)
        self.seats = list(seats)
        self.practice = seed is not None if practice is None else bool(practice)
        self.seed = new_seed() if seed is None else int(seed)
        self.state = game.setup(self.options, len(self.seats), self.seed)
        # The record is built when first read (``record``): its header's fields are taken
        # now, as they are, but the start is digested and the moves made from ``history``
        # only then (self-play and bots never read it).  Once built, ``act`` adds to it.
        self._record: GameRecord | None = None
        self._header = (game.slug, game.rules_version, options_data(self.options),
                        list(self.seats), self.seed, self.state, self.practice)
        self.history: list[_Step] = []
        self._audience: tuple[int | None, ...] = (*range(len(self.seats)), None)
        self._to_act: tuple[Any, Any] = (None, None)
        self._result: tuple[Any, Any] = (None, None)
        self.on_move = on_move

    # --- reading ---------------------------------------------------------------
    @property
    def record(self) -> GameRecord:
        """The game's record: its header and every move played, each with its digest."""
        record = self._record
        if record is None:
            slug, rules, options, seats, seed, start, practice = self._header
            record = self._record = GameRecord(
                game=slug, rules_version=rules, options=options, seats=seats, seed=seed,
                start_digest=digest(start), practice=practice,
                moves=[lazy_move(step[3], step) for step in self.history])
        return record

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def view(self, seat: int | None) -> View:
        return self.game.view(self.state, seat)

    def legal(self, seat: int) -> list[Any]:
        if seat not in self.to_act():
            return []
        return self.game.legal(self.view(seat))

    # Drivers ask who acts and whether the game is over before every move, and ``act``
    # asks again: both are pure functions of the state, remembered for the current one.
    def to_act(self) -> frozenset[int]:
        state, seen = self.state, self._to_act
        if seen[0] is state:
            return seen[1]
        who = self.game.to_act(state)
        self._to_act = (state, who)
        return who

    def result(self) -> Result | None:
        state, seen = self.state, self._result
        if seen[0] is state:
            return seen[1]
        result = self.game.result(state)
        self._result = (state, result)
        return result

    def digest(self) -> str:
        return digest(self.state)

    def events_for(self, seat: int | None) -> list[Event]:
        """Every event this seat has been shown so far, oldest first."""
        return [e for step in self.history for e in step.events if e.visible_to(seat)]

    # --- acting ----------------------------------------------------------------
    def submit(self, seat: int, action: Any) -> dict[int | None, Delivery]:
        """Apply ``seat``'s action; returns what every seat must now be shown."""
        return self.deliveries(self.act(seat, action))

    def act(self, seat: int, action: Any) -> list[Event]:
        """Apply ``seat``'s action and record it; returns its events (all of them).
        For drivers that read views themselves (hot-seat, self-play)."""
        before = self.state
        # ``result()`` and ``to_act()``, their remembered answers read in place: a driver
        # asked both of this state just before (one call less each, every move)
        seen = self._result
        if (seen[1] if seen[0] is before else self.result()) is not None:
            raise IllegalAction("The game is over.")
        seen = self._to_act
        if seat not in (seen[1] if seen[0] is before else self.to_act()):
            raise IllegalAction("It is not your turn.")
        game = self.game
        after, events = game.apply(before, seat, action)
        self.state = after
        step = _Step((game, before, after, seat, action, tuple(events)))  # (cheaper than tuple.__new__)
        self.history.append(step)
        # the record's move (its action's plain data and digest made when first read, from
        # the step), only if the record was built or someone is told of every move
        record = self._record
        if record is not None:
            move = lazy_move(seat, step)
            record.moves.append(move)
        elif self.on_move is None:
            return events
        else:
            move = self.record.moves[-1]  # (built now: this step's move is its last)
        if self.on_move is not None:
            self.on_move(move)
        return events

    def deliveries(self, events: Sequence[Event] = ()) -> dict[int | None, Delivery]:
        moment = _Moment(self.game.view, self.state, events if type(events) is tuple else tuple(events))
        out = {}
        for seat in self._audience:  # a delivery of the moment: its slots set in place
            d = _new(Delivery)
            d._view = d._events = None
            d._source = moment
            d._seat = seat
            out[seat] = d
        return out

    def undo_reason(self, seat: int) -> str | None:
        """Why ``seat`` may not undo now, or None if it may."""
        if not self.history:
            return "There is nothing to undo."
        last = self.history[-1]
        if last.seat != seat:
            return "You cannot undo another player's move."
        if last.barrier:
            return f"You cannot undo that move: {last.barrier}."
        return None

    def undo(self, seat: int) -> dict[int | None, Delivery]:
        reason = self.undo_reason(seat)
        if reason:
            raise IllegalAction(reason)
        step = self.history.pop()
        if self._record is not None:
            self._record.moves.pop()
        self.state = step.before
        return self.deliveries([Event("undo", {"seat": seat})])

    # --- records ---------------------------------------------------------------
    @staticmethod
    def replay(record: GameRecord, game: Game) -> Iterator[Replayed]:
        """Every position of a record, checking each digest: what ``atlantis replay`` and
        ``--verify`` read.  (Like ``act``, the only other place that calls ``apply``.)"""
        try:
            options = game.parse_options(record.options)
            state = game.setup(options, len(record.seats), record.seed)
        except ValueError as exc:
            yield Replayed(0, None, (), f"setup failed: {exc}")
            return
        if record.start_digest and digest(state) != record.start_digest:
            yield Replayed(0, state, (), "the starting position differs (different rules version or seed handling)")
            return
        yield Replayed(0, state)
        for i, move in enumerate(record.moves, start=1):
            try:
                action = game.codec.decode(move.action)
                state, events = game.apply(state, move.seat, action)
            except IllegalAction as exc:
                yield Replayed(i, state, (), f"{move_label(i, move)} is illegal: {exc.reason}")
                return
            got = digest(state)
            if got != move.digest:
                yield Replayed(i, state, tuple(events), f"{move_label(i, move)} gives digest {got}, record says {move.digest}")
                return
            yield Replayed(i, state, tuple(events))

    @classmethod
    def from_record(cls, record: GameRecord, game: Game) -> "Match":
        """Rebuild a match by replaying a record, checking every digest."""
        if record.game != game.slug:
            raise RecordError(f"record is for {record.game!r}, not {game.slug!r}")
        try:
            match = cls(game, record.options, record.seats, record.seed, practice=record.practice)
        except ValueError as exc:
            raise RecordError(f"record cannot be set up: {exc}") from None
        if record.start_digest and match.digest() != record.start_digest:
            raise RecordError("the starting position differs (another rules version?)")
        for i, move in enumerate(record.moves, start=1):
            try:
                match.submit(move.seat, game.codec.decode(move.action))
            except IllegalAction as exc:
                raise RecordError(f"{move_label(i, move)} is illegal: {exc.reason}") from None
            if match.record.moves[-1].digest != move.digest:
                raise RecordError(f"{move_label(i, move)} gives a different digest than the record")
        return match


def replay_states(record: GameRecord, game: Game) -> Iterator[tuple[int, Any, str | None]]:
    """``(index, state, problem)`` for the start and after each move (``Match.replay``)."""
    for step in Match.replay(record, game):
        yield step.index, step.state, step.problem
