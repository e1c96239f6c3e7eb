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
legal candidates), ``state`` (options, state, view), ``board`` (the sea around a
submarine and the seat's chart), ``turns`` (playing a card, spending an action,
passing the turn), ``moving`` (moves, monsters, mines), ``cards``, ``captains``
and ``artifacts`` (what each one does, one table each), ``declaring``.  This
module keeps the Game: setup, view, legal and the dispatch of ``apply``.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from ..components import SingleActorTurns, put
from ..core import Event, Game, IllegalAction, replace
from ..options import lazy_model
from ..rng import Rng
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
from .secrets import rerandomise as _rerandomise
from .state import FAState, FAView, hand_for, view_of
from .turns import close_declaration, end_turn

Step = Callable[[FAState, int, Any], tuple[FAState, list[Event]]]


# --- the opening: each seat in turn keeps a captain, then makes a free hidden move -------
def choose_captain(state: FAState, seat: int, a: ChooseCaptain) -> tuple[FAState, list[Event]]:
    if a.captain not in state.offers[seat]:
        raise IllegalAction("Keep one of the two captains you were dealt.")
    s = replace(state, captain=put(state.captain, seat, a.captain), offers=put(state.offers, seat, ()))
    ev = [Event("captain_kept", {"seat": seat}),
          Event("your_captain", {"seat": seat, "captain": a.captain}, to=(seat,))]
    nxt = (seat + 1) % state.players
    if nxt == state.first:
        return replace(s, phase="first_move", turn=nxt), ev + [Event("dive", {"seat": nxt})]
    return replace(s, turn=nxt), ev


def first_move(state: FAState, seat: int, a: FirstMove) -> tuple[FAState, list[Event]]:
    check_dir(a.dir)
    s, ev = move(state, seat, a.dir, 1, public_dir=False, label="first")
    ev = [Event("first_move", {"seat": seat})] + ev
    nxt = (seat + 1) % state.players
    if nxt == state.first:
        s = replace(s, phase="play", turn=nxt, actions_left=data.ACTIONS_PER_TURN)
        return s, ev + [Event("turn", {"seat": nxt, "actions": data.ACTIONS_PER_TURN})]
    return replace(s, turn=nxt), ev


_FIRST_MOVES = tuple(FirstMove(d) for d in range(8))


class Opening(NamedTuple):
    """An opening phase: the one kind of action it takes, the refusal of any other,
    what ``legal`` offers, and what the action does."""
    action: type
    refusal: str
    choices: Callable[[FAView], list[Any]]
    apply: Step


OPENING: dict[str, Opening] = {
    "captain": Opening(ChooseCaptain, "First keep one of your two captains.",
                       lambda view: [ChooseCaptain(c) for c in view.offers], choose_captain),
    "first_move": Opening(FirstMove, "First make your free hidden move.",
                          lambda view: list(_FIRST_MOVES), first_move),
}
OPENING_ACTIONS = tuple(stage.action for stage in OPENING.values())


# --- the play phase ----------------------------------------------------------------------
def end_turn_now(state: FAState, seat: int, a: Any) -> tuple[FAState, list[Event]]:
    """Pass, leaving any actions unused (and the chance to declare)."""
    s = close_declaration(state, seat)
    s2, more = end_turn(s)
    return s2, [Event("end_turn", {"seat": seat, "left": state.actions_left})] + more


# Steps that cost no action and leave the chance to declare open until they close it.
DECLARING: dict[type, Step] = {PickCell: pick, Declare: declare, EndTurn: end_turn_now}
# Everything else closes the chance to declare.  Artifacts check their own cost (some
# are free); these need an action left:
PLAYS: dict[type, Step] = {Burn: burn, UseCaptain: use_captain, **{cls: play for cls in CARD_OF_ACTION}}
_END_TURN = EndTurn()


# --- the game ------------------------------------------------------------------------------
class FindingAtlantisGame(SingleActorTurns, Game):
    score_unit = ""  # no points: a winner or not
    slug = "finding-atlantis"
    title = "Finding Atlantis"
    rules_version = "finding-atlantis-4"  # 4: every turn ends with End turn
    min_players = 2
    max_players = data.MAX_SEATS
    options_model = lazy_model("engine.finding_atlantis.options:FindingAtlantisOptions")
    # the model's defaults, as plain values (tests/test_registry.py checks)
    option_defaults = {"size": 6, "pirate": False, "monsters": "still", "paper": False,
                       "assistant": True, "max_rounds": 60}
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

    # ``view(state, seat)`` is ``view_of`` itself (no method frame in between: a view
    # is made for a seat after every move)
    view = staticmethod(view_of)

    def legal(self, view: FAView) -> list[Any]:
        seat, phase = view.seat, view.phase
        if seat != view.turn or seat is None:
            return []
        if phase != "play":
            if phase == "over":
                return []
            opening = OPENING.get(phase)
            if opening is not None:
                return opening.choices(view)
        return self._play_legal(view)

    @staticmethod
    def _play_legal(view: FAView) -> list[Any]:
        out: list[Any] = []
        if view.may_declare:
            if len(view.picks) < view.k:
                out += [PickCell(c) for c in range(view.n * view.n)]
            else:
                out += [PickCell(c) for c in view.picks]
            if len(view.picks) == view.k:
                out.append(Declare())
        for a in view.artifacts:
            if data.ARTIFACTS[a][2] or view.actions_left > 0:
                out += artifact_actions(view, a)
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

    def apply(self, state: FAState, seat: int, action: Any) -> tuple[FAState, list[Event]]:
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        if seat != state.turn:
            raise IllegalAction("It is not your turn.")
        kind = type(action)
        opening = OPENING.get(state.phase)
        if opening is not None:
            if kind is not opening.action:
                raise IllegalAction(opening.refusal)
            return opening.apply(state, seat, action)
        if kind in OPENING_ACTIONS:
            raise IllegalAction("That belongs to the start of the game.")
        step_fn = DECLARING.get(kind)
        if step_fn is not None:
            return step_fn(state, seat, action)
        state = close_declaration(state, seat)
        if kind is UseArtifact:
            return use_artifact(state, seat, action)
        if state.actions_left <= 0:
            raise IllegalAction("You have no actions left this turn.")
        step_fn = PLAYS.get(kind)
        if step_fn is None:
            raise IllegalAction("That is not an action of this game.")
        return step_fn(state, seat, action)

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
