"""A new turn, and the Senate phase: everyone secretly chooses how many tokens to send
to the Senate pool; the bids are shown at once (through the views: the events of the
last bid carry no bid) and set the Senate order.  Family rules have no Senate phase;
after Chaos Spreads the turn goes straight to the voting cards.
"""

from __future__ import annotations

from ..components import put
from ..core import Event, replace
from . import data
from .actions import Bid
from .factions import begin_factions
from .state import EoaState, Stage, event_key
from .voting import begin_laying_cards


def start_turn(state: EoaState) -> tuple[EoaState, list[Event]]:
    """The last Event card sets this turn's kind of vote (the first turn's is printed)."""
    n = state.players
    turn = state.turn + 1
    key = event_key(state)
    vote_kind = data.EVENT_VOTE[state.event] if state.event >= 0 else data.FIRST_TURN_VOTE
    changes = dict(
        turn=turn, vote_cards=data.DOOMED_2P_CARDS if (n == 2 and key == "doomed") else data.VOTE_CARDS,
        vote_kind=vote_kind, demagogos_used=False, voting_cards=((),) * n, face_down=((),) * n,
        face_up=((),) * n, cards_revealed=False, tokens_on_cards=((),) * n, played=((),) * n,
        vote=-1, bids=(-1,) * n, demagogos_look=(), vote_winners=(), play_queue=(), effect=None)
    events = [Event("turn", {"turn": turn, "vote": vote_kind})]
    if key == "chaos":
        events.append(Event("chaos_skip", {"family": state.family}))
        state, more = begin_laying_cards(state, **changes)
        return state, events + more
    if state.family:
        state, more = begin_factions(state, **changes)
        return state, events + more
    return replace(state, stage=Stage.SENATE, **changes), events


def senate_bid(state: EoaState, seat: int, action: Bid) -> tuple[EoaState, list[Event]]:
    """Nothing moves until the last bid is in; then every bid goes to the pool at once."""
    events = [Event("bid", {"seat": seat, "stage": state.stage}),
              Event("my_bid", {"seat": seat, "n": action.tokens, "stage": state.stage}, to=(seat,))]
    bids = put(state.bids, seat, action.tokens)
    if -1 in bids:
        return replace(state, bids=bids), events
    events.append(Event("revealed", {"what": "senate"}))
    state, more = begin_factions(state, senate_pool=tuple(p + b for p, b in zip(state.senate_pool, bids)),
                                 screen=tuple(c - b for c, b in zip(state.screen, bids)),
                                 last_bids=bids, bids=(-1,) * state.players)
    return state, events + more
