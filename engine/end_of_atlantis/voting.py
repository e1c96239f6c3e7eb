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
def begin_laying_cards(s: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    n = s.players
    vote_cards = changes.get("vote_cards", s.vote_cards)
    need = tuple(min(vote_cards, len(h)) for h in changes.get("hands", s.hands))
    changes.update(stage=Stage.LAY_CARDS, cards_to_lay=need, voting_cards=((),) * n,
                   face_down=((),) * n, cards_revealed=False)
    if not any(need):
        return _reveal_cards(s, [], **changes)
    return replace(s, **changes), []




def lay_choices(x: Any, seat: int) -> list[LayCard]:
    hand = x.hand_of(seat)
    cards = one_per_kind(hand)
    out = [LAY[c] for c in cards]
    if x.faction_holders[data.ORAKLOS] == seat and len(x.face_down_of(seat)) < ORAKLOS_FACE_DOWN:
        out += [LAY_FACE_DOWN[c] for c in cards]
    return out


def lay_card(s: EoaState, seat: int, a: LayCard) -> tuple[EoaState, list[Event]]:
    """The next card of ``seat``'s row, face down; once the row is complete the hand is
    refilled to 7 (by this seat's own action, so only it sees what it draws)."""
    hands = put(s.hands, seat, without(s.hands[seat], a.card))
    row = s.voting_cards[seat]
    slot = len(row)
    rows = put(s.voting_cards, seat, row + (a.card,))
    face_down = put(s.face_down, seat, s.face_down[seat] + (slot,)) if a.face_down else s.face_down
    events = [Event("ordered", {"seat": seat, "slot": slot}),
              Event("my_order", {"seat": seat, "slot": slot, "card": a.card, "veiled": a.face_down},
                    to=(seat,))]
    changes = dict(hands=hands, voting_cards=rows, face_down=face_down)
    if slot + 1 == s.cards_to_lay[seat]:
        drawn, more, _ = draw_politics(s, seat, data.HAND - len(hands[seat]), hands)
        changes.update(drawn)
        events += more
    if all(len(rows[p]) >= s.cards_to_lay[p] for p in range(s.players)):
        return _reveal_cards(s, events, **changes)
    return replace(s, **changes), events


def _reveal_cards(s: EoaState, events: list[Event], **changes: Any) -> tuple[EoaState, list[Event]]:
    rows = changes.get("voting_cards", s.voting_cards)
    face_down = changes.get("face_down", s.face_down)
    face_up = tuple(tuple(i not in face_down[p] for i in range(len(rows[p]))) for p in range(s.players))
    events.append(Event("revealed", {"what": "cards"}))
    changes.update(cards_revealed=True, face_up=face_up, tokens_on_cards=tuple((0,) * len(r) for r in rows),
                   played=tuple((False,) * len(r) for r in rows))
    s, more = begin_vote(s, 0, **changes)
    return s, events + more


# --- the votes -----------------------------------------------------------------------------------
def begin_vote(s: EoaState, vote: int, **changes: Any) -> tuple[EoaState, list[Event]]:
    """Vote on position ``vote``; after the last position the Doom phase begins.
    (``changes``: fields not yet rebuilt into ``s``, read through.)"""
    def now(name: str) -> Any:
        return changes[name] if name in changes else getattr(s, name)

    rows = now("voting_cards")
    if vote >= now("vote_cards") or all(len(r) <= vote for r in rows):
        return begin_doom(replace(s, **changes) if changes else s)
    kind = now("vote_kind")
    event = Event("vote", {"vote": vote, "type": kind})
    if kind == "hidden":
        stage = Stage.HIDDEN_VOTE
    else:
        changes["open_bidders"] = tuple(reversed(senate_order_of(now("senate_pool"), now("markers"))))
        stage = (Stage.DEMAGOGOS_CALL if now("faction_holders")[data.DEMAGOGOS] >= 0 and not now("demagogos_used")
                 else Stage.OPEN_VOTE)
    changes.update(vote=vote, bids=(-1,) * s.players, demagogos_look=(), vote_winners=(),
                   play_queue=(), card_players=(), effect=None, stage=stage)
    return replace(s, **changes), [event]


def bid_choices(x: Any, seat: int) -> list[Bid]:
    return list(BIDS[:x.screen[seat] + 1])


def open_bid_choices(x: Any, seat: int) -> list[Bid]:
    """A bid nobody else named, or 0 (a pass; several may pass)."""
    taken = {b for b in x.bids if b > 0}
    return [b for b in BIDS[:x.screen[seat] + 1] if b.tokens == 0 or b.tokens not in taken]


def _secret_bid_events(s: EoaState, seat: int, tokens: int) -> list[Event]:
    return [Event("bid", {"seat": seat, "stage": s.stage}),
            Event("my_bid", {"seat": seat, "n": tokens, "stage": s.stage}, to=(seat,))]


def hidden_bid(s: EoaState, seat: int, a: Bid) -> tuple[EoaState, list[Event]]:
    """Once every bid is in: the Demagogos may look at one (if it has not used its
    ability this turn), else all are shown."""
    events = _secret_bid_events(s, seat, a.tokens)
    bids = put(s.bids, seat, a.tokens)
    if -1 in bids:
        return replace(s, bids=bids), events
    if s.faction_holders[data.DEMAGOGOS] >= 0 and not s.demagogos_used:
        return replace(s, bids=bids, stage=Stage.DEMAGOGOS_LOOK), events
    s, more = _resolve_vote(s, bids=bids)
    return s, events + more


def rebid(s: EoaState, seat: int, a: Bid) -> tuple[EoaState, list[Event]]:
    events = _secret_bid_events(s, seat, a.tokens)
    s, more = _resolve_vote(s, bids=put(s.bids, seat, a.tokens))
    return s, events + more


def open_bid(s: EoaState, seat: int, a: Bid) -> tuple[EoaState, list[Event]]:
    bidders = without(s.open_bidders, seat)
    changes = dict(bids=put(s.bids, seat, a.tokens), open_bidders=bidders)
    event = Event("open_bid", {"seat": seat, "n": a.tokens, "vote": s.vote})
    if bidders:
        return replace(s, **changes), [event]
    s, more = _resolve_vote(s, **changes)
    return s, [event, *more]


def look_choices(x: Any, seat: int) -> list[Any]:
    return [*(Demagogos(t) for t in range(x.players) if t != seat), PASS]


def call_choices(x: Any, seat: int) -> list[Any]:
    return [*(Demagogos(t) for t in x.open_bidders if t != seat), PASS]


def demagogos_look(s: EoaState, seat: int, a: Demagogos) -> tuple[EoaState, list[Event]]:
    """The Demagogos sees one bid (alone) and may then change its own."""
    target = a.player
    events = [Event("peek", {"seat": seat, "target": target}),
              Event("peeked", {"seat": seat, "target": target, "n": s.bids[target]}, to=(seat,))]
    return replace(s, demagogos_used=True, demagogos_look=Look(seat, target),
                   stage=Stage.DEMAGOGOS_REBID), events


def no_look(s: EoaState, seat: int, a: Pass) -> tuple[EoaState, list[Event]]:
    return _resolve_vote(s)


def demagogos_call(s: EoaState, seat: int, a: Demagogos) -> tuple[EoaState, list[Event]]:
    target = a.player
    s = replace(s, demagogos_used=True, open_bidders=(target,) + without(s.open_bidders, target),
                stage=Stage.OPEN_VOTE)
    return s, [Event("call", {"seat": seat, "target": target})]


def no_call(s: EoaState, seat: int, a: Pass) -> tuple[EoaState, list[Event]]:
    return replace(s, stage=Stage.OPEN_VOTE), []


def _resolve_vote(s: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """Every bid is spent and lies on its card; the highest bids win (ties by Senate
    order; in an open vote a pass never wins); the Philosophios among them plays first.
    (``changes``: the last bid, not yet in ``s``.)"""
    n, vote = s.players, s.vote
    bids = changes.get("bids", s.bids)
    hidden = s.stage != Stage.OPEN_VOTE
    has = [len(s.voting_cards[p]) > vote for p in range(n)]
    rank = {p: i for i, p in enumerate(senate_order(s))}
    ranking = sorted(range(n), key=lambda p: (-bids[p], rank[p]))
    candidates = [p for p in ranking if has[p] and (hidden or bids[p] > 0)]
    winners = tuple(candidates[:winners_needed(s)])
    if event_key(s) == "no_mercy":
        loser = ranking[-1]
        changes["vp"] = put(s.vp, loser, max(0, s.vp[loser] - 1))
    order = list(winners)
    philosophios = s.faction_holders[data.PHILOSOPHIOS]
    if philosophios in order:
        order.remove(philosophios)
        order.insert(0, philosophios)
    changes.update(
        screen=tuple(c - b for c, b in zip(s.screen, bids)),
        tokens_on_cards=tuple(put(t, vote, bids[p]) if has[p] else t
                              for p, t in enumerate(s.tokens_on_cards)),
        face_up=tuple(put(f, vote, True) if has[p] else f for p, f in enumerate(s.face_up)),
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
            "pool": tuple(s.senate_pool), "no_card": tuple(p for p in range(n) if not has[p]),
            "play_order": tuple(order), "places": winners_needed(s)})
    if not order:
        s, more = _end_vote(s, **changes)
        return s, [event, *more]
    return replace(s, stage=Stage.PLAY, **changes), [event]


# --- the winners play ------------------------------------------------------------------------------
def play_stage_choices(x: Any, seat: int) -> list[Any]:
    if x.effect is not None:
        return effect_choices(x, x.effect)
    return [*play_choices(x, seat), PASS]


def pass_play(s: EoaState, seat: int, a: Pass) -> tuple[EoaState, list[Event]]:
    event = Event("play_pass", {"seat": seat, "vote": s.vote})
    s, events = next_player(s)
    return s, [event, *events]


def next_player(s: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The next winner plays; after the last, the next vote."""
    queue = s.play_queue[1:]
    changes.update(play_queue=queue, effect=None)
    if queue:
        return replace(s, **changes), []
    return _end_vote(s, **changes)


def _end_vote(s: EoaState, **changes: Any) -> tuple[EoaState, list[Event]]:
    """The Strategos takes back up to 2 of its tokens from a vote in which it played no card."""
    vote = s.vote
    strategos = s.faction_holders[data.STRATEGOS]
    events = []
    tokens = changes.get("tokens_on_cards", s.tokens_on_cards)
    if strategos >= 0 and strategos not in changes.get("card_players", s.card_players) \
            and len(tokens[strategos]) > vote:
        back = min(data.STRATEGOS_REFUND, tokens[strategos][vote])
        if back:
            changes.update(tokens_on_cards=put(tokens, strategos, bump(tokens[strategos], vote, -back)),
                           screen=bump(changes.get("screen", s.screen), strategos, back),
                           last_refund=(strategos, back))
            events.append(Event("strategos", {"seat": strategos, "n": back}))
    s, more = begin_vote(s, vote + 1, **changes)
    return s, events + more
