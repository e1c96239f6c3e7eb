"""Atlantis in words: event sentences, action names, the help page, the secrets told
at the end, and a plain text picture of a view (golden transcripts, replays)."""

from __future__ import annotations

from typing import Any, Sequence

from ..text import EventText, Telling, counted, whose_turn
from . import data
from . import route

HELP = f"""\
# Atlantis

**Goal.** Atlantis is sinking. Lead your three figures along the road of coloured
plates to the mainland, picking up plates on the way. At the end every plate you
hold scores its value and every card in your hand scores 1 point.

**The road.** From Atlantis it runs over 10 stacks of two plates, 10 single plates,
6 stacks of two, one space of water, 6 stacks of two, 10 single plates and 10 stacks
of two, then the mainland. Plates come in 7 colours, each shown with its letter:
{", ".join(f"{n} `{l}`" for n, l in zip(data.COLOURS, data.LETTERS))}. Only the top plate
of a stack can be seen; a stack of two is marked as such. In the half nearer
Atlantis each colour has one plate of every value 1-6, in the half nearer the
mainland one of every value 2-7.

**Setup.** Everyone has 3 figures in Atlantis and 1 bridge. There are 105 cards,
15 of each colour, in a face-down pile. The first player gets 4 cards, the second
5, the third 6, the fourth 7. Hands are secret; everyone sees how many cards each
player holds.

**Your turn.**

1. *Sell (optional).* Before you move you may give up one of your plates for half
   its value in cards from the pile, rounded down (a plate worth 1 cannot be sold).
2. *Move one figure.* Choose a figure and play a card: the figure goes forward to
   the next plate showing that colour. If a figure already stands there, play
   another card (any colour) and go on from there to the next plate of that
   colour, and so on: two figures never share a plate. If no plate of that colour
   lies ahead, the figure reaches the mainland, where any number may stand.
   When you choose a figure, the board shows every place it can reach with your
   cards, the cards each way needs, and the water it costs.
3. *Water.* An empty space between plates is water; touching water spaces form
   one gap. Crossing a gap costs the lower of the two top plates on either side of
   it; every gap crossed in a move is paid. A gap with a bridge is free for
   everyone, and the bridge grows when the gap grows.
   - *Your bridge:* once in the game, during a move that crosses water, you may
     build it on one of the gaps the move crosses.
   - *Paying:* give plates (their value) and cards (1 each, any colour), one at a
     time, until the cost is covered. No change is given: overpaying is lost, and
     the screen warns you before a choice that pays more than is owed.
   - You cannot start a move you could not pay for.
4. *Take a plate.* Your figure takes the first plate behind it that has no figure
   on it (water and bridges are skipped). Taking the top of a stack of two
   uncovers the plate below; taking a single plate leaves water, except at either
   end of the road, which simply gets shorter.
5. *Draw* 1 card, or 2 when one of your figures is on the mainland, 3 with two.

If none of your figures can move (no card gets one anywhere you can pay for), you
pass and draw 2 cards.

**The end.** When a player's third figure reaches the mainland, the game ends at
once: that player takes no plate for the move and draws 4 cards. Every other
figure still on the road goes to the mainland without taking plates, and its owner
pays the water on the way (bridges count) as minus points. Score: plate values + 1
per card - that water. The highest score wins; ties share the win.

**Our decisions where the rule text is silent.**

- *Plate values:* per colour, 1-6 in the half nearer Atlantis and 2-7 in the half
  nearer the mainland, each half shuffled on its own.
- *The plate under a stack's top* is unknown to everyone until uncovered.
- *Selling:* one plate a turn (an option of the game), only at the start of the
  turn, for half its value rounded down; not while the pile and the used cards
  are both empty (there would be nothing to get).
- *Which figure:* figures standing together in Atlantis are alike, so choosing
  one of them is one choice. Before your first card you may still switch to
  another figure.
- *A move stops by itself* as soon as the figure lands on a free plate or the
  mainland; on a plate under a figure you must play on.
- *Bridges* are built only on a gap the figure crosses in that move. When the
  plate between two gaps is taken, a bridge in either covers the whole new gap.
  A gap that reaches an end of the road is no longer water.
- *Passing* draws 2 cards, however many figures are on the mainland.
- *Drawing* counts the figures on the mainland after the move.
- *The last move:* the player whose third figure arrives pays the water of that move
  as usual, takes **no plate** for it (the game ends at once) and draws 4 cards.
- *At the end* nobody builds a bridge any more; the water is taken off the score.
- *Empty pile:* the used cards are shuffled into a new pile; when there are none,
  fewer cards are drawn. If every player passes twice in a row the game ends as
  above, every figure on the road paying its way in.
- *Undo* (`u`) takes back choosing a figure, a bridge or a plate given for water,
  never a card shown to the table or anything that drew a card or uncovered a plate.

**What the screen shows.** The road runs from `ATLANTIS` to `MAINLAND` in rows. A plate
is its colour's letter and its value on the colour (`A3` amber 3; `A` amber, `C` coral,
`J` jade, `L` lilac, `N` navy, `P` pearl, `T` teal); `:` after it, or `▀▀` under it, marks
a stack of 2 plates. `≈≈` is water, with the price to cross it below; `══` a bridge;
`·` a space gone from the road. Under a space stand the figures there (each seat by its
letter; underlined: the figure you point at) or `▲1`, a destination you pick with `1`.
Spaces the other players changed since your last move are tinted until you act again.
In the side panel: where each player's figures stand (`A` Atlantis, `M` mainland, or
the space number), then `c` cards, `p` plates and the score. `g` hides or shows the
legend under the road.
"""


def colour_name(c: int) -> str:
    return f"{data.COLOURS[c]} ({data.LETTERS[c]})"


def plate_name(plate: int) -> str:
    return f"{data.COLOURS[data.COLOUR_OF[plate]]} {data.VALUE_OF[plate]}"


def _cards(n: int) -> str:
    return counted(n, "card")


def describe_action(action: Any, view: Any = None) -> str:
    """The action in a few words (``view``, the actor's, is not needed here)."""
    name = type(action).__name__
    if name == "Sell":
        return f"sell a plate worth {action.value}"
    if name == "Choose":
        return f"choose figure {action.figure + 1}"
    if name == "Play":
        return f"play {colour_name(action.colour)}"
    if name == "Bridge":
        return f"build the bridge at {data.space_name(action.space)}"
    if name == "NoBridge":
        return "cross without a bridge"
    if name == "PayPlate":
        return f"pay with a plate worth {action.value}"
    if name == "PayCard":
        return f"pay with a {data.COLOURS[action.colour]} card"
    if name == "Pass":
        return "pass"
    return repr(action)


def _bridge(telling: Telling) -> str:
    first, last = telling.data["first"], telling.data["last"]
    span = data.space_name(first) if first == last else f"spaces {first + 1}-{last + 1}"
    return f"{telling.who} built a bridge over {span}."


def _paid(telling: Telling) -> str:
    plate = telling.data["plate"]
    what = f"the plate {plate_name(plate)}" if plate >= 0 else f"a {data.COLOURS[telling.data['colour']]} card"
    return f"{telling.who} paid with {what}."


def _took(telling: Telling) -> str:
    uncovered = telling.data["uncovered"]
    under = f"; {plate_name(uncovered)} lies beneath" if uncovered >= 0 else ""
    return f"{telling.who} took {telling['plate']} from {telling['space']}{under}."


def _drew_cards(telling: Telling) -> str:
    return f"{telling.who} drew: " + ", ".join(data.COLOURS[card] for card in telling.data["cards"]) + "."


def _final(telling: Telling) -> str:
    names, debts = telling.names, telling.data["debts"]
    parts = [f"{names[seat]} {score}" + (f" (water -{debts[seat]})" if debts[seat] else "")
             for seat, score in enumerate(telling.data["scores"])]
    winners = " and ".join(names[w] for w in telling.data["winners"])
    return "Game over. " + ", ".join(parts) + f". Winner: {winners}."


EVENT_TEXT = EventText(
    templates={
        "chose": "{who} chose figure {figure} (at {space}).",
        "played": "{who} played {colour}: on to {to}.",
        "moved": "{who} moved figure {figure} from {from} to {to}.",
        "water": "{who} crossed water: {cost} to pay.",
        "bridge": _bridge,
        "no_bridge": "{who} crossed by boat.",
        "paid": _paid,
        "overpaid": "{who} overpaid by {by}.",
        "took": _took,
        "sold": "{who} sold {plate} for {cards}.",
        "passed": "{who} could not move and passed.",
        "drew": "{who} drew {count}.",
        "drew_cards": _drew_cards,
        "reshuffled": "The used cards were shuffled into a new pile ({count}).",
        "turn": whose_turn,
        "final": _final,
        "undo": "{who} took back a step.",
    },
    fields={
        "figure": lambda figure: figure + 1,
        "space": data.space_name, "from": data.space_name, "to": data.space_name,
        "colour": colour_name,
        "plate": plate_name,
        "count": _cards,
        "cards": _cards,
    },
)


def _plate_words(plate: int) -> str:
    return f"{data.COLOURS[data.COLOUR_OF[plate]]} {data.VALUE_OF[plate]}"


def _colour_counts(cards: Sequence[int]) -> str:
    """'2 amber, 1 teal' (in colour order)."""
    return ", ".join(f"{cards.count(c)} {data.COLOURS[c]}" for c in range(data.NCOLOURS) if c in cards)


def reveal(state: Any, names: Sequence[str]) -> list[str]:
    """The end in sentences: where each player's points came from (plates by value, one
    point a card, less the water owed by figures left behind), every hand, the draw pile
    and the plates still hidden under the tops."""
    lines = []
    if state.winners:
        won = " and ".join(names[w] for w in state.winners)
        why = f" ({state.end_reason})" if state.end_reason else ""
        lines.append(f"{won} won{why}: a plate scores its value, a card in hand 1 point, "
                     "less the water owed by figures that had not reached the mainland.")
    for p in range(state.players):
        plates, cards, debt = state.plates[p], len(state.hands[p]), state.debts[p]
        worth = sum(data.VALUE_OF[plate] for plate in plates)
        total = worth + cards - debt
        text = (f"{names[p]}: {counted(len(plates), 'plate')} worth {worth}"
                + (f" ({', '.join(_plate_words(plate) for plate in plates)})" if plates else "")
                + f", {_cards(cards)} worth {cards}")
        if debt:
            text += f", less {debt} water owed to bring the last figures to the mainland"
        lines.append(text + f": {counted(total, 'point')}.")
    for p, hand in enumerate(state.hands):
        lines.append(f"{names[p]} held " + (f"{_cards(len(hand))}: {_colour_counts(list(hand))}."
                                          if hand else "no card."))
    pile = list(state.pile)
    lines.append(f"The draw pile held {_cards(len(pile))}" + (f": {_colour_counts(pile)}." if pile else "."))
    for half, plates in enumerate(state.unseen):
        where = "Atlantis" if half == 0 else "mainland"
        lines.append(f"Still hidden under the top plates on the {where} half: "
                     + (", ".join(_plate_words(plate) for plate in plates) or "none") + ".")
    return lines


def render_view(view: Any, names: Sequence[str]) -> str:
    """An exact text picture of one seat's view: the road in rows of 10 spaces."""
    figure_at: dict[int, str] = {}
    for seat, fs in enumerate(view.figures):
        for pos in fs:
            figure_at[pos] = figure_at.get(pos, "") + names[seat][0]
    first, last = route.ends(view.heights)
    cells = []
    for i in range(data.SPACES):
        if view.heights[i]:
            cell = data.plate_label(view.tops[i]) + (":" if view.heights[i] == 2 else ".")
        elif first <= i <= last:
            g = route.gap_at(view, i)
            cell = "=br" if g and g.bridged else "~~~"
        else:
            cell = "   "
        cells.append(cell + (figure_at.get(i, "")[:1] or " "))
    lines = [f"Atlantis[{figure_at.get(data.ATLANTIS, '')}]"]
    for row in range(0, data.SPACES, 10):
        lines.append(f"{row + 1:>2} " + " ".join(cells[row:row + 10]))
    lines.append(f"mainland[{figure_at.get(data.MAINLAND, '')}]")
    seat = "spectator" if view.seat is None else names[view.seat]
    lines.append(f"seat={seat} turn={names[view.turn]} phase={view.phase} round={view.round}"
                 f" mover={view.mover} start={view.start} cursor={view.cursor}"
                 f" played={list(view.played)} owed={view.owed} paid={view.paid} sold={view.sold}")
    for p in range(view.players):
        plates = " ".join(data.plate_label(plate) for plate in view.plates[p])
        lines.append(f"{names[p]}: figures={list(view.figures[p])} bridge={view.bridges[p]}"
                     f" cards={view.hand_sizes[p]} score={view.scores[p]} plates=[{plates}]")
    lines.append(f"pile={view.pile_count} discard={len(view.discard)} passes={view.passes}")
    if view.hand is not None:
        lines.append("hand=" + " ".join(data.LETTERS[c] for c in view.hand))
    if view.winners:
        lines.append(f"winners={[names[w] for w in view.winners]} debts={list(view.debts)} ({view.end_reason})")
    return "\n".join(lines)
