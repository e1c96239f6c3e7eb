"""Finding Atlantis's and End of Atlantis's views, legal lists and ``to_act`` are made
fast (positional construction, public parts shared, small caches of pure answers): each
is checked here against a slow, obvious version of the same thing, kept in this file,
over random games, for every seat and the spectator, positions visited out of order and
two matches interleaved (the caches must not care), field types included."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from engine.core import View, build, maker
from engine.end_of_atlantis import data
from engine.end_of_atlantis.actions import Play
from engine.end_of_atlantis.bot import make_bot as eoa_bot
from engine.end_of_atlantis.effects import FEASIBLE, betrayal_targets, play_sources
from engine.end_of_atlantis.rules import STAGES, EndOfAtlantisGame
from engine.end_of_atlantis.state import SECRET_BID_STAGES, EoaView, PeekedBid, Stage, aboard, free, immune
from engine.finding_atlantis.actions import EndTurn
from engine.finding_atlantis.bot import make_bot as fa_bot
from engine.finding_atlantis.rules import FindingAtlantisGame
from engine.finding_atlantis.state import FAView, PlayerPublic

FA = FindingAtlantisGame()
EOA = EndOfAtlantisGame()


_SCALARS = frozenset((int, str, bool, float, type(None)))
_FIELDS: dict = {}


def typed(x):
    """A value with the type of every part in it (``1 == True``, but not here)."""
    t = type(x)
    if t in _SCALARS:
        return (t, x)
    if isinstance(x, (tuple, list)) and not dataclasses.is_dataclass(t):
        kinds = tuple(map(type, x))
        if _SCALARS.issuperset(kinds):
            return (t, kinds, x)
        return (t, tuple(map(typed, x)))
    names = _FIELDS.get(t)
    if names is None:
        names = _FIELDS[t] = tuple(f.name for f in dataclasses.fields(x)) if dataclasses.is_dataclass(t) else ()
    return (t, tuple(typed(getattr(x, n)) for n in names)) if names else (t, x)


# --- the obvious versions (what the views were, field by field) -----------------------------
def fa_view_slowly(state, seat):
    pub = tuple(PlayerPublic(
        start=state.starts[s], last_played=state.played[s][-2:], played_count=len(state.played[s]),
        hand_count=len(state.hands[s]), artifacts_held=len(state.arts[s]), used=state.used[s],
        captain=state.captain[s] if state.captain_shown[s] else "", surfaced=state.surfaced[s],
        trail=state.trail[s], has_mine=state.mines[s] >= 0, lost=state.lost[s], skip=state.skip[s],
    ) for s in range(state.players))
    own = seat is not None
    return FAView(
        seat=seat, n=state.n, k=state.k, players=state.players, pirate=state.pirate,
        roaming=state.roaming, paper=state.paper, assistant=state.assistant, max_rounds=state.max_rounds,
        phase=state.phase, turn=state.turn, first=state.first, actions_left=state.actions_left,
        round=state.round, public=pub, monsters=state.monsters, deck_count=len(state.deck),
        failed=state.failed, winners=state.winners, end_reason=state.end_reason,
        pos=(-1 if state.lost[seat] else state.pos[seat]) if own else -1,
        chart=state.charts[seat] if own else (), lost_obs=state.lost_obs[seat] if own else (),
        lost_disp=state.lost_disp[seat] if own else (0, 0), hand=state.hands[seat] if own else (),
        captain=state.captain[seat] if own else "", offers=state.offers[seat] if own else (),
        artifacts=tuple(a for a, _ in state.arts[seat]) if own else (),
        mine=state.mines[seat] if own else -1, may_declare=state.may_declare[seat] if own else False,
        picks=state.picks[seat] if own else (), truth=state.terrain if state.phase == "over" else (),
    )


def eoa_view_slowly(state, seat):
    n, own = state.players, seat is not None
    rows = []
    for p in range(n):
        row = state.voting_cards[p]
        if p == seat:
            rows.append(row)
        elif not state.cards_revealed:
            rows.append((-1,) * len(row))
        else:
            rows.append(tuple(c if state.face_up[p][i] else -1 for i, c in enumerate(row)))
    secret = state.stage in SECRET_BID_STAGES
    bids = tuple(b if p == seat or not secret else (-2 if b >= 0 else -1) for p, b in enumerate(state.bids))
    look = state.demagogos_look
    peeked = PeekedBid(look.target, state.bids[look.target]) if look and own and look.seat == seat and secret else ()
    queue = state.ability_queue
    return EoaView(
        seat=seat, players=n, family=state.family, aggressive_neutrals=state.aggressive_neutrals,
        revealed_events=state.revealed_events, revealed_specials=state.revealed_specials,
        ships_chosen=state.ships_chosen, turn=state.turn, stage=state.stage, vp=state.vp, screen=state.screen,
        senate_pool=state.senate_pool, buildings=state.buildings, promised_land=state.promised_land,
        promised_land_neutrals=state.promised_land_neutrals, camp=state.camp, ships=state.ships,
        hand=state.hands[seat] if own else None, hand_sizes=tuple(len(h) for h in state.hands),
        deck_count=len(state.deck), discard=state.discard, my_specials=state.specials[seat] if own else None,
        special_counts=tuple(len(x) for x in state.specials),
        all_specials=state.specials if state.stage == Stage.OVER else (), special_deck_count=len(state.special_deck),
        special_discard=state.special_discard, face_up_specials=state.face_up_specials,
        faction_holders=state.faction_holders, plus_one=state.plus_one, markers=state.markers,
        faction_order=state.faction_order, faction_queue=state.faction_queue, faction_pos=state.faction_pos,
        faction_passers=state.faction_passers, favour_seat=state.favour_seat, ability_queue=queue,
        archont_discards=state.archont_discards if queue and queue[0].seat == seat else 0,
        vote_cards=state.vote_cards, cards_to_lay=state.cards_to_lay, voting_cards=tuple(rows),
        my_face_down=state.face_down[seat] if own else None, cards_revealed=state.cards_revealed,
        face_up=state.face_up, tokens_on_cards=state.tokens_on_cards, played=state.played, vote=state.vote,
        vote_kind=state.vote_kind, bids=bids, peeked_bid=peeked, demagogos_used=state.demagogos_used,
        open_bidders=state.open_bidders, vote_winners=state.vote_winners, play_queue=state.play_queue,
        card_players=state.card_players, effect=state.effect, last_bids=state.last_bids,
        last_winners=state.last_winners, last_refund=state.last_refund, event=state.event,
        other_events=state.other_events,
        events_left=state.other_events_left + state.dooms_left + (state.top_event >= 0), top_event=state.top_event,
        doom_markers=state.doom_markers, together_queue=state.together_queue, together_placed=state.together_placed,
        game_winners=state.game_winners, end_reason=state.end_reason,
    )


def actors_slowly(state):
    """Who acts, stage by stage, as the rules say it (what the stage table's ``actors`` answer)."""
    st = state.stage
    if st in (Stage.SENATE, Stage.HIDDEN_VOTE):
        return frozenset(p for p, b in enumerate(state.bids) if b == -1)
    if st == Stage.LAY_CARDS:
        return frozenset(p for p in range(state.players) if len(state.voting_cards[p]) < state.cards_to_lay[p])
    if st == Stage.FACTIONS:
        return frozenset((state.faction_queue[state.faction_pos].seat,))
    if st in (Stage.ABILITIES, Stage.ARCHONT):
        return frozenset((state.ability_queue[0].seat,))
    if st in (Stage.DEMAGOGOS_LOOK, Stage.DEMAGOGOS_REBID, Stage.DEMAGOGOS_CALL):
        return frozenset((state.faction_holders[data.DEMAGOGOS],))
    one = {Stage.OPEN_VOTE: "open_bidders", Stage.PLAY: "play_queue", Stage.TOGETHER: "together_queue"}.get(st)
    return frozenset((getattr(state, one)[0],)) if one else frozenset()


def _fits(kind, frees, tokens):
    if kind == "refugees1":
        return tokens >= 1 and any(f >= 1 for f in frees)
    if kind == "refugees2":
        return tokens >= 2 and any(f >= 2 for f in frees)
    return tokens >= 3 and any(f >= 2 and any(g >= 1 for j, g in enumerate(frees) if j != i)
                               for i, f in enumerate(frees))


def feasible_slowly(state, seat, kind, rider):
    """What ``effects.FEASIBLE`` answers, as the rules say it."""
    port = [(i, free(sh), aboard(sh) - sh.cubes[seat]) for i, sh in enumerate(state.ships) if not sh.at_sea]
    if kind.startswith("refugees"):
        if rider == "alliance":
            return any(_fits(kind, [g + (1 if j == k else 0) for j, (_, g, _) in enumerate(port)], state.screen[seat])
                       for k, (_, _, others) in enumerate(port) if others)
        return _fits(kind, [f for _, f, _ in port], state.screen[seat])
    if kind == "aristocracy":
        need = 2 if rider == "empath" else 1
        return state.screen[seat] >= need and sum(f + o for _, f, o in port) >= need
    if kind == "ships":
        return sum(1 for sh in state.ships if aboard(sh) > 0) >= (3 if rider == "winds" else 2)
    if kind == "royal":
        return any(aboard(sh) > 0 and sh.tile != data.ADVANCED + data.AIRSHIP for sh in state.ships)
    if kind == "sabotage":
        return any(sh.at_sea and sh.tile != data.ADVANCED + data.WARSHIP for sh in state.ships)
    if kind == "betrayal":
        return bool(betrayal_targets(state, seat))
    return bool(state.special_deck_count or state.special_discard or state.face_up_specials)


def play_choices_slowly(state, seat):
    riders = {}
    for c in sorted(state.specials_of(seat)):
        key = data.SPECIAL_KEY[c]
        if data.SPECIAL_KIND[key] == "rider":
            riders.setdefault(key, c)
    out = []
    for source in play_sources(state, seat):
        card = state.voting_cards[source][state.vote]
        if card < 0:
            continue
        kind = data.CARD_KIND[card]
        if feasible_slowly(state, seat, kind, ""):
            out.append(Play(source))
        out += [Play(source, c) for key, c in riders.items()
                if data.rider_fits(key, kind) and feasible_slowly(state, seat, kind, key)]
    return out


# --- the games ----------------------------------------------------------------------------------
def positions(game, make_bot, seeds, options_of):
    """Every position of random games, two matches at a time, move by move alternately."""
    for a, b in zip(seeds[::2], seeds[1::2]):
        games = []
        for seed in (a, b):
            players = game.min_players + seed % (game.max_players - game.min_players + 1)
            games.append([game.setup(game.parse_options(options_of(seed)), players, seed),
                          [make_bot(i, seed, "random") for i in range(players)]])
        while games:
            for g in list(games):
                state, bots = g
                if game.result(state) is not None:
                    yield state
                    games.remove(g)
                    continue
                yield state
                seat = min(game.to_act(state))
                view = game.view(state, seat)
                state, _ = game.apply(state, seat, bots[seat].choose(view, game.legal(view)))
                g[0] = state


def fa_options(seed):
    return {"size": (6, 8)[seed % 2], "pirate": seed % 3 != 1, "monsters": ("still", "roaming")[seed % 4 == 1],
            "max_rounds": 12}


def eoa_options(seed):
    return {"family": seed % 3 == 1, "revealed_specials": seed % 2 == 0, "revealed_events": seed % 4 == 3}


def check_views(game, states, slowly):
    """Every seat's view and the spectator's of every position, and now and then of an
    earlier position again (out of order)."""
    seen = []
    for i, state in enumerate(states):
        seen.append(state)
        looks = [(state, seat) for seat in (*range(state.players), None)]
        older = seen[(i * 7919) % len(seen)]
        looks.append((older, i % (older.players + 1) if i % (older.players + 1) < older.players else None))
        for st, seat in looks:
            view = game.view(st, seat)
            assert typed(view) == typed(slowly(st, seat)), (i, seat)
            assert view.seat == seat
    return seen


def test_finding_atlantis_views_and_legal_lists_are_the_obvious_ones_for_every_seat():
    states = check_views(FA, positions(FA, fa_bot, list(range(6)), fa_options), fa_view_slowly)
    assert len({state.players for state in states}) == 3 and any(state.phase == "over" for state in states)
    for state in states[::3]:
        for seat in (*range(state.players), None):  # the seats not to act are offered nothing
            if seat not in FA.to_act(state):
                assert FA.legal(FA.view(state, seat)) == []
        view = FA.view(state, state.turn)
        if view.phase == "play":  # End turn is always offered, last
            assert FA.legal(view)[-1] == EndTurn()


def test_end_of_atlantis_views_legal_lists_and_to_act_are_the_obvious_ones_for_every_seat():
    states = check_views(EOA, positions(EOA, eoa_bot, list(range(4)), eoa_options), eoa_view_slowly)
    assert {state.players for state in states} >= {2, 3, 4, 5}
    assert {state.stage for state in states} >= set(SECRET_BID_STAGES)
    plays = 0
    for state in states:
        rule = STAGES[state.stage]
        assert EOA.to_act(state) == frozenset(rule.actors(state)) == actors_slowly(state)
        assert type(EOA.to_act(state)) is frozenset
        for seat in (*range(state.players), None):  # the seats not to act are offered nothing
            if seat not in EOA.to_act(state):
                assert EOA.legal(EOA.view(state, seat)) == []
        for seat in EOA.to_act(state):
            view = EOA.view(state, seat)
            assert rule.actors(view) == actors_slowly(view) == EOA.to_act(state)
            legal = EOA.legal(view)
            assert legal == rule.choices(state, seat) == rule.choices(view, seat)
            if state.stage == Stage.PLAY and state.effect is None:
                plays += 1
                assert legal[:-1] == play_choices_slowly(view, seat)
                for kind in FEASIBLE:
                    for rider in ("", "alliance", "empath", "winds")[plays % 2::2]:
                        assert FEASIBLE[kind](view, seat, kind, rider) == feasible_slowly(view, seat, kind, rider)
    assert plays > 50


def test_a_view_is_built_positionally_as_the_dataclass_would_build_it_and_stays_frozen():
    @dataclass(frozen=True, slots=True)
    class Little(View):
        seat: int | None
        cells: tuple
        name: str = ""

    made = maker(Little)(1, (2, 3), "x")
    assert type(made) is Little and made == Little(1, (2, 3), "x") and hash(made) == hash(Little(1, (2, 3), "x"))
    assert build(Little, (None, (), "")) == Little(None, (), "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seat = 2

    class Guarded(View):
        __slots__ = ()

        def __setattr__(self, name, value):
            raise AttributeError(name)

    @dataclass(frozen=True, slots=True)
    class Odd(Guarded):  # a base with its own __setattr__: no twin, the descriptor fill
        a: int
        b: tuple

    assert type(build(Odd, (1, ()))) is Odd and build(Odd, (1, ())) == Odd(1, ())
