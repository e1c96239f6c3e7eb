"""Atlantis: Pathways of the Deep -- the rules.

A turn has three parts: play tiles (two tiles from the hand, or rotate one placed
tile), move (your subpod up to 2 spaces or another subpod 1 space, along paths,
never back onto the space the move began on), then draw back to 4.  The first
subpod into Atlantis wins.  Every part is made of small actions so that
``legal()`` stays short: ``Place``, ``Rotate``, ``Special``, ``Remove``,
``EndPlays``, ``Step``, ``EndMove``.

Decisions where the rule text is silent (also in the in-app help):

* No legal play: ``EndPlays`` is allowed once two tiles have been played, or at
  any time when no tile in the hand can be played (rotating stays optional).
* Draw pile empty: the used special tiles are shuffled into a new draw pile; if
  that is empty too, hands simply stay short.
* "Trade this for a used tile": take one unlocked tile without a subpod off the
  board; it is shuffled back into the draw pile.
* Moving another player's subpod into Atlantis makes *them* win.
* Moving is "up to": a player may stop early or not move at all.
* "Move someone 3 spaces" moves another player's subpod (your own has "Move up
  to 3 spaces").
* With fewer than 4 players the unused start elbows are shuffled into the pile.
* Round limit (option ``max_rounds``, default 60): if nobody has reached Atlantis
  after that many rounds, the subpod nearest Atlantis wins (ties share).
"""

from __future__ import annotations

from typing import Any

from ..components import Pile, SingleActorTurns, put, redeal_hidden, without
from ..core import ActionCodec, Event, Game, IllegalAction, View, maker, replace, state_class
from ..options import lazy_model
from ..rng import Rng
from . import data
from .board import (  # noqa: F401  (the actions and board helpers live there; re-exported)
    ATLANTIS, EMPTY, END_MOVE, END_PLAYS, IN_ATLANTIS, EndMove, EndPlays, NB, OPP_INDEX, Place,
    Remove, Rotate, SIDES, Special, Step, connects, is_locked, is_removable, legal_actions, needs,
    play_actions, removable_cells, rotate_actions, step_actions, step_target, tile_rot_mask,
    _any_removable,
)

TILE_PILE = Pile("tiles")  # a shuffled pile drawn from the top; "drew_tiles" to the drawer


ACTIONS = {
    "place": Place, "rotate": Rotate, "special": Special, "remove": Remove,
    "end_plays": EndPlays, "step": Step, "end_move": EndMove,
}


# --- state and view ----------------------------------------------------------------
@state_class
class PathwaysState:
    players: int
    cells: tuple[int, ...]       # tile id per cell, EMPTY, or ATLANTIS
    masks: tuple[int, ...]       # open sides per cell (0 where no tile)
    pods: tuple[int, ...]        # cell per seat, IN_ATLANTIS once inside
    hands: tuple[tuple[int, ...], ...]
    draw: tuple[int, ...]        # face-down pile, next tile first
    discard: tuple[int, ...]     # used special tiles, face up
    turn: int
    phase: str                   # "play" | "move" | "over"
    plays_made: int
    plays_allowed: int
    pending: str                 # "" | "trade" | "move_own_3" | "move_other_3"
    mover: int                   # pod moving in the current move, -1 if none yet
    move_start: int              # cell the current move began on
    steps_left: int
    round: int
    max_rounds: int
    winners: tuple[int, ...]
    end_reason: str
    rng: Rng


@state_class
class PathwaysView(View):
    seat: int | None
    players: int
    cells: tuple[int, ...]
    masks: tuple[int, ...]
    pods: tuple[int, ...]
    hand: tuple[int, ...] | None  # own hand; None for a spectator
    hand_sizes: tuple[int, ...]
    draw_count: int
    discard: tuple[int, ...]
    turn: int
    phase: str
    plays_made: int
    plays_allowed: int
    pending: str
    mover: int
    move_start: int
    steps_left: int
    round: int
    max_rounds: int
    winners: tuple[int, ...]
    end_reason: str


_MAKE_VIEW = maker(PathwaysView)  # PathwaysView(*fields), without the frozen __init__


# --- the game -----------------------------------------------------------------------
class PathwaysGame(SingleActorTurns, Game):
    score_unit = ""  # no points: a winner or not
    slug = "pathways"
    title = "Atlantis: Pathways of the Deep"
    rules_version = "pathways-2"
    min_players = 2
    max_players = 4
    options_model = lazy_model("engine.pathways.options:PathwaysOptions")
    option_defaults = {"max_rounds": 60}  # (= the model's: tests/test_registry.py)
    codec = ActionCodec(ACTIONS)
    view_type = PathwaysView

    # --- setup ------------------------------------------------------------------
    def setup(self, options: Any, seats: int, seed: int) -> PathwaysState:
        opts = self.parse_options(options)
        if not self.min_players <= seats <= self.max_players:
            raise ValueError(f"Pathways takes 2-4 players, not {seats}")
        cells = [EMPTY] * data.CELLS
        masks = [0] * data.CELLS
        for a in data.ATLANTIS_CELLS:
            cells[a] = ATLANTIS
        pods = []
        for seat in range(seats):
            corner, mask = data.START_CORNERS[seat]
            cells[corner] = seat  # start elbow ids 0..3
            masks[corner] = mask
            pods.append(corner)
        rng = Rng.from_seed(seed, "pathways")
        # Start elbows of empty corners are ordinary elbows: they join the pile.
        pile, rng = rng.shuffled(range(seats, 100))
        hands = tuple(pile[i * data.HAND_SIZE:(i + 1) * data.HAND_SIZE] for i in range(seats))
        pile = pile[seats * data.HAND_SIZE:]
        return PathwaysState(
            players=seats, cells=tuple(cells), masks=tuple(masks), pods=tuple(pods),
            hands=hands, draw=pile, discard=(), turn=0, phase="play", plays_made=0,
            plays_allowed=data.BASE_PLAYS, pending="", mover=-1, move_start=-1, steps_left=0,
            round=1, max_rounds=opts.max_rounds, winners=(), end_reason="", rng=rng,
        )

    # --- view -------------------------------------------------------------------------
    def view(self, state: PathwaysState, seat: int | None) -> PathwaysView:
        # PathwaysView's fields in declaration order
        hands = state.hands
        s = state
        return _MAKE_VIEW(
            seat, s.players, s.cells, s.masks, s.pods, hands[seat] if seat is not None else None,
            tuple(map(len, hands)), len(s.draw), s.discard, s.turn, s.phase, s.plays_made, s.plays_allowed,
            s.pending, s.mover, s.move_start, s.steps_left, s.round, s.max_rounds, s.winners,
            s.end_reason,
        )

    # --- legal actions ----------------------------------------------------------------
    # (board.legal_actions itself: the self-play loop calls it once a move)
    legal = staticmethod(legal_actions)

    # --- apply ------------------------------------------------------------------------
    def apply(self, state: PathwaysState, seat: int, action: Any) -> tuple[PathwaysState, list[Event]]:
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        if seat != state.turn:
            raise IllegalAction("It is not your turn.")
        kind = type(action)
        if state.pending == "trade":
            if kind is not Remove:
                raise IllegalAction("Choose a tile on the board to trade away first.")
            return self._remove(state, seat, action)
        if state.pending or state.phase == "move":
            if kind is Step:
                return self._step(state, seat, action)
            if kind is EndMove:
                return self._end_move(state, seat)
            raise IllegalAction("You are moving a subpod now: step along a path or end the move.")
        # play phase
        if kind is Place:
            return self._place(state, seat, action)
        if kind is Special:
            return self._special(state, seat, action)
        if kind is Rotate:
            return self._rotate(state, seat, action)
        if kind is EndPlays:
            return self._end_plays(state, seat)
        raise IllegalAction("Play a tile, rotate a placed tile, or end your plays.")

    # play phase ------------------------------------------------------------------------
    def _after_play(self, state: PathwaysState, **changes: Any) -> PathwaysState:
        get = changes.get
        if not get("pending", state.pending):
            hands = get("hands", state.hands)
            if get("plays_made", state.plays_made) >= get("plays_allowed", state.plays_allowed) \
                    or not hands[get("turn", state.turn)]:
                # straight on to the move: one new state instead of two (as _begin_move)
                changes.update(phase="move", pending="", mover=-1, move_start=-1,
                               steps_left=data.OWN_MOVE)
        return replace(state, **changes)

    def _begin_move(self, s: PathwaysState) -> PathwaysState:
        return replace(s, phase="move", pending="", mover=-1, move_start=-1,
                       steps_left=data.OWN_MOVE)

    def _place(self, state, seat, a: Place):
        hand = state.hands[seat]
        if a.tile not in hand:
            raise IllegalAction("That tile is not in your hand.")
        kind = data.TILE_KIND[a.tile]
        if kind in data.SPECIAL_KINDS:
            raise IllegalAction("Special tiles are played, not placed on the board.")
        if not 0 <= a.cell < data.CELLS or not 0 <= a.rot < 4:
            raise IllegalAction("That is not a space on the board.")
        if state.cells[a.cell] == ATLANTIS:
            raise IllegalAction("Tiles cannot be placed on Atlantis.")
        if state.cells[a.cell] != EMPTY:
            raise IllegalAction(f"{data.cell_name(a.cell)} already holds a tile.")
        mask = tile_rot_mask(a.tile, a.rot)
        if not connects(state.masks, state.cells, a.cell, mask):
            raise IllegalAction("A placed tile must join at least one path end of a neighbouring tile.")
        cells = list(state.cells)
        masks = list(state.masks)
        cells[a.cell] = a.tile
        masks[a.cell] = mask
        new_cells, new_masks = tuple(cells), tuple(masks)
        hands = put(state.hands, seat, without(hand, a.tile))
        ev = Event("placed", {"seat": seat, "tile": a.tile, "kind": kind, "cell": a.cell, "mask": mask})
        return self._after_play(state, cells=new_cells, masks=new_masks, hands=hands,
                                plays_made=state.plays_made + 1), [ev]

    def _special(self, state, seat, a: Special):
        hand = state.hands[seat]
        if a.tile not in hand:
            raise IllegalAction("That tile is not in your hand.")
        kind = data.TILE_KIND[a.tile]
        if kind not in data.SPECIAL_KINDS:
            raise IllegalAction("That is a path tile: place it on the board.")
        if kind == "trade" and not _any_removable(state):
            raise IllegalAction("No tile on the board can be traded: every one is locked or holds a subpod.")
        hands = put(state.hands, seat, without(hand, a.tile))
        changes: dict[str, Any] = dict(hands=hands, discard=state.discard + (a.tile,),
                                       plays_made=state.plays_made + 1)
        if kind == "play_2_more":
            changes["plays_allowed"] = state.plays_allowed + data.EXTRA_PLAYS
        elif kind == "trade":
            changes["pending"] = "trade"
        else:
            changes.update(pending=kind, mover=-1, move_start=-1, steps_left=data.SPECIAL_MOVE)
        ev = Event("special", {"seat": seat, "tile": a.tile, "kind": kind})
        return self._after_play(state, **changes), [ev]

    def _remove(self, state, seat, a: Remove):
        if not is_removable(state, a.cell):
            if 0 <= a.cell < data.CELLS and state.cells[a.cell] >= 0:
                if a.cell in state.pods:
                    raise IllegalAction("You cannot remove a tile with a subpod on it.")
                raise IllegalAction("That tile is locked: all four sides are touching.")
            raise IllegalAction("There is no tile there to trade.")
        tile = state.cells[a.cell]
        cells = list(state.cells)
        masks = list(state.masks)
        cells[a.cell] = EMPTY
        masks[a.cell] = 0
        new_cells, new_masks = tuple(cells), tuple(masks)
        pos, rng = state.rng.below(len(state.draw) + 1)
        draw = state.draw[:pos] + (tile,) + state.draw[pos:]
        ev = Event("removed", {"seat": seat, "tile": tile, "cell": a.cell})
        return self._after_play(state, cells=new_cells, masks=new_masks, draw=draw,
                                rng=rng, pending=""), [ev]

    def _rotate(self, state, seat, a: Rotate):
        if state.plays_made:
            raise IllegalAction("Rotating replaces playing tiles: you have already played a tile this turn.")
        if not 0 <= a.cell < data.CELLS or state.cells[a.cell] < 0:
            raise IllegalAction("There is no tile there to rotate.")
        if not 0 <= a.rot < 4:
            raise IllegalAction("A rotation is 0-3 quarter turns.")
        if is_locked(state.cells, a.cell):
            raise IllegalAction("That tile is locked: all four sides are touching.")
        mask = tile_rot_mask(state.cells[a.cell], a.rot)
        if mask == state.masks[a.cell]:
            raise IllegalAction("The tile already lies that way.")
        if not connects(state.masks, state.cells, a.cell, mask):
            raise IllegalAction("A rotated tile must still join a neighbouring path.")
        masks = list(state.masks)
        masks[a.cell] = mask
        new_masks = tuple(masks)
        ev = Event("rotated", {"seat": seat, "cell": a.cell, "mask": mask})
        # straight on to the move: one new state (as _begin_move)
        return replace(state, masks=new_masks, plays_made=0, phase="move", pending="", mover=-1,
                       move_start=-1, steps_left=data.OWN_MOVE), [ev]

    def _end_plays(self, state, seat):
        if state.plays_made < data.BASE_PLAYS and play_actions(self.view(state, seat)):
            raise IllegalAction("You must play two tiles (or rotate one) while you can.")
        return self._begin_move(state), [Event("end_plays", {"seat": seat, "plays": state.plays_made})]

    # move phase ------------------------------------------------------------------------
    def _step(self, state, seat, a: Step):
        if not 0 <= a.pod < state.players or not 0 <= a.side < 4:
            raise IllegalAction("There is no such subpod or direction.")
        special = state.pending
        if state.mover == -1:
            if special == "move_own_3" and a.pod != seat:
                raise IllegalAction("This tile moves your own subpod.")
            if special == "move_other_3" and a.pod == seat:
                raise IllegalAction("This tile moves another player's subpod.")
            if special:
                budget = data.SPECIAL_MOVE
            else:
                budget = data.OWN_MOVE if a.pod == seat else data.OTHER_MOVE
            start = state.pods[a.pod]
        else:
            if a.pod != state.mover:
                raise IllegalAction("Finish moving the subpod you started with.")
            budget, start = state.steps_left, state.move_start
        if budget <= 0:
            raise IllegalAction("That subpod has no steps left.")
        pos = state.pods[a.pod]
        if pos == IN_ATLANTIS:
            raise IllegalAction("That subpod is already in Atlantis.")
        target = step_target(state.masks, state.cells, pos, a.side)
        if target is None:
            raise IllegalAction(f"No path leads {data.SIDE_NAMES[a.side]} from {data.cell_name(pos)}.")
        if target == start:
            raise IllegalAction("A subpod may not return to the space its move began on.")
        pods = list(state.pods)
        pods[a.pod] = target
        events = [Event("step", {"seat": seat, "pod": a.pod, "from": pos, "to": target})]
        s = replace(state, pods=tuple(pods), mover=a.pod, move_start=start, steps_left=budget - 1)
        if target == IN_ATLANTIS:
            events.append(Event("atlantis", {"pod": a.pod}))
            return replace(s, phase="over", pending="", winners=(a.pod,),
                           end_reason="reached Atlantis"), events
        if s.steps_left == 0:
            s2, more = self._finish_move(s, seat)
            return s2, events + more
        return s, events

    def _end_move(self, state, seat):
        return self._finish_move(state, seat)

    def _finish_move(self, s: PathwaysState, seat: int):
        if s.pending:  # a special tile's move: back to playing tiles
            s = replace(s, pending="", mover=-1, move_start=-1, steps_left=0)
            return self._after_play(s), [Event("special_done", {"seat": seat})]
        return self._end_turn(s, seat)

    def _end_turn(self, s: PathwaysState, seat: int):
        events: list[Event] = []
        hand = s.hands[seat]
        drawn, draw, discard, rng, drew = TILE_PILE.draw(s.draw, s.discard, data.HAND_SIZE - len(hand),
                                                         s.rng, seat)
        events += drew
        hands = put(s.hands, seat, hand + drawn)
        nxt = (seat + 1) % s.players
        rnd = s.round + (1 if nxt == 0 else 0)
        s = replace(s, hands=hands, draw=draw, discard=discard, rng=rng, turn=nxt, phase="play",
                    plays_made=0, plays_allowed=data.BASE_PLAYS, pending="", mover=-1,
                    move_start=-1, steps_left=0, round=rnd)
        if rnd > s.max_rounds:
            best = min(data.ATLANTIS_DISTANCE[p] for p in s.pods)
            winners = tuple(i for i, p in enumerate(s.pods) if data.ATLANTIS_DISTANCE[p] == best)
            events.append(Event("round_limit", {"winners": winners}))
            return replace(s, phase="over", winners=winners,
                           end_reason=f"round limit: nearest to Atlantis ({best} spaces)"), events
        events.append(Event("turn", {"seat": nxt}))
        return s, events

    # --- undo, leaks, bots, text -----------------------------------------------------------
    def undo_barrier(self, before, after, seat, action) -> str | None:
        if before.rng != after.rng or before.draw != after.draw:
            return "new tiles were drawn or shuffled"
        if type(action) in (Place, Special):
            return "it showed everyone a tile from your hand"
        return None

    def rerandomise(self, state: PathwaysState, seat: int, rng: Rng) -> PathwaysState:
        """Shuffle every tile ``seat`` cannot see (other hands and the draw pile)."""
        hands, draw, _ = redeal_hidden(state.hands, state.draw, seat, rng)
        return replace(state, hands=hands, draw=draw)

    def reveal(self, state: PathwaysState, names) -> list[str]:
        """Every secret at the end, in sentences: ``text.reveal`` (as ``Game.reveal`` does)."""
        return super().reveal(state, names)
