"""One full End of Atlantis state consistent with a seat's view (the hard bot's
``sample_hidden``).

What a seat cannot see, drawn again from the bot's stream:

* the Politics cards it has not seen (not in its hand, the discard or a voting card
  turned up) are dealt among the other hands, the others' face-down voting cards
  and the deck, by the public counts;
* the special cards not in its hand, the discard or face up go to the other
  seats and the special deck, by the public counts;
* a hidden bid that was chosen (``-2`` in the view) becomes a number the bidder
  can pay (behind its screen), except the one the Demagogos looked at, which is
  known to the Demagogos;
* which of the Oraklos's unrevealed cards stay face down (while cards are laid).

Where the view does not say a number the rules keep, the sample makes one that
agrees with what the view shows: the split of the Event deck between Doom! cards
and the others (the view shows their sum), and how many cards another seat's
Archont has still to discard.  The game's own stream is the caller's to replace.
"""

from __future__ import annotations

from ..components import redeal_hidden
from ..core import make
from ..rng import Rng
from . import data
from .state import SECRET_BID_STAGES, EoaState, EoaView, Look, Stage

#: Fields of the state that the view holds as they are.
_SAME = (
    "players", "family", "aggressive_neutrals", "revealed_events", "revealed_specials",
    "ships_chosen", "turn", "stage", "vp", "screen", "senate_pool", "buildings", "promised_land",
    "promised_land_neutrals", "camp", "ships", "discard", "special_discard", "face_up_specials",
    "faction_holders", "plus_one", "markers", "faction_order", "faction_queue", "faction_pos",
    "faction_passers", "favour_seat", "ability_queue", "vote_cards", "cards_to_lay",
    "cards_revealed", "face_up", "tokens_on_cards", "played", "vote", "vote_kind", "demagogos_used",
    "open_bidders", "vote_winners", "play_queue", "card_players", "effect", "last_bids",
    "last_winners", "last_refund", "event", "other_events", "top_event", "doom_markers",
    "together_queue", "together_placed", "end_reason",
)


def sample_hidden(view: EoaView, rng: Rng) -> tuple[EoaState, Rng]:
    seat, n = view.seat, view.players
    # Politics cards: hands, face-down voting cards, the deck
    seen = set(view.hand) | set(view.discard)
    seen.update(c for row in view.voting_cards for c in row if c >= 0)
    hidden = [c for c in range(len(data.CARD_KIND)) if c not in seen]
    slots = [[i for i, c in enumerate(row) if c < 0] if p != seat else []
             for p, row in enumerate(view.voting_cards)]
    groups, i = [], 0
    for size in [view.hand_sizes[p] if p != seat else 0 for p in range(n)] + [len(s) for s in slots]:
        groups.append(tuple(hidden[i:i + size]))
        i += size
    groups[seat] = view.hand
    dealt, deck, rng = redeal_hidden(groups, tuple(hidden[i:]), seat, rng)
    hands = tuple(view.hand if p == seat else tuple(sorted(dealt[p])) for p in range(n))
    rows = list(view.voting_cards)
    for p in range(n):
        if slots[p]:
            row = list(rows[p])
            for slot, card in zip(slots[p], dealt[n + p]):
                row[slot] = card
            rows[p] = tuple(row)
    # special cards
    over = view.stage == Stage.OVER
    if over:
        specials, special_deck = view.all_specials, ()
        known = {c for group in specials for c in group}
    else:
        known = set(view.my_specials or ())
    known.update(view.special_discard)
    known.update(view.face_up_specials)
    pool = [c for c in range(len(data.SPECIAL_KEY)) if c not in known]
    if not over:
        groups, i = [], 0
        for p in range(n):
            size = 0 if p == seat else view.special_counts[p]
            groups.append(view.my_specials if p == seat else tuple(pool[i:i + size]))
            i += size
        specials, special_deck, rng = redeal_hidden(groups, tuple(pool[i:]), seat, rng, keep_sorted=True)
        special_deck = special_deck[:view.special_deck_count]
    # bids
    bids = list(view.bids)
    look: tuple = ()
    if view.stage in SECRET_BID_STAGES:
        peek = view.peeked_bid
        for p in range(n):
            if p == seat or bids[p] != -2:
                continue
            if peek and peek.target == p:
                bids[p] = peek.tokens
            else:
                bids[p], rng = rng.below(view.screen[p] + 1)
        if peek:
            look = Look(seat, peek.target)
    # the Oraklos's face-down cards
    face_down = [() for _ in range(n)]
    face_down[seat] = view.my_face_down or ()
    oraklos = view.faction_holders[data.ORAKLOS]
    if (not view.cards_revealed and view.stage == Stage.LAY_CARDS and oraklos >= 0
            and oraklos != seat and rows[oraklos]):
        picks, rng = rng.shuffled(range(len(rows[oraklos])))
        many, rng = rng.below(min(2, len(rows[oraklos])) + 1)
        face_down[oraklos] = tuple(sorted(picks[:many]))
    # the Event deck: Doom! cards and the others (the view shows only the sum)
    in_deck = view.events_left - (view.top_event >= 0)
    dooms = len(data.DOOM_EVENTS) - (data.DOOM_MARKERS - view.doom_markers) - (view.top_event in data.DOOM_EVENTS)
    dooms = max(0, min(dooms, in_deck, len(data.DOOM_EVENTS)))
    others_left = in_deck - dooms
    if others_left > len(view.other_events):
        others_left = len(view.other_events)
        dooms = in_deck - others_left
    archont = view.archont_discards
    queue = view.ability_queue
    if view.stage == Stage.ARCHONT and queue and queue[0].seat != seat:
        archont = max(1, min(data.ARCHONT_DRAW, view.hand_sizes[queue[0].seat] - data.HAND))
    state = make(
        EoaState, **{name: getattr(view, name) for name in _SAME},
        hands=hands, deck=tuple(sorted(deck)), specials=tuple(specials), special_deck=special_deck,
        archont_discards=archont, voting_cards=tuple(rows), face_down=tuple(face_down),
        bids=tuple(bids), demagogos_look=look, other_events_left=others_left, dooms_left=dooms,
        game_winners=view.game_winners, rng=rng)
    return state, rng
