"""Drawing cards: Politics cards from the deck, special cards from the deck or (tactical
play) from the three face up.

Decks are sorted multisets drawn from at random (``Pile(order="random")``): the order
of a face-down pile does not exist until it is drawn, so no seat's view can depend on
it, and every card a seat draws is drawn by that seat's own action.
"""

from __future__ import annotations

from ..components import Pile, put
from ..core import Event, replace
from .actions import DECK_SLOT, TakeSpecial
from .state import EoaState

POLITICS = Pile("cards", order="random")  # "drew" to all, "drew_cards" to the drawer


def draw_politics(state: EoaState, seat: int, count: int, hands: tuple | None = None
                  ) -> tuple[dict, list[Event], int]:
    """``seat`` draws up to ``count`` Politics cards into its (sorted) hand: the changes
    to the state, the events and how many it got.  ``hands``: the hands to draw into,
    when the caller changed them."""
    hands = state.hands if hands is None else hands
    got = POLITICS.draw(state.deck, state.discard, count, state.rng, seat)
    hands = put(hands, seat, tuple(sorted(hands[seat] + got.cards)))
    return dict(hands=hands, deck=got.pile, discard=got.discard, rng=got.rng), got.events, len(got.cards)


def special_available(view) -> bool:
    """Is there a special card to take (deck, discards to reshuffle, or face up)?"""
    return bool(view.special_deck_count or view.special_discard or view.face_up_specials)


def take_special_choices(view) -> list[TakeSpecial]:
    """Tactical play: one of the face-up cards, or the deck (while it or its discards last)."""
    out = [TakeSpecial(i) for i in range(len(view.face_up_specials))]
    if view.special_deck_count or view.special_discard:
        out.append(TakeSpecial(DECK_SLOT))
    return out


def gain_special(state: EoaState, seat: int, slot: int) -> tuple[EoaState, list[Event]]:
    """``seat`` takes a special card: a face-up one (``slot`` 0-2, which is then replaced
    from the deck) or the deck's (``DECK_SLOT``, seen by ``seat`` alone).  The discards
    become the deck when it runs out."""
    rng = state.rng
    deck, discard, face = state.special_deck, state.special_discard, state.face_up_specials
    if 0 <= slot < len(face):
        card = face[slot]
        if not deck and discard:
            deck, discard = tuple(sorted(discard)), ()
        if deck:
            i, rng = rng.below(len(deck))
            face = put(face, slot, deck[i])
            deck = deck[:i] + deck[i + 1:]
        else:
            face = face[:slot] + face[slot + 1:]
        events = [Event("took_special", {"seat": seat, "card": card, "face": face})]
    else:
        if not deck:
            if not discard:
                return state, []
            deck, discard = tuple(sorted(discard)), ()
        i, rng = rng.below(len(deck))
        card = deck[i]
        deck = deck[:i] + deck[i + 1:]
        events = [Event("drew_special", {"seat": seat}),
                  Event("my_special", {"seat": seat, "card": card}, to=(seat,))]
    specials = put(state.specials, seat, tuple(sorted(state.specials[seat] + (card,))))
    return replace(state, rng=rng, special_deck=deck, special_discard=discard, face_up_specials=face,
                   specials=specials), events


def spend_special(state: EoaState, seat: int, card: int) -> dict:
    """The changes of ``seat`` playing special ``card``: it goes to the discards."""
    hand = state.specials[seat]
    i = hand.index(card)
    return {"specials": put(state.specials, seat, hand[:i] + hand[i + 1:]),
            "special_discard": state.special_discard + (card,)}
