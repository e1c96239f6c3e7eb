"""What the Pathways screen says: the turn line, the players panel, the cursor line, and
why a key does nothing now (a mixin of ``PathwaysScreen``, which provides the view, the
legal moves, the selection and the board)."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from engine.pathways import data as D
from engine.pathways.rules import ATLANTIS, EMPTY, IN_ATLANTIS
from engine.pathways.text import tile_label

from ..seats import SEAT_LETTERS, game_over_line, seat_text
from .tiles import SPECIAL_HINT, is_special, kind_of


class PathwaysWords:
    # --- side panel ----------------------------------------------------------------------
    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        names = self.link.names
        out = Text()
        if view.phase == "over":
            return game_over_line(names, view.winners, f"wins: {view.end_reason}.")
        mode = self.mode()
        if mode == "wait":
            out.append_text(seat_text(view.turn, names[view.turn]))
            out.append(" to play")
            waiting = self.link.waiting_for()
            if waiting:
                out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
            return out
        out.append("Your turn ")
        out.append_text(seat_text(view.turn, names[view.turn]))
        out.append("\n")
        plain = Style(bold=False)
        if mode == "play":
            out.append(f"Play tiles: {view.plays_made}/{view.plays_allowed} played.\n", plain)
            if self._preview is not None:
                out.append("Turning the tile: t next way, Enter turns it, Esc cancels.", plain)
            elif self._selected is None:
                hint = "Pick a tile: 1-4"
                if view.plays_made == 0:
                    hint += ", or t turns a placed tile"
                out.append(hint + ".", plain)
                if self.can_end_plays():
                    out.append(" e ends plays.", plain)
            elif is_special(self._selected):
                out.append(f"Enter plays {D.SPECIAL_SHORT[kind_of(self._selected)]}: "
                           f"{SPECIAL_HINT[kind_of(self._selected)]}", plain)
            else:
                fits = len(self.place_cells())
                out.append(f"{tile_label(self._selected).capitalize()}: fits {fits} "
                           f"place{'s' if fits != 1 else ''} (+). r rotates, Enter places.", plain)
        elif mode == "trade":
            out.append("TRADE: choose a tile (+) to take off the board; Enter takes it.", plain)
        else:
            pod = self.active_pod()
            head = {"move_own_3": "MOVE 3: ", "move_other_3": "MOVE 3*: "}.get(view.pending, "Move: ")
            out.append(head + "choose where the subpod goes; Enter steps, e ends the move.", plain)
            if pod is not None:
                out.append("\nMoving ", plain)
                out.append_text(seat_text(pod, names[pod]))
                left = view.steps_left if view.mover >= 0 else self._budget(pod)
                out.append(f", {left} step{'s' if left != 1 else ''} left.", plain)
                if view.mover < 0 and len(self.steps_by_pod()) > 1:
                    out.append(" o: other subpod.", plain)
            else:
                out.append("\nNo subpod can move.", plain)
        out.append("\n")
        out.append(self._cursor_words(), Style(bold=False, dim=True))
        return out

    def _budget(self, pod: int) -> int:
        view = self._view
        if view.pending:
            return D.SPECIAL_MOVE
        return D.OWN_MOVE if pod == view.seat else D.OTHER_MOVE

    def _cursor_words(self) -> str:
        view = self._view
        cell = self.board.cursor
        what = view.cells[cell]
        if what == ATLANTIS:
            desc = "Atlantis"
        elif what == EMPTY:
            desc = "empty"
        else:
            desc = "start tile" if what < view.players else tile_label(what)
        pods = [SEAT_LETTERS[s] for s, p in enumerate(view.pods) if p == cell]
        if pods:
            desc += ", subpod " + " ".join(pods)
        return f"Cursor {D.cell_name(cell)}: {desc}"

    def players_panel(self, view: Any) -> Text:
        names = self.link.names
        out = Text()
        for seat in range(view.players):
            out.append("▶" if seat == view.turn and view.phase != "over" else " ")
            out.append_text(seat_text(seat, names[seat][:9].ljust(9)))
            pos = view.pods[seat]
            where = "in city" if pos == IN_ATLANTIS else f"{D.ATLANTIS_DISTANCE[pos]:>2} to go"
            out.append(f" {view.hand_sizes[seat]} tiles {where}")
            out.append("\n")
        out.append(f"Draw pile {view.draw_count} · round {view.round}/{view.max_rounds}\n")
        used = ", ".join(D.SPECIAL_SHORT[kind_of(t)] for t in view.discard[-4:])
        more = len(view.discard) - 4
        out.append("Used: " + (used or "none") + (f" +{more}" if more > 0 else ""), Style(dim=True))
        return out

    # --- keys that are not allowed now ---------------------------------------------------
    def wait_reason(self) -> str:
        if self.link.read_only:
            return "This is a replay: nothing can be played."
        if self._view is not None and self._view.phase == "over":
            return "The game is over."
        waiting = self.link.waiting_for()
        return f"Not your turn: waiting for {waiting}." if waiting else "Not your turn."

    def why_not_play(self) -> str:
        """Why a tile key does nothing outside the play part of your turn."""
        mode = self.mode()
        if mode == "trade":
            return "First take a tile away (TRADE): Enter on a tile marked +."
        if mode == "move":
            return "Your tile plays are over: move a subpod (Enter on a +), or e to end the move."
        return self.wait_reason()

    def why_not(self, key: str, mode: str) -> str:
        if mode == "wait":
            return self.wait_reason()
        if key == "escape":
            return "Nothing to cancel: no tile is picked."
        if key == "r":
            if mode != "play":
                return self.why_not_play()
            if self._preview is not None:
                return "t tries the next way the placed tile can lie; Enter turns it."
            if self._selected is not None:
                return "A special tile has no paths to turn: Enter plays it."
            return "Pick a path tile first (1-4): r turns the picked tile."
        if key == "t":
            if mode != "play":
                return self.why_not_play()
            return ("You have played a tile this turn: a placed tile may be turned only "
                    "instead of playing tiles.")
        if key == "o":
            if mode != "move":
                return "Subpods move after the tile plays: e ends your plays."
            if self._view.mover >= 0:
                return "This move has begun: it goes on with the same subpod."
            return "Only one subpod can move now."
        if key.startswith("shift+"):
            return "Subpods move after the tile plays: e ends your plays." if mode == "play" else \
                "First take a tile away (TRADE): Enter on a tile marked +."
        if key == "e":
            return "First take a tile away (TRADE): Enter on a tile marked +."
        return "That key does nothing now."

