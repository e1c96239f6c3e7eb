"""Atlantis: the components and the route, as data (RULES-DECISIONS, "atlantis").

The route runs from Atlantis to the mainland over 53 spaces, numbered 0 (next to
Atlantis) to 52 (next to the mainland).  ``LAYOUT`` lists it as runs of
(plates per space, spaces): 10 double stacks, 10 single plates, 6 double stacks, one
water space, 6 double stacks, 10 single plates, 10 double stacks.

Plates: 7 colours; the 42 plates of the half nearer Atlantis hold, per colour, one
each of the values 1-6; the 42 of the half nearer the mainland, one each of 2-7.  A
plate is an int id: ``COLOUR_OF[id]``, ``VALUE_OF[id]``, ``HALF_OF[id]``.

Cards: 105 movement cards, 15 per colour; a card is its colour (0-6).
"""

from __future__ import annotations

# Plate and card colours: names and one letter each, so the route reads without colour.
# (None of the letters is a seat's letter: R, B, G, Y.)
COLOURS = ("amber", "coral", "jade", "lilac", "navy", "pearl", "teal")
LETTERS = ("A", "C", "J", "L", "N", "P", "T")
NCOLOURS = len(COLOURS)

# The route: (plates per space, how many spaces); 0 plates is the water space.
LAYOUT = ((2, 10), (1, 10), (2, 6), (0, 1), (2, 6), (1, 10), (2, 10))
START_HEIGHTS = tuple(h for h, n in LAYOUT for _ in range(n))
SPACES = len(START_HEIGHTS)                      # 53
ATLANTIS = -1                                     # where every figure starts
MAINLAND = SPACES                                 # where every figure wants to be
HALF_SPACES = (range(0, 26), range(27, SPACES))   # the two halves either side of the water

# Plate values per half, the same list for every colour.
HALF_VALUES = ((1, 2, 3, 4, 5, 6), (2, 3, 4, 5, 6, 7))


def _plates() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    colour, value, half = [], [], []
    for h, values in enumerate(HALF_VALUES):
        for c in range(NCOLOURS):
            for v in values:
                colour.append(c)
                value.append(v)
                half.append(h)
    return tuple(colour), tuple(value), tuple(half)


COLOUR_OF, VALUE_OF, HALF_OF = _plates()
PLATES = len(COLOUR_OF)                           # 84
HALF_PLATES = tuple(tuple(p for p in range(PLATES) if HALF_OF[p] == h) for h in range(2))
assert PLATES == sum(START_HEIGHTS) == 84
assert all(sum(START_HEIGHTS[i] for i in HALF_SPACES[h]) == len(HALF_PLATES[h]) for h in range(2))

# Cards, figures, bridges.
CARDS_PER_COLOUR = 15
CARDS = tuple(c for c in range(NCOLOURS) for _ in range(CARDS_PER_COLOUR))  # 105, sorted
FIGURES = 3
START_HAND = (4, 5, 6, 7)                         # by seat order

# Drawing at the end of a turn: by how many of your figures stand on the mainland.
DRAW_BY_MAINLAND = (1, 2, 3, 3)
PASS_DRAW = 2                                     # a player with no possible move
FINAL_DRAW = 4                                    # the player whose third figure arrives

# Selling a plate at the start of a turn (decision): one plate a turn, for half its value
# in cards, rounded down; a plate that would bring no card cannot be sold.
SALES_PER_TURN = 1


def sale_cards(value: int) -> int:
    return value // 2


# If nobody can move for this many turns in a row (every hand stuck and the pile and
# discards empty), the game ends as if the last figure had arrived (decision).
STALL_PASSES_PER_PLAYER = 2


def plate_label(plate: int) -> str:
    """``A3``: the colour's letter and the value."""
    return f"{LETTERS[COLOUR_OF[plate]]}{VALUE_OF[plate]}"


def space_name(space: int) -> str:
    if space == ATLANTIS:
        return "Atlantis"
    if space == MAINLAND:
        return "the mainland"
    return f"space {space + 1}"
