"""What the Atlantis screen says in the side panel, and why a key does nothing now (a
mixin of ``AtlantisScreen``, which provides the view, the legal moves and the choices)."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from engine.atlantis import data as D

from ..screens.common import game_over_line
from ..seats import SEAT_LETTERS, seat_text


STEP_NAMES = {
    "start": "Step 1/4 · figure (f), then destination (1-9)",
    "move": "Step 2/4 · on its way: pick the destination",
    "bridge": "Step 3/4 · water: your bridge, or by boat",
    "pay": "Step 4/4 · pay: plates (value), cards (1)",
}


def where(pos: int) -> str:
    """A figure's place in a few characters: A (Atlantis), 12 (space 12), M (mainland)."""
    if pos == D.ATLANTIS:
        return "A"
    if pos == D.MAINLAND:
        return "M"
    return str(pos + 1)


class AtlantisWords:
    # --- side panel ----------------------------------------------------------------------
    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        names = self.link.names
        if view.phase == "over":
            return game_over_line(names, view.winners, f"wins: {view.end_reason}.")
        out = Text()
        if legal:
            out.append("Your turn ")
            out.append_text(seat_text(view.turn, names[view.turn]))
            return out
        out.append_text(seat_text(view.turn, names[view.turn]))
        out.append(" to play")
        waiting = self.link.waiting_for()
        if waiting:
            out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
        return out

    def players_panel(self, view: Any) -> Text:
        names = self.link.names
        out = Text()
        if view.seat is not None:
            out.append("You are ")
            out.append_text(seat_text(view.seat, names[view.seat]))
            out.append(".\n")
        for p in range(view.players):
            out.append("▶" if p == view.turn and view.phase != "over" else " ")
            out.append_text(seat_text(p, names[p][:5].ljust(5)))
            figs = ",".join(where(pos) for pos in sorted(view.figures[p]))
            out.append(f" {figs:<8}{view.hand_sizes[p]:>2}c{len(view.plates[p]):>2}p{view.scores[p]:>4}\n")
        built = [SEAT_LETTERS[p] for p in range(view.players) if view.bridges[p] >= 0]
        out.append("A Atlantis · M mainland\nc cards · p plates · score\n", Style(dim=True))
        out.append(f"Bridges built: {' '.join(built) or 'none'}\n", Style(dim=True))
        out.append(f"Draw pile {view.pile_count} · used {len(view.discard)}\nRound {view.round}",
                   Style(dim=True))
        if view.phase == "over" and any(view.debts):
            out.append("\nWater owed at the end: " + ", ".join(
                f"{SEAT_LETTERS[p]} -{d}" for p, d in enumerate(view.debts) if d), Style(dim=True))
        return out

    # --- keys that are not allowed now ---------------------------------------------------
    def action_why_not(self, key: str) -> None:
        """A key none of whose commands is allowed now: say why (tui/why_not.py)."""
        if key.isdigit():
            self.action_option(int(key) - 1)  # says why itself
            return
        if not self._legal:
            self.say(self._empty_text())
        elif key == "f":
            if self.my_phase() not in ("start", "move"):
                self.say("The figure is chosen in step 1, before its cards.")
            elif self._view.played:
                self.say("Cards are down for this figure: it must finish its move.")
            else:
                self.say("No other figure of yours can move now.")
        elif key == "escape":
            self.say("Nothing to cancel.")
        else:
            self.say("That key does nothing now.")

