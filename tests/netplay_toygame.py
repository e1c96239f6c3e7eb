"""A tiny test-only game with simultaneous secret choices (like End of Atlantis bids).

Each round every seat secretly picks a number 0-3 (all seats are in ``to_act`` at
once); when all have picked, the picks are revealed and the highest unique pick
scores a point.  Three rounds.  A seat sees its own pick and only *whether* the
others have picked.  It exists to prove that the LAN host handles several seats
acting at once and never sends a secret pick to another seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple


from engine.core import ActionCodec, Bot, Event, Game, IllegalAction, LogLine, Result, View
from engine.options import OptionField, options_class
from engine.rng import Rng
from engine.text import who


class Pick(NamedTuple):
    n: int


ToyOptions = options_class("ToyOptions", __name__, (
    OptionField("rounds", int, 3, "rounds to play", low=1, high=20),
))


@dataclass(frozen=True, slots=True)
class ToyState:
    players: int
    picks: tuple[int, ...]      # -1: not picked yet
    scores: tuple[int, ...]
    round: int
    rounds: int
    rng: Rng


@dataclass(frozen=True, slots=True)
class ToyView(View):
    seat: int | None
    mine: int                   # own pick this round (-1 none / spectator)
    picked: tuple[bool, ...]    # who has picked (not what)
    scores: tuple[int, ...]
    round: int
    rounds: int


class ToyGame(Game):
    slug = "toy-bids"
    title = "Toy simultaneous bids"
    rules_version = "toy-1"
    min_players = 2
    max_players = 4
    options_model = ToyOptions
    codec = ActionCodec({"pick": Pick})

    def setup(self, options: Any, seats: int, seed: int) -> ToyState:
        opts = self.parse_options(options)
        return ToyState(seats, (-1,) * seats, (0,) * seats, 1, opts.rounds, Rng.from_seed(seed, "toy"))

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        return ToyView(seat=seat, mine=state.picks[seat] if seat is not None else -1,
                       picked=tuple(p >= 0 for p in state.picks), scores=state.scores,
                       round=state.round, rounds=state.rounds)

    def legal(self, view: ToyView) -> list[Any]:
        if view.seat is None or view.round > view.rounds or view.picked[view.seat]:
            return []
        return [Pick(n) for n in range(4)]

    def to_act(self, state: ToyState) -> frozenset[int]:
        if state.round > state.rounds:
            return frozenset()
        return frozenset(i for i, p in enumerate(state.picks) if p < 0)

    def result(self, state: ToyState) -> Result | None:
        if state.round <= state.rounds:
            return None
        best = max(state.scores)
        return Result(tuple(float(s) for s in state.scores),
                      tuple(i for i, s in enumerate(state.scores) if s == best), "all rounds played")

    def apply(self, state: ToyState, seat: int, action: Any) -> tuple[ToyState, list[Event]]:
        if seat not in self.to_act(state):
            raise IllegalAction("You have already picked this round.")
        if type(action) is not Pick or not 0 <= action.n <= 3:
            raise IllegalAction("Pick a number from 0 to 3.")
        picks = tuple(action.n if i == seat else p for i, p in enumerate(state.picks))
        events = [Event("picked", {"seat": seat}), Event("my_pick", {"n": action.n}, (seat,))]
        if min(picks) < 0:
            return ToyState(state.players, picks, state.scores, state.round, state.rounds, state.rng), events
        counts = {p: picks.count(p) for p in picks}
        unique = [p for p in picks if counts[p] == 1]
        scores = state.scores
        if unique:
            top = max(unique)
            winner = picks.index(top)
            scores = tuple(s + (1 if i == winner else 0) for i, s in enumerate(scores))
        events.append(Event("reveal", {"picks": list(picks)}))
        return ToyState(state.players, (-1,) * state.players, scores, state.round + 1, state.rounds,
                        state.rng), events

    def describe(self, event: Event, seat: int | None, names: Any) -> LogLine:
        if event.kind == "picked":
            return LogLine(event.data["seat"], event.kind, f"{who(event.data['seat'], seat, names)} picked.")
        if event.kind == "my_pick":
            return LogLine(None, event.kind, f"You picked {event.data['n']}.")
        return LogLine(None, event.kind, f"Picks: {event.data.get('picks')}")

    def make_bot(self, seat: int, seed: int, level: str = "normal") -> Bot:
        return ToyBot(seat, seed)


class ToyBot(Bot):
    def __init__(self, seat: int, seed: int):
        self.rng = Rng.from_seed(seed, f"toybot{seat}")

    def choose(self, view: ToyView, legal: list[Any]) -> Any:
        i, self.rng = self.rng.below(len(legal))
        return legal[i]


TOY = ToyGame()
