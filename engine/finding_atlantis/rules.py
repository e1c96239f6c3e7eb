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
* Your own mine never hurts you.  A mine hit hands one random unused artifact of
  the victim to the mine's owner (which one: only the two of them learn), else
  the victim loses up to 2 random action cards (never Surface), face up.  The
  mine is spent.
* Each artifact space gives one artifact card, to its first explorer.  That a
  card was drawn is public; which card is private until it is used.
* A captain becomes public the first time it is played or burnt.
* A declaration must name exactly as many spaces as Atlantis has; it need not
  include the space you stand on (you may not know it after a failed one).
* Round limit (option ``max_rounds``): if nobody has found Atlantis by then, the
  game ends without a winner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..components import SingleActorTurns, put
from ..core import ActionCodec, Event, Game, IllegalAction, View, build, replace
from ..rng import Rng
from . import data as D
from .mapgen import generate, inner_of, world_of


# --- actions ----------------------------------------------------------------------
class ChooseCaptain(NamedTuple):
    captain: str


class FirstMove(NamedTuple):
    dir: int


class Sonar(NamedTuple):
    pass


class JellyRod(NamedTuple):
    axis: int


class Explore(NamedTuple):
    pass


class Silent(NamedTuple):
    dir: int


class LongSilent(NamedTuple):
    dir: int


class Surface(NamedTuple):
    pass


class Periscope(NamedTuple):
    pass


class DropMine(NamedTuple):
    dir: int


class Burn(NamedTuple):
    card: str
    dir: int


class UseCaptain(NamedTuple):
    arg: int = -1     # axis, direction or seat (see data.CAPTAINS)
    steps: int = 0    # Speed Captain only


class UseArtifact(NamedTuple):
    artifact: str
    arg: int = -1     # direction, seat or cell (see data.ARTIFACTS)
    dir: int = -1     # Whirlpool Stone: the direction of the push


class PickCell(NamedTuple):
    cell: int


class Declare(NamedTuple):
    pass


class EndTurn(NamedTuple):
    pass


ACTIONS = {
    "choose_captain": ChooseCaptain, "first_move": FirstMove, "sonar": Sonar, "rod": JellyRod,
    "explore": Explore, "silent": Silent, "long": LongSilent, "surface": Surface,
    "periscope": Periscope, "mine": DropMine, "burn": Burn, "captain": UseCaptain,
    "artifact": UseArtifact, "pick": PickCell, "declare": Declare, "end_turn": EndTurn,
}
CARD_ACTION = {"sonar": Sonar, "rod": JellyRod, "explore": Explore, "silent": Silent,
               "long": LongSilent, "surface": Surface, "periscope": Periscope, "mine": DropMine}


class FindingAtlantisOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    size: int = Field(6, description="ocean map 6 (4 Atlantis spaces) or 8 (6)")
    pirate: bool = Field(False, description="pirate mode: Periscope, Drop Mine")
    monsters: Literal["still", "roaming"] = Field("still", description="sea monsters still or roaming")
    paper: bool = Field(False, description="no automatic notes on the chart")
    assistant: bool = Field(True, description="shade certain cells, warn before a wrong solve")
    max_rounds: int = Field(60, ge=5, le=500, description="rounds before the game ends unsolved")

    @field_validator("size")
    @classmethod
    def _size(cls, v: int) -> int:
        if v not in D.MAP_SIZES:
            raise ValueError("size must be 6 or 8")
        return v


# --- state and view -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FAState:
    n: int
    k: int
    players: int
    pirate: bool
    roaming: bool
    paper: bool                         # display options: no rule depends on them
    assistant: bool
    max_rounds: int
    terrain: tuple[int, ...]            # per world cell (data.DEEP ...)
    pos: tuple[int, ...]                # map cell per seat
    lost: tuple[bool, ...]              # seat does not know where it is
    lost_obs: tuple[tuple[tuple[int, int, int], ...], ...]  # (dr, dc, facts) from the landing space
    lost_disp: tuple[tuple[int, int], ...]                  # own moves since landing
    charts: tuple[tuple[int, ...], ...]  # facts per world cell, per seat
    hands: tuple[tuple[str, ...], ...]  # action cards (and "captain") in hand
    played: tuple[tuple[tuple[str, int], ...], ...]  # discard pile: (card, burn dir or -1)
    captain: tuple[str, ...]
    offers: tuple[tuple[str, ...], ...]
    captain_shown: tuple[bool, ...]
    arts: tuple[tuple[tuple[str, int], ...], ...]   # unused artifacts held: (id, map cell found)
    used: tuple[tuple[str, ...], ...]
    deck: tuple[str, ...]
    taken: tuple[int, ...]              # artifact spaces already looted (map cells, sorted)
    mines: tuple[int, ...]              # map cell per seat, -1 none
    monsters: tuple[int, ...]           # map cells
    starts: tuple[int, ...]
    surfaced: tuple[int, ...]           # last surfacing cell per seat, -1 none
    trail: tuple[tuple[str, ...], ...]  # public moves since the last known position
    may_declare: tuple[bool, ...]
    picks: tuple[tuple[int, ...], ...]
    failed: tuple[tuple[int, tuple[int, ...]], ...]
    phase: str
    first: int
    turn: int
    actions_left: int
    skip: tuple[int, ...]
    round: int
    winners: tuple[int, ...]
    end_reason: str
    rng: Rng


@dataclass(frozen=True, slots=True)
class PlayerPublic:
    start: int
    last_played: tuple[tuple[str, int], ...]   # the last 2 cards, oldest first
    played_count: int
    hand_count: int
    artifacts_held: int
    used: tuple[str, ...]
    captain: str                  # "" until shown
    surfaced: int
    trail: tuple[str, ...]
    has_mine: bool
    lost: bool
    skip: int


@dataclass(frozen=True, slots=True)
class FAView(View):
    seat: int | None
    n: int
    k: int
    players: int
    pirate: bool
    roaming: bool
    paper: bool
    assistant: bool
    max_rounds: int
    phase: str
    turn: int
    first: int
    actions_left: int
    round: int
    public: tuple[PlayerPublic, ...]
    monsters: tuple[int, ...]
    deck_count: int
    failed: tuple[tuple[int, tuple[int, ...]], ...]
    winners: tuple[int, ...]
    end_reason: str
    # own (None / empty for a spectator)
    pos: int                      # -1 when unknown to the seat
    chart: tuple[int, ...]
    lost_obs: tuple[tuple[int, int, int], ...]
    lost_disp: tuple[int, int]
    hand: tuple[str, ...]
    captain: str
    offers: tuple[str, ...]
    artifacts: tuple[str, ...]
    mine: int
    may_declare: bool
    picks: tuple[int, ...]


# --- geometry helpers -------------------------------------------------------------------
def step(n: int, cell: int, d: int) -> int:
    """The map cell one step from ``cell`` in direction ``d``, or -1 off the map."""
    r, c = divmod(cell, n)
    dr, dc = D.DIRS[d]
    r, c = r + dr, c + dc
    if 0 <= r < n and 0 <= c < n:
        return r * n + c
    return -1


def explore_facts(t: int) -> int:
    if t == D.DEEP:
        return D.DEEP_F | D.NOTRACE
    if t == D.SEAMOUNT:
        return D.SEA | D.NOTRACE
    if t == D.ARTIFACT:
        return D.SEA | D.TRACE | D.ART
    return D.SEA | D.TRACE | D.ATL


FACT_WORD = ((D.ATL, "Atlantis"), (D.ART, "an artifact"), (D.ROD, "trace or mine"), (D.TRACE, "a trace"),
             (D.DANGER, "danger"), (D.DEEP_F, "deep ocean"), (D.SEA, "seamount"), (D.NOTRACE, "no trace"))


def fact_word(f: int) -> str:
    if f == 0:
        return "nothing"
    if f & D.SEA and f & D.NOTRACE:
        return "seamount, no trace"
    for bit, word in FACT_WORD:
        if f & bit:
            return word
    return "clear"


def hand_for(pirate: bool) -> tuple[str, ...]:
    return D.BASE_CARDS + (D.PIRATE_CARDS if pirate else ()) + ("captain",)


def _burnable(card: str) -> bool:
    return card not in D.UNBURNABLE


# --- the game ------------------------------------------------------------------------------
class FindingAtlantisGame(SingleActorTurns, Game):
    slug = "finding-atlantis"
    title = "Finding Atlantis"
    rules_version = "finding-atlantis-2"
    min_players = 2
    max_players = D.MAX_SEATS
    options_model = FindingAtlantisOptions
    codec = ActionCodec(ACTIONS)

    # --- setup ---------------------------------------------------------------------------
    def setup(self, options: Any, seats: int, seed: int) -> FAState:
        opts = self.parse_options(options)
        if not self.min_players <= seats <= self.max_players:
            raise ValueError(f"Finding Atlantis takes 2-4 submarines, not {seats}")
        n = opts.size
        k = D.MAP_SIZES[n][0]
        rng = Rng.from_seed(seed, "finding-atlantis")
        terrain, rng = generate(n, rng)
        starts = []
        for _ in range(seats):
            c, rng = rng.below(n * n)
            starts.append(c)
        caps, rng = rng.shuffled(tuple(D.CAPTAINS))
        offers = tuple(tuple(caps[i * D.CAPTAINS_DEALT:(i + 1) * D.CAPTAINS_DEALT]) for i in range(seats))
        deck, rng = rng.shuffled(tuple(D.ARTIFACTS))
        first, rng = rng.below(seats)
        w = n + 2
        empty_chart = tuple(D.NOTRACE if inner_of(n, x) < 0 else 0 for x in range(w * w))
        hand = hand_for(opts.pirate)
        return FAState(
            n=n, k=k, players=seats, pirate=opts.pirate, roaming=opts.monsters == "roaming",
            paper=opts.paper, assistant=opts.assistant and not opts.paper, max_rounds=opts.max_rounds, terrain=terrain, pos=tuple(starts),
            lost=(False,) * seats, lost_obs=((),) * seats, lost_disp=((0, 0),) * seats,
            charts=(empty_chart,) * seats, hands=(hand,) * seats, played=((),) * seats,
            captain=("",) * seats, offers=offers, captain_shown=(False,) * seats,
            arts=((),) * seats, used=((),) * seats, deck=deck, taken=(), mines=(-1,) * seats,
            monsters=(), starts=tuple(starts), surfaced=(-1,) * seats, trail=((),) * seats,
            may_declare=(False,) * seats, picks=((),) * seats, failed=(), phase="captain",
            first=first, turn=first, actions_left=0, skip=(0,) * seats, round=1, winners=(),
            end_reason="", rng=rng,
        )

    # --- view ----------------------------------------------------------------------------
    def view(self, state: FAState, seat: int | None) -> FAView:
        # Built field by field in declaration order with ``util.build`` (a view is
        # made for every seat after every move, so this is on the self-play path).
        pub = tuple(
            build(PlayerPublic, (
                state.starts[s], state.played[s][-2:], len(state.played[s]), len(state.hands[s]),
                len(state.arts[s]), state.used[s], state.captain[s] if state.captain_shown[s] else "",
                state.surfaced[s], state.trail[s], state.mines[s] >= 0, state.lost[s], state.skip[s],
            )) for s in range(state.players))
        common = (
            seat, state.n, state.k, state.players, state.pirate, state.roaming, state.paper,
            state.assistant, state.max_rounds, state.phase, state.turn, state.first,
            state.actions_left, state.round, pub, state.monsters, len(state.deck), state.failed,
            state.winners, state.end_reason,
        )
        if seat is None:
            own = (-1, (), (), (0, 0), (), "", (), (), -1, False, ())
        else:
            own = (-1 if state.lost[seat] else state.pos[seat], state.charts[seat], state.lost_obs[seat],
                   state.lost_disp[seat], state.hands[seat], state.captain[seat], state.offers[seat],
                   tuple(a for a, _ in state.arts[seat]), state.mines[seat], state.may_declare[seat],
                   state.picks[seat])
        return build(FAView, common + own)

    # --- legal -----------------------------------------------------------------------------
    def legal(self, view: FAView) -> list[Any]:
        if view.phase == "over" or view.seat is None or view.seat != view.turn:
            return []
        if view.phase == "captain":
            return [ChooseCaptain(c) for c in view.offers]
        if view.phase == "first_move":
            return [FirstMove(d) for d in range(8)]
        out: list[Any] = []
        me = view.seat
        if view.may_declare:
            if len(view.picks) < view.k:
                out += [PickCell(c) for c in range(view.n * view.n)]
            else:
                out += [PickCell(c) for c in view.picks]
            if len(view.picks) == view.k:
                out.append(Declare())
        for a in view.artifacts:
            if D.ARTIFACTS[a][2] or view.actions_left > 0:
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
                    out += card_actions(card)
                if _burnable(card):
                    out += _BURNS[card]
        out.append(EndTurn())
        return out

    # --- apply -----------------------------------------------------------------------------
    def apply(self, state: FAState, seat: int, action: Any) -> tuple[FAState, list[Event]]:
        if state.phase == "over":
            raise IllegalAction("The game is over.")
        if seat != state.turn:
            raise IllegalAction("It is not your turn.")
        kind = type(action)
        if state.phase == "captain":
            if kind is not ChooseCaptain:
                raise IllegalAction("First keep one of your two captains.")
            return self._choose_captain(state, seat, action)
        if state.phase == "first_move":
            if kind is not FirstMove:
                raise IllegalAction("First make your free hidden move.")
            return self._first_move(state, seat, action)
        if kind in (ChooseCaptain, FirstMove):
            raise IllegalAction("That belongs to the start of the game.")
        if kind is PickCell:
            return self._pick(state, seat, action)
        if kind is Declare:
            return self._declare(state, seat)
        if kind is EndTurn:
            s = replace(state, may_declare=put(state.may_declare, seat, False))
            ev = [Event("end_turn", {"seat": seat, "left": state.actions_left})]
            s2, more = self._end_turn(s)
            return s2, ev + more
        if state.may_declare[seat] or state.picks[seat]:
            state = replace(state, may_declare=put(state.may_declare, seat, False),
                            picks=put(state.picks, seat, ()))
        if kind is UseArtifact:
            return self._artifact(state, seat, action)
        if state.actions_left <= 0:
            raise IllegalAction("You have no actions left this turn.")
        if kind is Burn:
            return self._burn(state, seat, action)
        if kind is UseCaptain:
            return self._captain(state, seat, action)
        card = next((c for c, cls in CARD_ACTION.items() if cls is kind), None)
        if card is None:
            raise IllegalAction("That is not an action of this game.")
        if card in D.PIRATE_CARDS and not state.pirate:
            raise IllegalAction("That card is only used in pirate mode.")
        if card not in state.hands[seat]:
            raise IllegalAction(f"{D.CARDS[card][0]} is not in your hand: surface to take it back.")
        s = self._play_card(state, seat, card, -1)
        events = [Event("played", {"seat": seat, "card": card})]
        s, more = getattr(self, "_do_" + card)(s, seat, action)
        # After an Explore the turn always waits for the explorer (declare or end the
        # turn), whatever was found: passing on at once would tell the table it was
        # not Atlantis.
        return self._spend(s, seat, events + more, hold=card == "explore")

    # start of game -----------------------------------------------------------------------
    def _choose_captain(self, state, seat, a: ChooseCaptain):
        if a.captain not in state.offers[seat]:
            raise IllegalAction("Keep one of the two captains you were dealt.")
        s = replace(state, captain=put(state.captain, seat, a.captain), offers=put(state.offers, seat, ()))
        ev = [Event("captain_kept", {"seat": seat}),
              Event("your_captain", {"seat": seat, "captain": a.captain}, to=(seat,))]
        nxt = (seat + 1) % state.players
        if nxt == state.first:
            return replace(s, phase="first_move", turn=nxt), ev + [Event("dive", {"seat": nxt})]
        return replace(s, turn=nxt), ev

    def _first_move(self, state, seat, a: FirstMove):
        if not 0 <= a.dir < 8:
            raise IllegalAction("Pick one of the 8 compass directions.")
        s, ev = self._move(state, seat, a.dir, 1, public_dir=False, label="first")
        ev = [Event("first_move", {"seat": seat})] + ev
        nxt = (seat + 1) % state.players
        if nxt == state.first:
            s = replace(s, phase="play", turn=nxt, actions_left=D.ACTIONS_PER_TURN)
            return s, ev + [Event("turn", {"seat": nxt, "actions": D.ACTIONS_PER_TURN})]
        return replace(s, turn=nxt), ev

    # cards --------------------------------------------------------------------------------
    def _play_card(self, state, seat, card: str, dir: int) -> FAState:
        hand = list(state.hands[seat])
        hand.remove(card)
        changes: dict[str, Any] = dict(hands=put(state.hands, seat, tuple(hand)),
                                       played=put(state.played, seat, state.played[seat] + ((card, dir),)))
        if card == "captain" and not state.captain_shown[seat]:
            changes["captain_shown"] = put(state.captain_shown, seat, True)
        return replace(state, **changes)

    def _spend(self, s: FAState, seat: int, events: list[Event], free: bool = False, hold: bool = False):
        if s.phase == "over":
            return s, events
        left = s.actions_left - (0 if free else 1)
        if left <= 0 and not hold:
            s2, more = self._end_turn(s)  # sets the next seat's actions
            return s2, events + more
        if not free:
            s = replace(s, actions_left=left)
        return s, events

    def _note(self, s: FAState, seat: int, facts: list[tuple[int, int, int]], clear: int = 0) -> FAState:
        """Write results (dr, dc, fact bits) relative to the seat's own position on its
        chart, or keep them aside (relative to the landing space) while it is lost.
        ``clear`` bits are removed first (a Periscope's fresh look replaces the old)."""
        if s.lost[seat]:
            dr0, dc0 = s.lost_disp[seat]
            obs = s.lost_obs[seat] + tuple((dr + dr0, dc + dc0, f) for dr, dc, f in facts)
            return replace(s, lost_obs=put(s.lost_obs, seat, obs))
        n, w = s.n, s.n + 2
        r, c = divmod(s.pos[seat], n)
        chart = list(s.charts[seat])
        for dr, dc, f in facts:
            rr, cc = r + 1 + dr, c + 1 + dc
            if 0 <= rr < w and 0 <= cc < w:
                x = rr * w + cc
                chart[x] = (chart[x] & ~clear) | f
        return replace(s, charts=put(s.charts, seat, tuple(chart)))

    def _terrain_at(self, s: FAState, seat: int, dr: int, dc: int) -> int | None:
        n, w = s.n, s.n + 2
        r, c = divmod(s.pos[seat], n)
        rr, cc = r + 1 + dr, c + 1 + dc
        if 0 <= rr < w and 0 <= cc < w:
            return s.terrain[rr * w + cc]
        return None

    def _result(self, seat: int, what: str, cells: list[tuple[int, int, int]], **extra: Any) -> Event:
        return Event("result", {"seat": seat, "what": what, "cells": tuple(cells), **extra}, to=(seat,))

    def _do_sonar(self, s, seat, a):
        facts = []
        for dr, dc in D.DIRS:
            t = self._terrain_at(s, seat, dr, dc)
            facts.append((dr, dc, D.DEEP_F if t == D.DEEP else D.SEA))
        return self._note(s, seat, facts), [self._result(seat, "sonar", facts)]

    def _rod_fact(self, s, seat, dr, dc) -> int:
        t = self._terrain_at(s, seat, dr, dc)
        trace = t is not None and t >= D.ARTIFACT
        if s.pirate:
            cell = step_rel(s.n, s.pos[seat], dr, dc)
            mine = cell >= 0 and cell in s.mines
            return D.ROD if trace or mine else D.NOTRACE
        return D.TRACE if trace else D.NOTRACE

    def _do_rod(self, s, seat, a: JellyRod):
        if not 0 <= a.axis < 4:
            raise IllegalAction("Pick one of the 4 axes.")
        facts = [(D.DIRS[d][0], D.DIRS[d][1], self._rod_fact(s, seat, *D.DIRS[d])) for d in D.AXES[a.axis]]
        return self._note(s, seat, facts), [self._result(seat, "rod", facts, axis=a.axis)]

    def _do_explore(self, s, seat, a):
        t = s.terrain[world_of(s.n, s.pos[seat])]
        facts = [(0, 0, explore_facts(t))]
        s = self._note(s, seat, facts)
        events = [self._result(seat, "explore", facts)]
        here = s.pos[seat]
        if t == D.ARTIFACT and here not in s.taken and s.deck:
            card = s.deck[0]
            s = replace(s, deck=s.deck[1:], taken=tuple(sorted(s.taken + (here,))),
                        arts=put(s.arts, seat, s.arts[seat] + ((card, here),)))
            events.append(Event("artifact_drawn", {"seat": seat}))
            events.append(Event("artifact_card", {"seat": seat, "artifact": card}, to=(seat,)))
        elif t == D.ARTIFACT:
            events.append(Event("artifact_gone", {"seat": seat}, to=(seat,)))
        if t == D.ATLANTIS:
            s = replace(s, may_declare=put(s.may_declare, seat, True), picks=put(s.picks, seat, ()))
        return s, events

    def _do_silent(self, s, seat, a: Silent):
        _check_dir(a.dir)
        return self._move(s, seat, a.dir, 1, public_dir=False, label="silent")

    def _do_long(self, s, seat, a: LongSilent):
        _check_dir(a.dir)
        return self._move(s, seat, a.dir, 2, public_dir=False, label="long")

    def _do_surface(self, s, seat, a):
        s = self._refill(s, seat)
        s, ev = self._regain(s, seat)
        where = s.pos[seat]
        s = replace(s, surfaced=put(s.surfaced, seat, where), trail=put(s.trail, seat, ()))
        return s, ev + [Event("surfaced", {"seat": seat, "cell": where, "n": s.n})]

    def _do_periscope(self, s, seat, a):
        facts = []
        for dr, dc in D.DIRS:
            cell = step_rel(s.n, s.pos[seat], dr, dc)
            danger = cell >= 0 and (cell in s.monsters or cell in s.mines)
            facts.append((dr, dc, D.DANGER if danger else 0))
        return (self._note(s, seat, facts, clear=D.DANGER),
                [self._result(seat, "periscope", facts)])

    def _do_mine(self, s, seat, a: DropMine):
        _check_dir(a.dir)
        s = replace(s, mines=put(s.mines, seat, s.pos[seat]))
        s, ev = self._move(s, seat, a.dir, 1, public_dir=False, label="mine")
        return s, [Event("mine_dropped", {"seat": seat})] + ev

    def _burn(self, state, seat, a: Burn):
        _check_dir(a.dir)
        if a.card not in state.hands[seat]:
            raise IllegalAction("You can only burn a card in your hand.")
        if not _burnable(a.card):
            raise IllegalAction("The Surface card cannot be burnt.")
        s = self._play_card(state, seat, a.card, a.dir)
        data = {"seat": seat, "card": a.card, "dir": a.dir}
        if a.card == "captain":
            data["captain"] = state.captain[seat]
        events = [Event("burnt", data)]
        s, more = self._move(s, seat, a.dir, 1, public_dir=True, label="burn")
        return self._spend(s, seat, events + more)

    # moving ---------------------------------------------------------------------------------
    def _move(self, s: FAState, seat: int, d: int, steps: int, public_dir: bool, label: str):
        """Move ``steps`` spaces; stop at the edge, a sea monster or another's mine."""
        events: list[Event] = []
        pos = s.pos[seat]
        moved = 0
        stop = ""
        for _ in range(steps):
            nxt = step(s.n, pos, d)
            if nxt < 0:
                stop = "edge"
                break
            if nxt in s.monsters:
                stop = "monster"
                events.append(Event("monster_attack", {"seat": seat, "monster": nxt, "n": s.n}))
                break
            pos = nxt
            moved += 1
            owner = next((o for o in range(s.players) if o != seat and s.mines[o] == nxt), -1)
            if owner >= 0:
                stop = "mine"
                break
        dr, dc = D.DIRS[d]
        changes: dict[str, Any] = dict(pos=put(s.pos, seat, pos))
        if s.lost[seat]:
            r0, c0 = s.lost_disp[seat]
            changes["lost_disp"] = put(s.lost_disp, seat, (r0 + dr * moved, c0 + dc * moved))
        tag = f"{label}:{D.DIR_SHORT[d]}" if public_dir else label
        changes["trail"] = put(s.trail, seat, s.trail[seat] + (tag,))
        s = replace(s, **changes)
        events.insert(0, Event("moved", {"seat": seat, "steps": moved, "of": steps, "dir": d,
                                         "stop": stop if stop != "monster" else "monster"}, to=(seat,)))
        if stop == "monster":
            s = self._lose_action(s, seat)
        elif stop == "mine":
            s, more = self._mine_hit(s, seat, owner)
            events += more
        return s, events

    def _lose_action(self, s: FAState, seat: int) -> FAState:
        if s.turn == seat and s.phase == "play" and s.actions_left > 1:
            return replace(s, actions_left=s.actions_left - 1)
        return replace(s, skip=put(s.skip, seat, s.skip[seat] + 1))

    def _mine_hit(self, s: FAState, seat: int, owner: int):
        events = [Event("mine_hit", {"seat": seat, "owner": owner})]
        s = replace(s, mines=put(s.mines, owner, -1))
        if s.arts[seat]:
            i, rng = s.rng.below(len(s.arts[seat]))
            card = s.arts[seat][i]
            arts = put(s.arts, seat, s.arts[seat][:i] + s.arts[seat][i + 1:])
            arts = put(arts, owner, arts[owner] + (card,))
            s = replace(s, arts=arts, rng=rng)
            events.append(Event("mine_artifact", {"seat": seat, "owner": owner}))
            events.append(Event("mine_artifact_card", {"seat": seat, "owner": owner, "artifact": card[0]},
                                to=(seat, owner)))
            return s, events
        lost = []
        for _ in range(D.MINE_DISCARDS):
            s, card = self._discard_random(s, seat)
            if card:
                lost.append(card)
        events.append(Event("mine_cards", {"seat": seat, "cards": tuple(lost)}))
        return s, events

    def _discard_random(self, s: FAState, seat: int) -> tuple[FAState, str]:
        options = [i for i, c in enumerate(s.hands[seat]) if c != "surface" and c != "captain"]
        if not options:
            return s, ""
        j, rng = s.rng.below(len(options))
        card = s.hands[seat][options[j]]
        s = replace(s, rng=rng)
        return self._play_card(s, seat, card, -1), card

    def _refill(self, s: FAState, seat: int) -> FAState:
        return replace(s, hands=put(s.hands, seat, hand_for(s.pirate)), played=put(s.played, seat, ()))

    def _regain(self, s: FAState, seat: int) -> tuple[FAState, list[Event]]:
        """The seat learns where it is; notes taken while lost go onto its chart."""
        if not s.lost[seat]:
            return s, []
        dr0, dc0 = s.lost_disp[seat]
        r, c = divmod(s.pos[seat], s.n)
        origin_r, origin_c = r - dr0, c - dc0
        w = s.n + 2
        chart = list(s.charts[seat])
        for dr, dc, f in s.lost_obs[seat]:
            rr, cc = origin_r + 1 + dr, origin_c + 1 + dc
            if 0 <= rr < w and 0 <= cc < w:
                chart[rr * w + cc] |= f
        s = replace(s, lost=put(s.lost, seat, False), lost_obs=put(s.lost_obs, seat, ()),
                    lost_disp=put(s.lost_disp, seat, (0, 0)), charts=put(s.charts, seat, tuple(chart)))
        return s, [Event("found_self", {"seat": seat, "cell": s.pos[seat], "n": s.n}, to=(seat,))]

    # declaring ---------------------------------------------------------------------------
    def _pick(self, s: FAState, seat: int, a: PickCell):
        if not s.may_declare[seat]:
            raise IllegalAction("You can declare Atlantis only right after exploring an Atlantis space.")
        if not 0 <= a.cell < s.n * s.n:
            raise IllegalAction("That space is not on the map.")
        picks = s.picks[seat]
        picks = tuple(c for c in picks if c != a.cell) if a.cell in picks else tuple(sorted(picks + (a.cell,)))
        if len(picks) > s.k:
            raise IllegalAction(f"Atlantis has {s.k} spaces; unpick one first.")
        return replace(s, picks=put(s.picks, seat, picks)), []

    def _declare(self, s: FAState, seat: int):
        if not s.may_declare[seat]:
            raise IllegalAction("You can declare Atlantis only right after exploring an Atlantis space.")
        picks = s.picks[seat]
        if len(picks) != s.k:
            raise IllegalAction(f"Pick exactly {s.k} spaces ({len(picks)} picked).")
        atl = tuple(sorted(inner_of(s.n, x) for x, t in enumerate(s.terrain) if t == D.ATLANTIS))
        s = replace(s, may_declare=put(s.may_declare, seat, False), picks=put(s.picks, seat, ()))
        if picks == atl:
            ev = [Event("declared", {"seat": seat, "cells": picks, "correct": True, "n": s.n})]
            return replace(s, phase="over", winners=(seat,), end_reason="found Atlantis"), ev
        ev = [Event("declared", {"seat": seat, "cells": picks, "correct": False, "n": s.n})]
        cell, rng = s.rng.below(s.n * s.n)
        s = replace(s, rng=rng, pos=put(s.pos, seat, cell), lost=put(s.lost, seat, True),
                    lost_obs=put(s.lost_obs, seat, ()), lost_disp=put(s.lost_disp, seat, (0, 0)),
                    failed=s.failed + ((seat, picks),), trail=put(s.trail, seat, ("teleport",)))
        ev.append(Event("teleported", {"seat": seat}))
        return self._spend(s, seat, ev, free=True)

    # turns -----------------------------------------------------------------------------------
    def _end_turn(self, s: FAState):
        events: list[Event] = []
        seat = s.turn
        if s.may_declare[seat] or s.picks[seat]:
            s = replace(s, may_declare=put(s.may_declare, seat, False), picks=put(s.picks, seat, ()))
        for _ in range(2 * s.players + 1):
            nxt = (s.turn + 1) % s.players
            rnd = s.round
            if nxt == s.first:
                if s.round >= s.max_rounds:
                    events.append(Event("round_limit", {"rounds": s.round}))
                    return replace(s, phase="over", winners=(), actions_left=0,
                                   end_reason=f"nobody found Atlantis in {s.round} rounds"), events
                rnd += 1
                if s.roaming and s.monsters:
                    s, more = self._roam(s)
                    events += more
            actions = D.ACTIONS_PER_TURN - s.skip[nxt]
            skip = s.skip if s.skip[nxt] == 0 else put(s.skip, nxt, max(0, -actions))
            s = replace(s, turn=nxt, skip=skip, actions_left=max(0, actions), round=rnd)
            if actions > 0:
                events.append(Event("turn", {"seat": nxt, "actions": actions}))
                return s, events
            events.append(Event("turn_lost", {"seat": nxt}))
        return s, events

    def _roam(self, s: FAState):
        monsters = []
        rng = s.rng
        for m in s.monsters:
            options = [c for c in (step(s.n, m, d) for d in range(8)) if c >= 0]
            c, rng = rng.choice(options)
            monsters.append(c)
        return replace(s, monsters=tuple(monsters), rng=rng), [Event("monsters_roam", {"cells": tuple(monsters), "n": s.n})]

    # captains ---------------------------------------------------------------------------------
    def _captain(self, state, seat, a: UseCaptain):
        if "captain" not in state.hands[seat]:
            raise IllegalAction("Your captain is spent: surface to take the card back.")
        cap = state.captain[seat]
        s = self._play_card(state, seat, "captain", -1)
        events = [Event("played", {"seat": seat, "card": "captain", "captain": cap})]
        s, more = getattr(self, "_cap_" + cap)(s, seat, a)
        return self._spend(s, seat, events + more)

    def _ray(self, s, seat, d) -> list[tuple[int, int, int]]:
        """Along direction d from the seat: no trace up to the nearest trace (inclusive)."""
        facts = []
        dr, dc = D.DIRS[d]
        i = 1
        while True:
            cell = step_rel(s.n, s.pos[seat], dr * i, dc * i)
            if cell < 0:
                return facts
            if s.terrain[world_of(s.n, cell)] >= D.ARTIFACT:
                facts.append((dr * i, dc * i, D.TRACE))
                return facts
            facts.append((dr * i, dc * i, D.NOTRACE))
            i += 1

    def _cap_navy(self, s, seat, a: UseCaptain):
        if not 0 <= a.arg < 4:
            raise IllegalAction("Pick one of the 4 axes.")
        facts, dists = [], []
        for d in D.AXES[a.arg]:
            ray = self._ray(s, seat, d)
            facts += ray
            dists.append(len(ray) if ray and ray[-1][2] == D.TRACE else 0)
        return self._note(s, seat, facts), [self._result(seat, "navy", facts, axis=a.arg, dists=tuple(dists))]

    def _cap_geologist(self, s, seat, a):
        facts = []
        for d in D.ORTHO:
            dr, dc = D.DIRS[d]
            t = self._terrain_at(s, seat, 2 * dr, 2 * dc)
            if t is not None:
                facts.append((2 * dr, 2 * dc, D.DEEP_F if t == D.DEEP else D.SEA))
        return self._note(s, seat, facts), [self._result(seat, "geologist", facts)]

    def _cap_diver(self, s, seat, a: UseCaptain):
        _check_dir(a.arg)
        dr, dc = D.DIRS[a.arg]
        t = self._terrain_at(s, seat, dr, dc)
        facts = [(dr, dc, explore_facts(t) if inner_ok(s.n, s.pos[seat], dr, dc) else D.NOTRACE | (
            D.DEEP_F if t == D.DEEP else D.SEA))]
        return self._note(s, seat, facts), [self._result(seat, "diver", facts)]

    def _cap_racer(self, s, seat, a: UseCaptain):
        _check_dir(a.arg)
        if not 1 <= a.steps <= 3:
            raise IllegalAction("The Speed Captain moves 1 to 3 spaces.")
        return self._move(s, seat, a.arg, a.steps, public_dir=False, label="racer")

    def _cap_listener(self, s, seat, a):
        r, c = divmod(s.pos[seat], s.n)
        best = None
        for o in range(s.players):
            if o != seat:
                ro, co = divmod(s.pos[o], s.n)
                dist = max(abs(ro - r), abs(co - c))
                best = dist if best is None else min(best, dist)
        return s, [self._result(seat, "listener", [], distance=best)]

    def _target(self, s, seat, target: int) -> int:
        if not 0 <= target < s.players or target == seat:
            raise IllegalAction("Choose another player.")
        return target

    def _cap_saboteur(self, s, seat, a: UseCaptain):
        t = self._target(s, seat, a.arg)
        return replace(s, skip=put(s.skip, t, min(D.ACTIONS_PER_TURN, s.skip[t] + 1))), [
            Event("sabotaged", {"seat": seat, "target": t})]

    def _cap_spotter(self, s, seat, a: UseCaptain):
        t = self._target(s, seat, a.arg)
        return s, [self._result(seat, "spotter", [], target=t, cell=s.pos[t], n=s.n)]

    def _cap_quartermaster(self, s, seat, a):
        back = [c for c, _ in s.played[seat] if c != "captain"][-2:]
        played = list(s.played[seat])
        for card in back:
            i = max(j for j, (c, _) in enumerate(played) if c == card)
            played.pop(i)
        hand = tuple(c for c in hand_for(s.pirate) if c in s.hands[seat] or c in back)
        return replace(s, hands=put(s.hands, seat, hand), played=put(s.played, seat, tuple(played))), [
            Event("took_back", {"seat": seat, "cards": tuple(back)})]

    # artifacts ----------------------------------------------------------------------------------
    def _artifact(self, state, seat, a: UseArtifact):
        held = [x for x, _ in state.arts[seat]]
        if a.artifact not in held:
            raise IllegalAction("You do not hold that artifact.")
        name, _, free, _ = D.ARTIFACTS[a.artifact]
        if not free and state.actions_left <= 0:
            raise IllegalAction("You have no actions left this turn.")
        i = held.index(a.artifact)
        found = state.arts[seat][i][1]
        s = replace(state, arts=put(state.arts, seat, state.arts[seat][:i] + state.arts[seat][i + 1:]),
                    used=put(state.used, seat, state.used[seat] + (a.artifact,)))
        events = [Event("artifact_used", {"seat": seat, "artifact": a.artifact})]
        s, more = getattr(self, "_art_" + a.artifact)(s, seat, a)
        events += more
        if found not in s.monsters:
            s = replace(s, monsters=s.monsters + (found,))
            events.append(Event("monster_woke", {"cell": found, "n": s.n}))
        return self._spend(s, seat, events, free=free)

    def _art_seed(self, s, seat, a):
        return self._refill(s, seat), []

    def _art_trident(self, s, seat, a):
        facts = [(dr, dc, self._rod_fact(s, seat, dr, dc)) for dr, dc in D.DIRS]
        return self._note(s, seat, facts), [self._result(seat, "trident", facts)]

    def _art_orb(self, s, seat, a):
        facts = []
        for dr, dc in D.DIRS:
            t = self._terrain_at(s, seat, dr, dc)
            facts.append((dr, dc, explore_facts(t) if inner_ok(s.n, s.pos[seat], dr, dc)
                          else D.NOTRACE | (D.DEEP_F if t == D.DEEP else D.SEA)))
        return self._note(s, seat, facts), [self._result(seat, "orb", facts)]

    def _art_compass(self, s, seat, a):
        s, ev = self._regain(s, seat)
        return s, ev + [self._result(seat, "compass", [], cell=s.pos[seat], n=s.n)]

    def _art_pearl(self, s, seat, a: UseArtifact):
        _check_dir(a.arg)
        return self._move(s, seat, a.arg, 1, public_dir=False, label="pearl")

    def _art_conch(self, s, seat, a):
        cells = tuple((o, s.pos[o]) for o in range(s.players) if o != seat)
        return s, [self._result(seat, "conch", [], subs=cells, n=s.n)]

    def _art_whirlpool(self, s, seat, a: UseArtifact):
        t = self._target(s, seat, a.arg)
        _check_dir(a.dir)
        ev = [Event("whirlpool", {"seat": seat, "target": t, "dir": a.dir})]
        s2, more = self._move(s, t, a.dir, 1, public_dir=True, label="pushed")
        return s2, ev + more

    def _art_siren(self, s, seat, a: UseArtifact):
        t = self._target(s, seat, a.arg)
        s, card = self._discard_random(s, t)
        return s, [Event("siren", {"seat": seat, "target": t, "card": card})]

    def _art_fragment(self, s, seat, a: UseArtifact):
        if not 0 <= a.arg < s.n * s.n:
            raise IllegalAction("Choose a space on the map.")
        x = world_of(s.n, a.arg)
        f = explore_facts(s.terrain[x])
        chart = list(s.charts[seat])
        chart[x] |= f
        s = replace(s, charts=put(s.charts, seat, tuple(chart)))
        return s, [self._result(seat, "fragment", [], cell=a.arg, facts=f, n=s.n)]

    def _art_beacon(self, s, seat, a: UseArtifact):
        if not 0 <= a.arg < s.n * s.n:
            raise IllegalAction("Choose a space on the map.")
        s = replace(s, pos=put(s.pos, seat, a.arg), lost=put(s.lost, seat, False),
                    lost_obs=put(s.lost_obs, seat, ()), lost_disp=put(s.lost_disp, seat, (0, 0)),
                    trail=put(s.trail, seat, s.trail[seat] + ("beacon",)))
        return s, [Event("moved", {"seat": seat, "steps": 0, "of": 0, "dir": -1, "stop": "", "to": a.arg, "n": s.n},
                         to=(seat,))]

    # --- undo, leaks, bots, text ------------------------------------------------------------
    def undo_barrier(self, before, after, seat, action) -> str | None:
        if before.rng != after.rng:
            return "it used the game's dice"
        if type(action) in (ChooseCaptain, PickCell):
            return None
        if type(action) in (Silent, LongSilent, FirstMove):
            return "the move may have been stopped by something you could not see"
        return "it told you something new"

    def rerandomise(self, state: FAState, seat: int, rng: Rng) -> FAState:
        from .secrets import rerandomise

        return rerandomise(state, seat, rng)


# --- helpers shared with legal() ---------------------------------------------------------
def _check_dir(d: int) -> None:
    if not 0 <= d < 8:
        raise IllegalAction("Pick one of the 8 compass directions.")


def step_rel(n: int, cell: int, dr: int, dc: int) -> int:
    r, c = divmod(cell, n)
    r, c = r + dr, c + dc
    return r * n + c if 0 <= r < n and 0 <= c < n else -1


def inner_ok(n: int, cell: int, dr: int, dc: int) -> bool:
    return step_rel(n, cell, dr, dc) >= 0


_DIR_ACTIONS = {cls: tuple(cls(d) for d in range(8)) for cls in (Silent, LongSilent, DropMine)}
_CARD_ACTIONS = {
    "sonar": (Sonar(),), "rod": tuple(JellyRod(a) for a in range(4)), "explore": (Explore(),),
    "surface": (Surface(),), "periscope": (Periscope(),), "silent": _DIR_ACTIONS[Silent],
    "long": _DIR_ACTIONS[LongSilent], "mine": _DIR_ACTIONS[DropMine],
}


_BURNS = {card: tuple(Burn(card, d) for d in range(8)) for card in D.CARDS}


def card_actions(card: str) -> list[Any]:
    return list(_CARD_ACTIONS[card])


def captain_actions(view: FAView, cap: str) -> list[Any]:
    kind = D.CAPTAINS[cap][2]
    if kind == "axis":
        return [UseCaptain(a) for a in range(4)]
    if kind == "dir":
        return [UseCaptain(d) for d in range(8)]
    if kind == "dir_steps":
        return [UseCaptain(d, k) for d in range(8) for k in (1, 2, 3)]
    if kind == "seat":
        return [UseCaptain(o) for o in range(view.players) if o != view.seat]
    return [UseCaptain()]


def artifact_actions(view: FAView, art: str) -> list[Any]:
    kind = D.ARTIFACTS[art][3]
    if kind == "dir":
        return [UseArtifact(art, d) for d in range(8)]
    if kind == "seat":
        return [UseArtifact(art, o) for o in range(view.players) if o != view.seat]
    if kind == "seat_dir":
        return [UseArtifact(art, o, d) for o in range(view.players) if o != view.seat for d in range(8)]
    if kind == "cell":
        return [UseArtifact(art, c) for c in range(view.n * view.n)]
    return [UseArtifact(art)]
