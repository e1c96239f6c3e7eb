"""The Pathways of the Deep screen: the tile board, the hand, and the keys.

The screen draws only the view and legal actions its session gives it, and sends small
actions (``Place``, ``Rotate``, ``Special``, ``Remove``, ``EndPlays``, ``Step``,
``EndMove``) through ``self.send``; the engine's refusal, if any, is shown as it
is.  What the screen keeps for itself is only what the player is pointing at:
the selected hand tile and how it is turned, a previewed turn of a placed tile,
and which subpod is being moved.

Turning a placed tile ends the play part at once (it replaces playing tiles),
so ``t`` first *previews* the next legal way the tile under the cursor can lie;
``t`` again cycles, Enter turns it, Esc cancels.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual import events
from textual.geometry import Size
from textual.widgets import Static

from engine.pathways import data
from engine.pathways.text import tile_label
from engine.pathways.actions import EndMove, EndPlays, Place, Remove, Rotate, Special, Step
from engine.pathways.board import EMPTY, IN_ATLANTIS

from ..commands import Command
from ..screens.game import GameScreen
from ..seat_labels import SEAT_LETTERS, seat_style
from ..widgets.hand import Hand, HandItem
from ..widgets.tile_board import Block, BoardPicture, Ghost, TileBoard
from ..widgets.seat_styles import themed
from .legend import legend_text
from .slots import keep_slots
from .tiles import is_special, kind_of, rotation_of, tile_mask
from . import words

SIDE_WIDTH = 34  # the side panel's usual width (GameScreen's CSS)
SIDE_STEP = 8    # it grows only by at least this many columns
ATLANTIS_MARKER_CELL = data.ATLANTIS_CELLS[2]  # the city cell a subpod that arrives there changes
def pod_style(seat: int, active: bool = False) -> Style:
    """A subpod: its seat's letter style, underlined when it is the one to move."""
    return seat_style(seat, underline=active)



class PathwaysScreen(GameScreen):
    """Atlantis: Pathways of the Deep."""

    AUTO_FOCUS = "TileBoard"

    DEFAULT_CSS = """
    PathwaysScreen TileBoard { height: 1fr; }
    PathwaysScreen Hand { height: auto; }
    PathwaysScreen #legend { height: auto; padding: 0 0 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    PathwaysScreen.-short #last-turn { display: none; }
    """
    #: Below this height "Last turn" is left out: the log right under it holds the same
    #: lines, and without it the log stays above the side panel's fold.
    SHORT = 30

    # 80x24 (SCREEN.min_size) holds the board with 2-row cells and its labels, the hand and a legend line.
    GAME_KEYS = (
        Command("pathways-pick-1", "1", "Pick", "pick(0)", "Pick a tile from your hand (1-4, left to right).",
                key_display="1-4"),
        Command("pathways-pick-2", "2", "Pick 2", "pick(1)", show=False),
        Command("pathways-pick-3", "3", "Pick 3", "pick(2)", show=False),
        Command("pathways-pick-4", "4", "Pick 4", "pick(3)", show=False),
        Command("pathways-rotate-hand", "r", "Rotate", "rotate_hand", "Turn the picked tile a quarter turn."),
        # Enter: one binding per meaning, so the footer names what Enter does now.
        # Not priority bindings: those would run before cursor keys typed ahead.
        Command("pathways-place", "enter", "Place", "choose('place')", "Place the picked tile under the cursor."),
        Command("pathways-play-special", "enter", "Play it", "choose('special')", "Play the picked special tile."),
        Command("pathways-confirm-turn", "enter", "Turn it", "choose('turn')", "Turn the placed tile as previewed."),
        Command("pathways-trade", "enter", "Trade", "choose('trade')", "Take the tile under the cursor (Trade)."),
        Command("pathways-step", "enter", "Step", "choose('step')", "Move your subpod to the space under the cursor."),
        Command("pathways-turn-placed", "t", "Turn placed", "turn_board",
                "Preview turning the placed tile under the cursor (t again: the next way)."),
        # The same key, not in the footer while a tile is picked (room for Rotate and Place).
        Command("pathways-turn-placed-quiet", "t", "Turn placed", "turn_board('quiet')", show=False),
        Command("pathways-other-pod", "o", "Other subpod", "other_pod", "Choose your other subpod to move."),
        Command("pathways-step-north", "shift+up", "Step", "step(0)", "Step your subpod one space that way.",
                key_display="⇧+arrow"),
        Command("pathways-step-east", "shift+right", "Step east", "step(1)", show=False),
        Command("pathways-step-south", "shift+down", "Step south", "step(2)", show=False),
        Command("pathways-step-west", "shift+left", "Step west", "step(3)", show=False),
        Command("pathways-end-plays", "e", "End plays", "end_plays", "Stop playing tiles and move your subpods."),
        Command("pathways-end-move", "e", "End move", "end_move", "End your move (and your turn)."),
        Command("pathways-cancel", "escape", "Cancel", "cancel", "Put the tile back, or cancel the preview.",
                show=False),
    )
    WHY_NOT = "pathways"  # a key none of whose commands is allowed now says why

    def __init__(self, link: Any, **kwargs: Any):
        super().__init__(link, **kwargs)
        self._selected: int | None = None     # tile id picked from the hand
        self._rots: dict[int, int] = {}       # how each hand tile is turned
        self._preview: tuple[int, int] | None = None  # (cell, rot) of a previewed turn
        self._pod: int | None = None          # the subpod the player chose to move
        self._was_moving = False
        self._cursor_placed = False
        # Per seat: which tile is in which numbered hand slot (None: played, a gap), so
        # the tiles after a played one keep their numbers until new ones are drawn.
        self._slots: dict[int | None, list[int | None]] = {}
        self._left_from: dict[int | None, dict[int, int]] = {}  # per seat: tile -> the slot it left
        self._legend_drawn: tuple[bool, int, str] | None = None

    # --- layout -------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        board = TileBoard(data.SIZE, id="board")
        board.enter_selects = False  # our Enter bindings say what Enter does now
        yield board
        hand = Hand(id="hand")
        # (as on_resize will set it: the first layout is the last, the board is drawn once)
        hand.set_reactive(Hand.compact, self.app.size.height < 36)
        yield hand
        # (as tall as the legend it will show: the board keeps its first size)
        yield Static("\n" if self.app.size.height >= 36 else "", id="legend")

    @property
    def board(self) -> TileBoard:
        return self.query_one("#board", TileBoard)

    @property
    def hand(self) -> Hand:
        return self.query_one("#hand", Hand)

    def on_resize(self, event: events.Resize) -> None:
        # The tall hand (4 rows) only when the board keeps its 3-row cells beside it.
        self.hand.compact = event.size.height < 36
        self.set_class(event.size.height < self.SHORT, "-short")
        self._draw_legend()
        self.call_after_refresh(self._fit_side)

    def _fit_side(self) -> None:
        """The side panel takes the columns the board leaves blank (a wide terminal has
        room for more of the log), never less than its usual width."""
        board, side = self.board, self.query_one("#side")
        if not board.size or not side.size:
            return
        room = board.size.width + side.outer_size.width
        narrowest = SIDE_WIDTH
        wanted = room - board.drawn_width(Size(room - narrowest, board.size.height)) - 1
        if wanted < narrowest + SIDE_STEP:   # (a few columns more would cut the legend line short)
            wanted = narrowest
        if side.outer_size.width != wanted:
            side.styles.width = wanted

    def _draw_legend(self) -> None:
        if self._view is None:
            return  # (the first view draws it: once, for its number of players)
        wide = self.size.height >= 36
        players = self._view.players
        if self._legend_drawn != (wide, players, self.app.theme):  # (its samples are the theme's colours)
            self._legend_drawn = (wide, players, self.app.theme)
            self.query_one("#legend", Static).update(legend_text(self.board, wide, players))
        # (GameScreen.on_resize compacts the footer on a narrow terminal.)

    def set_link(self, link: Any) -> None:
        self._selected = None
        self._preview = None
        self._pod = None
        self._cursor_placed = False
        super().set_link(link)

    # --- the words (tui/pathways/words.py) ---------------------------------------------------
    def turn(self) -> words.Turn:
        """Where the player's turn stands on this screen: what the words are made from."""
        mode, selected = self.mode(), self._selected
        return words.Turn(
            self._view, self.link.names, mode, waiting=self.link.waiting_for(), read_only=self.link.read_only,
            selected=selected, preview=self._preview,
            fits=len(self.place_cells()) if mode == "play" and selected is not None and not is_special(selected) else 0,
            can_end_plays=mode == "play" and self.can_end_plays(),
            pod=self.active_pod() if mode == "move" else None,
            movable=len(self.steps_by_pod()) if mode == "move" else 0,
            cursor=self.board.cursor)

    def turn_line(self, view: Any, legal: list[Any]) -> Text:
        return words.turn_line(self.turn())

    def players_panel(self, view: Any) -> Text:
        return words.players_panel(view, self.link.names)

    # --- what the player may do now ---------------------------------------------------------
    def mode(self) -> str:
        """'wait', 'play', 'trade' or 'move' for the seat at this screen."""
        view = self._view
        if view is None or not self._legal:
            return "wait"
        if view.pending == "trade":
            return "trade"
        if view.pending or view.phase == "move":
            return "move"
        return "play"

    def hand_tiles(self) -> tuple[int, ...]:
        view = self._view
        return tuple(view.hand) if view is not None and view.hand is not None else ()

    def hand_slots(self) -> list[int | None]:
        """The hand in numbered slots: key ``n`` picks slot ``n``.  A played tile leaves a
        gap (its number stays empty); a tile taken back (undo) returns to its own slot;
        new tiles fill the gaps first."""
        hand = self.hand_tiles()
        seat = self._view.seat if self._view is not None else None
        if seat not in self._slots:
            self._slots[seat] = self._slots_so_far(seat)
        slots = keep_slots(self._slots[seat], hand, self._left_from.setdefault(seat, {}))
        self._slots[seat] = slots
        return slots

    def _slots_so_far(self, seat: int | None) -> list[int | None]:
        """The slots as a screen open since the start would have them (a game resumed
        from its record keeps its numbers); [] when the link cannot tell."""
        past = getattr(self.link, "past_views", None)
        if seat is None or past is None or getattr(self.link, "seat", None) != seat:
            return []
        slots: list[int | None] = []
        for view in past():
            slots = keep_slots(slots, tuple(view.hand or ()), self._left_from.setdefault(seat, {}))
        return slots

    def selected_path_tile(self) -> int | None:
        tile = self._selected
        return tile if tile is not None and not is_special(tile) else None

    def selected_mask(self) -> int | None:
        tile = self.selected_path_tile()
        return None if tile is None else tile_mask(tile, self._rots.get(tile, 0))

    def place_cells(self) -> set[int]:
        """Cells where the selected tile, turned as it is now, may be placed."""
        tile = self.selected_path_tile()
        if tile is None:
            return set()
        shape, mask = data.SHAPES[kind_of(tile)], self.selected_mask()
        # legal() lists one tile per kind and one rotation per distinct mask: match on the
        # shape and the open sides, not on the tile id or the rotation number.
        return {a.cell for a in self._legal
                if type(a) is Place and data.SHAPES[kind_of(a.tile)] == shape
                and tile_mask(a.tile, a.rot) == mask}

    def rotate_choices(self, cell: int) -> list[int]:
        """The legal ways to turn the tile at ``cell``, clockwise from how it lies."""
        view = self._view
        rots = [a.rot for a in self._legal if type(a) is Rotate and a.cell == cell]
        if not rots or view.cells[cell] < 0:
            return rots
        now = rotation_of(view.cells[cell], view.masks[cell])
        return sorted(rots, key=lambda r: (r - now) % 4)

    def can_end_plays(self) -> bool:
        # By type: EndPlays() == EndMove() as tuples (both are empty NamedTuples).
        return any(type(a) is EndPlays for a in self._legal)

    def steps_by_pod(self) -> dict[int, list[Step]]:
        out: dict[int, list[Step]] = {}
        for a in self._legal:
            if type(a) is Step:
                out.setdefault(a.pod, []).append(a)
        return out

    def active_pod(self) -> int | None:
        """The subpod that Enter and Shift+arrow move."""
        view = self._view
        if view is None:
            return None
        if view.mover >= 0:
            return view.mover
        movable = self.steps_by_pod()
        if self._pod in movable:
            return self._pod
        if view.seat in movable:
            return view.seat
        return min(movable) if movable else None

    def step_cells(self) -> dict[int, int]:
        """Target cell -> side for every legal step of the active subpod."""
        pod = self.active_pod()
        view = self._view
        if pod is None:
            return {}
        pos = view.pods[pod]
        return {data.NEIGHBOURS[pos][s.side]: s.side for s in self.steps_by_pod().get(pod, [])}

    # --- drawing -------------------------------------------------------------------------
    def refresh_board(self, view: Any, legal: list[Any]) -> None:
        hand = self.hand_tiles()
        if self._selected not in hand:
            self._selected = None
        self._rots = {t: r for t, r in self._rots.items() if t in hand}
        mode = self.mode()
        if mode != "play":
            self._preview = None
        if not self._cursor_placed and view.seat is not None and 0 <= view.pods[view.seat]:
            self._cursor_placed = True
            self.board.cursor = view.pods[view.seat]
        moving = mode == "move"
        if moving and not self._was_moving:
            pod = self.active_pod()
            if pod is not None and view.pods[pod] >= 0:
                self.board.cursor = view.pods[pod]
        self._was_moving = moving
        follow, self._follow = self._follow, None
        if follow is not None and view.pods[follow] >= 0:
            self.board.cursor = view.pods[follow]
        self._draw()
        self._draw_legend()

    _follow: int | None = None  # the subpod that just stepped

    def _draw(self) -> None:
        view = self._view
        if view is None:
            return
        board = self.board
        mode = self.mode()
        cursor = board.cursor
        tiles = [view.masks[c] if view.cells[c] >= 0 else None for c in range(data.CELLS)]
        markers: dict[int, list[tuple[str, Style]]] = {}
        in_city: list[tuple[str, Style]] = []
        active = self.active_pod() if mode == "move" else None
        for seat, pos in enumerate(view.pods):
            mark = (SEAT_LETTERS[seat], themed(pod_style(seat, seat == active), self.app.theme_variables))
            if pos == IN_ATLANTIS:
                in_city.append(mark)
            else:
                markers.setdefault(pos, []).append(mark)
        targets: set[int] = set()
        ghost = None
        if mode == "play":
            if self._preview is not None:
                cell, rot = self._preview
                ghost = Ghost(cell, tile_mask(view.cells[cell], rot), True)
            elif self.selected_path_tile() is not None:
                targets = self.place_cells()
                if view.cells[cursor] == EMPTY:
                    ghost = Ghost(cursor, self.selected_mask(), cursor in targets)
        elif mode == "trade":
            targets = {a.cell for a in self._legal if type(a) is Remove}
        elif mode == "move":
            targets = set(self.step_cells())
        board.show(BoardPicture(
            tiles=tiles, blocks=[Block(data.ATLANTIS_CELLS, ("ATLANTIS", "CITY", "@"), tuple(in_city))],
            markers=markers, targets=targets, ghost=ghost, recent=self.recent_cells(),
        ))
        self._draw_hand()

    def recent_cells(self) -> frozenset[int]:
        """Cells the other seats changed since this seat's last action: a tile laid,
        turned or taken away, a subpod that left or arrived (until this seat acts again)."""
        view, before = self._view, self.baseline_view()
        if view is None or before is None or before.cells == view.cells and before.pods == view.pods:
            return frozenset()
        out = {c for c in range(data.CELLS) if before.cells[c] != view.cells[c] or before.masks[c] != view.masks[c]}
        for a, b in zip(before.pods, view.pods):
            if a != b:
                out |= {ATLANTIS_MARKER_CELL if p == IN_ATLANTIS else p for p in (a, b)}
        return frozenset(out)

    def _draw_hand(self) -> None:
        view = self._view
        if view.hand is None:
            self.hand.show(None, None, "hidden: you are watching")
            return
        items: list[HandItem | None] = []
        slots = self.hand_slots()
        for tile in slots:
            if tile is None:
                items.append(None)
                continue
            kind = kind_of(tile)
            if kind in data.SPECIAL_KINDS:
                items.append(HandItem(None, data.SPECIAL_SHORT[kind], "special"))
            else:
                label = tile_label(tile)
                items.append(HandItem(tile_mask(tile, self._rots.get(tile, 0)), label, label))
        selected = slots.index(self._selected) if self._selected in slots else None
        note = "" if items else "(empty: you draw at the end of your turn)"
        self.hand.show(items, selected, note)

    def _redraw(self) -> None:
        """Local change (cursor, selection): board, hand, turn line and keys."""
        if self._view is None or not self.is_mounted:
            return
        self._draw()
        self._show_turn_line(self.turn_line(self._view, self._legal))
        self.refresh_bindings()

    def _show_turn_line(self, text: Text) -> None:
        self._show("#turn-line", text, layout=False)

    # --- board and hand messages -------------------------------------------------------------
    @on(TileBoard.CellHighlighted)
    def _cell_highlighted(self, event: TileBoard.CellHighlighted) -> None:
        # Only what depends on the cursor (a cursor key costs one light frame):
        # the board repaints its own cursor; the picture changes only for a ghost tile
        # that follows the cursor or a preview left behind; the keys only with a preview.
        dropped = self._preview is not None and self._preview[0] != event.cell
        if dropped:
            self._preview = None
        if self._view is None or not self.is_mounted:
            return
        if dropped or self.mode() == "play" and self.selected_path_tile() is not None:
            self._draw()
        self._show_turn_line(self.turn_line(self._view, self._legal))
        if dropped:
            self.refresh_bindings()
        event.stop()  # (no one above the screen listens: it need not go on to the app)

    @on(TileBoard.CellSelected)
    def _cell_selected(self, event: TileBoard.CellSelected) -> None:
        self.choose_at(event.cell)

    @on(Hand.Selected)
    def _hand_selected(self, event: Hand.Selected) -> None:
        self.action_pick(event.index)

    # --- actions --------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        mode = self.mode()
        if action == "pick":
            return mode == "play" and self._preview is None and bool(self.hand_tiles())
        if action == "rotate_hand":
            return mode == "play" and self.selected_path_tile() is not None
        if action == "choose":
            what = parameters[0] if parameters else ""
            if what == "place":
                return mode == "play" and self._preview is None and self.selected_path_tile() is not None
            if what == "special":
                return (mode == "play" and self._preview is None and self._selected is not None
                        and is_special(self._selected))
            if what == "turn":
                return mode == "play" and self._preview is not None
            if what == "trade":
                return mode == "trade"
            if what == "step":
                return mode == "move"
            return False
        if action == "turn_board":
            quiet = bool(parameters) and parameters[0] == "quiet"
            return mode == "play" and self._view.plays_made == 0 and quiet == (self._selected is not None)
        if action == "other_pod":
            return mode == "move" and self._view.mover < 0 and len(self.steps_by_pod()) > 1
        if action == "step":
            return mode == "move"
        if action == "end_plays":
            if mode != "play":
                return False
            return self.can_end_plays()
        if action == "end_move":
            return mode == "move"
        if action == "cancel":
            return self._preview is not None or self._selected is not None
        return super().check_action(action, parameters)

    def choice_sent(self) -> None:
        self._selected = None
        self._preview = None

    def action_pick(self, index: int) -> None:
        slots = self.hand_slots()
        if self.mode() != "play":
            self.say(words.why_not_play(self.turn()))
            return
        if self._preview is not None:
            self.say("Finish turning the tile first: Enter turns it, Esc cancels.")
            return
        if index >= len(slots) or slots[index] is None:
            held = [str(i + 1) for i, t in enumerate(slots) if t is not None]
            if not held:
                self.say("Your hand is empty: new tiles come at the end of your turn.")
                return
            choice = held[0] if len(held) == 1 else ", ".join(held[:-1]) + " or " + held[-1]
            self.say(f"Slot {index + 1} is empty: pick {choice} (new tiles come at the end of your turn).")
            return
        self._selected = slots[index]
        self._preview = None
        self.say("")
        self._redraw()

    # --- keys that are not allowed now say why ---------------------------------------------
    def action_why_not(self, key: str) -> None:
        """A key none of whose commands is allowed now: say why (tui/why_not.py)."""
        mode = self.mode()
        if key == "enter":
            self.choose_at(self.board.cursor)  # says why itself
            return
        if key in ("1", "2", "3", "4"):
            self.action_pick(int(key) - 1)      # says why itself
            return
        if key == "e" and mode == "play":
            self.send(EndPlays())  # the engine says why not
            return
        self.say(words.why_not(self.turn(), key))

    def action_rotate_hand(self) -> None:
        tile = self.selected_path_tile()
        if tile is None:
            self.say(words.why_not(self.turn(), "r"))
            return
        ways = len(data.rotations(kind_of(tile)))
        if ways == 1:
            self.say("A cross looks the same every way.")
            return
        self._rots[tile] = (self._rots.get(tile, 0) + 1) % ways
        self._redraw()

    def action_choose(self, what: str = "") -> None:
        self.choose_at(self.board.cursor)

    def choose_at(self, cell: int) -> None:
        """Enter (or a click) on ``cell``: what it means depends on the part of the turn."""
        mode = self.mode()
        view = self._view
        if view is None:
            return
        if mode == "wait":
            self.say(words.wait_reason(self.turn()))
            return
        if mode == "trade":
            self.send(Remove(cell))
            return
        if mode == "move":
            self._choose_step(cell)
            return
        if self._preview is not None:
            pcell, rot = self._preview
            self.send(Rotate(pcell, rot))
            return
        tile = self._selected
        if tile is None:
            self.say("Pick a tile from your hand first (1-4), or t to turn a placed tile.")
            return
        if is_special(tile):
            self.send(Special(tile))
        else:
            self.send(Place(tile, self._rots.get(tile, 0), cell))

    def _choose_step(self, cell: int) -> None:
        view = self._view
        pod = self.active_pod()
        if pod is None:
            self.say("No subpod can move now: e ends the move.")
            return
        pos = view.pods[pod]
        for side in range(4):
            if data.NEIGHBOURS[pos][side] == cell:
                self._send_step(pod, side)
                return
        movable = self.steps_by_pod()
        here = [p for p in movable if view.pods[p] == cell and p != pod]
        if here and view.mover < 0:
            self._pod = here[0]
            self.say(f"Moving {self.link.names[here[0]]}'s subpod.")
            self._redraw()
            return
        if cell == pos:
            self.say("Move the cursor to a cell marked + next to the subpod, then Enter.")
        else:
            self.say("That cell is not next to the moving subpod: pick a cell marked +.")

    def _send_step(self, pod: int, side: int) -> None:
        if self.send(Step(pod, side)):
            self._follow = pod  # (the cursor goes with it once the table has it there)

    def action_step(self, side: int) -> None:
        pod = self.active_pod()
        if pod is None:
            self.say("No subpod can move now: e ends the move.")
            return
        self._send_step(pod, side)

    def action_other_pod(self) -> None:
        movable = sorted(self.steps_by_pod())
        if not movable:
            return
        current = self.active_pod()
        nxt = movable[(movable.index(current) + 1) % len(movable)] if current in movable else movable[0]
        self._pod = nxt
        pos = self._view.pods[nxt]
        if pos >= 0:
            self.board.cursor = pos
        self.say(f"Moving {self.link.names[nxt]}'s subpod.")
        self._redraw()

    def action_turn_board(self, quiet: str = "") -> None:
        cell = self.board.cursor
        view = self._view
        choices = self.rotate_choices(cell)
        if not choices:
            # Nothing legal here: let the engine say why (empty, locked, no joining way...).
            now = rotation_of(view.cells[cell], view.masks[cell]) if view.cells[cell] >= 0 else 0
            self.send(Rotate(cell, (now + 1) % 4))
            return
        if self._preview is not None and self._preview[0] == cell and self._preview[1] in choices:
            nxt = choices[(choices.index(self._preview[1]) + 1) % len(choices)]
        else:
            nxt = choices[0]
        self._preview = (cell, nxt)
        self.say(f"Way {choices.index(nxt) + 1} of {len(choices)} this tile can turn.")
        self._redraw()

    def action_end_plays(self) -> None:
        self.send(EndPlays())

    def action_end_move(self) -> None:
        self.send(EndMove())

    def action_cancel(self) -> None:
        if self._preview is not None:
            self._preview = None
        else:
            self._selected = None
        self.say("")
        self._redraw()
