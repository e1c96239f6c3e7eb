"""Survive: Escape from Atlantis -- the game object (setup, view, legal, apply, undo,
leak-test re-randomising).

The island sinks one tile a turn; players walk their explorers to the coast, into boats
and across the sea to the four safe islands while sea serpents, sharks and whales hunt
them.  The volcano under one mountain ends the game; saved explorers' hidden treasure
values are added up.

The stage table ``STAGES`` says, phase by phase, who acts, what is legal (the
``*_choices`` of ``board``) and what each action does (``effects``): the one statement
of legality, used by ``legal`` (on a view) and by ``apply`` (on the state, with the
actor's own hand).
Every decision where the rule text is silent is listed in ``text.HELP``.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core import ActionCodec, Event, Game, IllegalAction, Result, build, replace
from ..rng import Rng
from ..stages import GAME_OVER, StageRule, whose_turn
from . import MANIFEST
from . import board
from . import data
from . import effects
from .actions import (
    ACTIONS, Ashore, Board, CreatureStep, Defend, DolphinStep, EndCreature, EndMoves, EndTile,
    NoDefence, NoTile, PlaceBoat, PlaceExplorer, PlayTile, Roll, Sail, Sink, Swim, Walk, WindStep,
)
from .options import SurviveOptions
from .state import HeldTile, SurviveState, SurviveView

# why an action of the right kind is refused
REFUSAL = {
    PlaceExplorer: "Put your own unplaced explorer on a land hex where nobody stands yet.",
    PlaceBoat: "A boat goes on a sea hex next to land, with no boat and no creature on it.",
    PlayTile: "That tile is not a red tile in your hand that can do something now.",
    DolphinStep: "The dolphin carries one of your swimmers to a neighbouring sea hex without a creature "
                 "(or onto a safe island from its entrance).",
    WindStep: "The wind blows a boat you may move to a neighbouring sea hex with no boat or creature.",
    Walk: "An explorer on land walks to a neighbouring land hex.",
    Board: "An explorer boards a boat with room next to its land hex or boat, or in the hex it swims in "
           "(never where a creature is).",
    Swim: "An explorer on land or swimming goes into a neighbouring sea hex without a creature, one sea "
          "hex a turn.",
    Ashore: "Only an explorer in a boat, or swimming on a safe island's entrance without having swum this "
            "turn, can step ashore.",
    Sail: "Sail a boat you may move (empty, or with at least as many of yours aboard as anyone's) to a "
          "neighbouring sea hex with no boat or creature.",
    Sink: "Take off a tile touching the sea: beaches first, then forests, then mountains.",
    CreatureStep: "Move a creature of the kind rolled to a neighbouring sea hex.",
    EndCreature: "This creature must still move (a whale or a serpent moves at least one hex).",
    Defend: "That defensive tile does not turn this creature away (or is not in your hand).",
}


# --- the stage table: who acts in each phase, what they may do, what each action does ------
def first_responder(view: Any) -> frozenset[int]:
    """An attack is answered one seat at a time, in order."""
    return frozenset(view.responders[:1])


STAGES: dict[str, StageRule] = {
    "place_explorer": StageRule(whose_turn, board.placement_choices,
                                {PlaceExplorer: effects.place_explorer},
                                "Setup: put one of your explorers on an empty land hex."),
    "place_boat": StageRule(whose_turn, board.boat_choices, {PlaceBoat: effects.place_boat},
                            "Setup: put one of your boats on a free sea hex next to the island."),
    "tile": StageRule(whose_turn, board.tile_choices,
                      {PlayTile: effects.play_tile, NoTile: effects.no_tile},
                      "Step 1 of 4: play a red tile from your hand, or play none."),
    "red": StageRule(whose_turn, board.red_choices,
                     {DolphinStep: effects.dolphin_step, WindStep: effects.wind_step,
                      EndTile: effects.end_tile},
                     "Finish the tile you played: move on, or stop."),
    "move": StageRule(whose_turn, board.move_choices,
                      {Walk: effects.walk, Board: effects.board_boat, Swim: effects.swim,
                       Ashore: effects.ashore, Sail: effects.sail, EndMoves: effects.end_moves},
                      "Step 2 of 4: move your explorers and boats (3 points), or end your moves."),
    "sink": StageRule(whose_turn, board.sink_choices, {Sink: effects.sink},
                      "Step 3 of 4: take a land tile off the island."),
    "roll": StageRule(whose_turn, board.roll_choices, {Roll: effects.roll},
                      "Step 4 of 4: roll the creature die."),
    "creature": StageRule(whose_turn, board.creature_choices,
                          {CreatureStep: effects.creature_step, EndCreature: effects.end_creature},
                          "Step 4 of 4: move the creature, or stop it."),
    "respond": StageRule(first_responder, board.response_choices,
                         {Defend: effects.defend, NoDefence: effects.no_defence},
                         "Answer the attack: play a defensive tile or let it happen."),
    "over": GAME_OVER,
}
ACTION_KINDS = frozenset(ACTIONS.values())


def choices(view: Any, seat: int, hand: board.Hand, values: Sequence[int]) -> list[Any]:
    """The legal actions of ``seat``, from what it may know: the public fields of ``view``
    (a state or a view), its own hand and the explorer values it sees."""
    rule = STAGES[view.phase]
    if seat not in rule.actors(view):
        return []
    return rule.choices(view, seat, hand, values)


_new = tuple.__new__                  # a NamedTuple without its Python-level __new__
_ZEROS = tuple((0,) * n for n in range(4 * data.EXPLORERS_PER_SEAT + 1))
_READS_HAND = frozenset(("tile", "respond"))


class SurviveGame(Game):
    manifest = MANIFEST
    rules_version = "survive-2"  # 2: a step from land into the sea; no step ashore after a swim
    options_model = SurviveOptions
    codec = ActionCodec(ACTIONS)
    view_type = SurviveView

    # --- setup ---------------------------------------------------------------------------
    def setup(self, options: Any, seats: int, seed: int) -> SurviveState:
        opts = self.parse_options(options)
        if not self.min_players <= seats <= self.max_players:
            raise ValueError(f"Survive takes 2-4 players, not {seats}")
        rng = Rng.from_seed(seed, "survive")
        # terrain face up at random; each terrain's backs shuffled among its tiles
        faces = [t for t, n in data.TERRAIN_COUNTS for _ in range(n)]
        terrain, rng = rng.shuffled(faces)
        backs = [""] * len(terrain)
        for t, _ in data.TERRAIN_COUNTS:
            slots = [i for i, tt in enumerate(terrain) if tt == t]
            dealt, rng = rng.shuffled(data.backs_of(t))
            for i, b in zip(slots, dealt):
                backs[i] = b
        values: list[int] = []
        for _ in range(seats):
            v, rng = rng.shuffled(data.EXPLORER_VALUES)
            values += v
        n_ex = seats * data.EXPLORERS_PER_SEAT
        creatures = tuple(data.SERPENT_START_INDEX[i] if i < len(data.SERPENT_START_INDEX) else data.NOT_PLACED
                          for i in range(data.CREATURES))
        return SurviveState(
            players=seats, memory=opts.memory, terrain=terrain, sunk=(0,) * len(terrain),
            backs=tuple(backs), hands=((),) * seats, values=tuple(values),
            explorer_hex=(data.NOT_PLACED,) * n_ex, explorer_boat=(-1,) * n_ex,
            boat_hex=(data.NOT_PLACED,) * data.BOATS, creature_hex=creatures, turn=0,
            phase="place_explorer", round=1, points=0, swum=(), red="", creature_kind="", mover=-1,
            steps=0, after_creature="", die="", last_sunk=-1, attack=None, responders=(),
            winners=(), end_reason="", rng=rng,
        )

    # --- what a seat may know --------------------------------------------------------------
    @staticmethod
    def visible_values(state: SurviveState, seat: int | None) -> tuple[int, ...]:
        if state.phase == "over":
            return state.values
        values = state.values
        if seat is None:
            return _ZEROS[len(values)]
        setup = state.phase in ("place_explorer", "place_boat")
        if setup or not state.memory:
            lo, hi = seat * data.EXPLORERS_PER_SEAT, (seat + 1) * data.EXPLORERS_PER_SEAT
            return (0,) * lo + values[lo:hi] + (0,) * (len(values) - hi)
        return _ZEROS[len(values)]

    @staticmethod
    def own_hand(state: SurviveState, seat: int) -> tuple[tuple[int, str], ...]:
        return tuple((t, state.backs[t]) for t in state.hands[seat])

    def view(self, state: SurviveState, seat: int | None) -> SurviveView:
        hand = None
        if seat is not None:
            backs, terrain = state.backs, state.terrain
            hand = tuple([_new(HeldTile, (t, terrain[t], backs[t])) for t in state.hands[seat]])
        phase = state.phase
        # SurviveView's fields in declaration order (build: no frozen __init__)
        return build(SurviveView, (
            seat, state.players, state.memory, state.terrain,
            state.sunk, state.explorer_hex, state.explorer_boat,
            self.visible_values(state, seat), state.boat_hex,
            state.creature_hex, state.hands, hand, state.turn,
            phase, state.round, state.points, state.swum,
            state.red, state.creature_kind, state.mover, state.steps,
            state.die, state.last_sunk, state.attack,
            state.responders,
            effects.scores(state) if phase == "over" else _ZEROS[state.players],
            state.winners, state.end_reason,
        ))

    # --- the contract ----------------------------------------------------------------------
    def legal(self, view: SurviveView) -> list[Any]:
        seat = view.seat
        if seat is None or view.hand is None:
            return []
        # only a tile's step and an answer to an attack read the hand
        hand = tuple([(h.tile, h.back) for h in view.hand]) if view.phase in _READS_HAND else ()
        return choices(view, seat, hand, view.values)

    def to_act(self, state: SurviveState) -> frozenset[int]:
        return STAGES[state.phase].actors(state)

    def result(self, state: SurviveState) -> Result | None:
        if state.phase != "over":
            return None
        return Result(tuple(float(x) for x in effects.scores(state)), state.winners, state.end_reason)

    def apply(self, state: SurviveState, seat: int, action: Any) -> tuple[SurviveState, list[Event]]:
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        rule = STAGES[state.phase]
        if seat not in rule.actors(state):
            if state.phase == "respond":
                raise IllegalAction("Waiting for another player to answer an attack.")
            raise IllegalAction("It is not your turn.")
        if type(action) not in ACTION_KINDS:
            raise IllegalAction("That is not a Survive action.")
        step = rule.step(action)
        if not self._allowed(state, seat, action):
            raise IllegalAction(REFUSAL.get(type(action), "That is not possible now."))
        return step(state, seat, action)

    def _allowed(self, state: SurviveState, seat: int, action: Any) -> bool:
        """Is ``action`` among the seat's legal actions?  Moves are looked up among the
        moving piece's own list (short); the rest among the whole list."""
        kind = type(action)
        if kind in board.ALWAYS_LISTED:
            return True                  # apply has checked the phase already
        if kind is PlaceExplorer:
            return board.placement_ok(state, seat, self.visible_values(state, seat), action.explorer, action.hex)
        if kind is Sink:
            return isinstance(action.tile, int) and action.tile in board.sinkable(state)
        if kind in (Walk, Board, Swim, Ashore):
            e = action.explorer
            if not (isinstance(e, int) and 0 <= e < len(state.explorer_hex)):
                return False
            return action in board.explorer_moves(state, seat, e)
        if kind is Sail:
            if not (isinstance(action.boat, int) and 0 <= action.boat < data.BOATS):
                return False
            return action in board.boat_moves(state, seat, action.boat)
        return action in choices(state, seat, self.own_hand(state, seat), self.visible_values(state, seat))

    # --- undo, leaks -------------------------------------------------------------------------
    def undo_barrier(self, before: SurviveState, after: SurviveState, seat: int, action: Any) -> str | None:
        if before.rng != after.rng:
            return "it rolled the die"
        if type(action) is Sink:
            return "it showed the back of a land tile"
        if type(action) in (PlayTile, Defend):
            return "it showed a tile from your hand to everyone"
        if after.phase != "over" and seat not in self.to_act(after):
            return "another player is to act now"
        return None

    def rerandomise(self, state: SurviveState, seat: int, rng: Rng) -> SurviveState:
        """Re-draw what ``seat`` cannot know: the values of explorers it does not see
        (others' always, its own too once setup is over with ``memory`` on), the backs of
        the tiles still on the island and of the tiles the others hold (a held tile keeps
        its terrain and stays a red or defensive tile; the island takes the rest)."""
        if state.phase == "over":
            return state
        seen = self.visible_values(state, seat)
        values = list(state.values)
        for p in range(state.players):
            lo = p * data.EXPLORERS_PER_SEAT
            if any(seen[lo:lo + data.EXPLORERS_PER_SEAT]):
                continue
            mixed, rng = rng.shuffled(state.values[lo:lo + data.EXPLORERS_PER_SEAT])
            values[lo:lo + data.EXPLORERS_PER_SEAT] = mixed
        backs = list(state.backs)
        for terrain, _ in data.TERRAIN_COUNTS:
            held = [t for p, h in enumerate(state.hands) if p != seat for t in h
                    if state.terrain[t] == terrain]
            afloat = [t for t, tt in enumerate(state.terrain) if tt == terrain and not state.sunk[t]]
            pool = [state.backs[t] for t in held + afloat]
            keepable = [i for i, b in enumerate(pool) if data.BACK_KIND[b] != "green"]
            chosen, rng = rng.shuffled(keepable)
            chosen = chosen[:len(held)]
            for t, i in zip(held, chosen):
                backs[t] = pool[i]
            rest = [b for i, b in enumerate(pool) if i not in chosen]
            rest, rng = rng.shuffled(rest)
            for t, b in zip(afloat, rest):
                backs[t] = b
        return replace(state, values=tuple(values), backs=tuple(backs))
