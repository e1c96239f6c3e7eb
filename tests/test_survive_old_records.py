"""A record of Survive's rules before survive-2 (where a swimmer that swam could still
step ashore in the same turn) is refused where it no longer fits: ``atlantis replay
--verify`` notes the two rules versions and names the move and why; resuming it fails
with the same sentence."""

from __future__ import annotations

import pytest

from engine.core import SeatInfo
from engine.match import Match
from engine.record import GameRecord, Move, RecordError
from engine.storage import load_record, save_record
from engine.survive import data
from engine.survive.rules import SurviveGame
from engine.survive.actions import Ashore, Swim
from tui.cli import main

GAME = SurviveGame()


def _swim_onto_an_entrance() -> tuple[Match, int]:
    """A game of bots up to a swim onto a safe island's entrance, the swimmer's turn
    going on."""
    for seed in range(20):
        match = Match(GAME, {}, [SeatInfo("Red", "bot"), SeatInfo("Blue", "bot")], seed)
        bots = [GAME.make_bot(i, seed, "normal") for i in range(2)]
        while match.result() is None:
            (seat,) = match.to_act()
            action = bots[seat].choose(match.view(seat), match.legal(seat))
            match.act(seat, action)
            if type(action) is Swim and data.ENTRANCE_OF[action.to] >= 0 and match.state.phase == "move":
                return match, action.explorer
    raise AssertionError("no bot swam onto an entrance")


def test_an_old_record_with_a_step_ashore_after_a_swim_is_refused_naming_the_move(tmp_path, capsys):
    match, e = _swim_onto_an_entrance()
    record = match.record
    seat = e // data.EXPLORERS_PER_SEAT
    record.moves.append(Move(seat, GAME.codec.encode(Ashore(e)), "0" * 32))  # legal under survive-1
    record.rules_version = "survive-1"
    path = save_record(record, tmp_path / "old.atlrec")
    assert main(["replay", str(path), "--verify"]) == 1
    out, err = capsys.readouterr()
    assert "recorded with rules survive-1, this program has survive-2" in err
    assert f"move {len(record.moves)} (ashore by seat {seat}) is illegal" in out
    assert "without having swum this turn" in out
    with pytest.raises(RecordError, match="without having swum this turn"):
        Match.from_record(load_record(path), GAME)
