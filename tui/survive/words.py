"""What the Survive screen says: the step line, the cursor line, the turn line and the
players panel, in words (a mixin of ``SurviveScreen``, which provides the view, the
selected piece and the board)."""


from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from engine.survive import data as D
from engine.survive.actions import Sink
from engine.survive.text import creature_name, hex_name

from ..seats import SEAT_LETTERS, game_over_line, seat_text
from .picture import spots
from .shared import PER_SEAT, SIDE_ROOMY, SIDE_WIDE, TERRAIN_WORD, Piece, side_width

#: The columns of the roomy players table: (heading, width).
TABLE = (("On land", 7), ("In sea", 6), ("In boat", 7), ("Saved", 5), ("Lost", 4), ("Tiles", 5))



class SurviveWords:
    def step_text(self) -> Text:
        """Two lines above the board: the step of the turn with its numbers, then what the
        cursor (and the selected piece) is on."""
        view = self._view
        out = Text()
        phase = view.phase
        who = view.turn
        bold = Style(bold=True)
        if phase == "over":
            out.append("Game over: ", bold)
            out.append(view.end_reason + ". ")
            out.append(" ".join(f"{SEAT_LETTERS[p]} {s}" for p, s in enumerate(view.scores)))
        else:
            if self.phase() == "wait":
                out.append_text(seat_text(who, self.link.names[who]))
                out.append(": ")
            out.append(self.step_words(), bold)
            if view.die and phase != "respond":  # (an attack's words name its creature)
                out.append(f"  Die: {view.die}", Style(bold=True, italic=True))
        out.append("\n")
        out.append(self.cursor_words(), Style(dim=True))
        out.no_wrap = True          # two lines always: the board keeps its rows
        out.overflow = "ellipsis"
        return out

    def step_words(self) -> str:
        view = self._view
        phase = view.phase
        if phase == "place_explorer":
            seat = view.seat if self.phase() != "wait" else view.turn
            lo = seat * PER_SEAT
            left = sum(1 for h in view.explorer_hex[lo:lo + PER_SEAT] if h == D.NOT_PLACED)
            if self.phase() != "wait" and self._value:
                return f"Setup: explorer of value ★{self._value} (only you see it) · {left} to go"
            return f"Setup: put an explorer on empty land ({left} to go)"
        if phase == "place_boat":
            left = sum(1 for h in view.boat_hex[:view.players * D.BOATS_PER_SEAT] if h == D.NOT_PLACED)
            return f"Setup: place a boat on a sea hex next to land ({left} to place)"
        if phase == "tile":
            return "Step 1 of 4: play a red tile, or none (e)"
        if phase == "red":
            left = D.RED_REACH - view.steps
            if view.red == "dolphin":
                return f"Step 1 of 4: the dolphin carries a swimmer ({left} hex{'es' if left != 1 else ''} left)"
            return f"Step 1 of 4: the wind blows a boat ({left} hex{'es' if left != 1 else ''} left)"
        if phase == "move":
            return f"Step 2 of 4: move ({view.points} point{'s' if view.points != 1 else ''} left)"
        if phase == "sink":
            kinds = {view.terrain[m.action.tile] for m in self._moves if isinstance(m.action, Sink)}
            word = TERRAIN_WORD[min(kinds)] if kinds else self._lowest_terrain()
            return f"Step 3 of 4: remove a {word} tile"
        if phase == "roll":
            return "Step 4 of 4: roll the creature die (r)"
        if phase == "creature":
            least, most = D.CREATURE_REACH[view.creature_kind]
            text = f"move a {view.creature_kind} ({least}-{most} hexes, {view.steps} moved)"
            if view.red:  # a red "move a creature" tile, played in step 1
                return f"Step 1 of 4: {text}"
            return f"Step 4 of 4: {text}"
        if phase == "respond":
            a = view.attack
            prey = "the swimmers" if a.kind == "shark" else self.piece_name(Piece("boat", a.boat))
            names = self.link.names
            asked = names[view.responders[0]] if view.responders else "?"
            # (short enough for the step line above an 80-column board)
            tail = "repel it (1-9) or e" if self.phase() == "respond" else f"{asked} may repel it"
            return f"Attack! {a.kind.capitalize()} at {hex_name(a.hex)} on {prey}: {tail}"
        return ""

    def _lowest_terrain(self) -> str:
        view = self._view
        left = [view.terrain[t] for t in range(len(view.terrain)) if not view.sunk[t]]
        return TERRAIN_WORD[min(left)] if left else "land"

    def cursor_words(self) -> str:
        view = self._view
        h = self.board.cursor
        # (the hex's name, G8, only where the board draws its row letters beside it)
        parts = [hex_name(h)] if self.board.labels_shown else []
        t = D.LAND_TILE_AT[h]
        if D.SAFE_AT[h] >= 0:
            parts = [f"{D.HEX_NAMES[h]} safe island" if parts else "a safe island"]
        elif t >= 0 and not view.sunk[t]:
            parts.append(TERRAIN_WORD[view.terrain[t]])
        elif D.ENTRANCE_OF[h] >= 0:
            parts.append(f"entrance to the {D.SAFE_NAMES[D.ENTRANCE_OF[h]]} safe island")
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
        if self._piece is not None:
            line = f"Selected {self.piece_name(self._piece)} · {len(self.targets())} + · " + line
        return line

    def piece_name(self, piece: Piece) -> str:
        if piece.kind == "explorer":
            view = self._view
            t = D.LAND_TILE_AT[self.where(piece)]
            if view.explorer_boat[piece.id] >= 0:
                where = "aboard"
            elif t >= 0 and not view.sunk[t]:
                where = "on land"
            else:   # its one sea hex a turn: a swimmer that has swum only boards
                where = "swimming, swam this turn" if piece.id in view.swum else "swimming"
            return f"your explorer ({where})"
        if piece.kind == "boat":  # named as drawn: [RB], the letters of those aboard
            aboard = [SEAT_LETTERS[e // PER_SEAT] for e, b in enumerate(self._view.explorer_boat) if b == piece.id]
            return f"boat [{''.join(aboard) or ' '}]"
        return creature_name(piece.id)

    # --- side panel ---------------------------------------------------------------------------------
    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        names = self.link.names
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
            waiting = self.link.waiting_for()
            if waiting:
                out.append(f"\nWaiting for {waiting}.", Style(bold=False, italic=True))
        out.append(f"\nRound {view.round}", Style(bold=False))
        return out

    def explorer_counts(self, view: Any, seat: int) -> tuple[int, ...]:
        """(on land, in the sea, in a boat, saved, lost, tiles held) for ``seat``."""
        land = sea = boat = saved = lost = 0
        for e in range(seat * PER_SEAT, (seat + 1) * PER_SEAT):
            h = view.explorer_hex[e]
            if h == D.SAVED:
                saved += 1
            elif h == D.LOST:
                lost += 1
            elif h >= 0 and view.explorer_boat[e] >= 0:
                boat += 1
            elif h >= 0 and D.LAND_TILE_AT[h] >= 0 and not view.sunk[D.LAND_TILE_AT[h]]:
                land += 1
            elif h >= 0:
                sea += 1
        return land, sea, boat, saved, lost, len(view.held[seat])

    def players_table(self, view: Any) -> Text:
        """The players in full words (a roomy side panel): where their explorers are, in
        columns, and what the columns mean."""
        names = self.link.names
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
            counts = self.explorer_counts(view, p)
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

    def players_panel(self, view: Any) -> Text:
        """The players in a few columns under a heading row, one line a player (two for a
        name too long to share its line), as narrow as the side panel needs (80x24: 16
        columns); words in full when roomy."""
        if self.roomy():
            return self.players_table(view)
        names = self.link.names
        side = side_width(self.size.width)
        narrow = side < SIDE_WIDE
        room = side - 4  # (the panel's border and padding, and a column for its scrollbar)
        over = view.phase == "over"
        rows = []
        for p in range(view.players):
            ex = view.explorer_hex[p * PER_SEAT:(p + 1) * PER_SEAT]
            in_play = sum(1 for h in ex if h >= 0)
            saved = sum(1 for h in ex if h == D.SAVED)
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

    # --- messages -------------------------------------------------------------------------------------

    # --- what the other seats did since your last move ------------------------------------------
    _recent_key: tuple = ()
    _recent: list[int] = []

    def recent_hexes(self) -> list[int]:
        """Hexes that look different from this seat's view just after its last action
        (a piece moved, a tile taken off, a boat filled), until it acts again."""
        before, view = self.baseline_view(), self._view
        if before is None or view is None:
            return []
        key = (id(before), id(view))
        if key != self._recent_key:
            old, now = spots(before), spots(view)
            self._recent_key, self._recent = key, [h for h in range(D.HEXES) if old[h] != now[h]]
        return self._recent

    # --- keys that are not allowed now say why ---------------------------------------------------
    def wait_reason(self) -> str:
        if self.link.read_only:
            return "This is a replay: nothing can be played."
        if self._view is not None and self._view.phase == "over":
            return "The game is over."
        waiting = self.link.waiting_for()
        return f"Not your turn: waiting for {waiting}." if waiting else "Not your turn."

    def action_why_not(self, key: str) -> None:
        """A key none of whose commands is allowed now: say why (tui/why_not.py)."""
        phase = self.phase()
        if key == "enter":
            self.choose_at(self.board.cursor)  # says why itself
            return
        if phase in ("wait", "over"):
            self.say(self.wait_reason())
            return
        # (short: the side panel is narrow; the step line above the board says what is on)
        if key.isdigit():
            if phase in ("place_explorer", "tile", "respond"):
                self.say("You hold no tiles." if phase != "place_explorer" else "Your explorers are all placed.")
            else:
                self.say("No tile can be played in this step.")
        elif key == "r":
            self.say("No roll now: the die is rolled in step 4.")
        elif key == "n":
            self.say("Nothing of yours can move in this step.")
        elif key == "e":
            self.say("Nothing to end or skip in this step.")
        elif key == "escape":
            self.say("Nothing is selected to let go of.")
        else:
            self.say("That key does nothing in this step.")

