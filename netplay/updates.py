"""A table's updates out: each seat's view and events as the bytes of one ``update``
frame (a ``HostTable`` has an ``Updates``: ``table.updates``).

A view is sent only as ``messages.ViewData``, made only from a ``View``.  Per state of
the table (``fresh``), what the seats' views share is packed once (``_memo``), each
event is converted once and each list of events packed once (``_events``), and the
seats to act too (``_acting_bytes``).  ``frames`` makes a move's frames for the seats,
to be sent back to back.
"""

from __future__ import annotations

from typing import Any

from engine.match import Delivery

from . import messages
from .peer import Peer

_ViewData, _update_with_tail, _update_tail, _pack_list = messages.ViewData, messages.update_with_tail, messages.update_tail, messages.pack_list


class Updates:
    """The update frames of one table: its ``match``, its seats (``slots``: each keeps the
    version of its view and its peer), the spectators' shared view version (``public``)
    and its ``spectators``.  The table owns them all; the lists are its own, read here."""

    def __init__(self, match: Any, slots: list[Any], public: Any, spectators: list[Peer]):
        self.match = match
        self.slots = slots
        self.public = public
        self.spectators = spectators
        self.fresh()

    def _frame(self, holder: Any, delivery: Delivery, seat: int | None, resync: bool = False) -> bytes | None:
        """The update frame for ``seat`` (None: every spectator), or None if it has no news:
        bytes (``messages.update_bytes``) of ``ViewData`` made from the seat's ``View``, packed
        sharing what the seats' views share (``self._memo``, one state), and of the events
        and seats to act, packed and joined once per move (``_events``, ``_acting_bytes``)."""
        data = _ViewData(delivery.view, self._memo)
        packed = data.packed
        if packed != holder.last_view:  # (the bytes of the view it was last sent)
            holder.last_view = packed
            holder.version += 1
        events = delivery.events
        if not events and not resync and holder.last_sent == holder.version:
            return None
        holder.last_sent = holder.version
        if resync:
            tail = _update_tail(self._events(events, seat), self._acting_bytes(), True)
        else:
            tail = self._events(events, seat, True)
        frame = _update_with_tail(holder.version, data, tail, getattr(holder, "acked", 0))
        if self.update_sizes is not None and not resync:
            self.update_sizes.append(len(frame))
        return frame

    def frames(self, deliveries: dict[int | None, Delivery]) -> list[tuple[Peer, bytes]]:
        """Every connected seat's and spectator's update frame for a move (``_frame`` for
        each, the seats' inline: the host's hot path), in the order they are to be sent."""
        memo, events_of, sizes = self._memo, self._events, self.update_sizes
        out = []
        seen = tail = None  # (the seats' events tuple met last, and its tail if public)
        for slot in self.slots:
            conn = slot.conn
            if conn is None:
                continue
            delivery = deliveries[slot.index]
            data = _ViewData(delivery.view, memo)
            packed = data._packed  # (made with a memo: packed already)
            if packed != slot.last_view:  # (the bytes of the view it was last sent)
                slot.last_view = packed
                slot.version += 1
            events = delivery.events
            if not events and slot.last_sent == slot.version:
                continue
            slot.last_sent = version = slot.version
            if events is not seen:  # (a move's public events: one tuple for every seat, one tail)
                tail = events_of(events, slot.index, True)
                seen = events if self._public else None
            frame = _update_with_tail(version, data, tail, slot.acked)
            if sizes is not None:
                sizes.append(len(frame))
            out.append((conn, frame))
        if self.spectators:  # one public view for all of them: encoded once, sent to each
            frame = self._frame(self.public, deliveries[None], None)
            if frame is not None:
                out.extend((conn, frame) for conn in self.spectators)
        return out

    def _events(self, events: tuple, seat: int | None, tail: bool = False) -> bytes:
        """The packed list of the ``events`` ``seat`` may see (``tail``: joined into the
        update's bytes after the view, ``messages.update_tail``): each event converted once
        per move, a list of the same events packed once (public events: for every seat;
        the seats' own deliveries are tuples of their own, so they are known by content)."""
        key = tuple(map(id, events))
        hit = self._packed_events.get(key)
        if hit is not None and (hit[1] or hit[2] == seat):
            self._public = hit[1]
            if not tail:
                return hit[3]
            joined = hit[4]
            if joined is None:
                joined = hit[4] = _update_tail(hit[3], self._acting_bytes())
            return joined
        wired, out, public = self._wired, [], True
        for e in events:
            if e.to is not None:
                public = False
                if seat is None or seat not in e.to:
                    continue
            w = wired.get(id(e))
            if w is None or w[0] is not e:
                w = wired[id(e)] = (e, messages.WireEvent.wire(e))
            out.append(w[1])
        packed = _pack_list(out)
        joined = _update_tail(packed, self._acting_bytes()) if tail else None
        if hit is None or public:  # (the events themselves are kept: their ids stay theirs)
            self._packed_events[key] = [events, public, seat, packed, joined]
        self._public = public
        return joined if tail else packed

    # One state of the table: the packed wire form of its views' shared parts, of its
    # events and its seats to act (cleared by ``fresh`` whenever the state changes).
    _memo: dict = {}  # (key 0: the memo of the state before, for what the move did not touch)
    _wired: dict = {}
    _packed_events: dict = {}
    _to_act: list[int] | None = None
    _public = False  # whether the events ``_events`` last packed are every seat's alike
    _to_act_bytes: bytes | None = None
    _state: Any = None  # the state the above belong to
    _dropped: Any = None  # the memo of two states back (and the last state's events), to free

    def fresh(self) -> None:
        """The state of the table changed: what the old one shared is set aside (freed by
        ``sent``, once its frames are out) and the new one starts empty."""
        older = self._memo
        # (one state back only; what is dropped is freed by ``publish`` after its sends)
        self._dropped = (older.pop(0, None), self._wired, self._packed_events)
        self._memo, self._wired, self._packed_events = {0: older} if older else {}, {}, {}
        self._to_act = self._to_act_bytes = None
        self._state = self.match.state

    def acting(self) -> list[int]:
        """The seats to act, sorted (once per state)."""
        if self._to_act is None or self._state is not self.match.state:
            if self._state is not self.match.state:
                self.fresh()
            self._to_act = sorted(self.match.to_act())
        return self._to_act

    def _acting_bytes(self) -> bytes:
        acting = self.acting()  # (first: a new state clears the bytes)
        self._to_act_bytes = self._to_act_bytes or _pack_list(acting)
        return self._to_act_bytes

    update_sizes: list[int] | None = None  # bench: the byte size of every update sent

    def move_frames(self, deliveries: dict[int | None, Delivery]) -> list[tuple[Peer, bytes]]:
        """A move's frames (``frames``) for the new state it made."""
        self._public_resync = None
        self.fresh()
        return self.frames(deliveries)

    def sent(self) -> None:
        """A move's frames are out: what the state before shared may be freed."""
        self._dropped = None

    def resync(self, conn: Peer) -> None:
        """The seat's full view and whole event log (on join, reconnect, stale action).
        Spectators all get the same frame: it is made once per state of the table."""
        seat = conn.seat
        if seat is None and self._public_resync is not None:
            conn.send_bytes(self._public_resync)
            return
        holder = self.slots[seat] if seat is not None else self.public
        if self._state is not self.match.state:
            self.fresh()  # (no publish has run since the state changed)
        log_events = tuple(self.match.events_for(seat))
        delivery = Delivery(self.match.view(seat), log_events)
        frame = self._frame(holder, delivery, seat, resync=True)
        if seat is None:
            self._public_resync = frame
        if frame is not None:
            conn.send_bytes(frame)

    _public_resync: bytes | None = None  # the spectators' resync frame, until the state changes
