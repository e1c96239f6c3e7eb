"""What a table knows of a connection at it: ``Peer``.

A table (``netplay.table``, its frames ``netplay.updates``) sends through its peers and
reads their seat; it never sees a socket or a session.  ``netplay.conn.Conn`` is one; a
test or the bench may hand a table any object of this shape.
"""

from __future__ import annotations

from typing import Protocol

from . import messages


class Peer(Protocol):
    """One connection as its table sees it."""

    seat: int | None  # the seat it holds (None: it watches), set by the table that attaches it
    spectator: bool   # it watches (set by the table that attaches it)
    closed: bool
    said_bye: bool    # it left on purpose: before the start its seat is given up
    seats_gen: int    # the table's seat-list generation it was last sent (the table keeps it)
    name: str         # a spectator's name for its chat lines (cleaned)
    errors: int       # bad frames it sent (too many: it is cut off)

    def send(self, msg: messages.Msg) -> None: ...
    def send_bytes(self, data: bytes) -> None: ...
    def error(self, code: str, message: str, fatal: bool = False, ack: int | None = None) -> None: ...
