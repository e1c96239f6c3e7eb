"""Atlantis: the actions and the options (what enters the rules from outside).

A turn is made of small steps (DESIGN.md), so ``legal()`` never lists more than a
couple of dozen actions:

* start of the turn: ``Sell`` a plate for cards (optional), then ``Choose`` a figure
  (or ``Pass`` when no figure can move);
* the move: ``Play`` one card at a time (another ``Choose`` switches figures before
  the first card); on a plate under a figure the next card must follow; on a free
  plate or the mainland the move stops by itself;
* water crossed: ``Bridge`` (build yours on a gap crossed) or ``NoBridge``, then
  ``PayPlate`` / ``PayCard`` one at a time until the water is covered.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core import ActionCodec


class Sell(NamedTuple):
    """Start of the turn: give up a collected plate of this value for half its value in cards."""

    value: int


class Choose(NamedTuple):
    """Choose which of your figures (0-2) moves this turn."""

    figure: int


class Play(NamedTuple):
    """Play a card of this colour: the figure goes on to the next plate of that colour."""

    colour: int


class Bridge(NamedTuple):
    """Build your bridge on the gap that begins at ``space`` (one the move crossed)."""

    space: int


class NoBridge(NamedTuple):
    """Cross the water by boat: pay for it and keep your bridge."""


class PayPlate(NamedTuple):
    """Pay water with one of your plates of this value."""

    value: int


class PayCard(NamedTuple):
    """Pay 1 water with a card of this colour from your hand."""

    colour: int


class Pass(NamedTuple):
    """No figure can move: pass and draw cards instead."""


ACTIONS = {
    "sell": Sell, "choose": Choose, "play": Play, "bridge": Bridge, "no_bridge": NoBridge,
    "pay_plate": PayPlate, "pay_card": PayCard, "pass": Pass,
}
CODEC = ActionCodec(ACTIONS)
NO_BRIDGE = NoBridge()
PASS = Pass()
