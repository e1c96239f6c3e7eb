"""What the Atlantis screen says: the choices' words, the turn line and the players
panel.  Pure functions of the view (and of the names and the room the panel has)."""

from __future__ import annotations

import textwrap
from typing import Any, Callable, Sequence

from rich.style import Style
from rich.text import Text

from engine.atlantis import data
from engine.text import counted

from ..seat_labels import SEAT_LETTERS, game_over_line, seat_text


STEP_NAMES = {
    "start": "Step 1/4 · figure (f), then destination (1-9)",
    "move": "Step 2/4 · on its way: pick the destination",
    "bridge": "Step 3/4 · water: your bridge, or by boat",
    "pay": "Step 4/4 · pay: plates (value), cards (1)",
}


#: From this width the side panel is wide enough (48) for the players in full words
#: and the route still has its three rows of big spaces beside it.
WIDE = 160
#: From this size (width, height) the whole legend stands beside the choices and the
#: steps of a turn under them (the route in three rows above).
ROOMY = (150, 44)

#: The steps of a turn in sentences (a roomy terminal shows them under the choices):
#: (the phases it covers, the words).
TURN_GUIDE = (
    (("start",), "1 Sell a plate for cards if you like, then choose a figure and where it "
                 "goes: each card moves it on to the next plate of that card's colour."),
    (("move",), "2 On a plate under another figure: play on to a free plate."),
    (("bridge",), "3 Water on the way: build your one bridge on a gap, or go by boat."),
    (("pay",), "4 Pay the water: a plate counts its value, a card 1; no change is given."),
    ((), "Then the figure takes the first free plate behind it, and you draw a card "
         "(more with figures on the mainland)."),
)


def turn_guide(phase: str, view_phase: str, width: int = 60) -> Text:
    """How a turn goes, wrapped to ``width`` under a hanging indent, the step under way
    marked ``▶`` (``phase`` is the seat's step, "wait" when another seat is to play)."""
    out = Text("How a turn goes", Style(bold=True))
    if view_phase != "over" and phase == "wait":
        out.append("  (yours, when it is your turn)", Style(dim=True))
    for phases, words in TURN_GUIDE:
        now = phase in phases
        for i, line in enumerate(textwrap.wrap(words, max(20, width - 5))):
            out.append("\n" + ("▶ " if now and i == 0 else "  ") + ("  " if i and words[0].isdigit() else ""),
                       Style(bold=True))
            out.append(line, Style(bold=now, dim=not now and phase != "wait"))
    return out


def place_words(pos: int) -> str:
    """A figure's place in words: Atlantis, space 12, the mainland."""
    if pos == data.ATLANTIS:
        return "Atlantis"
    if pos == data.MAINLAND:
        return "the mainland"
    return f"space {pos + 1}"


def figures_words(positions: Sequence[int]) -> str:
    """"Atlantis ×2, space 12": a player's figures, those on one place counted."""
    counts: dict[int, int] = {}
    for pos in sorted(positions, key=lambda p: (p != data.ATLANTIS, p)):
        counts[pos] = counts.get(pos, 0) + 1
    return ", ".join(place_words(p) + (f" ×{n}" if n > 1 else "") for p, n in counts.items())


def where(pos: int) -> str:
    """A figure's place in a few characters: A (Atlantis), 12 (space 12), M (mainland)."""
    if pos == data.ATLANTIS:
        return "A"
    if pos == data.MAINLAND:
        return "M"
    return str(pos + 1)


def destination_words(place: str, cards: Sequence[str], water: int, bridge_water: int,
                      more: int, width: int) -> str:
    """A destination choice in the fewest words that fit ``width``: where, by which
    cards, what water it costs (and with your bridge), how many other ways are below."""
    def form(then: str, long: bool, note: bool) -> str:
        out = f"→ {place}: {then.join(cards)} · "
        if not water:
            out += "no water"
        elif long:
            out += f"water {water}" + (f" ({bridge_water} with bridge)" if bridge_water != water else "")
        else:
            out += f"water {water}" + (f" (bridge {bridge_water})" if bridge_water != water else "")
        if more and note:
            out += (f" · or {counted(more, 'more way')} below" if long
                    else f" · +{counted(more, 'way')} below")
        return out

    forms = [form(" then ", True, True), form(" then ", False, True), form(",", False, True),
             form(",", False, False)]
    return next((f for f in forms if len(f) <= width), forms[-1])


# --- side panel ------------------------------------------------------------------------------
def turn_line(view: Any, legal: list[Any], names: Sequence[str], waiting: str) -> Text:
    """Whose turn it is, and who the table waits for."""
    if view.phase == "over":
        return game_over_line(names, view.winners, f"wins: {view.end_reason}.")
    out = Text()
    if legal:
        out.append("Your turn ")
        out.append_text(seat_text(view.turn, names[view.turn]))
        return out
    out.append_text(seat_text(view.turn, names[view.turn]))
    out.append(" to play")
    if waiting:
        out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
    return out

def players_panel(view: Any, names: Sequence[str], width: int, colour_style: Callable[[int], Style]) -> Text:
    """Every player's figures, cards, plates and score, in short (full words from
    ``WIDE`` columns, the plates in ``colour_style`` of their colour)."""
    if width >= WIDE:
        return players_table(view, names, colour_style)
    out = Text()
    for p in range(view.players):
        out.append("▶" if p == view.turn and view.phase != "over" else " ")
        out.append_text(seat_text(p, names[p][:5].ljust(5)))
        figs = ",".join(where(pos) for pos in sorted(view.figures[p]))
        # (26 columns at most: the narrow panel's room when its scroll bar shows)
        out.append(f" {figs:<8}{view.hand_sizes[p]:>2}c{len(view.plates[p]):>2}p{view.scores[p]:>3}\n")
    built = [SEAT_LETTERS[p] for p in range(view.players) if view.bridges[p] >= 0]
    out.append("A Atlantis · M mainland\nc cards · p plates · score\n", Style(dim=True))
    out.append(f"Bridges built: {' '.join(built) or 'none'}\n", Style(dim=True))
    out.append(f"Draw pile {view.pile_count} · used {len(view.discard)}\nRound {view.round}",
               Style(dim=True))
    if view.phase == "over" and any(view.debts):
        out.append("\nWater owed at the end: " + ", ".join(
            f"{SEAT_LETTERS[p]} -{d}" for p, d in enumerate(view.debts) if d), Style(dim=True))
    return out

def players_table(view: Any, names: Sequence[str], colour_style: Callable[[int], Style]) -> Text:
    """The players in full words (a wide side panel): cards, plates and score in
    columns, then each player's figures, plates and bridge on lines of their own."""
    dim = Style(dim=True)
    out = Text()
    out.append(f"  {'Player':<10} {'Cards':>5} {'Plates':>6} {'Score':>5}\n", dim)
    for p in range(view.players):
        out.append("▶ " if p == view.turn and view.phase != "over" else "  ")
        out.append_text(seat_text(p, names[p][:8].ljust(8)))
        out.append(f" {view.hand_sizes[p]:>5} {len(view.plates[p]):>6} {view.scores[p]:>5}\n")
        out.append("    figures: ", dim)
        out.append(figures_words(view.figures[p]) + "\n")
        if view.plates[p]:
            out.append("    plates: ", dim)
            for plate in view.plates[p]:
                out.append(data.plate_label(plate), colour_style(data.COLOUR_OF[plate]))
                out.append(" ")
            out.append(f"(worth {sum(data.VALUE_OF[q] for q in view.plates[p])})\n", dim)
        out.append("    bridge: ", dim)
        out.append((f"built, on the water at space {view.bridges[p] + 1}\n" if view.bridges[p] >= 0
                    else "not yet built\n"), dim)
    out.append(f"Draw pile {counted(view.pile_count, 'card')} · {len(view.discard)} used · round {view.round}\n",
               dim)
    out.append("Score: plate values + 1 per card.", dim)
    if view.phase == "over" and any(view.debts):
        out.append("\nWater owed at the end: " + ", ".join(
            f"{names[p]} -{d}" for p, d in enumerate(view.debts) if d), dim)
    return out
