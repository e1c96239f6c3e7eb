"""End of Atlantis -- the rules: the game, and its stage table.

A turn has four phases: Senate (secret simultaneous bids into the Senate pool),
Factions (in Senate order take a Faction token or pass; passers take one free),
Voting (everyone lays 5 of 7 cards face down in order, all revealed at once, then
five votes, hidden or open; the top bidders play cards) and Doom (majorities, an
event, three ships sail, tokens come home).  The third Doom! card ends the game.

The package, one module per part:

* ``actions`` -- the actions (what enters from outside), and the ships option parsed;
* ``state`` -- the state, the view, the stages, questions about the table;
* ``rules`` (this module) -- the game, and the stage table: who acts, what is legal,
  what each action does;
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

from functools import partial
from typing import Any, Callable

from ..components import Pile, redeal_hidden
from ..core import Event, Game, IllegalAction, Result, replace
from ..rng import Rng
from ..stages import GAME_OVER, Step, StageRule, nobody, nothing
from . import MANIFEST
from . import data, doom, effects, factions, senate, voting
from .actions import (
    CODEC, Bid, Demagogos, Discard, Done, Faction, LayCard, Pass, Play, PlaySpecial, TakeSpecial,
    Target, UseAbility, parse_ships,
)
from .cards import POLITICS
from .events import draw_event
from .options import EndOfAtlantisOptions
from .state import SECRET_BID_STAGES, EoaState, EoaView, Ship, Stage, make_view, row_lengths

Outcome = tuple[EoaState, list[Event]]


# --- the stage table ------------------------------------------------------------------------
# For every stage: who acts, what they may do, and what each action does (``engine.stages``).
# ``actors`` and ``choices`` read a seat's view, or the state standing in for it: ``actors``
# reads only public fields, so it gives the same seats on the state and on any seat's view
# (a simultaneous stage: everyone who has still to choose).  ``choices`` reads what the seat
# may know; on the state it reads the same fields through the seat's-eye accessors
# (``EoaState.hand_of`` ...), so ``apply`` checks an action against exactly the list the
# seat's screen offered.
#
# Stages nobody acts in (``START``, ``DOOM``, ``OVER``) have no actors; ``START`` is never
# left standing: ``settle`` begins the next turn.

_ONLY = {seat: frozenset((seat,)) for seat in range(-1, data.MAX_PLAYERS)}  # -1: a token nobody holds


def undecided_bidders(view: Any) -> frozenset[int]:
    return frozenset(p for p, bid in enumerate(view.bids) if bid == -1)  # a view shows others' as -2 or -1


def card_layers(view: Any) -> frozenset[int]:
    laid, need = row_lengths(view.voting_cards), view.cards_to_lay
    return frozenset(p for p in range(view.players) if laid[p] < need[p])


def faction_chooser(view: Any) -> frozenset[int]:
    return _ONLY[view.faction_queue[view.faction_pos].seat]


def ability_user(view: Any) -> frozenset[int]:
    return _ONLY[view.ability_queue[0].seat]


def demagogos_holder(view: Any) -> frozenset[int]:
    return _ONLY[view.faction_holders[data.DEMAGOGOS]]


def next_open_bidder(view: Any) -> frozenset[int]:
    return _ONLY[view.open_bidders[0]]


def next_card_player(view: Any) -> frozenset[int]:
    return _ONLY[view.play_queue[0]]


def next_placer(view: Any) -> frozenset[int]:
    return _ONLY[view.together_queue[0]]


def then_next_player(step: Callable[..., Outcome]) -> Step:
    """An effect step; once the card is carried out, the next winner plays."""
    return partial(step, then=voting.next_player)


START, OVER = Stage.START, Stage.OVER
BY_ITSELF = StageRule(nobody, nothing, {})

STAGES: dict[Stage, StageRule] = {
    Stage.SENATE: StageRule(undecided_bidders, voting.bid_choices, {Bid: senate.senate_bid}),
    Stage.FACTIONS: StageRule(faction_chooser, factions.faction_choices, {
        Faction: factions.take_faction, Pass: factions.pass_faction,
        PlaySpecial: factions.play_faction_special}),
    Stage.ABILITIES: StageRule(ability_user, factions.ability_choices, {
        UseAbility: factions.use_ability, Pass: factions.pass_ability, Target: factions.basileus,
        TakeSpecial: factions.demiurgos_take}),
    Stage.ARCHONT: StageRule(ability_user, factions.archont_choices, {Discard: factions.archont_discard}),
    Stage.LAY_CARDS: StageRule(card_layers, voting.lay_choices, {LayCard: voting.lay_card}),
    Stage.HIDDEN_VOTE: StageRule(undecided_bidders, voting.bid_choices, {Bid: voting.hidden_bid}),
    Stage.DEMAGOGOS_LOOK: StageRule(demagogos_holder, voting.look_choices, {
        Demagogos: voting.demagogos_look, Pass: voting.no_look}),
    Stage.DEMAGOGOS_REBID: StageRule(demagogos_holder, voting.bid_choices, {Bid: voting.rebid}),
    Stage.DEMAGOGOS_CALL: StageRule(demagogos_holder, voting.call_choices, {
        Demagogos: voting.demagogos_call, Pass: voting.no_call}),
    Stage.OPEN_VOTE: StageRule(next_open_bidder, voting.open_bid_choices, {Bid: voting.open_bid}),
    Stage.PLAY: StageRule(next_card_player, voting.play_stage_choices, {
        Play: then_next_player(effects.play), Pass: voting.pass_play,
        Target: then_next_player(effects.target), Done: then_next_player(effects.done),
        TakeSpecial: then_next_player(effects.take_special)}),
    Stage.TOGETHER: StageRule(next_placer, doom.together_choices, {
        Target: doom.together_place, Pass: doom.together_stop}),
    Stage.START: BY_ITSELF,
    Stage.DOOM: BY_ITSELF,
    Stage.OVER: GAME_OVER,
}
assert set(STAGES) == set(Stage), "every stage has a rule"


def actors(view: Any) -> frozenset[int]:
    """Who acts now (the same frozenset on the state and on every view)."""
    return STAGES[view.stage].actors(view)


def choices(view: Any, seat: int | None) -> list[Any]:
    """The legal actions of ``seat`` (nothing for a seat that is not to act)."""
    rule = STAGES[view.stage]
    if seat is None or seat not in rule.actors(view):
        return []
    return rule.choices(view, seat)


def offered(action: Any, options: list[Any]) -> bool:
    """``action in options``, trying identity first: the choices are made once
    (``actions.BIDS`` ...), a bot or a screen picks one of them, and comparing action
    values runs a Python ``__eq__`` per option."""
    for option in options:
        if option is action:
            return True
    return action in options


def settle(state: EoaState, events: list[Event]) -> Outcome:
    """Carry on through the stages that need nobody: the start of the next turn."""
    while state.stage == START:
        state, more = senate.start_turn(state)
        events += more
    return state, events


def refusal(state: EoaState, seat: int, action: Any) -> str:
    """Why ``action`` is not among ``seat``'s choices, in a sentence."""
    stage = state.stage
    kind = type(action)
    if kind is Bid:
        if stage in (Stage.SENATE, Stage.HIDDEN_VOTE, Stage.DEMAGOGOS_REBID, Stage.OPEN_VOTE):
            if action.tokens < 0 or action.tokens > state.screen[seat]:
                return f"You can bid 0 to {state.screen[seat]} tokens (what is behind your screen)."
            if stage == Stage.OPEN_VOTE:
                return "In an open vote your bid must differ from every other bid (0 passes)."
            return "You have already chosen your bid."
        return "There is nothing to bid on now."
    if kind is Faction:
        if stage != Stage.FACTIONS:
            return "Faction tokens are taken in the Factions phase."
        if not 0 <= action.faction < 7 or state.faction_holders[action.faction] >= 0:
            return "That Faction token is not available."
        return "You cannot pay for a Faction token now."
    if kind is LayCard:
        if stage != Stage.LAY_CARDS:
            return "Voting cards are laid out at the start of the Voting phase."
        if action.card not in state.hands[seat]:
            return "That card is not in your hand."
        return "Only the Oraklos may keep cards face down, at most 2."
    if kind is Play:
        return "You cannot play that card now: you must be able to apply it in full."
    if kind is Target:
        return "That is not a possible target now."
    return "That is not possible now."


SPECIALS = Pile("specials", order="random")  # dealt at setup


def doom_phase(state: EoaState) -> Outcome:
    """The Doom phase from here (and the start of the next turn, unless the game ends
    or We're All In This Together waits for the players)."""
    state, events = doom.begin_doom(state)
    return settle(state, events)


class EndOfAtlantisGame(Game):
    manifest = MANIFEST
    # 3: actions renamed their fields (Target(ship, colour), Bid(tokens), LayCard(card,
    # face_down), ...), and chosen ships stand in board order whatever order they were listed in.
    rules_version = "end-of-atlantis-3"
    options_model = EndOfAtlantisOptions
    codec = CODEC
    view_type = EoaView

    # --- setup ------------------------------------------------------------------------------
    def setup(self, options: Any, seats: int, seed: int) -> EoaState:
        opts = self.parse_options(options)
        if not data.MIN_PLAYERS <= seats <= data.MAX_PLAYERS:
            raise ValueError(f"End of Atlantis takes 2-5 players, not {seats}")
        rng = Rng.from_seed(seed, "end-of-atlantis")
        chosen = parse_ships(opts.chosen_ships)
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
        if opts.revealed_specials:
            face = SPECIALS.draw(special_deck, (), data.FACE_UP_SPECIALS, rng, -1)
            face_up, special_deck, rng = face.cards, face.pile, face.rng
        spots, rng = rng.shuffled(range(len(data.FACTIONS)))
        markers = tuple(sorted(spots[:seats]))  # markers start on random spaces, kept in seat order
        order, rng = rng.shuffled(range(seats))
        markers = tuple(markers[order[p]] for p in range(seats))
        state = EoaState(
            players=seats, family=opts.family, aggressive_neutrals=opts.aggressive_neutrals,
            revealed_events=opts.revealed_events, revealed_specials=opts.revealed_specials,
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
        if state.revealed_events:
            state, top = draw_event(state)
            state = replace(state, top_event=top)
        return settle(state, [])[0]

    # --- the contract -------------------------------------------------------------------------
    view = staticmethod(make_view)

    def legal(self, view: EoaView) -> list[Any]:
        return choices(view, view.seat)

    def to_act(self, state: EoaState) -> frozenset[int]:
        return actors(state)

    def apply(self, state: EoaState, seat: int, action: Any) -> Outcome:
        rule = STAGES[state.stage]
        if seat not in rule.actors(state):
            raise IllegalAction("The game is over." if state.stage == OVER else "It is not your turn to choose.")
        if not offered(action, rule.choices(state, seat)):
            raise IllegalAction(refusal(state, seat, action))
        after, events = rule.step(action)(state, seat, action)
        return settle(after, events)

    def result(self, state: EoaState) -> Result | None:
        if state.stage != OVER:
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

    def rerandomise(self, state: EoaState, seat: int, rng: Rng) -> EoaState:
        """Re-draw what ``seat`` cannot see: other hands and face-down voting cards, the
        Politics deck, other seats' special cards (with the special deck unless its
        cards are turned face up, which would reveal the deck's make-up), bids that
        are not yet revealed (except one the Demagogos looked at), and which of another
        seat's unrevealed cards the Oraklos keeps face down."""
        n = state.players
        # the face-down voting cards of the others join their hands in the re-deal
        slots = [[i for i in range(len(state.voting_cards[p])) if not (state.cards_revealed and state.face_up[p][i])]
                 if p != seat else [] for p in range(n)]
        rows_hidden = [tuple(state.voting_cards[p][i] for i in slots[p]) for p in range(n)]
        dealt, deck, rng = redeal_hidden(list(state.hands) + rows_hidden, state.deck, seat, rng)
        hands = tuple(h if p == seat else tuple(sorted(h)) for p, h in enumerate(dealt[:n]))
        rows = list(state.voting_cards)
        for p in range(n):
            if slots[p]:
                row = list(rows[p])
                for i, c in zip(slots[p], dealt[n + p]):
                    row[i] = c
                rows[p] = tuple(row)
        over = state.stage == Stage.OVER
        groups = ((),) * n if over else state.specials
        pile = () if state.revealed_specials else state.special_deck
        specials, special_deck, rng = redeal_hidden(groups, pile, seat, rng, keep_sorted=True)
        changes: dict[str, Any] = dict(
            hands=hands, voting_cards=tuple(rows), deck=tuple(sorted(deck)),
            specials=state.specials if over else specials,
            special_deck=state.special_deck if state.revealed_specials else special_deck)
        if state.stage in SECRET_BID_STAGES:
            bids = list(state.bids)
            look = state.demagogos_look
            for p in range(n):
                known = look and look.seat == seat and look.target == p
                if p != seat and bids[p] >= 0 and not known:
                    bids[p], rng = rng.below(state.screen[p] + 1)
            changes["bids"] = tuple(bids)
        if not state.cards_revealed and state.stage == Stage.LAY_CARDS:
            oraklos = state.faction_holders[data.ORAKLOS]
            if oraklos >= 0 and oraklos != seat and state.voting_cards[oraklos]:
                picks, rng = rng.shuffled(range(len(state.voting_cards[oraklos])))
                many, rng = rng.below(min(2, len(state.voting_cards[oraklos])) + 1)
                changes["face_down"] = tuple(tuple(sorted(picks[:many])) if p == oraklos else f
                                             for p, f in enumerate(state.face_down))
        return replace(state, **changes)


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
