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


def start_turn(s: EoaState) -> tuple[EoaState, list[Event]]:
    """The last Event card sets this turn's kind of vote (the first turn's is printed)."""
    n = s.players
    turn = s.turn + 1
    key = event_key(s)
    vote_kind = data.EVENT_VOTE[s.event] if s.event >= 0 else data.FIRST_TURN_VOTE
    changes = dict(
        turn=turn, vote_cards=data.DOOMED_2P_CARDS if (n == 2 and key == "doomed") else data.VOTE_CARDS,
        vote_kind=vote_kind, demagogos_used=False, voting_cards=((),) * n, face_down=((),) * n,
        face_up=((),) * n, cards_revealed=False, tokens_on_cards=((),) * n, played=((),) * n,
        vote=-1, bids=(-1,) * n, demagogos_look=(), vote_winners=(), play_queue=(), effect=None)
    events = [Event("turn", {"turn": turn, "vote": vote_kind})]
    if key == "chaos":
        events.append(Event("chaos_skip", {"family": s.family}))
        s, more = begin_laying_cards(s, **changes)
        return s, events + more
    if s.family:
        s, more = begin_factions(s, **changes)
        return s, events + more
    return replace(s, stage=Stage.SENATE, **changes), events


def senate_bid(s: EoaState, seat: int, a: Bid) -> tuple[EoaState, list[Event]]:
    """Nothing moves until the last bid is in; then every bid goes to the pool at once."""
    events = [Event("bid", {"seat": seat, "stage": s.stage}),
              Event("my_bid", {"seat": seat, "n": a.tokens, "stage": s.stage}, to=(seat,))]
    bids = put(s.bids, seat, a.tokens)
    if -1 in bids:
        return replace(s, bids=bids), events
    events.append(Event("revealed", {"what": "senate"}))
    s, more = begin_factions(s, senate_pool=tuple(p + b for p, b in zip(s.senate_pool, bids)),
                             screen=tuple(c - b for c, b in zip(s.screen, bids)),
                             last_bids=bids, bids=(-1,) * s.players)
    return s, events + more
