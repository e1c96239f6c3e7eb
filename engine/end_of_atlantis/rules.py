"""End of Atlantis -- the rules, and the one place the rest of the program imports them from.

A turn has four phases: Senate (secret simultaneous bids into the Senate pool),
Factions (in Senate order take a Faction token or pass; passers take one free),
Voting (everyone lays 5 of 7 cards face down in order, all revealed at once, then
five votes, hidden or open; the top bidders play cards) and Doom (majorities, an
event, three ships sail, tokens come home).  The third Doom! card ends the game.

The package, one module per part:

* ``actions`` -- the actions and options (what enters from outside);
* ``state`` -- the state, the view, the stages, questions about the table;
* ``stages`` -- the stage table: who acts, what is legal, what each action does;
* ``senate``, ``factions``, ``voting``, ``doom`` -- the phases;
* ``effects`` -- Politics cards carried out, and the special cards riding on them;
* ``events`` -- Event cards, Doom! and the end of the game;
* ``ships``, ``cards`` -- refugees aboard and ships sailing; drawing cards.

Simultaneous secret choices: ``to_act`` holds every seat that still has to choose;
a pending bid or card order lives in the state and in its owner's view only.  The
action that completes a secret choice reveals it *through the views*: the events
it emits carry no secret (``revealed``), so no seat's events depend on what it
could not know before (tests/leakcheck.py).  For the same reason every card a
seat draws is drawn by that seat's own action (the hand is refilled to 7 as soon
as its voting cards are down), and decks are kept as sorted multisets drawn from
at random when a card is taken: the order of a face-down pile does not exist
until it is drawn.

Rules decisions where the texts are silent are listed in ``text.HELP``.
"""

from __future__ import annotations

from typing import Any

from ..components import Pile, redeal_hidden
from ..core import Event, Game, Result, replace
from ..options import lazy_model
from ..rng import Rng
from . import data
from .actions import (
    ACTIONS, CODEC, DECK_SLOT, Bid, Demagogos, Discard, Done, Faction, LayCard,
    Pass, Play, PlaySpecial, TakeSpecial, Target, UseAbility, board_order, parse_ships,
)
from .cards import POLITICS
from .doom import begin_doom, doom_movers
from .effects import card_feasible, effect_choices, play_choices
from .events import draw_event, end_bonus
from .factions import faction_cost
from .ships import arrival_scores
from .stages import (
    ACTORS as _ACTORS, CHOICES as _CHOICES, MAY_ACT as _MAY_ACT, STAGES, StageRule, actors, apply, choices,
    settle,
)
from .state import (
    PAID, SECRET_BID_STAGES, AbilityTurn, Effect, EffectStep, EoaState, EoaView, FactionTurn, Look, PeekedBid,
    Ship, Stage, aboard, free, make_view, marker_order, one_per_kind, senate_order,
)

__all__ = [
    "ACTIONS", "DECK_SLOT", "STAGES", "AbilityTurn", "Bid", "Demagogos", "Discard", "Done", "Effect",
    "EffectStep", "EndOfAtlantisGame", "EoaState", "EoaView", "Faction",
    "FactionTurn", "LayCard", "Look", "Pass", "PAID", "PeekedBid", "Play", "PlaySpecial", "Ship", "Stage",
    "StageRule", "TakeSpecial", "Target", "UseAbility", "aboard", "actors", "arrival_scores",
    "board_order", "card_feasible", "choices", "doom_movers", "doom_phase", "effect_choices",
    "end_bonus", "faction_cost", "free", "marker_order", "one_per_kind", "parse_ships",
    "play_choices", "senate_order",
]

SPECIALS = Pile("specials", order="random")  # dealt at setup
_OVER = Stage.OVER


def doom_phase(s: EoaState) -> tuple[EoaState, list[Event]]:
    """The Doom phase from here (and the start of the next turn, unless the game ends
    or We're All In This Together waits for the players)."""
    s, events = begin_doom(s)
    return settle(s, events)


class EndOfAtlantisGame(Game):
    slug = "end-of-atlantis"
    title = "End of Atlantis"
    # 3: actions renamed their fields (Target(ship, colour), Bid(tokens), LayCard(card,
    # face_down), ...), and chosen ships stand in board order whatever order they were listed in.
    rules_version = "end-of-atlantis-3"
    min_players = data.MIN_PLAYERS
    max_players = data.MAX_PLAYERS
    seat_names = ("Red", "Blue", "Green", "Yellow", "Purple")
    options_model = lazy_model("engine.end_of_atlantis.options:EndOfAtlantisOptions")
    # the model's defaults, as plain values (tests/test_registry.py checks)
    option_defaults = {"family": False, "chosen_ships": "", "revealed_events": False,
                       "revealed_specials": False, "aggressive_neutrals": False}
    codec = CODEC
    view_type = EoaView

    # --- setup ------------------------------------------------------------------------------
    def setup(self, options: Any, seats: int, seed: int) -> EoaState:
        o = self.parse_options(options)
        if not data.MIN_PLAYERS <= seats <= data.MAX_PLAYERS:
            raise ValueError(f"End of Atlantis takes 2-5 players, not {seats}")
        rng = Rng.from_seed(seed, "end-of-atlantis")
        chosen = parse_ships(o.chosen_ships)
        if chosen:
            tiles = chosen
        elif seats == 2:
            tiles = (data.SCIENCE, data.ROYAL_VESSEL, data.AIRSHIP, data.WARSHIP)
        else:
            tiles = tuple(range(5))
        ships, camp = _first_ships(tiles)
        deck, special_deck = tuple(range(len(data.CARD_KIND))), tuple(range(len(data.SPECIAL_KEY)))
        hands, specials = [], []
        for seat in range(seats):
            hand = POLITICS.draw(deck, (), data.HAND, rng, seat)
            deck, rng = hand.pile, hand.rng
            hands.append(tuple(sorted(hand.cards)))
            own = SPECIALS.draw(special_deck, (), data.START_SPECIALS, rng, seat)
            special_deck, rng = own.pile, own.rng
            specials.append(tuple(sorted(own.cards)))
        face_up: tuple = ()
        if o.revealed_specials:
            face = SPECIALS.draw(special_deck, (), data.FACE_UP_SPECIALS, rng, -1)
            face_up, special_deck, rng = face.cards, face.pile, face.rng
        spots, rng = rng.shuffled(range(len(data.FACTIONS)))
        markers = tuple(sorted(spots[:seats]))  # markers start on random spaces, kept in seat order
        order, rng = rng.shuffled(range(seats))
        markers = tuple(markers[order[p]] for p in range(seats))
        s = EoaState(
            players=seats, family=o.family, aggressive_neutrals=o.aggressive_neutrals,
            revealed_events=o.revealed_events, revealed_specials=o.revealed_specials,
            ships_chosen=bool(chosen), turn=0, stage=Stage.START, vp=(data.START_VP,) * seats,
            screen=(data.CUBES,) * seats, senate_pool=(0,) * seats, buildings=(0,) * seats,
            promised_land=(0,) * seats, promised_land_neutrals=0, camp=camp, ships=ships,
            hands=tuple(hands), deck=deck, discard=(), specials=tuple(specials),
            special_deck=special_deck, special_discard=(), face_up_specials=face_up,
            faction_holders=(-1,) * len(data.FACTIONS), plus_one=(False,) * len(data.FACTIONS),
            markers=markers, faction_order=(), faction_queue=(), faction_pos=0, faction_passers=(),
            favour_seat=-1, ability_queue=(), archont_discards=0, vote_cards=data.VOTE_CARDS,
            cards_to_lay=(0,) * seats, voting_cards=((),) * seats, face_down=((),) * seats,
            cards_revealed=False, face_up=((),) * seats, tokens_on_cards=((),) * seats,
            played=((),) * seats, vote=-1, vote_kind=data.FIRST_TURN_VOTE, bids=(-1,) * seats,
            demagogos_look=(), demagogos_used=False, open_bidders=(), vote_winners=(), play_queue=(),
            card_players=(), effect=None, last_bids=(), last_winners=(), last_refund=(), event=-1,
            other_events=data.OTHER_EVENTS, other_events_left=len(data.OTHER_EVENTS) - data.EVENTS_REMOVED,
            dooms_left=len(data.DOOM_EVENTS), top_event=-1, doom_markers=data.DOOM_MARKERS,
            together_queue=(), together_placed=(0,) * seats, game_winners=(), end_reason="", rng=rng,
        )
        if s.revealed_events:
            s, top = draw_event(s)
            s = replace(s, top_event=top)
        return settle(s, [])[0]

    # --- the contract -------------------------------------------------------------------------
    # ``view(state, seat)`` is ``make_view`` itself (no method frame in between: a view
    # is made for a seat after every move)
    view = staticmethod(make_view)

    def legal(self, view: EoaView) -> list[Any]:
        seat, stage = view.seat, view.stage  # ``stages.choices``, one call fewer a decision
        if seat is None or not _MAY_ACT[stage](view, seat):
            return []
        return _CHOICES[stage](view, seat)

    def to_act(self, state: EoaState) -> frozenset[int]:
        return _ACTORS[state.stage](state)

    def apply(self, state: EoaState, seat: int, action: Any) -> tuple[EoaState, list[Event]]:
        return apply(state, seat, action)

    def result(self, state: EoaState) -> Result | None:
        if state.stage != _OVER:
            return None
        return Result(tuple(float(v) for v in state.vp), state.game_winners, state.end_reason)

    # --- undo, leaks, text ----------------------------------------------------------------------
    def undo_barrier(self, before: EoaState, after: EoaState, seat: int, action: Any) -> str | None:
        if before.rng != after.rng:
            return "it drew cards or an event"
        if after.cards_revealed != before.cards_revealed or after.last_bids != before.last_bids \
                or after.senate_pool != before.senate_pool or after.stage != before.stage:
            return "it revealed everyone's choices or moved the game on"
        if type(action) in (Play, Target, Done, Faction, PlaySpecial, Discard):
            return "everyone has seen it"
        return None

    def rerandomise(self, s: EoaState, seat: int, rng: Rng) -> EoaState:
        """Re-draw what ``seat`` cannot see: other hands and face-down voting cards, the
        Politics deck, other seats' special cards (with the special deck unless its
        cards are turned face up, which would reveal the deck's make-up), bids that
        are not yet revealed (except one the Demagogos looked at), and which of another
        seat's unrevealed cards the Oraklos keeps face down."""
        n = s.players
        # the face-down voting cards of the others join their hands in the re-deal
        slots = [[i for i in range(len(s.voting_cards[p])) if not (s.cards_revealed and s.face_up[p][i])]
                 if p != seat else [] for p in range(n)]
        rows_hidden = [tuple(s.voting_cards[p][i] for i in slots[p]) for p in range(n)]
        dealt, deck, rng = redeal_hidden(list(s.hands) + rows_hidden, s.deck, seat, rng)
        hands = tuple(h if p == seat else tuple(sorted(h)) for p, h in enumerate(dealt[:n]))
        rows = list(s.voting_cards)
        for p in range(n):
            if slots[p]:
                row = list(rows[p])
                for i, c in zip(slots[p], dealt[n + p]):
                    row[i] = c
                rows[p] = tuple(row)
        over = s.stage == Stage.OVER
        groups = ((),) * n if over else s.specials
        pile = () if s.revealed_specials else s.special_deck
        specials, special_deck, rng = redeal_hidden(groups, pile, seat, rng, keep_sorted=True)
        changes: dict[str, Any] = dict(
            hands=hands, voting_cards=tuple(rows), deck=tuple(sorted(deck)),
            specials=s.specials if over else specials,
            special_deck=s.special_deck if s.revealed_specials else special_deck)
        if s.stage in SECRET_BID_STAGES:
            bids = list(s.bids)
            look = s.demagogos_look
            for p in range(n):
                known = look and look.seat == seat and look.target == p
                if p != seat and bids[p] >= 0 and not known:
                    bids[p], rng = rng.below(s.screen[p] + 1)
            changes["bids"] = tuple(bids)
        if not s.cards_revealed and s.stage == Stage.LAY_CARDS:
            o = s.faction_holders[data.ORAKLOS]
            if o >= 0 and o != seat and s.voting_cards[o]:
                picks, rng = rng.shuffled(range(len(s.voting_cards[o])))
                many, rng = rng.below(min(2, len(s.voting_cards[o])) + 1)
                changes["face_down"] = tuple(tuple(sorted(picks[:many])) if p == o else f
                                             for p, f in enumerate(s.face_down))
        return replace(s, **changes)


def _first_ships(tiles: tuple[int, ...]) -> tuple[tuple[Ship, ...], int]:
    """The ships in port, and the camp: two neutrals board the largest ship (ties to the
    left), and the advanced Ark carries one."""
    camp = data.NEUTRAL_TOKENS
    ships = [Ship(t, False, (0,) * data.COLOURS) for t in tiles]
    largest = max(range(len(ships)), key=lambda i: (data.capacity(ships[i].tile), -i))
    neutrals = min(data.START_NEUTRALS, data.capacity(ships[largest].tile))
    cubes = list(ships[largest].cubes)
    cubes[data.NEUTRAL] = neutrals
    camp -= neutrals
    ships[largest] = ships[largest]._replace(cubes=tuple(cubes))
    for i, sh in enumerate(ships):
        if sh.tile == data.ARK + data.ADVANCED and sh.cubes[data.NEUTRAL] == 0 and camp:
            cubes = list(sh.cubes)
            cubes[data.NEUTRAL] += 1
            ships[i] = sh._replace(cubes=tuple(cubes))
            camp -= 1
    return tuple(ships), camp
