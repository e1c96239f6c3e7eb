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
from ..core import ActionCodec, Event, Game, IllegalAction, replace
from ..rng import Rng
from ..stages import GAME_OVER, StageRule, whose_turn
from . import MANIFEST
from . import board
from . import data
from .actions import ACTIONS, EndMove, EndPlays, Place, Remove, Rotate, Special, Step
from .board import ATLANTIS, EMPTY, IN_ATLANTIS, connects, is_locked, is_removable, step_target, tile_rot_mask
from .options import PathwaysOptions
from .state import PathwaysState, PathwaysView, make_view

TILE_PILE = Pile("tiles")  # a shuffled pile drawn from the top; "drew_tiles" to the drawer

Outcome = tuple[PathwaysState, list[Event]]


# --- playing tiles -------------------------------------------------------------------------
def after_play(state: PathwaysState, **changes: Any) -> PathwaysState:
    """``state`` with ``changes``; straight on to the move once the plays are used up."""
    get = changes.get
    if not get("pending", state.pending):
        hands = get("hands", state.hands)
        if get("plays_made", state.plays_made) >= get("plays_allowed", state.plays_allowed) \
                or not hands[get("turn", state.turn)]:
            # straight on to the move: one new state instead of two (as begin_move)
            changes.update(phase="move", pending="", mover=-1, move_start=-1,
                           steps_left=data.OWN_MOVE)
    return replace(state, **changes)


def begin_move(state: PathwaysState) -> PathwaysState:
    """The move begins: the seat's own subpod may go up to its full move."""
    return replace(state, phase="move", pending="", mover=-1, move_start=-1,
                   steps_left=data.OWN_MOVE)


def place(state: PathwaysState, seat: int, action: Place) -> Outcome:
    hand = state.hands[seat]
    if action.tile not in hand:
        raise IllegalAction("That tile is not in your hand.")
    kind = data.TILE_KIND[action.tile]
    if kind in data.SPECIAL_KINDS:
        raise IllegalAction("Special tiles are played, not placed on the board.")
    if not 0 <= action.cell < data.CELLS or not 0 <= action.rot < 4:
        raise IllegalAction("That is not a space on the board.")
    if state.cells[action.cell] == ATLANTIS:
        raise IllegalAction("Tiles cannot be placed on Atlantis.")
    if state.cells[action.cell] != EMPTY:
        raise IllegalAction(f"{data.cell_name(action.cell)} already holds a tile.")
    mask = tile_rot_mask(action.tile, action.rot)
    if not connects(state.masks, state.cells, action.cell, mask):
        raise IllegalAction("A placed tile must join at least one path end of a neighbouring tile.")
    cells = list(state.cells)
    masks = list(state.masks)
    cells[action.cell] = action.tile
    masks[action.cell] = mask
    new_cells, new_masks = tuple(cells), tuple(masks)
    hands = put(state.hands, seat, without(hand, action.tile))
    ev = Event("placed", {"seat": seat, "tile": action.tile, "kind": kind, "cell": action.cell, "mask": mask})
    return after_play(state, cells=new_cells, masks=new_masks, hands=hands,
                      plays_made=state.plays_made + 1), [ev]


def special(state: PathwaysState, seat: int, action: Special) -> Outcome:
    hand = state.hands[seat]
    if action.tile not in hand:
        raise IllegalAction("That tile is not in your hand.")
    kind = data.TILE_KIND[action.tile]
    if kind not in data.SPECIAL_KINDS:
        raise IllegalAction("That is a path tile: place it on the board.")
    if kind == "trade" and not board.any_removable(state):
        raise IllegalAction("No tile on the board can be traded: every one is locked or holds a subpod.")
    hands = put(state.hands, seat, without(hand, action.tile))
    changes: dict[str, Any] = dict(hands=hands, discard=state.discard + (action.tile,),
                                   plays_made=state.plays_made + 1)
    if kind == "play_2_more":
        changes["plays_allowed"] = state.plays_allowed + data.EXTRA_PLAYS
    elif kind == "trade":
        changes["pending"] = "trade"
    else:
        changes.update(pending=kind, mover=-1, move_start=-1, steps_left=data.SPECIAL_MOVE)
    ev = Event("special", {"seat": seat, "tile": action.tile, "kind": kind})
    return after_play(state, **changes), [ev]


def remove(state: PathwaysState, seat: int, action: Remove) -> Outcome:
    if not is_removable(state, action.cell):
        if 0 <= action.cell < data.CELLS and state.cells[action.cell] >= 0:
            if action.cell in state.pods:
                raise IllegalAction("You cannot remove a tile with a subpod on it.")
            raise IllegalAction("That tile is locked: all four sides are touching.")
        raise IllegalAction("There is no tile there to trade.")
    tile = state.cells[action.cell]
    cells = list(state.cells)
    masks = list(state.masks)
    cells[action.cell] = EMPTY
    masks[action.cell] = 0
    new_cells, new_masks = tuple(cells), tuple(masks)
    pos, rng = state.rng.below(len(state.draw) + 1)
    draw = state.draw[:pos] + (tile,) + state.draw[pos:]
    ev = Event("removed", {"seat": seat, "tile": tile, "cell": action.cell})
    return after_play(state, cells=new_cells, masks=new_masks, draw=draw,
                      rng=rng, pending=""), [ev]


def rotate(state: PathwaysState, seat: int, action: Rotate) -> Outcome:
    if state.plays_made:
        raise IllegalAction("Rotating replaces playing tiles: you have already played a tile this turn.")
    if not 0 <= action.cell < data.CELLS or state.cells[action.cell] < 0:
        raise IllegalAction("There is no tile there to rotate.")
    if not 0 <= action.rot < 4:
        raise IllegalAction("A rotation is 0-3 quarter turns.")
    if is_locked(state.cells, action.cell):
        raise IllegalAction("That tile is locked: all four sides are touching.")
    mask = tile_rot_mask(state.cells[action.cell], action.rot)
    if mask == state.masks[action.cell]:
        raise IllegalAction("The tile already lies that way.")
    if not connects(state.masks, state.cells, action.cell, mask):
        raise IllegalAction("A rotated tile must still join a neighbouring path.")
    masks = list(state.masks)
    masks[action.cell] = mask
    new_masks = tuple(masks)
    ev = Event("rotated", {"seat": seat, "cell": action.cell, "mask": mask})
    # straight on to the move: one new state (as begin_move)
    return replace(state, masks=new_masks, plays_made=0, phase="move", pending="", mover=-1,
                   move_start=-1, steps_left=data.OWN_MOVE), [ev]


def end_plays(state: PathwaysState, seat: int, action: EndPlays) -> Outcome:
    if state.plays_made < data.BASE_PLAYS and board.play_actions(make_view(state, seat)):
        raise IllegalAction("You must play two tiles (or rotate one) while you can.")
    return begin_move(state), [Event("end_plays", {"seat": seat, "plays": state.plays_made})]


# --- moving ----------------------------------------------------------------------------------
def step(state: PathwaysState, seat: int, action: Step) -> Outcome:
    if not 0 <= action.pod < state.players or not 0 <= action.side < 4:
        raise IllegalAction("There is no such subpod or direction.")
    special = state.pending
    if state.mover == -1:
        if special == "move_own_3" and action.pod != seat:
            raise IllegalAction("This tile moves your own subpod.")
        if special == "move_other_3" and action.pod == seat:
            raise IllegalAction("This tile moves another player's subpod.")
        if special:
            budget = data.SPECIAL_MOVE
        else:
            budget = data.OWN_MOVE if action.pod == seat else data.OTHER_MOVE
        start = state.pods[action.pod]
    else:
        if action.pod != state.mover:
            raise IllegalAction("Finish moving the subpod you started with.")
        budget, start = state.steps_left, state.move_start
    if budget <= 0:
        raise IllegalAction("That subpod has no steps left.")
    pos = state.pods[action.pod]
    if pos == IN_ATLANTIS:
        raise IllegalAction("That subpod is already in Atlantis.")
    target = step_target(state.masks, state.cells, pos, action.side)
    if target is None:
        raise IllegalAction(f"No path leads {data.SIDE_NAMES[action.side]} from {data.cell_name(pos)}.")
    if target == start:
        raise IllegalAction("A subpod may not return to the space its move began on.")
    pods = list(state.pods)
    pods[action.pod] = target
    events = [Event("step", {"seat": seat, "pod": action.pod, "from": pos, "to": target})]
    moved = replace(state, pods=tuple(pods), mover=action.pod, move_start=start, steps_left=budget - 1)
    if target == IN_ATLANTIS:
        events.append(Event("atlantis", {"pod": action.pod}))
        return replace(moved, phase="over", pending="", winners=(action.pod,),
                       end_reason="reached Atlantis"), events
    if moved.steps_left == 0:
        after, more = finish_move(moved, seat)
        return after, events + more
    return moved, events


def end_move(state: PathwaysState, seat: int, action: EndMove) -> Outcome:
    return finish_move(state, seat)


def finish_move(state: PathwaysState, seat: int) -> Outcome:
    """The move is over: back to playing tiles after a special tile's move, else the turn ends."""
    if state.pending:  # a special tile's move: back to playing tiles
        state = replace(state, pending="", mover=-1, move_start=-1, steps_left=0)
        return after_play(state), [Event("special_done", {"seat": seat})]
    return end_turn(state, seat)


def end_turn(state: PathwaysState, seat: int) -> Outcome:
    """Draw back to a full hand; the next seat plays (or the round limit ends the game)."""
    events: list[Event] = []
    hand = state.hands[seat]
    drawn, draw, discard, rng, drew = TILE_PILE.draw(state.draw, state.discard,
                                                     data.HAND_SIZE - len(hand), state.rng, seat)
    events += drew
    hands = put(state.hands, seat, hand + drawn)
    nxt = (seat + 1) % state.players
    rnd = state.round + (1 if nxt == 0 else 0)
    state = replace(state, hands=hands, draw=draw, discard=discard, rng=rng, turn=nxt, phase="play",
                    plays_made=0, plays_allowed=data.BASE_PLAYS, pending="", mover=-1,
                    move_start=-1, steps_left=0, round=rnd)
    if rnd > state.max_rounds:
        best = min(data.ATLANTIS_DISTANCE[p] for p in state.pods)
        winners = tuple(i for i, p in enumerate(state.pods) if data.ATLANTIS_DISTANCE[p] == best)
        events.append(Event("round_limit", {"winners": winners}))
        return replace(state, phase="over", winners=winners,
                       end_reason=f"round limit: nearest to Atlantis ({best} spaces)"), events
    events.append(Event("turn", {"seat": nxt}))
    return state, events


# --- the stage table -----------------------------------------------------------------------
STAGES: dict[str, StageRule] = {
    "play": StageRule(whose_turn, board.play_choices,
                      {Place: place, Special: special, Rotate: rotate, EndPlays: end_plays},
                      "Play a tile, rotate a placed tile, or end your plays."),
    "trade": StageRule(whose_turn, board.trade_choices, {Remove: remove},
                       "Choose a tile on the board to trade away first."),
    "move": StageRule(whose_turn, board.move_choices, {Step: step, EndMove: end_move},
                      "You are moving a subpod now: step along a path or end the move."),
    "over": GAME_OVER,
}


def stage_of(view: Any) -> str:
    """The part of the turn a state or a view is in: a special tile's trade or move
    interrupts playing tiles."""
    pending = view.pending
    if view.phase == "over":
        return "over"
    if pending == "trade":
        return "trade"
    if pending:  # "move_own_3" / "move_other_3"
        return "move"
    return view.phase


# --- the game -----------------------------------------------------------------------
class PathwaysGame(SingleActorTurns, Game):
    score_unit = ""  # no points: a winner or not
    manifest = MANIFEST
    rules_version = "pathways-2"
    options_model = PathwaysOptions
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

    view = staticmethod(make_view)

    def legal(self, view: PathwaysView) -> list[Any]:
        """The actions the owner of ``view`` may take, in the order the bots index them
        (goldens and demos depend on it)."""
        if view.seat != view.turn or view.hand is None:
            return []
        return STAGES[stage_of(view)].choices(view, view.seat)

    def to_act(self, state: PathwaysState) -> frozenset[int]:
        return STAGES[stage_of(state)].actors(state)

    def apply(self, state: PathwaysState, seat: int, action: Any) -> Outcome:
        rule = STAGES[stage_of(state)]
        if seat not in rule.actors(state):
            raise IllegalAction("The game is over." if state.phase == "over" else "It is not your turn.")
        return rule.step(action)(state, seat, action)

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
