"""Finding Atlantis -- the rules (the engine plays the part of the app).

Each submarine hides somewhere on an ``n x n`` ocean; a turn is 2 actions, each
playing one card.  Results of Sonar, Jelly Rod, Explore, Periscope and most
captains and artifacts are events addressed to the actor only, and are noted on
that seat's own chart (``charts[seat]``: fact bits per world cell, ``data.SEA``
...).  Views never hold the map: only the seat's chart, its own hand, position
and mine, and the public table (last 2 cards played, surfacing positions, burn
directions, monsters, failed declarations).

Phases: ``captain`` (each seat keeps 1 of 2 dealt captains), ``first_move`` (each
makes one free hidden move), ``play``, ``over``.  Declaring Atlantis is made of
small steps: after an Explore that found Atlantis the explorer may ``PickCell``
(private toggles) and ``Declare``.

Decisions where the texts are silent (also on the help screen):

* Moves stop at the edge; the mover is told privately.  A long move stops at the
  first space holding a sea monster (pushed back, 1 action lost) or another
  player's mine.
* Your own mine never hurts you.  A mine hit hands one random artifact card of
  the victim to the mine's owner, used ones included; an unused one in secret
  (only the two of them learn which), a used one in public: it stays used, and
  the monster it woke stays.  Without any artifact card the victim loses up to 2
  random action cards (never Surface), face up.  The mine is spent.
* Each artifact space gives one artifact card, to its first explorer.  That a
  card was drawn is public; which card is private until it is used.
* A captain becomes public the first time it is played or burnt.
* A declaration must name exactly as many spaces as Atlantis has; it need not
  include the space you stand on (you may not know it after a failed one).
* Round limit (option ``max_rounds``): if nobody has found Atlantis by then, the
  game ends without a winner.

Where things are: ``actions`` (the action values, the codec, argument checks,
legal candidates), ``state`` (the state and the view), ``board`` (the sea around a
submarine and the seat's chart), ``turns`` (playing a card, spending an action,
passing the turn), ``moving`` (moves, monsters, mines), ``cards``, ``captains``
and ``artifacts`` (what each one does, one table each), ``declaring``.  This
module keeps the Game and its stage table (``STAGES``: per phase, who acts, what
is legal and what each action does), which ``to_act``, ``legal`` and ``apply`` read.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..components import SingleActorTurns, put
from ..core import Event, Game, IllegalAction, replace
from ..rng import Rng
from ..stages import GAME_OVER, Step, StageRule, whose_turn
from . import MANIFEST
from . import data
from .actions import (
    BURN_CHOICES, CARD_CHOICES, CARD_OF_ACTION, CODEC, Burn, ChooseCaptain, Declare, EndTurn, FirstMove,
    LongSilent, PickCell, Silent, UseArtifact, UseCaptain, artifact_actions, captain_actions, check_dir,
)
from .artifacts import use_artifact
from .captains import use_captain
from .cards import burn, play
from .declaring import declare, pick
from .mapgen import generate, inner_of
from .moving import move
from .options import FindingAtlantisOptions
from .secrets import rerandomise as _rerandomise
from .state import FAState, FAView, hand_for, view_of
from .turns import close_declaration, end_turn

Outcome = tuple[FAState, list[Event]]


# --- the opening: each seat in turn keeps a captain, then makes a free hidden move -------
def choose_captain(state: FAState, seat: int, action: ChooseCaptain) -> Outcome:
    if action.captain not in state.offers[seat]:
        raise IllegalAction("Keep one of the two captains you were dealt.")
    after = replace(state, captain=put(state.captain, seat, action.captain), offers=put(state.offers, seat, ()))
    events = [Event("captain_kept", {"seat": seat}),
              Event("your_captain", {"seat": seat, "captain": action.captain}, to=(seat,))]
    nxt = (seat + 1) % state.players
    if nxt == state.first:
        return replace(after, phase="first_move", turn=nxt), events + [Event("dive", {"seat": nxt})]
    return replace(after, turn=nxt), events


def first_move(state: FAState, seat: int, action: FirstMove) -> Outcome:
    check_dir(action.dir)
    after, events = move(state, seat, action.dir, 1, public_dir=False, label="first")
    events = [Event("first_move", {"seat": seat})] + events
    nxt = (seat + 1) % state.players
    if nxt == state.first:
        after = replace(after, phase="play", turn=nxt, actions_left=data.ACTIONS_PER_TURN)
        return after, events + [Event("turn", {"seat": nxt, "actions": data.ACTIONS_PER_TURN})]
    return replace(after, turn=nxt), events


_FIRST_MOVES = tuple(FirstMove(d) for d in range(8))


def captain_choices(view: FAView, seat: int) -> list[Any]:
    return [ChooseCaptain(captain) for captain in view.offers]


def first_move_choices(view: FAView, seat: int) -> list[Any]:
    return list(_FIRST_MOVES)


# --- the play phase ----------------------------------------------------------------------
# Picking spaces, declaring and ending the turn cost no action and leave the chance to
# declare open until they close it.  Every other step closes it first; an artifact
# checks its own cost (some are free), everything else needs an action left.
def end_turn_now(state: FAState, seat: int, action: EndTurn) -> Outcome:
    """Pass, leaving any actions unused (and the chance to declare)."""
    after, events = end_turn(close_declaration(state, seat))
    return after, [Event("end_turn", {"seat": seat, "left": state.actions_left})] + events


def artifact_step(state: FAState, seat: int, action: UseArtifact) -> Outcome:
    return use_artifact(close_declaration(state, seat), seat, action)


def spend_an_action(state: FAState, seat: int, action: Any, step: Step) -> Outcome:
    state = close_declaration(state, seat)
    if state.actions_left <= 0:
        raise IllegalAction("You have no actions left this turn.")
    return step(state, seat, action)


def costs_an_action(step: Step) -> Step:
    """``step``, refused when the turn has no action left."""
    return partial(spend_an_action, step=step)


_END_TURN = EndTurn()


def play_choices(view: FAView, seat: int) -> list[Any]:
    """Declaring (when it may), the artifacts it can pay for, a card or its burn for
    each kind of card in hand (when an action is left), and End turn, in that order."""
    out: list[Any] = []
    if view.may_declare:
        if len(view.picks) < view.k:
            out += [PickCell(c) for c in range(view.n * view.n)]
        else:
            out += [PickCell(c) for c in view.picks]
        if len(view.picks) == view.k:
            out.append(Declare())
    for artifact in view.artifacts:
        if data.ARTIFACTS[artifact][2] or view.actions_left > 0:
            out += artifact_actions(view, artifact)
    if view.actions_left > 0:
        seen = set()
        for card in view.hand:
            if card in seen:
                continue
            seen.add(card)
            if card == "captain":
                out += captain_actions(view, view.captain)
            else:
                out += CARD_CHOICES[card]
            out += BURN_CHOICES[card]
    out.append(_END_TURN)
    return out


# --- the stage table: who acts, what is legal, what each action does ---------------------
STAGES: dict[str, StageRule] = {
    "captain": StageRule(whose_turn, captain_choices, {ChooseCaptain: choose_captain},
                         "First keep one of your two captains."),
    "first_move": StageRule(whose_turn, first_move_choices, {FirstMove: first_move},
                            "First make your free hidden move."),
    "play": StageRule(whose_turn, play_choices, {
        PickCell: pick, Declare: declare, EndTurn: end_turn_now, UseArtifact: artifact_step,
        Burn: costs_an_action(burn), UseCaptain: costs_an_action(use_captain),
        **{kind: costs_an_action(play) for kind in CARD_OF_ACTION},
    }, "That belongs to the start of the game."),
    "over": GAME_OVER,
}


# --- the game ------------------------------------------------------------------------------
class FindingAtlantisGame(SingleActorTurns, Game):
    score_unit = ""  # no points: a winner or not
    manifest = MANIFEST
    rules_version = "finding-atlantis-4"  # 4: every turn ends with End turn
    options_model = FindingAtlantisOptions
    codec = CODEC
    view_type = FAView

    def setup(self, options: Any, seats: int, seed: int) -> FAState:
        opts = self.parse_options(options)
        if not self.min_players <= seats <= self.max_players:
            raise ValueError(f"Finding Atlantis takes 2-4 submarines, not {seats}")
        n = opts.size
        k = data.MAP_SIZES[n][0]
        rng = Rng.from_seed(seed, "finding-atlantis")
        terrain, rng = generate(n, rng)
        starts = []
        for _ in range(seats):
            c, rng = rng.below(n * n)
            starts.append(c)
        caps, rng = rng.shuffled(tuple(data.CAPTAINS))
        offers = tuple(tuple(caps[i * data.CAPTAINS_DEALT:(i + 1) * data.CAPTAINS_DEALT]) for i in range(seats))
        deck, rng = rng.shuffled(tuple(data.ARTIFACTS))
        first, rng = rng.below(seats)
        w = n + 2
        empty_chart = tuple(data.NOTRACE if inner_of(n, x) < 0 else 0 for x in range(w * w))
        hand = hand_for(opts.pirate)
        return FAState(
            n=n, k=k, players=seats, pirate=opts.pirate, roaming=opts.monsters == "roaming",
            paper=opts.paper, assistant=opts.assistant and not opts.paper, max_rounds=opts.max_rounds,
            terrain=terrain, pos=tuple(starts),
            lost=(False,) * seats, lost_obs=((),) * seats, lost_disp=((0, 0),) * seats,
            charts=(empty_chart,) * seats, hands=(hand,) * seats, played=((),) * seats,
            captain=("",) * seats, offers=offers, captain_shown=(False,) * seats,
            arts=((),) * seats, used=((),) * seats, deck=deck, taken=(), mines=(-1,) * seats,
            monsters=(), starts=tuple(starts), surfaced=(-1,) * seats, trail=((),) * seats,
            may_declare=(False,) * seats, picks=((),) * seats, failed=(), phase="captain",
            first=first, turn=first, actions_left=0, skip=(0,) * seats, round=1, winners=(),
            end_reason="", rng=rng,
        )

    view = staticmethod(view_of)

    def legal(self, view: FAView) -> list[Any]:
        rule = STAGES[view.phase]
        if view.seat is None or view.seat not in rule.actors(view):
            return []
        return rule.choices(view, view.seat)

    def to_act(self, state: FAState) -> frozenset[int]:
        return STAGES[state.phase].actors(state)

    def apply(self, state: FAState, seat: int, action: Any) -> Outcome:
        rule = STAGES[state.phase]
        if seat not in rule.actors(state):
            raise IllegalAction("The game is over." if state.phase == "over" else "It is not your turn.")
        return rule.step(action)(state, seat, action)

    def undo_barrier(self, before, after, seat, action) -> str | None:
        if before.rng != after.rng:
            return "it used the game's dice"
        if type(action) in (ChooseCaptain, PickCell):
            return None
        if type(action) in (Silent, LongSilent, FirstMove):
            return "the move may have been stopped by something you could not see"
        return "it told you something new"

    def rerandomise(self, state: FAState, seat: int, rng: Rng) -> FAState:
        return _rerandomise(state, seat, rng)
