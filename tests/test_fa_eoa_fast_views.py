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


def eoa_view_slowly(s, seat):
    n, own = s.players, seat is not None
    rows = []
    for p in range(n):
        row = s.voting_cards[p]
        if p == seat:
            rows.append(row)
        elif not s.cards_revealed:
            rows.append((-1,) * len(row))
        else:
            rows.append(tuple(c if s.face_up[p][i] else -1 for i, c in enumerate(row)))
    secret = s.stage in SECRET_BID_STAGES
    bids = tuple(b if p == seat or not secret else (-2 if b >= 0 else -1) for p, b in enumerate(s.bids))
    look = s.demagogos_look
    peeked = PeekedBid(look.target, s.bids[look.target]) if look and own and look.seat == seat and secret else ()
    queue = s.ability_queue
    return EoaView(
        seat=seat, players=n, family=s.family, aggressive_neutrals=s.aggressive_neutrals,
        revealed_events=s.revealed_events, revealed_specials=s.revealed_specials,
        ships_chosen=s.ships_chosen, turn=s.turn, stage=s.stage, vp=s.vp, screen=s.screen,
        senate_pool=s.senate_pool, buildings=s.buildings, promised_land=s.promised_land,
        promised_land_neutrals=s.promised_land_neutrals, camp=s.camp, ships=s.ships,
        hand=s.hands[seat] if own else None, hand_sizes=tuple(len(h) for h in s.hands),
        deck_count=len(s.deck), discard=s.discard, my_specials=s.specials[seat] if own else None,
        special_counts=tuple(len(x) for x in s.specials),
        all_specials=s.specials if s.stage == Stage.OVER else (), special_deck_count=len(s.special_deck),
        special_discard=s.special_discard, face_up_specials=s.face_up_specials,
        faction_holders=s.faction_holders, plus_one=s.plus_one, markers=s.markers,
        faction_order=s.faction_order, faction_queue=s.faction_queue, faction_pos=s.faction_pos,
        faction_passers=s.faction_passers, favour_seat=s.favour_seat, ability_queue=queue,
        archont_discards=s.archont_discards if queue and queue[0].seat == seat else 0,
        vote_cards=s.vote_cards, cards_to_lay=s.cards_to_lay, voting_cards=tuple(rows),
        my_face_down=s.face_down[seat] if own else None, cards_revealed=s.cards_revealed,
        face_up=s.face_up, tokens_on_cards=s.tokens_on_cards, played=s.played, vote=s.vote,
        vote_kind=s.vote_kind, bids=bids, peeked_bid=peeked, demagogos_used=s.demagogos_used,
        open_bidders=s.open_bidders, vote_winners=s.vote_winners, play_queue=s.play_queue,
        card_players=s.card_players, effect=s.effect, last_bids=s.last_bids, last_winners=s.last_winners,
        last_refund=s.last_refund, event=s.event, other_events=s.other_events,
        events_left=s.other_events_left + s.dooms_left + (s.top_event >= 0), top_event=s.top_event,
        doom_markers=s.doom_markers, together_queue=s.together_queue, together_placed=s.together_placed,
        game_winners=s.game_winners, end_reason=s.end_reason,
    )


def actors_slowly(x):
    """Who acts, stage by stage, as the rules say it (what the stage table's ``actors`` answer)."""
    st = x.stage
    if st in (Stage.SENATE, Stage.HIDDEN_VOTE):
        return frozenset(p for p, b in enumerate(x.bids) if b == -1)
    if st == Stage.LAY_CARDS:
        return frozenset(p for p in range(x.players) if len(x.voting_cards[p]) < x.cards_to_lay[p])
    if st == Stage.FACTIONS:
        return frozenset((x.faction_queue[x.faction_pos].seat,))
    if st in (Stage.ABILITIES, Stage.ARCHONT):
        return frozenset((x.ability_queue[0].seat,))
    if st in (Stage.DEMAGOGOS_LOOK, Stage.DEMAGOGOS_REBID, Stage.DEMAGOGOS_CALL):
        return frozenset((x.faction_holders[data.DEMAGOGOS],))
    one = {Stage.OPEN_VOTE: "open_bidders", Stage.PLAY: "play_queue", Stage.TOGETHER: "together_queue"}.get(st)
    return frozenset((getattr(x, one)[0],)) if one else frozenset()


def _fits(kind, frees, tokens):
    if kind == "refugees1":
        return tokens >= 1 and any(f >= 1 for f in frees)
    if kind == "refugees2":
        return tokens >= 2 and any(f >= 2 for f in frees)
    return tokens >= 3 and any(f >= 2 and any(g >= 1 for j, g in enumerate(frees) if j != i)
                               for i, f in enumerate(frees))


def feasible_slowly(x, seat, kind, rider):
    """What ``effects.FEASIBLE`` answers, as the rules say it."""
    port = [(i, free(sh), aboard(sh) - sh.cubes[seat]) for i, sh in enumerate(x.ships) if not sh.at_sea]
    if kind.startswith("refugees"):
        if rider == "alliance":
            return any(_fits(kind, [g + (1 if j == k else 0) for j, (_, g, _) in enumerate(port)], x.screen[seat])
                       for k, (_, _, others) in enumerate(port) if others)
        return _fits(kind, [f for _, f, _ in port], x.screen[seat])
    if kind == "aristocracy":
        need = 2 if rider == "empath" else 1
        return x.screen[seat] >= need and sum(f + o for _, f, o in port) >= need
    if kind == "ships":
        return sum(1 for sh in x.ships if aboard(sh) > 0) >= (3 if rider == "winds" else 2)
    if kind == "royal":
        return any(aboard(sh) > 0 and sh.tile != data.ADVANCED + data.AIRSHIP for sh in x.ships)
    if kind == "sabotage":
        return any(sh.at_sea and sh.tile != data.ADVANCED + data.WARSHIP for sh in x.ships)
    if kind == "betrayal":
        return bool(betrayal_targets(x, seat))
    return bool(x.special_deck_count or x.special_discard or x.face_up_specials)


def play_choices_slowly(x, seat):
    riders = {}
    for c in sorted(x.specials_of(seat)):
        key = data.SPECIAL_KEY[c]
        if data.SPECIAL_KIND[key] == "rider":
            riders.setdefault(key, c)
    out = []
    for source in play_sources(x, seat):
        card = x.voting_cards[source][x.vote]
        if card < 0:
            continue
        kind = data.CARD_KIND[card]
        if feasible_slowly(x, seat, kind, ""):
            out.append(Play(source))
        out += [Play(source, c) for key, c in riders.items()
                if data.rider_fits(key, kind) and feasible_slowly(x, seat, kind, key)]
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
    assert len({s.players for s in states}) == 3 and any(s.phase == "over" for s in states)
    for state in states[::3]:
        for seat in (*range(state.players), None):  # the seats not to act are offered nothing
            if seat not in FA.to_act(state):
                assert FA.legal(FA.view(state, seat)) == []
        view = FA.view(state, state.turn)
        if view.phase == "play":  # End turn is always offered, last
            assert FA.legal(view)[-1] == EndTurn()


def test_end_of_atlantis_views_legal_lists_and_to_act_are_the_obvious_ones_for_every_seat():
    states = check_views(EOA, positions(EOA, eoa_bot, list(range(4)), eoa_options), eoa_view_slowly)
    assert {s.players for s in states} >= {2, 3, 4, 5} and {s.stage for s in states} >= set(SECRET_BID_STAGES)
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
