"""Atlantis (Leo Colovini) -- the rules.

Each player leads three figures from Atlantis along a route of coloured plates to the
mainland.  A turn: (optionally sell a plate for cards), move one figure by playing
cards, pay for the water crossed, take the first free plate behind the figure, draw.
The game ends when a player's third figure reaches the mainland; the others pay the
water still ahead of their figures; plates count their value and cards 1 each.

One stage table (``STAGES``) says, for every phase, what the player to act may do
(``choices``, read by ``legal`` on a view and by ``apply`` on the state, through the
same public fields and the seat's own hand) and which function carries each action
out.  Rules decisions where the texts are silent are listed in ``text.HELP``.

Hidden information: the hands and the draw pile (a sorted multiset, drawn from at
random, so it has no order to learn).  The plate under the top of a double stack is
not decided until it is uncovered: it is drawn then, at random, from the plates of
that half nobody has seen yet (the same chances as a stack laid face down at the
start, and nothing to hide meanwhile).
"""

from __future__ import annotations

from bisect import insort
from typing import Any

from ..components import Pile, put, redeal_hidden, without
from ..core import Event, Game, IllegalAction, Result, replace
from ..rng import Rng
from ..stages import GAME_OVER, StageRule, whose_turn
from . import MANIFEST
from . import data
from . import route
from .actions import (
    CODEC, NO_BRIDGE, PASS, Bridge, Choose, NoBridge, Pass, PayCard, PayPlate,
    Play, Sell,
)
from .options import AtlantisOptions
from .state import AtlantisState, AtlantisView, make_view

CARDS = Pile("cards", order="random")  # "drew_cards" goes to the drawer alone
MAINLAND = data.MAINLAND
ATLANTIS = data.ATLANTIS


def scores(view: Any) -> tuple[int, ...]:
    sizes = view.hand_sizes if isinstance(view, AtlantisView) else tuple(map(len, view.hands))
    return tuple(route.resources(sizes[p], view.plates[p]) - view.debts[p] for p in range(view.players))


# --- the stage table: what the player to act may do ------------------------------------------
# Every action there can be, made once (they are values: equal to any made elsewhere).
_SELL = tuple(Sell(v) for v in range(max(data.VALUE_OF) + 1))
_CHOOSE = tuple(Choose(f) for f in range(data.FIGURES))
_PLAY = tuple(Play(c) for c in range(data.NCOLOURS))
_PAY_PLATE = tuple(PayPlate(v) for v in range(max(data.VALUE_OF) + 1))
_PAY_CARD = tuple(PayCard(c) for c in range(data.NCOLOURS))
_SALEABLE = tuple(data.sale_cards(v) > 0 for v in range(max(data.VALUE_OF) + 1))


def _values(plates: tuple[int, ...]) -> tuple[int, ...]:
    """The distinct values of a collection of plates, in order."""
    return tuple(sorted({data.VALUE_OF[p] for p in plates}))


def start_choices(view: Any, seat: int, hand: tuple[int, ...]) -> list[Any]:
    out: list[Any] = [_CHOOSE[f] for f in movable_figures(view, seat, hand)]
    if not out:
        out.append(PASS)
    left = view.pile_count if isinstance(view, AtlantisView) else len(view.pile)
    if view.sold < view.sales_per_turn and left + len(view.discard):  # no sale for cards nobody has
        out += [_SELL[v] for v in _values(view.plates[seat]) if _SALEABLE[v]]
    return out


def move_choices(view: Any, seat: int, hand: tuple[int, ...]) -> list[Any]:
    prep = route.prepare(view, hand, seat)
    out: list[Any] = [_PLAY[c] for c in route.first_cards_from(prep, view.start, view.cursor)]
    if not view.played:
        out += [_CHOOSE[f] for f in _movable(prep, view.figures[seat]) if f != view.mover]
    return out


def bridge_choices(view: Any, seat: int, hand: tuple[int, ...]) -> list[Any]:
    passed = [g for g in route.crossed(route.gaps(view), view.start, view.cursor) if not g.bridged]
    cost = sum(g.cost for g in passed)
    wealth = route.resources(len(hand), view.plates[seat])
    out: list[Any] = [Bridge(g.first) for g in passed if wealth >= cost - g.cost]
    if wealth >= cost:
        out.append(NO_BRIDGE)
    return out


def pay_choices(view: Any, seat: int, hand: tuple[int, ...]) -> list[Any]:
    out: list[Any] = [_PAY_PLATE[v] for v in _values(view.plates[seat])]
    out += [_PAY_CARD[c] for c in sorted(set(hand))]
    return out


def movable_figures(view: Any, seat: int, hand: tuple[int, ...]) -> tuple[int, ...]:
    """One figure per space (figures sharing Atlantis are alike) that has a move it
    can pay for."""
    return _movable(route.prepare(view, hand, seat), view.figures[seat])


def _movable(prep: tuple, figures: tuple[int, ...]) -> tuple[int, ...]:
    """``movable_figures`` of the seat's ``figures``, from ``route.prepare``."""
    found, seen = [], []
    for f, pos in enumerate(figures):
        if pos == MAINLAND or pos in seen:
            continue
        seen.append(pos)
        if route.first_cards_from(prep, pos, pos, True):
            found.append(f)
    return tuple(found)


# --- carrying actions out -----------------------------------------------------------------
def _sell(state: AtlantisState, seat: int, action: Sell) -> tuple[AtlantisState, list[Event]]:
    plate = next(p for p in state.plates[seat] if data.VALUE_OF[p] == action.value)
    got = CARDS.draw(state.pile, state.discard, data.sale_cards(action.value), state.rng, seat)
    hands = put(state.hands, seat, tuple(sorted(state.hands[seat] + got.cards)))
    events = [Event("sold", {"seat": seat, "plate": plate, "cards": len(got.cards)})] + got.events
    return replace(state, plates=put(state.plates, seat, without(state.plates[seat], plate)), hands=hands,
                   pile=got.pile, discard=got.discard, rng=got.rng, sold=state.sold + 1), events


def _choose(state: AtlantisState, seat: int, action: Choose) -> tuple[AtlantisState, list[Event]]:
    pos = state.figures[seat][action.figure]
    return replace(state, phase="move", mover=action.figure, start=pos, cursor=pos, played=()), [
        Event("chose", {"seat": seat, "figure": action.figure, "space": pos})]


def _play(state: AtlantisState, seat: int, action: Play) -> tuple[AtlantisState, list[Event]]:
    to = route.next_plate(route.colours(state), state.cursor, action.colour)
    discard = list(state.discard)
    insort(discard, action.colour)
    events = [Event("played", {"seat": seat, "figure": state.mover, "colour": action.colour, "to": to})]
    changes: dict[str, Any] = dict(hands=put(state.hands, seat, without(state.hands[seat], action.colour)),
                                   discard=tuple(discard), cursor=to, played=state.played + (action.colour,))
    if to != MAINLAND and to in route.occupied(state):
        return replace(state, **changes), events  # on a plate under a figure: another card must follow
    # the move is over: the figure stands on its new space; water, then the plate
    changes["figures"] = put(state.figures, seat, put(state.figures[seat], state.mover, to))
    events.append(Event("moved", {"seat": seat, "figure": state.mover, "from": state.start, "to": to,
                                  "cards": len(state.played) + 1}))
    passed = [g for g in route.crossed(route.gaps(state), state.start, to) if not g.bridged]
    if passed and state.bridges[seat] < 0:
        return replace(state, phase="bridge", **changes), events
    return _to_pay(state, seat, sum(g.cost for g in passed), events, changes)


def _to_pay(state: AtlantisState, seat: int, cost: int, events: list[Event],
            changes: dict[str, Any] | None = None) -> tuple[AtlantisState, list[Event]]:
    if cost > 0:
        events.append(Event("water", {"seat": seat, "cost": cost}))
        return replace(state, phase="pay", owed=cost, paid=0, **(changes or {})), events
    return _finish(replace(state, **changes) if changes else state, seat, events)


def _bridge(state: AtlantisState, seat: int, action: Bridge) -> tuple[AtlantisState, list[Event]]:
    state = replace(state, bridges=put(state.bridges, seat, action.space))
    gap = route.gap_at(state, action.space)
    events = [Event("bridge", {"seat": seat, "first": gap.first, "last": gap.last})]
    cost = sum(g.cost for g in route.crossed(route.gaps(state), state.start, state.cursor) if not g.bridged)
    return _to_pay(state, seat, cost, events)


def _no_bridge(state: AtlantisState, seat: int, action: NoBridge) -> tuple[AtlantisState, list[Event]]:
    cost = sum(g.cost for g in route.crossed(route.gaps(state), state.start, state.cursor) if not g.bridged)
    return _to_pay(state, seat, cost, [Event("no_bridge", {"seat": seat})])


def _pay_plate(state: AtlantisState, seat: int, action: PayPlate) -> tuple[AtlantisState, list[Event]]:
    plate = next(p for p in state.plates[seat] if data.VALUE_OF[p] == action.value)
    return _paid(state, seat, action.value, [Event("paid", {"seat": seat, "plate": plate, "colour": -1})],
                 plates=put(state.plates, seat, without(state.plates[seat], plate)))


def _pay_card(state: AtlantisState, seat: int, action: PayCard) -> tuple[AtlantisState, list[Event]]:
    discard = list(state.discard)
    insort(discard, action.colour)
    hands = put(state.hands, seat, without(state.hands[seat], action.colour))
    return _paid(state, seat, 1, [Event("paid", {"seat": seat, "plate": -1, "colour": action.colour})],
                 hands=hands, discard=tuple(discard))


def _paid(state: AtlantisState, seat: int, amount: int, events: list[Event], **changes: Any):
    state = replace(state, owed=state.owed - amount, paid=state.paid + amount, **changes)
    if state.owed > 0:
        return state, events
    if state.owed < 0:
        events.append(Event("overpaid", {"seat": seat, "by": -state.owed}))
    return _finish(state, seat, events)


def _finish(state: AtlantisState, seat: int, events: list[Event]) -> tuple[AtlantisState, list[Event]]:
    """Take the first free plate behind the figure, draw, then end the game or the turn
    (all in one new state).  The move that brings a player's third figure home ends the
    game at once: no plate for it, 4 cards."""
    changes: dict[str, Any] = {}
    rng = state.rng
    home = state.figures[seat].count(MAINLAND)
    last = home == data.FIGURES
    space = -1 if last else route.take_space(state, state.cursor)
    if space >= 0:
        took, rng = _take(state, seat, space, changes)
        events.append(took)
    drawn = data.FINAL_DRAW if last else data.DRAW_BY_MAINLAND[home]
    got = CARDS.draw(state.pile, state.discard, drawn, rng, seat)
    events += got.events
    _drawn(state, seat, got, changes)
    changes["passes"] = 0
    if last:
        return game_over(replace(state, **changes), events,
                         "all three figures of one player reached the mainland")
    return next_turn(state, events, changes)


def _take(state: AtlantisState, seat: int, space: int, changes: dict[str, Any]) -> tuple[Event, Rng]:
    """``seat`` takes the top plate of ``space`` (into ``changes``); a plate underneath is
    uncovered: drawn at random from the unseen plates of its half."""
    plate = state.tops[space]
    height = state.heights[space] - 1
    new_top, unseen, rng = -1, state.unseen, state.rng
    if height:
        half = data.HALF_OF[plate]
        i, rng = rng.below(len(unseen[half]))
        new_top = unseen[half][i]
        unseen = put(unseen, half, unseen[half][:i] + unseen[half][i + 1:])
    plates = list(state.plates[seat])
    insort(plates, plate)
    changes.update(tops=put(state.tops, space, new_top), heights=put(state.heights, space, height),
                   unseen=unseen, rng=rng, plates=put(state.plates, seat, tuple(plates)))
    return Event("took", {"seat": seat, "plate": plate, "space": space, "uncovered": new_top}), rng


def _drawn(state: AtlantisState, seat: int, got: Any, changes: dict[str, Any]) -> None:
    hand = tuple(sorted(state.hands[seat] + got.cards)) if got.cards else state.hands[seat]
    changes.update(hands=put(state.hands, seat, hand), pile=got.pile, discard=got.discard, rng=got.rng)


def _pass(state: AtlantisState, seat: int, action: Pass) -> tuple[AtlantisState, list[Event]]:
    got = CARDS.draw(state.pile, state.discard, data.PASS_DRAW, state.rng, seat)
    changes: dict[str, Any] = {"passes": state.passes + 1}
    _drawn(state, seat, got, changes)
    events = [Event("passed", {"seat": seat})] + got.events
    if state.passes + 1 >= data.STALL_PASSES_PER_PLAYER * state.players:
        return game_over(replace(state, **changes), events, "nobody could move any more")
    return next_turn(state, events, changes)


def next_turn(state: AtlantisState, events: list[Event], changes: dict[str, Any] | None = None
              ) -> tuple[AtlantisState, list[Event]]:
    nxt = (state.turn + 1) % state.players
    state = replace(state, turn=nxt, phase="start", sold=0, mover=-1, start=ATLANTIS, cursor=ATLANTIS,
                    played=(), owed=0, paid=0, round=state.round + (nxt == 0), **(changes or {}))
    events.append(Event("turn", {"seat": nxt}))
    return state, events


def final_debts(view: Any) -> tuple[int, ...]:
    """The water every figure not on the mainland pays to get there (no plates taken)."""
    all_gaps = route.gaps(view)
    return tuple(sum(route.water_cost(route.crossed(all_gaps, pos, MAINLAND), False)
                     for pos in view.figures[p] if pos != MAINLAND) for p in range(view.players))


def game_over(state: AtlantisState, events: list[Event], reason: str) -> tuple[AtlantisState, list[Event]]:
    debts = final_debts(state)
    figures = tuple((MAINLAND,) * data.FIGURES for _ in range(state.players))
    state = replace(state, debts=debts, figures=figures, phase="over", mover=-1, end_reason=reason)
    final = scores(state)
    best = max(final)
    winners = tuple(p for p in range(state.players) if final[p] == best)
    events.append(Event("final", {"debts": debts, "scores": final, "winners": winners}))
    return replace(state, winners=winners), events


# --- the stage table: who acts, what they may do (choices(view, seat, hand)), what it does -
STAGES: dict[str, StageRule] = {
    "start": StageRule(whose_turn, start_choices, {Sell: _sell, Choose: _choose, Pass: _pass}),
    "move": StageRule(whose_turn, move_choices, {Play: _play, Choose: _choose}),
    "bridge": StageRule(whose_turn, bridge_choices, {Bridge: _bridge, NoBridge: _no_bridge}),
    "pay": StageRule(whose_turn, pay_choices, {PayPlate: _pay_plate, PayCard: _pay_card}),
    "over": GAME_OVER,
}


def refusal(state: AtlantisState, seat: int, action: Any) -> str:
    """Why ``action`` is not among the choices, in a sentence."""
    kind, phase = type(action), state.phase
    if kind is Sell:
        if phase != "start":
            return "Plates are sold at the start of your turn, before a figure moves."
        if state.sold >= state.sales_per_turn:
            return "You have already sold a plate this turn."
        return "You have no plate of that value worth selling (a plate brings half its value in cards)."
    if kind is Choose:
        if phase not in ("start", "move") or state.played:
            return "The figure is already on its way: play the next card."
        return "That figure cannot move: it is on the mainland, or no card in your hand gets it anywhere you can pay for."
    if kind is Play:
        if phase != "move":
            return "Choose a figure first." if phase == "start" else "The figure has stopped moving."
        if action.colour not in state.hands[seat]:
            return "You have no card of that colour."
        return "That card leads nowhere you can finish the move and pay the water."
    if kind is Pass:
        return "You can pass only when none of your figures can move."
    if kind in (Bridge, NoBridge):
        if phase != "bridge":
            return "A bridge is built when a move crosses water."
        if kind is NoBridge:
            return "You cannot pay for this water without building your bridge."
        return "Build the bridge on a gap this move crossed, one you can then pay the rest of."
    if kind in (PayPlate, PayCard):
        if phase != "pay":
            return "There is no water to pay for now."
        return "You have no such plate or card."
    return "That is not possible now."


# --- the game ----------------------------------------------------------------------------------
class AtlantisGame(Game):
    manifest = MANIFEST
    rules_version = "atlantis-2"  # 2: no plate for the move that ends the game
    options_model = AtlantisOptions
    codec = CODEC
    view_type = AtlantisView

    def setup(self, options: Any, seats: int, seed: int) -> AtlantisState:
        opts = self.parse_options(options)
        if not self.min_players <= seats <= self.max_players:
            raise ValueError(f"Atlantis takes 2-4 players, not {seats}")
        rng = Rng.from_seed(seed, "atlantis")
        tops = [-1] * data.SPACES
        unseen = []
        for half, spaces in enumerate(data.HALF_SPACES):
            order, rng = rng.shuffled(data.HALF_PLATES[half])
            laid = [i for i in spaces if data.START_HEIGHTS[i]]
            for i, plate in zip(laid, order):
                tops[i] = plate
            unseen.append(tuple(sorted(order[len(laid):])))
        pile: tuple[int, ...] = data.CARDS
        hands = []
        for seat in range(seats):
            got = CARDS.draw(pile, (), data.START_HAND[seat], rng, seat)
            pile, rng = got.pile, got.rng
            hands.append(tuple(sorted(got.cards)))
        return AtlantisState(
            players=seats, tops=tuple(tops), heights=data.START_HEIGHTS, unseen=tuple(unseen),
            figures=((ATLANTIS,) * data.FIGURES,) * seats, bridges=(-1,) * seats, plates=((),) * seats,
            hands=tuple(hands), pile=pile, discard=(), sales_per_turn=opts.sales_per_turn, turn=0,
            phase="start", sold=0, mover=-1, start=ATLANTIS, cursor=ATLANTIS, played=(), owed=0,
            paid=0, passes=0, round=1, debts=(0,) * seats, winners=(), end_reason="", rng=rng,
        )

    view = staticmethod(make_view)  # view(state, seat): one call less a move

    def to_act(self, state: AtlantisState) -> frozenset[int]:
        return STAGES[state.phase].actors(state)

    def legal(self, view: AtlantisView) -> list[Any]:
        seat, hand = view.seat, view.hand
        if seat is None or hand is None or seat != view.turn:
            return []
        return STAGES[view.phase].choices(view, seat, hand)

    def apply(self, state: AtlantisState, seat: int, action: Any) -> tuple[AtlantisState, list[Event]]:
        rule = STAGES[state.phase]
        if seat not in rule.actors(state):
            raise IllegalAction("The game is over." if state.phase == "over" else "It is not your turn.")
        if action not in rule.choices(state, seat, state.hands[seat]):
            raise IllegalAction(refusal(state, seat, action))
        return rule.steps[type(action)](state, seat, action)

    # --- undo, leaks, text --------------------------------------------------------------------
    def undo_barrier(self, before: AtlantisState, after: AtlantisState, seat: int, action: Any) -> str | None:
        if before.rng != after.rng or before.pile != after.pile:
            return "it drew cards or uncovered a plate"
        if type(action) in (Play, PayCard):
            return "everyone has seen the card"
        if after.phase != before.phase and after.turn != before.turn:
            return "the turn is over"
        return None

    def rerandomise(self, state: AtlantisState, seat: int, rng: Rng) -> AtlantisState:
        """Shuffle every card ``seat`` cannot see (other hands and the pile).  The plates
        under the tops need nothing: they are drawn only when uncovered."""
        hands, pile, _ = redeal_hidden(state.hands, state.pile, seat, rng, keep_sorted=True)
        return replace(state, hands=hands, pile=pile)

    def result(self, state: AtlantisState) -> Result | None:
        if state.phase != "over":
            return None
        return Result(tuple(float(v) for v in scores(state)), state.winners, state.end_reason)
