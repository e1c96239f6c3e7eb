"""The Voting phase: everyone lays voting cards face down in order (in secret, at the same
time), all are turned up together, then one vote per position -- hidden (secret bids,
shown at once) or open (in reverse Senate order, a bid nobody else named) -- whose
winners play their cards (``effects``).  The Demagogos looks at one hidden bid or
calls one player to bid first; the Strategos takes back tokens from a vote in which
it played no card; the Philosophios plays first.  After the last vote: Doom.
"""

from __future__ import annotations

from typing import Any

from ..components import bump, put, without
from ..core import Event, replace
from . import data
from .actions import BIDS, LAY, LAY_FACE_DOWN, PASS, Bid, Demagogos, LayCard, Pass
from .cards import draw_politics
from .doom import begin_doom
from .effects import effect_choices, play_choices
from .state import (
    EoaState, Look, Stage, event_key, one_per_kind, senate_order, senate_order_of, winners_needed,
)

ORAKLOS_FACE_DOWN = 2  # voting cards the Oraklos may keep face down


# --- laying the voting cards ------------------------------------------------------------------
def begin_laying_cards(state: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    n = state.players
    vote_cards = changes.get("vote_cards", state.vote_cards)
    need = tuple(min(vote_cards, len(h)) for h in changes.get("hands", state.hands))
    changes.update(stage=Stage.LAY_CARDS, cards_to_lay=need, voting_cards=((),) * n,
                   face_down=((),) * n, cards_revealed=False)
    if not any(need):
        return _reveal_cards(state, [], **changes)
    return replace(state, **changes), []




def lay_choices(view: Any, seat: int) -> list[LayCard]:
    hand = view.hand_of(seat)
    cards = one_per_kind(hand)
    out = [LAY[c] for c in cards]
    if view.faction_holders[data.ORAKLOS] == seat and len(view.face_down_of(seat)) < ORAKLOS_FACE_DOWN:
        out += [LAY_FACE_DOWN[c] for c in cards]
    return out


def lay_card(state: EoaState, seat: int, action: LayCard) -> tuple[EoaState, list[Event]]:
    """The next card of ``seat``'s row, face down; once the row is complete the hand is
    refilled to 7 (by this seat's own action, so only it sees what it draws)."""
    hands = put(state.hands, seat, without(state.hands[seat], action.card))
    row = state.voting_cards[seat]
    slot = len(row)
    rows = put(state.voting_cards, seat, row + (action.card,))
    face_down = put(state.face_down, seat, state.face_down[seat] + (slot,)) if action.face_down else state.face_down
    events = [Event("ordered", {"seat": seat, "slot": slot}),
              Event("my_order", {"seat": seat, "slot": slot, "card": action.card, "veiled": action.face_down},
                    to=(seat,))]
    changes = dict(hands=hands, voting_cards=rows, face_down=face_down)
    if slot + 1 == state.cards_to_lay[seat]:
        drawn, more, _ = draw_politics(state, seat, data.HAND - len(hands[seat]), hands)
        changes.update(drawn)
        events += more
    if all(len(rows[p]) >= state.cards_to_lay[p] for p in range(state.players)):
        return _reveal_cards(state, events, **changes)
    return replace(state, **changes), events


def _reveal_cards(state: EoaState, events: list[Event], **changes: Any) -> tuple[EoaState, list[Event]]:
    rows = changes.get("voting_cards", state.voting_cards)
    face_down = changes.get("face_down", state.face_down)
    face_up = tuple(tuple(i not in face_down[p] for i in range(len(rows[p]))) for p in range(state.players))
    events.append(Event("revealed", {"what": "cards"}))
    changes.update(cards_revealed=True, face_up=face_up, tokens_on_cards=tuple((0,) * len(r) for r in rows),
                   played=tuple((False,) * len(r) for r in rows))
    state, more = begin_vote(state, 0, **changes)
    return state, events + more


# --- the votes -----------------------------------------------------------------------------------
def begin_vote(state: EoaState, vote: int, **changes: Any) -> tuple[EoaState, list[Event]]:
    """Vote on position ``vote``; after the last position the Doom phase begins.
    (``changes``: fields not yet rebuilt into ``state``, read through.)"""
    def now(name: str) -> Any:
        return changes[name] if name in changes else getattr(state, name)

    rows = now("voting_cards")
    if vote >= now("vote_cards") or all(len(r) <= vote for r in rows):
        return begin_doom(replace(state, **changes) if changes else state)
    kind = now("vote_kind")
    event = Event("vote", {"vote": vote, "type": kind})
    if kind == "hidden":
        stage = Stage.HIDDEN_VOTE
    else:
        changes["open_bidders"] = tuple(reversed(senate_order_of(now("senate_pool"), now("markers"))))
        stage = (Stage.DEMAGOGOS_CALL if now("faction_holders")[data.DEMAGOGOS] >= 0 and not now("demagogos_used")
                 else Stage.OPEN_VOTE)
    changes.update(vote=vote, bids=(-1,) * state.players, demagogos_look=(), vote_winners=(),
                   play_queue=(), card_players=(), effect=None, stage=stage)
    return replace(state, **changes), [event]


def bid_choices(view: Any, seat: int) -> list[Bid]:
    return list(BIDS[:view.screen[seat] + 1])


def open_bid_choices(view: Any, seat: int) -> list[Bid]:
    """A bid nobody else named, or 0 (a pass; several may pass)."""
    taken = {b for b in view.bids if b > 0}
    return [b for b in BIDS[:view.screen[seat] + 1] if b.tokens == 0 or b.tokens not in taken]


def _secret_bid_events(state: EoaState, seat: int, tokens: int) -> list[Event]:
    return [Event("bid", {"seat": seat, "stage": state.stage}),
            Event("my_bid", {"seat": seat, "n": tokens, "stage": state.stage}, to=(seat,))]


def hidden_bid(state: EoaState, seat: int, action: Bid) -> tuple[EoaState, list[Event]]:
    """Once every bid is in: the Demagogos may look at one (if it has not used its
    ability this turn), else all are shown."""
    events = _secret_bid_events(state, seat, action.tokens)
    bids = put(state.bids, seat, action.tokens)
    if -1 in bids:
        return replace(state, bids=bids), events
    if state.faction_holders[data.DEMAGOGOS] >= 0 and not state.demagogos_used:
        return replace(state, bids=bids, stage=Stage.DEMAGOGOS_LOOK), events
    state, more = _resolve_vote(state, bids=bids)
    return state, events + more


def rebid(state: EoaState, seat: int, action: Bid) -> tuple[EoaState, list[Event]]:
    events = _secret_bid_events(state, seat, action.tokens)
    state, more = _resolve_vote(state, bids=put(state.bids, seat, action.tokens))
    return state, events + more


def open_bid(state: EoaState, seat: int, action: Bid) -> tuple[EoaState, list[Event]]:
    bidders = without(state.open_bidders, seat)
    changes = dict(bids=put(state.bids, seat, action.tokens), open_bidders=bidders)
    event = Event("open_bid", {"seat": seat, "n": action.tokens, "vote": state.vote})
    if bidders:
        return replace(state, **changes), [event]
    state, more = _resolve_vote(state, **changes)
    return state, [event, *more]


def look_choices(view: Any, seat: int) -> list[Any]:
    return [*(Demagogos(t) for t in range(view.players) if t != seat), PASS]


def call_choices(view: Any, seat: int) -> list[Any]:
    return [*(Demagogos(t) for t in view.open_bidders if t != seat), PASS]


def demagogos_look(state: EoaState, seat: int, action: Demagogos) -> tuple[EoaState, list[Event]]:
    """The Demagogos sees one bid (alone) and may then change its own."""
    target = action.player
    events = [Event("peek", {"seat": seat, "target": target}),
              Event("peeked", {"seat": seat, "target": target, "n": state.bids[target]}, to=(seat,))]
    return replace(state, demagogos_used=True, demagogos_look=Look(seat, target),
                   stage=Stage.DEMAGOGOS_REBID), events


def no_look(state: EoaState, seat: int, action: Pass) -> tuple[EoaState, list[Event]]:
    return _resolve_vote(state)


def demagogos_call(state: EoaState, seat: int, action: Demagogos) -> tuple[EoaState, list[Event]]:
    target = action.player
    state = replace(state, demagogos_used=True, open_bidders=(target,) + without(state.open_bidders, target),
                    stage=Stage.OPEN_VOTE)
    return state, [Event("call", {"seat": seat, "target": target})]


def no_call(state: EoaState, seat: int, action: Pass) -> tuple[EoaState, list[Event]]:
    return replace(state, stage=Stage.OPEN_VOTE), []


def _resolve_vote(state: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """Every bid is spent and lies on its card; the highest bids win (ties by Senate
    order; in an open vote a pass never wins); the Philosophios among them plays first.
    (``changes``: the last bid, not yet in ``state``.)"""
    n, vote = state.players, state.vote
    bids = changes.get("bids", state.bids)
    hidden = state.stage != Stage.OPEN_VOTE
    has = [len(state.voting_cards[p]) > vote for p in range(n)]
    rank = {p: i for i, p in enumerate(senate_order(state))}
    ranking = sorted(range(n), key=lambda p: (-bids[p], rank[p]))
    candidates = [p for p in ranking if has[p] and (hidden or bids[p] > 0)]
    winners = tuple(candidates[:winners_needed(state)])
    if event_key(state) == "no_mercy":
        loser = ranking[-1]
        changes["vp"] = put(state.vp, loser, max(0, state.vp[loser] - 1))
    order = list(winners)
    philosophios = state.faction_holders[data.PHILOSOPHIOS]
    if philosophios in order:
        order.remove(philosophios)
        order.insert(0, philosophios)
    changes.update(
        screen=tuple(c - b for c, b in zip(state.screen, bids)),
        tokens_on_cards=tuple(put(t, vote, bids[p]) if has[p] else t
                              for p, t in enumerate(state.tokens_on_cards)),
        face_up=tuple(put(f, vote, True) if has[p] else f for p, f in enumerate(state.face_up)),
        vote_winners=winners, last_bids=bids, last_winners=winners, last_refund=(),
        play_queue=tuple(order), card_players=(), demagogos_look=())
    if hidden:
        # The bids were secret until this action: the views show them (and the screen
        # explains the result from the view), never this event.
        event = Event("revealed", {"what": "vote", "vote": vote})
    else:
        # Open bids were named aloud: the event tells every bid and why the winners won.
        event = Event("vote_result", {
            "vote": vote, "winners": winners, "bids": tuple(bids), "order": tuple(rank),
            "pool": tuple(state.senate_pool), "no_card": tuple(p for p in range(n) if not has[p]),
            "play_order": tuple(order), "places": winners_needed(state)})
    if not order:
        state, more = _end_vote(state, **changes)
        return state, [event, *more]
    return replace(state, stage=Stage.PLAY, **changes), [event]


# --- the winners play ------------------------------------------------------------------------------
def play_stage_choices(view: Any, seat: int) -> list[Any]:
    if view.effect is not None:
        return effect_choices(view, view.effect)
    return [*play_choices(view, seat), PASS]


def pass_play(state: EoaState, seat: int, action: Pass) -> tuple[EoaState, list[Event]]:
    event = Event("play_pass", {"seat": seat, "vote": state.vote})
    state, events = next_player(state)
    return state, [event, *events]


def next_player(state: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The next winner plays; after the last, the next vote."""
    queue = state.play_queue[1:]
    changes.update(play_queue=queue, effect=None)
    if queue:
        return replace(state, **changes), []
    return _end_vote(state, **changes)


def _end_vote(state: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The Strategos takes back up to 2 of its tokens from a vote in which it played no card."""
    vote = state.vote
    strategos = state.faction_holders[data.STRATEGOS]
    events = []
    tokens = changes.get("tokens_on_cards", state.tokens_on_cards)
    if strategos >= 0 and strategos not in changes.get("card_players", state.card_players) \
            and len(tokens[strategos]) > vote:
        back = min(data.STRATEGOS_REFUND, tokens[strategos][vote])
        if back:
            changes.update(tokens_on_cards=put(tokens, strategos, bump(tokens[strategos], vote, -back)),
                           screen=bump(changes.get("screen", state.screen), strategos, back),
                           last_refund=(strategos, back))
            events.append(Event("strategos", {"seat": strategos, "n": back}))
    state, more = begin_vote(state, vote + 1, **changes)
    return state, events + more
