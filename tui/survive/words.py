"""What the Survive screen says: the step line, the cursor line, the turn line and the
players panel, in words.  Pure functions of the view and of where the player's turn
stands on the screen (a ``Turn``, which ``SurviveScreen.turn`` gathers)."""


from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rich.style import Style
from rich.text import Text

from engine.survive import data
from engine.survive.text import creature_name, hex_name
from engine.text import counted

from .. import why_not
from ..seat_labels import SEAT_LETTERS, game_over_line, seat_text
from .shared import PER_SEAT, SIDE_ROOMY, SIDE_WIDE, TERRAIN_WORD, Piece, side_width

#: The columns of the roomy players table: (heading, width).
TABLE = (("On land", 7), ("In sea", 6), ("In boat", 7), ("Saved", 5), ("Lost", 4), ("Tiles", 5))



@dataclass(frozen=True)
class Turn:
    """What the words need besides the view: where the player's turn stands on the screen."""

    view: Any
    names: Sequence[str]
    phase: str                  # the view's phase if this seat is to act, else "wait" or "over"
    value: int | None = None    # setup: the value of the explorer to place
    sink_kinds: frozenset[int] = frozenset()  # the terrains of the tiles that may be removed now
    cursor: int = 0             # the board's cursor hex
    labels_shown: bool = False  # the board draws the hexes' row letters
    piece: Piece | None = None  # the selected piece
    targets: int = 0            # the hexes it may go to
    waiting: str = ""           # who the table waits for ('' nobody)
    read_only: bool = False     # a replay


def step_text(turn: Turn) -> Text:
    """Two lines above the board: the step of the turn with its numbers, then what the
    cursor (and the selected piece) is on."""
    view = turn.view
    out = Text()
    phase = view.phase
    who = view.turn
    bold = Style(bold=True)
    if phase == "over":
        out.append("Game over: ", bold)
        out.append(view.end_reason + ". ")
        out.append(" ".join(f"{SEAT_LETTERS[p]} {s}" for p, s in enumerate(view.scores)))
    else:
        if turn.phase == "wait":
            out.append_text(seat_text(who, turn.names[who]))
            out.append(": ")
        out.append(step_words(turn), bold)
        if view.die and phase != "respond":  # (an attack's words name its creature)
            out.append(f"  Die: {view.die}", Style(bold=True, italic=True))
    out.append("\n")
    out.append(cursor_words(turn), Style(dim=True))
    out.no_wrap = True          # two lines always: the board keeps its rows
    out.overflow = "ellipsis"
    return out

def step_words(turn: Turn) -> str:
    """The step of the turn, with its numbers."""
    view = turn.view
    phase = view.phase
    if phase == "place_explorer":
        seat = view.seat if turn.phase != "wait" else view.turn
        lo = seat * PER_SEAT
        left = sum(1 for h in view.explorer_hex[lo:lo + PER_SEAT] if h == data.NOT_PLACED)
        if turn.phase != "wait" and turn.value:
            return f"Setup: explorer of value ★{turn.value} (only you see it) · {left} to go"
        return f"Setup: put an explorer on empty land ({left} to go)"
    if phase == "place_boat":
        left = sum(1 for h in view.boat_hex[:view.players * data.BOATS_PER_SEAT] if h == data.NOT_PLACED)
        return f"Setup: place a boat on a sea hex next to land ({left} to place)"
    if phase == "tile":
        return "Step 1 of 4: play a red tile, or none (e)"
    if phase == "red":
        left = data.RED_REACH - view.steps
        if view.red == "dolphin":
            return f"Step 1 of 4: the dolphin carries a swimmer ({counted(left, 'hex', 'hexes')} left)"
        return f"Step 1 of 4: the wind blows a boat ({counted(left, 'hex', 'hexes')} left)"
    if phase == "move":
        return f"Step 2 of 4: move ({counted(view.points, 'point')} left)"
    if phase == "sink":
        kinds = turn.sink_kinds
        word = TERRAIN_WORD[min(kinds)] if kinds else lowest_terrain(view)
        return f"Step 3 of 4: remove a {word} tile"
    if phase == "roll":
        return "Step 4 of 4: roll the creature die (r)"
    if phase == "creature":
        least, most = data.CREATURE_REACH[view.creature_kind]
        text = f"move a {view.creature_kind} ({least}-{most} hexes, {view.steps} moved)"
        if view.red:  # a red "move a creature" tile, played in step 1
            return f"Step 1 of 4: {text}"
        return f"Step 4 of 4: {text}"
    if phase == "respond":
        a = view.attack
        prey = "the swimmers" if a.kind == "shark" else piece_name(view, Piece("boat", a.boat))
        names = turn.names
        asked = names[view.responders[0]] if view.responders else "?"
        # (short enough for the step line above an 80-column board)
        tail = "repel it (1-9) or e" if turn.phase == "respond" else f"{asked} may repel it"
        return f"Attack! {a.kind.capitalize()} at {hex_name(a.hex)} on {prey}: {tail}"
    return ""

def lowest_terrain(view: Any) -> str:
    """The kind of the lowest land still on the board ("beach", "forest", "mountain")."""
    left = [view.terrain[t] for t in range(len(view.terrain)) if not view.sunk[t]]
    return TERRAIN_WORD[min(left)] if left else "land"

def cursor_words(turn: Turn) -> str:
    """What the cursor's hex holds (and the selected piece, with its targets)."""
    view = turn.view
    h = turn.cursor
    # (the hex's name, G8, only where the board draws its row letters beside it)
    parts = [hex_name(h)] if turn.labels_shown else []
    t = data.LAND_TILE_AT[h]
    if data.SAFE_AT[h] >= 0:
        parts = [f"{data.HEX_NAMES[h]} safe island" if parts else "a safe island"]
    elif t >= 0 and not view.sunk[t]:
        parts.append(TERRAIN_WORD[view.terrain[t]])
    elif data.ENTRANCE_OF[h] >= 0:
        parts.append(f"entrance to the {data.SAFE_NAMES[data.ENTRANCE_OF[h]]} safe island")
    else:
        parts.append("sea")
    for c, ch in enumerate(view.creature_hex):
        if ch == h:
            parts.append(creature_name(c))
    foot = [e for e, eh in enumerate(view.explorer_hex) if eh == h and view.explorer_boat[e] < 0]
    for seat in sorted({e // PER_SEAT for e in foot}):
        mine = [e for e in foot if e // PER_SEAT == seat]
        vals = [str(view.values[e]) for e in mine if view.values[e]]
        text = f"{SEAT_LETTERS[seat]}×{len(mine)}"
        if vals:
            text += " worth " + "+".join(vals)
        parts.append(text)
    if h in view.boat_hex:
        b = view.boat_hex.index(h)
        aboard = [SEAT_LETTERS[e // PER_SEAT] for e, bb in enumerate(view.explorer_boat) if bb == b]
        parts.append(f"boat [{''.join(aboard) or ' '}]" + ("" if aboard else " (empty)"))
    line = "Cursor: " + ", ".join(parts)
    if turn.piece is not None:
        line = f"Selected {piece_name(view, turn.piece)} · {turn.targets} + · " + line
    return line

def piece_name(view: Any, piece: Piece) -> str:
    """A piece as the player knows it: "your explorer (on land)", "boat [RB]", a creature."""
    if piece.kind == "explorer":
        t = data.LAND_TILE_AT[view.explorer_hex[piece.id]]
        if view.explorer_boat[piece.id] >= 0:
            where = "aboard"
        elif t >= 0 and not view.sunk[t]:
            where = "on land"
        else:   # its one sea hex a turn: a swimmer that has swum only boards
            where = "swimming, swam this turn" if piece.id in view.swum else "swimming"
        return f"your explorer ({where})"
    if piece.kind == "boat":  # named as drawn: [RB], the letters of those aboard
        aboard = [SEAT_LETTERS[e // PER_SEAT] for e, b in enumerate(view.explorer_boat) if b == piece.id]
        return f"boat [{''.join(aboard) or ' '}]"
    return creature_name(piece.id)

# --- side panel -------------------------------------------------------------------------------------
def turn_line(view: Any, legal: list[Any], names: Sequence[str], waiting: str) -> Text:
    """Whose move it is, who the table waits for, and the round."""
    if view.phase == "over":
        return game_over_line(names, view.winners, f"win{'s' if len(view.winners) == 1 else ''}.")
    out = Text()
    if legal:
        out.append_text(seat_text(view.seat, names[view.seat]))
        out.append(": your move")
    else:
        actor = view.responders[0] if view.phase == "respond" and view.responders else view.turn
        out.append_text(seat_text(actor, names[actor]))
        out.append(" to play")
        if waiting:
            out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
    out.append(f"\nRound {view.round}", Style(bold=False))
    return out

def explorer_counts(view: Any, seat: int) -> tuple[int, ...]:
    """(on land, in the sea, in a boat, saved, lost, tiles held) for ``seat``."""
    land = sea = boat = saved = lost = 0
    for e in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
        h = view.explorer_hex[e]
        if h == data.SAVED:
            saved += 1
        elif h == data.LOST:
            lost += 1
        elif h >= 0 and view.explorer_boat[e] >= 0:
            boat += 1
        elif h >= 0 and data.LAND_TILE_AT[h] >= 0 and not view.sunk[data.LAND_TILE_AT[h]]:
            land += 1
        elif h >= 0:
            sea += 1
    return land, sea, boat, saved, lost, len(view.held[seat])

def players_table(view: Any, names: Sequence[str]) -> Text:
    """The players in full words (a roomy side panel): where their explorers are, in
    columns, and what the columns mean."""
    dim = Style(dim=True)
    over = view.phase == "over"
    columns = TABLE[:-1] + (("Score", 5),) if over else TABLE  # (at the end: the score, not tiles)
    out = Text()
    # A row: "▶ ", the letter and a space, the name, the numbers: on one line of the panel
    # (its border, padding and a scrollbar's column aside), names cut to fit with "…".
    room = SIDE_ROOMY - 4 - 4 - sum(1 + cw for _, cw in columns)
    w = min(room, max(8, *(len(n) for n in names)))
    out.append(f"  {'Player':<{w + 2}}" + "".join(f" {h:>{cw}}" for h, cw in columns) + "\n", dim)
    for p in range(view.players):
        out.append("▶ " if p == view.turn and not over else "  ")
        name = names[p] if len(names[p]) <= w else names[p][:w - 1] + "…"
        out.append_text(seat_text(p, name.ljust(w)))
        counts = explorer_counts(view, p)
        out.append("".join(f" {n:>{cw}}" for n, (_, cw) in zip(counts, columns[:5])))
        last = (view.scores[p], Style(bold=True)) if over else (counts[5], None)
        out.append(f" {last[0]:>{columns[5][1]}}", last[1])
        out.append("\n")
    out.append("On land, in the sea, in a boat: explorers still in play. Saved: on a safe "
               "island. Lost: taken by the sea or a creature. "
               + ("Score: the treasure they saved.\n" if over else "Tiles: land tiles held (their backs hidden).\n"),
               dim)
    if view.seat is not None and view.phase != "place_explorer" and view.memory and not over:
        out.append("Treasure values are hidden: remember your own.", dim)
    return out

def players_panel(view: Any, names: Sequence[str], width: int) -> Text:
    """The players in a few columns under a heading row, one line a player (two for a
    name too long to share its line), as narrow as the side panel needs (80x24: 16
    columns) on a screen ``width`` wide; words in full when roomy."""
    side = side_width(width)
    if side == SIDE_ROOMY:
        return players_table(view, names)
    narrow = side < SIDE_WIDE
    room = side - 4  # (the panel's border and padding, and a column for its scrollbar)
    over = view.phase == "over"
    rows = []
    for p in range(view.players):
        ex = view.explorer_hex[p * PER_SEAT:(p + 1) * PER_SEAT]
        in_play = sum(1 for h in ex if h >= 0)
        saved = sum(1 for h in ex if h == data.SAVED)
        rows.append((in_play, saved, view.scores[p] if over else len(view.held[p])))
    heads = ("in", "⌂", "★" if over else "t" if narrow else "tiles")  # (★: treasure, as placed)
    gap = 1 if narrow else 2
    widths = [max(len(h), *(len(str(r[i])) for r in rows)) for i, h in enumerate(heads)]
    # "▶" (whose turn; not once it is over), the seat's letter and a space, the name, the numbers.
    mark = "" if over else " "
    name_w = min(room - len(mark) - 2 - sum(w + gap for w in widths), max(3, *(len(n) for n in names)))
    # (a name longer than that is shown whole, its numbers on the next line under their headings)
    dim = Style(dim=True)
    out = Text()
    out.append(mark + "who".ljust(2 + name_w) + "".join(" " * gap + h.rjust(w) for h, w in zip(heads, widths))
               + "\n", dim)
    for p, numbers in enumerate(rows):
        out.append("▶" if p == view.turn and not over else mark)
        if len(names[p]) <= name_w:
            out.append_text(seat_text(p, names[p].ljust(name_w)))
        else:
            whole = room - len(mark) - 2
            out.append_text(seat_text(p, names[p] if len(names[p]) <= whole else names[p][:whole - 1] + "…"))
            out.append("\n" + mark + " " * (2 + name_w))
        out.append("".join(" " * gap + str(n).rjust(w) for n, w in zip(numbers, widths)),
                   Style(bold=True) if over else None)
        out.append("\n")
    if narrow:
        out.append("in: in play\n" + ("⌂ saved\n★ treasure\n" if over else "⌂ saved, t tiles\n"), dim)
    else:
        out.append("in: explorers in play,\n" + ("⌂ saved, ★ treasure saved\n" if over
                                                  else "⌂ saved, tiles: held tiles\n"), dim)
    if view.seat is not None and view.phase not in ("place_explorer",) and view.memory and not over:
        out.append("Values hidden." if narrow else "Values hidden: remember yours.", dim)
    return out

# --- keys that are not allowed now say why -------------------------------------------------------
def wait_reason(turn: Turn) -> str:
    """Why nothing can be done now (not your turn, a replay, the end)."""
    return why_not.wait_reason(turn.read_only, turn.view is not None and turn.view.phase == "over", turn.waiting)
