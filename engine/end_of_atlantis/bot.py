"""End of Atlantis bots: ``RandomBot`` (level "random": any legal action) and
``SenatorBot`` (level "normal").

Both see only ``choose(view, legal)``; their randomness is their own ``Rng`` stream.

How ``SenatorBot`` thinks
-------------------------
Everything is greedy and read straight off the view:

* a *ship value* says how much one more refugee of ours is worth on a ship in port:
  more when we already lead aboard it, when it is nearly full (it will sail in the Doom
  phase) and when few rivals share it;
* a card's value is what its best use would earn now (refugees on the best ships, a
  ship moved to the Promised Land scoring the chart for us and less for the rest, a
  sabotage of a ship full of rivals);
* bids spend the tokens behind the screen evenly over the votes left, more on
  valuable cards, and never everything: tokens on ships score, tokens in bids do not;
* the Senate bid is modest (half of it comes back) and the Faction choice prefers the
  abilities that turn into points (Basileus, Demiurgos, Strategos) and +1 tokens.
"""

from __future__ import annotations

from typing import Any

from ..core import Bot
from ..core import RandomBot as KitRandomBot
from ..levels import level_bot
from ..rng import Rng
from . import data
from .actions import (
    DECK_SLOT, PASS, USE_ABILITY, Bid, Demagogos, Discard, Done, Faction, LayCard, Play, PlaySpecial,
    TakeSpecial, Target,
)
from .ships import arrival_scores
from .state import PAID, EffectStep, Stage, aboard, free

FACTION_VALUE = {data.ARCHONT: 1.0, data.BASILEUS: 2.6, data.DEMAGOGOS: 1.0, data.DEMIURGOS: 2.2,
                 data.ORAKLOS: 0.6, data.PHILOSOPHIOS: 1.6, data.STRATEGOS: 2.0}
SPECIAL_VALUE = {"treasury": 3.0, "favourite": 1.5, "builders": 1.5, "winds": 2.0, "empath": 1.5,
                 "alliance": 1.2, "decree": 2.0, "guild": 1.2, "favour": 1.0, "boarding": 1.5}


class RandomBot(KitRandomBot):
    """Any legal action, uniformly, from the bot's own stream."""

    stream = "eoa-random"


def ship_value(view: Any, me: int, i: int) -> float:
    sh = view.ships[i]
    if sh.at_sea:
        return -5.0
    mine = sh.cubes[me]
    others = aboard(sh) - mine
    room = free(sh)
    if room <= 0:
        return -5.0
    value = 1.0 + 0.45 * mine - 0.12 * others
    if room <= 2:
        value += 0.6
    if mine >= 5:
        value -= 1.5  # the chart stops at five
    return value


def arrival_gain(view: Any, me: int, i: int, royal: bool) -> float:
    sh = view.ships[i]
    gains = arrival_scores(sh.cubes, view.players, royal)
    best_other = max((g for p, g in enumerate(gains) if p != me), default=0)
    return gains[me] + data.MOVER_BONUS - 0.6 * best_other


def move_value(view: Any, me: int, i: int, royal: bool = False) -> float:
    sh = view.ships[i]
    if aboard(sh) == 0:
        return -9.0
    if sh.at_sea or sh.tile == data.AIRSHIP + data.ADVANCED:
        return arrival_gain(view, me, i, royal)
    mine = sh.cubes[me]
    return 0.8 * mine - 0.4 * (aboard(sh) - mine - sh.cubes[data.NEUTRAL])


def wreck_value(view: Any, me: int, i: int) -> float:
    sh = view.ships[i]
    mine = sh.cubes[me]
    rivals = aboard(sh) - mine - sh.cubes[data.NEUTRAL]
    return 0.9 * rivals - 2.0 * mine


def leader(view: Any, me: int) -> int:
    return max((p for p in range(view.players) if p != me), key=lambda p: (view.vp[p], -p))


def card_value(view: Any, me: int, kind: str) -> float:
    """What playing a card of ``kind`` would roughly earn now."""
    ports = [ship_value(view, me, i) for i, sh in enumerate(view.ships) if not sh.at_sea]
    best_port = max(ports, default=0.0)
    if kind == "refugees1":
        return max(0.0, best_port)
    if kind == "refugees2":
        return max(0.0, 2 * best_port)
    if kind == "refugees21":
        return max(0.0, 3 * best_port - 0.3)
    if kind == "aristocracy":
        return max(0.0, best_port + 0.3)
    if kind == "ships":
        moves = sorted((move_value(view, me, i) for i in range(len(view.ships))), reverse=True)
        return max(0.0, sum(moves[:2]))
    if kind == "royal":
        return max([0.0] + [move_value(view, me, i, True) for i, sh in enumerate(view.ships)
                            if sh.tile != data.AIRSHIP + data.ADVANCED])
    if kind == "support":
        return 1.6
    if kind == "sabotage":
        return max([0.0] + [wreck_value(view, me, i) for i, sh in enumerate(view.ships) if sh.at_sea
                            and sh.tile != data.WARSHIP + data.ADVANCED])
    if kind == "betrayal":
        vals = [0.0]
        for sh in view.ships:
            if not sh.at_sea and sh.tile != data.WARSHIP + data.ADVANCED:
                vals.append(0.6 * min(4, aboard(sh) - sh.cubes[me]))
        return max(vals)
    return 0.0


def static_card_value(kind: str) -> float:
    return {"refugees1": 1.0, "refugees2": 2.2, "refugees21": 3.0, "aristocracy": 1.3,
            "ships": 2.6, "royal": 2.2, "support": 1.5, "sabotage": 1.2, "betrayal": 1.0}[kind]


class SenatorBot(Bot):
    def __init__(self, seat: int, seed: int):
        self.seat = seat
        self.rng = Rng.from_seed(seed, f"eoa-senator-{seat}")

    def _jitter(self, k: int) -> int:
        x, self.rng = self.rng.below(k)
        return x

    def choose(self, view: Any, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        by_stage = CHOOSE_BY_STAGE.get(view.stage)
        if by_stage is None:
            return legal[0]
        return by_stage(self, view, view.seat, legal)

    def _archont(self, view: Any, me: int, legal: list[Any]) -> Any:
        hand = sorted(view.hand, key=lambda c: card_value(view, me, data.CARD_KIND[c]) +
                      static_card_value(data.CARD_KIND[c]))
        return Discard(hand[0])

    def _look(self, view: Any, me: int, legal: list[Any]) -> Any:
        targets = [a for a in legal if type(a) is Demagogos]
        return max(targets, key=lambda action: (view.screen[action.player], -action.player))

    def _call(self, view: Any, me: int, legal: list[Any]) -> Any:
        return PASS

    def _together(self, view: Any, me: int, legal: list[Any]) -> Any:
        best = max(legal, key=lambda action: ship_value(view, me, action.ship) if type(action) is Target else 0.4)
        if type(best) is Target and view.screen[me] > 4:
            return best
        return PASS

    # --- Senate and Factions -----------------------------------------------------------------
    def _senate_bid(self, view: Any, me: int, legal: list[Any]) -> Any:
        tokens = view.screen[me]
        want = min(tokens, 2 + tokens // 6 + self._jitter(2))
        return Bid(want)

    def _faction(self, view: Any, me: int, legal: list[Any]) -> Any:
        takes = [a for a in legal if type(a) is Faction]
        specials = [a for a in legal if type(a) is PlaySpecial]
        for action in specials:
            key = data.SPECIAL_KEY[action.card]
            if key == "boarding" and ship_value(view, me, action.ship) >= 1.3:
                return max((special for special in specials if data.SPECIAL_KEY[special.card] == "boarding"),
                           key=lambda special: ship_value(view, me, special.ship))
        if not takes:
            return PASS
        best = max(takes, key=lambda action: FACTION_VALUE[action.faction]
                   + (1.2 if view.plus_one[action.faction] else 0))
        paid = view.faction_queue[view.faction_pos].kind == PAID
        if not paid:
            return best
        cost = 0 if view.favour_seat == me else data.FACTION_COST[view.players][view.faction_order.index(me)]
        value = FACTION_VALUE[best.faction] + (1.2 if view.plus_one[best.faction] else 0)
        if cost and any(data.SPECIAL_KEY[a.card] == "favour" for a in specials) and value >= 2.0:
            return next(a for a in specials if data.SPECIAL_KEY[a.card] == "favour")
        if value - 0.7 * cost >= 1.4:
            return best
        return PASS

    def _ability(self, view: Any, me: int, legal: list[Any]) -> Any:
        targets = [a for a in legal if type(a) is Target]
        if targets:
            best = max(targets, key=lambda action: ship_value(view, me, action.ship))
            return best if ship_value(view, me, best.ship) > 0.5 else PASS
        takes = [a for a in legal if type(a) is TakeSpecial]
        if takes:
            def val(action):
                if action.slot == DECK_SLOT:
                    return 1.8
                return SPECIAL_VALUE[data.SPECIAL_KEY[view.face_up_specials[action.slot]]]
            return max(takes, key=val)
        if USE_ABILITY in legal:
            return USE_ABILITY
        return legal[0]

    # --- Voting -------------------------------------------------------------------------------
    def _order(self, view: Any, me: int, legal: list[Any]) -> Any:
        hand = list(view.hand)
        score = {c: static_card_value(data.CARD_KIND[c]) + 0.5 * card_value(view, me, data.CARD_KIND[c])
                 for c in hand}
        best = max(hand, key=lambda c: (score[c], -c))
        face_down = LayCard(best, True)
        if face_down in legal and score[best] >= 2.5:
            return face_down
        return LayCard(best)

    def _current_value(self, view: Any, me: int) -> float:
        vote = view.vote
        rows = view.voting_cards
        card = rows[me][vote] if len(rows[me]) > vote else -1
        value = card_value(view, me, data.CARD_KIND[card]) if card >= 0 else 0.0
        # as first place we could play the left player's card instead
        left = (me + 1) % view.players
        lc = rows[left][vote] if len(rows[left]) > vote else -1
        if lc >= 0:
            value = max(value, 0.8 * card_value(view, me, data.CARD_KIND[lc]))
        return value

    def _vote_bid(self, view: Any, me: int, legal: list[Any]) -> Any:
        tokens = view.screen[me]
        left = max(1, view.vote_cards - view.vote)
        value = self._current_value(view, me)
        budget = tokens / (left + 1.5)
        want = int(round(budget * min(2.2, value / 2.0))) + self._jitter(2)
        want = max(0, min(tokens - 2 if tokens > 6 else tokens, want))
        if value < 0.8:
            want = 0
        if view.stage == Stage.DEMAGOGOS_REBID and view.peeked_bid:
            other = view.peeked_bid.tokens
            if other + 1 <= tokens and value >= 2.0 and other + 1 <= want + 2:
                want = other + 1
        options = sorted(a.tokens for a in legal if type(a) is Bid)
        if want in options:
            return Bid(want)
        if view.stage == Stage.OPEN_VOTE:
            higher = [n for n in options if n > want and n <= want + 2]
            if higher and value >= 2.0:
                return Bid(higher[0])
            lower = [n for n in options if n < want]
            return Bid(lower[-1] if lower else 0)
        return Bid(min(options, key=lambda n: abs(n - want)))

    def _play(self, view: Any, me: int, legal: list[Any]) -> Any:
        effect = view.effect
        if effect is None:
            plays = [a for a in legal if type(a) is Play]
            if not plays:
                return PASS

            def val(action: Play) -> float:
                kind = data.CARD_KIND[view.voting_cards[action.source][view.vote]]
                base = card_value(view, me, kind)
                if action.special >= 0:
                    key = data.SPECIAL_KEY[action.special]
                    base += {"winds": 1.5, "empath": 1.0, "decree": 2.0, "guild": 1.0,
                             "alliance": 0.5}.get(key, 0.0) - 0.8
                return base
            best = max(plays, key=lambda action: (val(action), -action.special, action.source))
            return best if val(best) > 0.3 else PASS
        return self._target(view, me, effect, legal)

    def _target(self, view: Any, me: int, effect: Any, legal: list[Any]) -> Any:
        step = effect.steps[0]
        lead = leader(view, me)

        def val(action: Any) -> float:
            if type(action) is Done:
                return 0.0
            if type(action) is TakeSpecial:
                if action.slot == DECK_SLOT:
                    return 1.8
                return SPECIAL_VALUE[data.SPECIAL_KEY[view.face_up_specials[action.slot]]]
            if step in (EffectStep.PLACE_1, EffectStep.PLACE_2, EffectStep.PLACE_1_ELSEWHERE):
                return ship_value(view, me, action.ship)
            if step in (EffectStep.ARISTOCRACY, EffectStep.ALLIANCE):
                base = ship_value(view, me, action.ship) if step == EffectStep.ARISTOCRACY else 0.0
                if action.colour >= 0:
                    base += 0.4 if action.colour == lead else 0.1
                    base -= 0.5 * (action.colour == data.NEUTRAL)
                return base
            if step == EffectStep.MOVE:
                return move_value(view, me, action.ship)
            if step == EffectStep.ROYAL:
                return move_value(view, me, action.ship, True)
            if step == EffectStep.SABOTAGE:
                return wreck_value(view, me, action.ship)
            if step == EffectStep.BETRAY:
                if action.ship >= 0:
                    sh = view.ships[action.ship]
                    return 0.6 * min(4, aboard(sh) - sh.cubes[me])
                return 0.3 * min(4, view.senate_pool[action.colour]) + (0.3 if action.colour == lead else 0)
            if step == EffectStep.REMOVE:
                return -1.0 if action.colour == me else (0.6 if action.colour == lead else 0.5)
            return 0.0
        return max(legal, key=lambda action: (val(action), -action[0] if len(action) else 0))


CHOOSE_BY_STAGE = {
    Stage.SENATE: SenatorBot._senate_bid, Stage.HIDDEN_VOTE: SenatorBot._vote_bid,
    Stage.DEMAGOGOS_REBID: SenatorBot._vote_bid, Stage.OPEN_VOTE: SenatorBot._vote_bid,
    Stage.FACTIONS: SenatorBot._faction, Stage.ABILITIES: SenatorBot._ability,
    Stage.ARCHONT: SenatorBot._archont, Stage.LAY_CARDS: SenatorBot._order,
    Stage.DEMAGOGOS_LOOK: SenatorBot._look, Stage.DEMAGOGOS_CALL: SenatorBot._call,
    Stage.PLAY: SenatorBot._play, Stage.TOGETHER: SenatorBot._together,
}


def make_bot(seat: int, seed: int, level: str = "normal") -> Bot:
    if level == "random":
        return RandomBot(seat, seed)
    if level in ("easy", "hard"):
        return level_bot("end-of-atlantis", seat, seed, level, lambda: SenatorBot(seat, seed))
    return SenatorBot(seat, seed)
