"""The Survive: Escape from Atlantis screen: the hex island, the held tiles, the keys.

The screen draws only the view and legal actions its session gives it, and sends the engine's small
actions through ``self.send``; a refusal is shown as the engine words it.  What it keeps
for itself is what the player is pointing at: the selected piece (an explorer, a boat or
a creature), the picked tile in the hand (or, while placing explorers, the value to
place), and the board as it stood after this seat's last action (so the hexes the other
players changed since stay highlighted until this seat acts again).

One way to play every step: move the cursor to a piece and press Enter to select it,
then Enter on a hex marked ``+`` to send it there (``n`` jumps to the next piece that can
move; Esc lets go).  Setup placements, removing a tile and choosing a hex for a piece are
all Enter on a ``+``.  Tiles are picked with 1-9 and played with Enter; ``e`` ends the
step (no tile, end moves, stop the creature, no defence); ``r`` rolls the die.
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.content import Content

from engine.survive import data
from engine.survive.actions import (
    Ashore, Board, CreatureStep, Defend, DolphinStep, EndCreature, EndMoves, EndTile, NoDefence, NoTile,
    PlaceBoat, PlaceExplorer, PlayTile, Roll, Sail, Sink, Swim, Walk, WindStep,
)
from engine.survive.text import BACK_NAMES

from ..commands import Command
from ..screens.game import GameScreen
from ..widgets.hand import Hand, HandItem
from .hex_board import SurviveHexBoard
from ..widgets.turn_line import TurnLine
from .picture import board_picture
from . import words
from .picture import spots

from .shared import PER_SEAT, SHORT_BACK, SIDE_ROOMY, Move, Piece, side_width


class SurviveScreen(GameScreen):
    """Survive: Escape from Atlantis."""

    AUTO_FOCUS = "SurviveHexBoard"

    DEFAULT_CSS = """
    SurviveScreen #step-line { height: 2; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    SurviveScreen SurviveHexBoard { height: 1fr; }
    SurviveScreen Hand { height: auto; }
    SurviveScreen #side { width: 34; }
    """

    # The island in 3-character hexes, its legend and the hand fit 80x24 (SCREEN.min_size).
    GAME_KEYS = (
        Command("survive-pick-1", "1", "Pick", "pick(0)",
                "Pick a tile from your hand (or, while placing, the value of the explorer to place).",
                key_display="1-9"),
        *[Command(f"survive-pick-{i}", str(i), f"Pick {i}", f"pick({i - 1})", show=False) for i in range(2, 10)],
        # Enter: one binding per meaning, so the footer names what Enter does now.
        Command("survive-place", "enter", "Place", "choose('place')", "Place your explorer or boat on the + hex."),
        Command("survive-go", "enter", "Go", "choose('go')", "Send the selected piece to the + hex."),
        Command("survive-select", "enter", "Select", "choose('select')",
                "Select the piece under the cursor (Enter again: the next piece there)."),
        Command("survive-remove", "enter", "Remove", "choose('remove')", "Take the + tile off the island."),
        Command("survive-play", "enter", "Play tile", "choose('play')", "Play the picked tile."),
        Command("survive-roll-enter", "enter", "Roll", "roll", show=False),
        Command("survive-wait", "enter", "Choose", "choose('')", show=False),  # says why not now
        Command("survive-roll", "r", "Roll", "roll", "Roll the creature die (step 4)."),
        Command("survive-next", "n", "Next", "next_piece", "Jump to the next piece that can move, and select it."),
        Command("survive-no-tile", "e", "No tile", "end_step('tile')", "Play no tile this turn (step 1)."),
        Command("survive-end-moves", "e", "End moves", "end_step('move')",
                "End your moves (the points left are lost)."),
        Command("survive-stop", "e", "Stop", "end_step('stop')", "Stop the creature, dolphin or wind here."),
        Command("survive-no-defence", "e", "No defence", "end_step('respond')",
                "Let the attack happen (play no defensive tile)."),
        Command("survive-diagonals", "home", "Diagonals", "board_towards('NW')",
                "Move the cursor to the hex north-west, north-east, south-west or south-east.",
                show=False, key_display="Home PgUp End PgDn"),
        Command("survive-cancel", "escape", "Cancel", "cancel", "Let go of the selected piece or tile.",
                show=False),
    )
    WHY_NOT = "survive"
    PLAYERS_HEADER = False  # (the panel's heading row says who is who)  # a key none of whose commands is allowed now says why

    def __init__(self, link: Any, **kwargs: Any):
        super().__init__(link, **kwargs)
        self._moves: list[Move] = []
        self._piece: Piece | None = None      # the selected piece
        self._picked: int | None = None       # index into the hand items
        self._value: int | None = None        # setup: the value of the explorer to place
        self._cursor_placed = False

    # --- layout -----------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        # (a TurnLine: a cursor key changes only its second line, the cursor's)
        yield TurnLine(id="step-line")
        board = SurviveHexBoard(data.BOARD, id="board")
        board.enter_selects = False  # our Enter bindings say what Enter does now
        yield board
        yield Hand(title="Tiles", id="hand")

    @property
    def board(self) -> SurviveHexBoard:
        return self.query_one("#board", SurviveHexBoard)

    @property
    def hand(self) -> Hand:
        return self.query_one("#hand", Hand)

    def on_resize(self, event: events.Resize) -> None:
        side = side_width(event.size.width)
        self.query_one("#side").styles.width = side
        if self._view is not None and (side == SIDE_ROOMY) != self._roomy_drawn:
            self._roomy_drawn = side == SIDE_ROOMY
            self.redraw()  # (the players and the tiles have full words when roomy)
        # (Below SCREEN.min_size the shared GameScreen hides the board and asks for a bigger terminal.)

    _roomy_drawn = False  # what the side panel and the hand were last drawn for

    def set_link(self, link: Any) -> None:
        self._piece = None
        self._picked = None
        self._value = None
        self._cursor_placed = False
        super().set_link(link)

    def say(self, message: str) -> None:
        """A message as written, not as markup: boats are named by the letters aboard
        ("boat [RB]"), which markup would take for a tag."""
        super().say(Content(message))  # type: ignore[arg-type]

    # --- what the player may do now ------------------------------------------------------------
    def phase(self) -> str:
        """The view's phase if this seat is to act, else "wait" (or "over")."""
        view = self._view
        if view is None:
            return "wait"
        if view.phase == "over":
            return "over"
        return view.phase if self._legal else "wait"

    def _moves_of(self, view: Any, legal: list[Any]) -> list[Move]:
        eh, bh, ch = view.explorer_hex, view.boat_hex, view.creature_hex
        out = []
        for a in legal:
            kind = type(a)
            if kind in (Walk, Swim, DolphinStep):
                out.append(Move(Piece("explorer", a.explorer), eh[a.explorer], a.to, a))
            elif kind is Board:
                out.append(Move(Piece("explorer", a.explorer), eh[a.explorer], bh[a.boat], a))
            elif kind is Ashore:
                h = eh[a.explorer]
                out.append(Move(Piece("explorer", a.explorer), h, data.SAFE_INDEX[data.ENTRANCE_OF[h]], a))
            elif kind in (Sail, WindStep):
                out.append(Move(Piece("boat", a.boat), bh[a.boat], a.to, a))
            elif kind is CreatureStep:
                out.append(Move(Piece("creature", a.creature), ch[a.creature], a.to, a))
            elif kind is PlaceExplorer:
                out.append(Move(Piece("explorer", a.explorer), -1, a.hex, a))
            elif kind is PlaceBoat:
                out.append(Move(None, -1, a.hex, a))
            elif kind is Sink:
                out.append(Move(None, -1, data.LAND_HEX_INDEX[a.tile], a))
        return out

    def movable(self) -> list[Piece]:
        """The pieces with a move now, in board order, one per hex and kind of place
        (explorers on the same hex, both in or both out of a boat, move alike)."""
        seen: dict[tuple, Piece] = {}
        for m in self._moves:
            if m.piece is None or m.start < 0:
                continue
            key = (m.start, m.piece.kind, self._boat_of(m.piece),
                   m.piece.id in self._view.swum if m.piece.kind == "explorer" else False)
            if m.piece.kind != "explorer":
                key = (m.start, m.piece.kind, m.piece.id)
            seen.setdefault(key, m.piece)
        return sorted(seen.values(), key=lambda p: (self.where(p), ("explorer", "boat", "creature").index(p.kind), p.id))

    def _boat_of(self, piece: Piece) -> int:
        return self._view.explorer_boat[piece.id] if piece.kind == "explorer" else -1

    def where(self, piece: Piece) -> int:
        view = self._view
        return {"explorer": view.explorer_hex, "boat": view.boat_hex,
                "creature": view.creature_hex}[piece.kind][piece.id]

    def placing_piece(self) -> Piece | None:
        """Setup: the unplaced explorer of the chosen value that ``legal`` offers."""
        offered = [m.piece for m in self._moves if isinstance(m.action, PlaceExplorer)]
        if not offered:
            return None
        values = self._view.values
        for p in offered:
            if values[p.id] == self._value:
                return p
        return offered[-1]

    def targets(self) -> dict[int, Move]:
        """Hex -> the move that Enter there sends (for the selected piece, or a placement)."""
        phase = self.phase()
        out: dict[int, Move] = {}
        if phase == "place_explorer":
            piece = self.placing_piece()
            for m in self._moves:
                if m.piece == piece:
                    out.setdefault(m.to, m)
        elif phase in ("place_boat", "sink"):
            for m in self._moves:
                out.setdefault(m.to, m)
        elif self._piece is not None:
            for m in self._moves:
                if m.piece == self._piece:
                    out.setdefault(m.to, m)
        return out

    def hand_items(self) -> list[tuple[str, Any]]:
        """The hand row: (label, what picking it means)."""
        view = self._view
        if view is None:
            return []
        if view.phase == "place_explorer" and view.seat is not None:
            lo = view.seat * PER_SEAT
            unplaced = [view.values[e] for e in range(lo, lo + PER_SEAT)
                        if view.explorer_hex[e] == data.NOT_PLACED]
            counts: dict[int, int] = {}
            for v in sorted(unplaced):
                counts[v] = counts.get(v, 0) + 1
            return [(f"★{v}" + (f"×{n}" if n > 1 else ""), v) for v, n in counts.items() if v]
        if view.hand is None:
            return []
        names = BACK_NAMES if self.roomy() else SHORT_BACK
        return [(names.get(t.back, t.back), t) for t in view.hand]

    # --- the words (tui/survive/words.py) -----------------------------------------------------
    def turn(self) -> words.Turn:
        """Where the player's turn stands on this screen: what the words are made from."""
        view, phase, piece = self._view, self.phase(), self._piece
        sink = frozenset(view.terrain[m.action.tile] for m in self._moves if isinstance(m.action, Sink)) \
            if view.phase == "sink" else frozenset()
        return words.Turn(view, self.link.names, phase, value=self._value, sink_kinds=sink, cursor=self.board.cursor,
                      labels_shown=self.board.labels_shown, piece=piece,
                      targets=len(self.targets()) if piece is not None else 0,
                      waiting=self.link.waiting_for(), read_only=self.link.read_only)

    def turn_line(self, view: Any, legal: list[Any]) -> Any:
        return words.turn_line(view, legal, self.link.names, self.link.waiting_for())

    def players_panel(self, view: Any) -> Any:
        return words.players_panel(view, self.link.names, self.size.width)

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
            self._recent_key, self._recent = key, [h for h in range(data.HEXES) if old[h] != now[h]]
        return self._recent

    def action_why_not(self, key: str) -> None:
        """A key none of whose commands is allowed now: say why (tui/why_not.py)."""
        phase = self.phase()
        if key == "enter":
            self.choose_at(self.board.cursor)  # says why itself
            return
        if phase in ("wait", "over"):
            self.say(words.wait_reason(self.turn()))
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


    def roomy(self) -> bool:
        """The biggest hexes and a wide side panel (160 columns): words in full."""
        return side_width(self.size.width) == SIDE_ROOMY

    def playable(self) -> dict[int, Any]:
        """Hand index -> the PlayTile / Defend action that plays it now."""
        out = {}
        for i, (_, item) in enumerate(self.hand_items()):
            for a in self._legal:
                if type(a) in (PlayTile, Defend) and a.tile == getattr(item, "tile", None):
                    out[i] = a
        return out

    def end_action(self) -> Any | None:
        for a in self._legal:
            if type(a) in (NoTile, EndMoves, EndTile, EndCreature, NoDefence):
                return a
        return None

    # --- drawing ---------------------------------------------------------------------------------
    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        self._moves = self._moves_of(view, self._legal)
        if self._piece is not None and not any(m.piece == self._piece for m in self._moves):
            self._piece = None
        if self._piece is None and view.mover >= 0 and view.phase in ("red", "creature"):
            kind = "creature" if view.phase == "creature" or view.red in data.MOVES_CREATURE else \
                ("explorer" if view.red == "dolphin" else "boat")
            piece = Piece(kind, view.mover)
            if any(m.piece == piece for m in self._moves):
                self._piece = piece
                self.board.cursor = self.where(piece)
        items = self.hand_items()
        if view.phase == "place_explorer":
            values = [v for _, v in items]
            if self._value not in values:
                self._value = max(values) if values else None
        elif self._picked is not None and self._picked >= len(items):
            self._picked = None
        if not self._cursor_placed and view.seat is not None:
            self._cursor_placed = True
            mine = [h for h in view.explorer_hex[view.seat * PER_SEAT:(view.seat + 1) * PER_SEAT] if h >= 0]
            self.board.cursor = mine[0] if mine else data.CENTRE_INDEX
        follow, self._follow = self._follow, None
        if follow is not None and self._piece == follow and self.where(follow) >= 0:
            self.board.cursor = self.where(follow)
        self._draw()

    def _draw(self) -> None:
        view = self._view
        if view is None or not self.is_mounted:
            return
        selected = self.where(self._piece) if self._piece is not None else None
        self.board.show(board_picture(view, targets=self.targets(), selected=selected,
                                      recent=self.recent_hexes(), variables=self.app.theme_variables))
        self._draw_hand()
        self._show_step_line(words.step_text(self.turn()))

    def _draw_hand(self) -> None:
        view = self._view
        items = self.hand_items()
        if view.phase == "place_explorer":
            self.hand.title = "Place"
            chosen = next((i for i, (_, v) in enumerate(items) if v == self._value), None)
            self.hand.show([HandItem(None, label) for label, _ in items], chosen,
                           "" if items else "(your explorers are placed)")
            return
        self.hand.title = "Tiles"
        if view.hand is None:
            self.hand.show(None, None, "hidden: you are watching")
            return
        playable = self.playable()
        note = ""
        if not items:
            note = "(none yet)"
        elif playable:
            note = "1-9 picks, Enter plays"
        self.hand.show([HandItem(None, label) for label, _ in items], self._picked, note)

    def _redraw(self) -> None:
        if self._view is None or not self.is_mounted:
            return
        self._draw()
        self.refresh_bindings()

    @on(SurviveHexBoard.CellHighlighted)
    def _cell_highlighted(self, event: SurviveHexBoard.CellHighlighted) -> None:
        if self._view is not None and self.is_mounted:
            # (two rows always: a repaint, not a layout; the same words are not drawn again)
            self._show_step_line(words.step_text(self.turn()))
            # Of the keys only Enter's "go" / "select" depends on the cursor (enter_meaning).
            if self._piece is not None and self.phase() in ("move", "red", "creature"):
                self.refresh_bindings()
        event.stop()  # (no one above the screen listens: it need not go on to the app)

    _step_shown: Any = None

    def _show_step_line(self, text: Any, layout: bool = False) -> None:
        """The step line, unless it shows these words already."""
        line = self.query_one("#step-line", TurnLine)
        if line.content is not self._step_shown or text != self._step_shown:
            self._step_shown = text
            line.update(text, layout=layout)

    def on_mount(self) -> None:
        # The side panel as on_resize will set it: the first layout is the one drawn for.
        self.query_one("#side").styles.width = side_width(self.app.size.width)

    @on(SurviveHexBoard.CellSelected)
    def _cell_selected(self, event: SurviveHexBoard.CellSelected) -> None:
        self.choose_at(event.cell)

    @on(Hand.Selected)
    def _hand_selected(self, event: Hand.Selected) -> None:
        self.action_pick(event.index)

    # --- actions -----------------------------------------------------------------------------------
    def enter_meaning(self) -> str:
        """What Enter does now: place, go, select, remove, play, roll or ''."""
        phase = self.phase()
        cursor = self.board.cursor if self.is_mounted else -1
        if phase in ("place_explorer", "place_boat"):
            return "place"
        if phase == "sink":
            return "remove"
        if phase == "roll":
            return "roll"
        if phase in ("tile", "respond"):
            return "play" if self._picked in self.playable() else ""
        if phase in ("move", "red", "creature"):
            if self._piece is not None and cursor in self.targets():
                return "go"
            return "select" if self.movable() else ""
        return ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.phase()
        if action == "choose":
            what = parameters[0] if parameters else ""
            if what == "":
                return phase in ("wait", "over")
            return self.enter_meaning() == what
        if action == "roll":
            return phase == "roll"
        if action == "pick":
            return phase in ("place_explorer", "tile", "respond") and bool(self.hand_items())
        if action == "next_piece":
            return phase in ("move", "red", "creature") and bool(self.movable())
        if action == "end_step":
            what = parameters[0] if parameters else ""
            end = self.end_action()
            if end is None:
                return False
            kind = {NoTile: "tile", EndMoves: "move", EndTile: "stop", EndCreature: "stop",
                    NoDefence: "respond"}[type(end)]
            return kind == what
        if action == "cancel":
            return self._piece is not None or self._picked is not None
        return super().check_action(action, parameters)

    def choice_sent(self) -> None:
        self._picked = None
        self._follow = self._piece  # the cursor stays on a piece that is still moving

    _follow: Any = None  # the piece that was moving when the last action went out

    def action_choose(self, what: str = "") -> None:
        self.choose_at(self.board.cursor)

    def choose_at(self, cell: int) -> None:
        """Enter (or a click on the cursor hex): what it means depends on the step."""
        view = self._view
        phase = self.phase()
        if view is None:
            return
        if phase in ("wait", "over"):
            if self.link.read_only:
                self.say("This is a replay: nothing can be played.")
            elif phase == "over":
                self.say("The game is over.")
            else:
                waiting = self.link.waiting_for()
                self.say(f"Not your turn: waiting for {waiting}." if waiting else "Not your turn.")
            return
        if phase == "roll":
            self.action_roll()
            return
        if phase in ("tile", "respond"):
            play = self.playable().get(self._picked)
            if play is None:
                self.say("Pick a tile with 1-9 first, or e to play none.")
                return
            self.send(play)
            return
        targets = self.targets()
        if phase in ("place_explorer", "place_boat", "sink"):
            move = targets.get(cell)
            if move is None:
                self.say(self._not_here(phase))
                self.app.bell()
                return
            self.send(move.action)
            return
        # moving a piece: Enter on a + sends it; elsewhere Enter selects what is there
        if self._piece is not None and cell in targets:
            self.send(targets[cell].action)
            return
        here = [p for p in self.movable() if self.where(p) == cell]
        if not here:
            if self._piece is not None:
                self.say("The selected piece cannot go there: pick a hex marked +, or Esc.")
            else:
                self.say("Nothing of yours can move from here: n jumps to a piece that can.")
            return
        if self._piece in here:
            self._piece = here[(here.index(self._piece) + 1) % len(here)]
        else:
            self._piece = here[0]
        self.say(f"Selected {words.piece_name(self._view, self._piece)}: Enter on a + sends it.")
        self._redraw()

    def _not_here(self, phase: str) -> str:
        if phase == "place_explorer":
            return "An explorer goes on an empty land hex (marked +)."
        if phase == "place_boat":
            return "A boat goes on a free sea hex next to land (marked +)."
        return "That tile cannot be taken off now: pick one marked +."

    def action_next_piece(self) -> None:
        pieces = self.movable()
        if not pieces:
            return
        nxt = pieces[(pieces.index(self._piece) + 1) % len(pieces)] if self._piece in pieces else pieces[0]
        self._piece = nxt
        self.board.cursor = self.where(nxt)
        self.say(f"Selected {words.piece_name(self._view, nxt)}: Enter on a + sends it.")
        self._redraw()

    def action_pick(self, index: int) -> None:
        items = self.hand_items()
        if index >= len(items):
            self.say(f"There are only {len(items)} to pick from.")
            return
        if self._view.phase == "place_explorer":
            self._value = items[index][1]
            self.say(f"Placing an explorer worth ★{self._value}.")
        else:
            self._picked = index
            if index in self.playable():
                self.say(f"Enter plays the {BACK_NAMES[items[index][1].back]} tile.")
            else:
                self.say(f"The {BACK_NAMES[items[index][1].back]} tile cannot be played now.")
        self._redraw()

    def action_board_towards(self, direction: str) -> None:
        self.board.action_cursor_towards(direction)

    def action_roll(self) -> None:
        self.send(Roll())

    def action_end_step(self, what: str = "") -> None:
        end = self.end_action()
        if end is not None:
            self._piece = None
            self.send(end)

    def action_cancel(self) -> None:
        self._piece = None
        self._picked = None
        self.say("")
        self._redraw()
