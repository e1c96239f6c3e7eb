"""The stage table: for every stage, who acts, what they may do, and what each action
does.  It is the only statement of turn order and legality: ``to_act``, ``legal`` (on a
view, for the client) and ``apply`` (on the state, inside the rules) all read it.

* ``actors(x)`` reads only public fields, so it gives the same seats on the state and
  on any seat's view (simultaneous stages: everyone who has still to choose).
* ``choices(x, seat)`` lists the legal actions of an actor from what that seat may
  know; on the state it reads the same fields through the seat's-eye accessors
  (``state.EoaState.hand_of`` ...), so ``apply`` checks an action against exactly the
  list the seat's screen offered.
* ``MAY_ACT[stage](x, seat)`` is ``seat in actors(x)``, asked of one seat (``legal``).
* ``steps`` maps each kind of action to the function carrying it out:
  ``(state, seat, action) -> (state, events)``.

Stages nobody acts in (``START``, ``DOOM``, ``OVER``) have no actors; ``START`` is never
left standing: ``settle`` begins the next turn.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Mapping, NamedTuple

from ..core import Event, IllegalAction
from . import data
from . import doom, effects, factions, senate, voting
from .actions import (
    Bid, Demagogos, Discard, Done, Faction, LayCard, Pass, Play, PlaySpecial, TakeSpecial, Target,
    UseAbility,
)
from .state import EoaState, Stage, row_lengths

Step = Callable[[EoaState, int, Any], tuple[EoaState, list[Event]]]


class StageRule(NamedTuple):
    actors: Callable[[Any], frozenset[int]]
    choices: Callable[[Any, int], list[Any]]
    steps: Mapping[type, Step]


# --- who acts ----------------------------------------------------------------------------------
# Every ``actors`` answers a frozenset (``to_act`` is exactly it), one made once per
# group of seats: a simultaneous stage's from a cache keyed by what decides it.
_ONLY = {p: frozenset((p,)) for p in range(-1, data.MAX_PLAYERS)}  # (-1: no holder, as the tuple said)
_NOBODY: frozenset[int] = frozenset()


def _undecided_bidders(x: Any) -> frozenset[int]:
    return frozenset(p for p, b in enumerate(x.bids) if b == -1)  # (a view shows others' as -2 or -1)


def _card_layers(x: Any) -> frozenset[int]:
    laid, need = row_lengths(x.voting_cards), x.cards_to_lay
    return frozenset(p for p in range(x.players) if laid[p] < need[p])


def _faction_chooser(x: Any) -> frozenset[int]:
    return _ONLY[x.faction_queue[x.faction_pos].seat]


def _ability_user(x: Any) -> frozenset[int]:
    return _ONLY[x.ability_queue[0].seat]


def _demagogos(x: Any) -> frozenset[int]:
    return _ONLY[x.faction_holders[data.DEMAGOGOS]]


def _next_open_bidder(x: Any) -> frozenset[int]:
    return _ONLY[x.open_bidders[0]]


def _next_card_player(x: Any) -> frozenset[int]:
    return _ONLY[x.play_queue[0]]


def _next_placer(x: Any) -> frozenset[int]:
    return _ONLY[x.together_queue[0]]


def _nobody(x: Any) -> frozenset[int]:
    return _NOBODY


def _nothing(x: Any, seat: int) -> list[Any]:
    return []


def _after(step: Callable[..., tuple[EoaState, list[Event]]]) -> Step:
    """An effect step; once the card is carried out, the next winner plays."""
    return partial(step, then=voting.next_player)


START, OVER = Stage.START, Stage.OVER  # (an Enum member is slow to look up in hot loops)

STAGES: dict[Stage, StageRule] = {
    Stage.SENATE: StageRule(_undecided_bidders, voting.bid_choices, {Bid: senate.senate_bid}),
    Stage.FACTIONS: StageRule(_faction_chooser, factions.faction_choices, {
        Faction: factions.take_faction, Pass: factions.pass_faction,
        PlaySpecial: factions.play_faction_special}),
    Stage.ABILITIES: StageRule(_ability_user, factions.ability_choices, {
        UseAbility: factions.use_ability, Pass: factions.pass_ability, Target: factions.basileus,
        TakeSpecial: factions.demiurgos_take}),
    Stage.ARCHONT: StageRule(_ability_user, factions.archont_choices, {Discard: factions.archont_discard}),
    Stage.LAY_CARDS: StageRule(_card_layers, voting.lay_choices, {LayCard: voting.lay_card}),
    Stage.HIDDEN_VOTE: StageRule(_undecided_bidders, voting.bid_choices, {Bid: voting.hidden_bid}),
    Stage.DEMAGOGOS_LOOK: StageRule(_demagogos, voting.look_choices, {
        Demagogos: voting.demagogos_look, Pass: voting.no_look}),
    Stage.DEMAGOGOS_REBID: StageRule(_demagogos, voting.bid_choices, {Bid: voting.rebid}),
    Stage.DEMAGOGOS_CALL: StageRule(_demagogos, voting.call_choices, {
        Demagogos: voting.demagogos_call, Pass: voting.no_call}),
    Stage.OPEN_VOTE: StageRule(_next_open_bidder, voting.open_bid_choices, {Bid: voting.open_bid}),
    Stage.PLAY: StageRule(_next_card_player, voting.play_stage_choices, {
        Play: _after(effects.play), Pass: voting.pass_play, Target: _after(effects.target),
        Done: _after(effects.done), TakeSpecial: _after(effects.take_special)}),
    Stage.TOGETHER: StageRule(_next_placer, doom.together_choices, {
        Target: doom.together_place, Pass: doom.together_stop}),
    Stage.START: StageRule(_nobody, _nothing, {}),
    Stage.DOOM: StageRule(_nobody, _nothing, {}),
    Stage.OVER: StageRule(_nobody, _nothing, {}),
}
assert set(STAGES) == set(Stage), "every stage has a rule"


# The table's two columns by stage, for the per-decision calls (``to_act``, ``legal``).
ACTORS: dict[Stage, Callable[[Any], frozenset[int]]] = {stage: rule.actors for stage, rule in STAGES.items()}
CHOICES: dict[Stage, Callable[[Any, int], list[Any]]] = {stage: rule.choices for stage, rule in STAGES.items()}


# ``seat in actors(x)``, asked of one seat (``legal``: a view is made for one seat, and
# whether that seat acts is one look at its own entry, where the whole set of a
# simultaneous stage is a cache lookup keyed by every seat's entries).
def _bidding(x: Any, seat: int) -> bool:
    return x.bids[seat] == -1


def _laying(x: Any, seat: int) -> bool:
    return len(x.voting_cards[seat]) < x.cards_to_lay[seat]


MAY_ACT: dict[Stage, Callable[[Any, int], bool]] = {
    Stage.SENATE: _bidding,
    Stage.FACTIONS: lambda x, seat: x.faction_queue[x.faction_pos].seat == seat,
    Stage.ABILITIES: lambda x, seat: x.ability_queue[0].seat == seat,
    Stage.ARCHONT: lambda x, seat: x.ability_queue[0].seat == seat,
    Stage.LAY_CARDS: _laying,
    Stage.HIDDEN_VOTE: _bidding,
    Stage.DEMAGOGOS_LOOK: lambda x, seat: x.faction_holders[data.DEMAGOGOS] == seat,
    Stage.DEMAGOGOS_REBID: lambda x, seat: x.faction_holders[data.DEMAGOGOS] == seat,
    Stage.DEMAGOGOS_CALL: lambda x, seat: x.faction_holders[data.DEMAGOGOS] == seat,
    Stage.OPEN_VOTE: lambda x, seat: x.open_bidders[0] == seat,
    Stage.PLAY: lambda x, seat: x.play_queue[0] == seat,
    Stage.TOGETHER: lambda x, seat: x.together_queue[0] == seat,
    Stage.START: lambda x, seat: False,
    Stage.DOOM: lambda x, seat: False,
    Stage.OVER: lambda x, seat: False,
}
assert set(MAY_ACT) == set(Stage), "every stage says who may act"


def actors(x: Any) -> frozenset[int]:
    """Who acts now (the same frozenset on the state and on every view)."""
    return ACTORS[x.stage](x)


def choices(x: Any, seat: int | None) -> list[Any]:
    """The legal actions of ``seat`` (nothing for a seat that is not to act)."""
    rule = STAGES[x.stage]
    if seat is None or seat not in rule.actors(x):
        return []
    return rule.choices(x, seat)


def apply(s: EoaState, seat: int, action: Any) -> tuple[EoaState, list[Event]]:
    rule = STAGES[s.stage]
    if seat not in rule.actors(s):
        raise IllegalAction("The game is over." if s.stage == OVER else "It is not your turn to choose.")
    if not offered(action, rule.choices(s, seat)):
        raise IllegalAction(refusal(s, seat, action))
    s, events = rule.steps[type(action)](s, seat, action)
    return settle(s, events)


def offered(action: Any, options: list[Any]) -> bool:
    """``action in options``, trying identity first: the choices are made once
    (``actions.BIDS`` ...), a bot or a screen picks one of them, and comparing action
    values runs a Python ``__eq__`` per option."""
    for option in options:
        if option is action:
            return True
    return action in options


def settle(s: EoaState, events: list[Event]) -> tuple[EoaState, list[Event]]:
    """Carry on through the stages that need nobody: the start of the next turn."""
    while s.stage == START:
        s, more = senate.start_turn(s)
        events += more
    return s, events


def refusal(s: EoaState, seat: int, action: Any) -> str:
    """Why ``action`` is not among ``seat``'s choices, in a sentence."""
    st = s.stage
    kind = type(action)
    if kind is Bid:
        if st in (Stage.SENATE, Stage.HIDDEN_VOTE, Stage.DEMAGOGOS_REBID, Stage.OPEN_VOTE):
            if action.tokens < 0 or action.tokens > s.screen[seat]:
                return f"You can bid 0 to {s.screen[seat]} tokens (what is behind your screen)."
            if st == Stage.OPEN_VOTE:
                return "In an open vote your bid must differ from every other bid (0 passes)."
            return "You have already chosen your bid."
        return "There is nothing to bid on now."
    if kind is Faction:
        if st != Stage.FACTIONS:
            return "Faction tokens are taken in the Factions phase."
        if not 0 <= action.faction < 7 or s.faction_holders[action.faction] >= 0:
            return "That Faction token is not available."
        return "You cannot pay for a Faction token now."
    if kind is LayCard:
        if st != Stage.LAY_CARDS:
            return "Voting cards are laid out at the start of the Voting phase."
        if action.card not in s.hands[seat]:
            return "That card is not in your hand."
        return "Only the Oraklos may keep cards face down, at most 2."
    if kind is Play:
        return "You cannot play that card now: you must be able to apply it in full."
    if kind is Target:
        return "That is not a possible target now."
    return "That is not possible now."
