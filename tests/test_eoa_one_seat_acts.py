"""End of Atlantis's stage table says who acts (``rules.actors``), on the state and on every
seat's view alike, and a seat to act always has a choice.  Checked here against the
obvious answer, written out in this file, over every position of seeded random games
played two at a time, move by move alternately."""

from __future__ import annotations

from engine.end_of_atlantis.bot import make_bot
from engine.end_of_atlantis.rules import EndOfAtlantisGame, actors
from engine.end_of_atlantis.state import Stage, row_lengths

GAME = EndOfAtlantisGame()
DEMAGOGOS = 2  # data.DEMAGOGOS, written out


def acts_slowly(state, seat):
    """Is ``seat`` among those to act, as the rules say it stage by stage."""
    st = state.stage
    if st in (Stage.SENATE, Stage.HIDDEN_VOTE):
        return state.bids[seat] == -1
    if st == Stage.LAY_CARDS:
        return len(state.voting_cards[seat]) < state.cards_to_lay[seat]
    if st == Stage.FACTIONS:
        return state.faction_queue[state.faction_pos].seat == seat
    if st in (Stage.ABILITIES, Stage.ARCHONT):
        return state.ability_queue[0].seat == seat
    if st in (Stage.DEMAGOGOS_LOOK, Stage.DEMAGOGOS_REBID, Stage.DEMAGOGOS_CALL):
        return state.faction_holders[DEMAGOGOS] == seat
    queue = {Stage.OPEN_VOTE: "open_bidders", Stage.PLAY: "play_queue", Stage.TOGETHER: "together_queue"}.get(st)
    return bool(queue) and getattr(state, queue)[0] == seat


def interleaved_positions(seeds):
    """Every position of random games, two matches at a time, a move of each in turn."""
    for a, b in zip(seeds[::2], seeds[1::2]):
        games = []
        for seed in (a, b):
            players = 2 + seed % 4
            options = {"family": seed % 3 == 1, "revealed_specials": seed % 2 == 0}
            games.append([GAME.setup(GAME.parse_options(options), players, seed),
                          [make_bot(i, seed, "random") for i in range(players)]])
        while games:
            for g in list(games):
                state, bots = g
                yield state
                if GAME.result(state) is not None:
                    games.remove(g)
                    continue
                seat = min(GAME.to_act(state))
                view = GAME.view(state, seat)
                g[0], _ = GAME.apply(state, seat, bots[seat].choose(view, GAME.legal(view)))


def test_end_of_atlantis_one_seat_acts_exactly_when_the_rules_say_it_is_among_those_to_act():
    stages = set()
    laying = 0
    for state in interleaved_positions(list(range(10, 16))):
        stages.add(state.stage)
        for seat in range(state.players):
            view = GAME.view(state, seat)
            slow = acts_slowly(state, seat)
            assert (seat in actors(state)) == slow == (seat in GAME.to_act(state)), (state.stage, seat)
            assert (seat in actors(view)) == acts_slowly(view, seat) == slow, (view.stage, seat)
            assert (GAME.legal(view) != []) == slow  # a seat to act always has a choice
        if state.stage == Stage.LAY_CARDS:
            laying += 1
            spectator = GAME.view(state, None)
            for seen in (state, spectator, GAME.view(state, laying % state.players)):
                assert row_lengths(seen.voting_cards) == tuple(len(row) for row in seen.voting_cards)
    assert stages >= {Stage.SENATE, Stage.FACTIONS, Stage.LAY_CARDS, Stage.HIDDEN_VOTE, Stage.OPEN_VOTE,
                      Stage.PLAY, Stage.OVER}
    assert laying > 100
