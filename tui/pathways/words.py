"""What the Pathways screen says: the turn line, the players panel, the cursor line, and
why a key does nothing now.  Pure functions of the view and of the player's choice so far
(a ``Turn``, which ``PathwaysScreen.turn`` gathers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rich.style import Style
from rich.text import Text

from engine.pathways import data
from engine.pathways.board import ATLANTIS, EMPTY, IN_ATLANTIS
from engine.pathways.text import tile_label
from engine.text import counted

from ..why_not import wait_reason as reason_to_wait
from ..seat_labels import SEAT_LETTERS, game_over_line, seat_text
from .tiles import SPECIAL_HINT, is_special, kind_of


@dataclass(frozen=True)
class Turn:
    """What the words need besides the view: where the player's turn stands on the screen."""

    view: Any
    names: Sequence[str]
    mode: str                  # "wait", "play", "trade" or "move" (PathwaysScreen.mode)
    waiting: str = ""          # who the table waits for ('' nobody)
    read_only: bool = False    # a replay
    selected: int | None = None                # the tile picked from the hand
    preview: tuple[int, int] | None = None     # (cell, rot) of a placed tile being turned
    fits: int = 0              # the places the picked path tile fits
    can_end_plays: bool = False
    pod: int | None = None     # the subpod that moves now
    movable: int = 0           # how many subpods could move
    cursor: int = 0            # the board's cursor cell


# --- side panel ----------------------------------------------------------------------------
def turn_line(turn: Turn) -> Text:
    view, names, mode = turn.view, turn.names, turn.mode
    out = Text()
    if view.phase == "over":
        return game_over_line(names, view.winners, f"wins: {view.end_reason}.")
    if mode == "wait":
        out.append_text(seat_text(view.turn, names[view.turn]))
        out.append(" to play")
        waiting = turn.waiting
        if waiting:
            out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
        return out
    out.append("Your turn ")
    out.append_text(seat_text(view.turn, names[view.turn]))
    out.append("\n")
    plain = Style(bold=False)
    if mode == "play":
        out.append(f"Play tiles: {view.plays_made}/{view.plays_allowed} played.\n", plain)
        if turn.preview is not None:
            out.append("Turning the tile: t next way, Enter turns it, Esc cancels.", plain)
        elif turn.selected is None:
            hint = "Pick a tile: 1-4"
            if view.plays_made == 0:
                hint += ", or t turns a placed tile"
            out.append(hint + ".", plain)
            if any(kind_of(t) == "move_other_3" for t in view.hand or ()):
                out.append(" MOVE 3* moves another player's subpod.", plain)
            if turn.can_end_plays:
                out.append(" e ends plays.", plain)
        elif is_special(turn.selected):
            out.append(f"Enter plays {data.SPECIAL_SHORT[kind_of(turn.selected)]}: "
                       f"{SPECIAL_HINT[kind_of(turn.selected)]}", plain)
        else:
            fits = turn.fits
            out.append(f"{tile_label(turn.selected).capitalize()}: fits "
                       f"{counted(fits, 'place')} (+). r rotates, Enter places.", plain)
    elif mode == "trade":
        out.append("TRADE: choose a tile (+) to take off the board; Enter takes it.", plain)
    else:
        pod = turn.pod
        head = {"move_own_3": "MOVE 3: ", "move_other_3": "MOVE 3*: "}.get(view.pending, "Move: ")
        out.append(head + "choose where the subpod goes; Enter steps, e ends the move.", plain)
        if pod is not None:
            out.append("\nMoving ", plain)
            out.append_text(seat_text(pod, names[pod]))
            left = view.steps_left if view.mover >= 0 else budget(view, pod)
            out.append(f", {counted(left, 'step')} left.", plain)
            if view.mover < 0 and turn.movable > 1:
                out.append(" o: other subpod.", plain)
        else:
            out.append("\nNo subpod can move.", plain)
    out.append("\n")
    out.append(cursor_words(view, turn.cursor), Style(bold=False, dim=True))
    return out


def budget(view: Any, pod: int) -> int:
    """The steps ``pod`` may go in a move that has not begun."""
    if view.pending:
        return data.SPECIAL_MOVE
    return data.OWN_MOVE if pod == view.seat else data.OTHER_MOVE


def cursor_words(view: Any, cell: int) -> str:
    """What is on the cursor's cell."""
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
    return f"Cursor {data.cell_name(cell)}: {desc}"

def players_panel(view: Any, names: Sequence[str]) -> Text:
    """Every player's subpod, hand and distance to go; the draw pile and the used specials."""
    out = Text()
    room = max(len(name[:9]) for name in names[:view.players])   # (a row fits 80x24's narrow panel)
    for seat in range(view.players):
        out.append("▶" if seat == view.turn and view.phase != "over" else " ")
        out.append_text(seat_text(seat, names[seat][:9].ljust(room)))
        pos = view.pods[seat]
        where = "in city" if pos == IN_ATLANTIS else f"{data.ATLANTIS_DISTANCE[pos]:>2} to city"
        out.append(f" {counted(view.hand_sizes[seat], 'tile')} {where}")
        out.append("\n")
    out.append(f"Draw pile {view.draw_count} · round {view.round}/{view.max_rounds}\n")
    used = ", ".join(data.SPECIAL_SHORT[kind_of(t)] for t in view.discard[-4:])
    more = len(view.discard) - 4
    out.append("Used: " + (used or "none") + (f" +{more}" if more > 0 else ""), Style(dim=True))
    return out

# --- keys that are not allowed now -------------------------------------------------------
def wait_reason(turn: Turn) -> str:
    """Why nothing can be done now (not your turn, a replay, the end)."""
    return reason_to_wait(turn.read_only, turn.view is not None and turn.view.phase == "over", turn.waiting)


def why_not_play(turn: Turn) -> str:
    """Why a tile key does nothing outside the play part of your turn."""
    mode = turn.mode
    if mode == "trade":
        return "First take a tile away (TRADE): Enter on a tile marked +."
    if mode == "move":
        return "Your tile plays are over: move a subpod (Enter on a +), or e to end the move."
    return wait_reason(turn)


def plays_first(turn: Turn) -> str:
    """Why a subpod does not move during the tile plays, and what ends them."""
    if turn.can_end_plays:
        return "Subpods move after the tile plays: e ends your plays."
    return "Subpods move after the tile plays: play your tiles first (1-4 picks one)."


def why_not(turn: Turn, key: str) -> str:
    """Why ``key`` does nothing now."""
    mode = turn.mode
    if mode == "wait":
        return wait_reason(turn)
    if key == "escape":
        return "Nothing to cancel: no tile is picked."
    if key == "r":
        if mode != "play":
            return why_not_play(turn)
        if turn.preview is not None:
            return "t tries the next way the placed tile can lie; Enter turns it."
        if turn.selected is not None:
            return "A special tile has no paths to turn: Enter plays it."
        return "Pick a path tile first (1-4): r turns the picked tile."
    if key == "t":
        if mode != "play":
            return why_not_play(turn)
        return ("You have played a tile this turn: a placed tile may be turned only "
                "instead of playing tiles.")
    if key == "o":
        if mode != "move":
            return plays_first(turn)
        if turn.view.mover >= 0:
            return "This move has begun: it goes on with the same subpod."
        return "Only one subpod can move now."
    if key.startswith("shift+"):
        return plays_first(turn) if mode == "play" else \
            "First take a tile away (TRADE): Enter on a tile marked +."
    if key == "e":
        return "First take a tile away (TRADE): Enter on a tile marked +."
    return "That key does nothing now."

