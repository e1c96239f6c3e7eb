"""End of Atlantis: what enters the rules from outside -- the actions a seat takes
and the game options -- both validated by pydantic wherever they come from (the
keyboard, the wire, a record file).

Every decision is one small action (DESIGN.md: big choices are made of small steps):
laying five voting cards is five ``LayCard``; a card that puts three refugees aboard
is one ``Target`` per ship.  The codec's kind names ("bid", "order", ...) are what
records store.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core import ActionCodec
from . import data


class Bid(NamedTuple):
    """Senate, hidden and open votes: ``tokens`` from behind the screen (0 passes an open vote)."""

    tokens: int


class Faction(NamedTuple):
    """Take a Faction token (``faction`` is its space, 0-6 left to right)."""

    faction: int


class Pass(NamedTuple):
    """Pass, do not use an ability, play no card, stop placing: whatever the stage offers."""


class PlaySpecial(NamedTuple):
    """Factions phase, your turn: play a special card (Night Boarding names a ``ship``)."""

    card: int
    ship: int = -1


class UseAbility(NamedTuple):
    """End of the Factions phase: use the ability of the Faction token you hold."""


class Discard(NamedTuple):
    """The Archont discards a Politics card."""

    card: int


class TakeSpecial(NamedTuple):
    """Take a special card: a face-up one (``slot`` 0-2, tactical play) or the deck (``DECK_SLOT``)."""

    slot: int


DECK_SLOT = 3


class LayCard(NamedTuple):
    """Lay the next voting card of your row; the Oraklos may keep it ``face_down``."""

    card: int
    face_down: bool = False


class Demagogos(NamedTuple):
    """The Demagogos looks at ``player``'s hidden bid, or makes them bid first in an open vote."""

    player: int


class Play(NamedTuple):
    """A winner plays the card of the vote from ``source``'s row (their own or the left
    player's), with a ``special`` card riding on it, or -1."""

    source: int
    special: int = -1


class Target(NamedTuple):
    """Where the card being carried out (or Basileus, or We're All In This Together) acts:
    a ``ship`` and, where a cube leaves it, the ``colour`` of that cube (0-4 a player,
    5 neutral).  Betrayal of the Senate names no ship (-1) and the colour of the
    player whose tokens it removes."""

    ship: int
    colour: int = -1


class Done(NamedTuple):
    """Stop discarding refugees (Betrayal)."""


ACTIONS = {
    "bid": Bid, "faction": Faction, "pass": Pass, "special": PlaySpecial, "use": UseAbility,
    "discard": Discard, "take_special": TakeSpecial, "order": LayCard, "demagogos": Demagogos,
    "play": Play, "target": Target, "done": Done,
}
CODEC = ActionCodec(ACTIONS)
PASS = Pass()
DONE = Done()
USE_ABILITY = UseAbility()

# The frequent actions made once: ``legal()`` hands these out, and ``apply`` finds the one
# a bot or the screen picked from that list by identity before comparing any values.
BIDS = tuple(Bid(k) for k in range(data.CUBES + 1))       # a bid never exceeds a player's 20 cubes
LAY = tuple(LayCard(c) for c in range(len(data.CARD_KIND)))
LAY_FACE_DOWN = tuple(LayCard(c, True) for c in range(len(data.CARD_KIND)))
TAKE = tuple(Faction(f) for f in range(len(data.FACTIONS)))
SHIP_TARGETS = tuple(Target(i) for i in range(5))


# --- options ---------------------------------------------------------------------------
def parse_ships(spec: str) -> tuple[int, ...]:
    """'A+,B,C,D+,E' -> ship tiles in board order (see ``board_order``); each of the 10
    tiles at most once, 1-5 ships.  A bad entry is named in the message."""
    spec = spec.replace(" ", "").upper()
    if not spec:
        return ()
    out: list[int] = []
    for item in spec.split(","):
        if not item:
            raise ValueError("a ship letter is missing between two commas")
        letter, plus = item[0], item[1:]
        if letter not in data.SHIP_LETTERS:
            raise ValueError(f"{letter!r} is not a ship: use the letters A-E"
                             " (with + for the advanced tile, e.g. A+,B,C,D+,E)")
        if plus not in ("", "+"):
            raise ValueError(f"{item!r}: write a ship as its letter, with + for the advanced tile")
        tile = data.SHIP_LETTERS.index(letter) + (data.ADVANCED if plus else 0)
        if tile in out:
            raise ValueError(f"ship {item} is listed twice")
        out.append(tile)
    if not 1 <= len(out) <= 5:
        raise ValueError(f"choose 1 to 5 ships, not {len(out)}")
    return board_order(out)


def board_order(tiles: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Ships stand in port alphabetically from left to right (rule book, setup), the
    starting tile before the advanced one of the same letter: a ship's index in the
    state is its board position, whatever order the ships were chosen in (every "ties
    to the left" rule reads that index)."""
    return tuple(sorted(tiles, key=lambda t: (t % data.ADVANCED, t >= data.ADVANCED)))
