"""What every card or tile game needs, written once.

* Tuple helpers: states hold tuples (see the state discipline in ``core``), so
  "change one entry" is a new tuple: ``put``, ``bump``, ``without``.
* ``Pile``: drawing from a face-down pile, reshuffling the discards when it runs out,
  and the events that go with it: a public "drew" (who, how many) and a private
  "drew_<noun>" (what) for the drawer alone.
* ``redeal_hidden``: for the leak tests (DESIGN.md, "Proving that secrets stay
  secret"): shuffle every card a seat has not seen among the other hands and the pile.
* ``SingleActorTurns``: ``to_act`` and ``result`` for games where one seat acts at a
  time and the state says whose turn it is and who won.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from .core import Event, Result
from .rng import Rng
from .stages import NOBODY, whose_turn


# --- tuple helpers ------------------------------------------------------------------------
def put(t: tuple, i: int, v: Any) -> tuple:
    """``t`` with entry ``i`` replaced by ``v``."""
    return t[:i] + (v,) + t[i + 1:]


def bump(t: tuple, i: int, delta: int) -> tuple:
    """``t`` with ``delta`` added to entry ``i``."""
    return t[:i] + (t[i] + delta,) + t[i + 1:]


def without(t: tuple, x: Any) -> tuple:
    """``t`` less the first ``x`` (``ValueError`` if there is none)."""
    i = t.index(x)
    return t[:i] + t[i + 1:]


# --- piles ------------------------------------------------------------------------------------
class Drawn(NamedTuple):
    """What ``Pile.draw`` gives back: the cards, the pile and discards after, the RNG."""

    cards: tuple
    pile: tuple
    discard: tuple
    rng: Rng
    events: list[Event]


class Pile:
    """How a game draws from a face-down pile.

    ``noun`` names what is drawn in the private event (``drew_tiles`` with ``tiles``).
    ``order``: ``"top"`` keeps the pile in a shuffled order and draws from the front
    (the discards are shuffled into a new pile when it runs out); ``"random"`` keeps
    the pile as an unordered (sorted) multiset and draws a random card each time
    (nobody can learn an order that does not exist; the discards simply join it).
    """

    def __init__(self, noun: str, order: str = "top"):
        if order not in ("top", "random"):
            raise ValueError("order is 'top' or 'random'")
        self.noun = noun
        self.order = order

    def draw(self, pile: tuple, discard: tuple, count: int, rng: Rng, seat: int) -> Drawn:
        """``seat`` draws up to ``count`` cards (fewer when pile and discards run out)."""
        events: list[Event] = []
        got: list[Any] = []
        if self.order == "top":
            while len(got) < count:
                if not pile:
                    if not discard:
                        break
                    pile, rng = rng.shuffled(discard)
                    discard = ()
                    events.append(Event("reshuffled", {"count": len(pile)}))
                take = min(count - len(got), len(pile))
                got.extend(pile[:take])
                pile = pile[take:]
        else:
            deck = list(pile)
            for _ in range(count):
                if not deck:
                    if not discard:
                        break
                    deck = sorted(discard)
                    discard = ()
                    events.append(Event("reshuffled", {"count": len(deck)}))
                i, rng = rng.below(len(deck))
                got.append(deck.pop(i))
            pile = tuple(deck)
        cards = tuple(got)
        if cards:
            events.append(Event("drew", {"seat": seat, "count": len(cards)}))
            events.append(Event(f"drew_{self.noun}", {"seat": seat, self.noun: cards}, to=(seat,)))
        return Drawn(cards, pile, discard, rng, events)


# --- leak tests -----------------------------------------------------------------------------
def redeal_hidden(hands: Sequence[tuple], pile: tuple, seat: int | None, rng: Rng,
                  keep_sorted: bool = False) -> tuple[tuple[tuple, ...], tuple, Rng]:
    """Shuffle every card ``seat`` cannot see (the other hands and the pile) among the
    same places, keeping every hand's size.  ``keep_sorted``: hands (and the pile)
    are kept sorted, for games that store them so."""
    hidden = [c for s, h in enumerate(hands) if s != seat for c in h] + list(pile)
    mixed, rng = rng.shuffled(hidden)
    out, i = [], 0
    for s, h in enumerate(hands):
        if s == seat:
            out.append(h)
            continue
        new = tuple(mixed[i:i + len(h)])
        out.append(tuple(sorted(new)) if keep_sorted else new)
        i += len(h)
    rest = tuple(mixed[i:])
    return tuple(out), (tuple(sorted(rest)) if keep_sorted else rest), rng


# --- turns ------------------------------------------------------------------------------------
class SingleActorTurns:
    """For a game whose state has ``phase`` (``"over"`` at the end), ``turn`` (the seat
    to act), ``players``, ``winners`` and ``end_reason``: winners share the win."""

    def to_act(self, state: Any) -> frozenset[int]:
        if state.phase == "over":
            return NOBODY
        return whose_turn(state)

    def result(self, state: Any) -> Result | None:
        if state.phase != "over":
            return None
        scores = tuple(1.0 if s in state.winners else 0.0 for s in range(state.players))
        return Result(scores, state.winners, state.end_reason)
