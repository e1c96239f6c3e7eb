"""``Match.record`` is built when first read: whenever that is, it is the record an eager
build would give, byte for byte (header, start digest, every move and its digest)."""

from __future__ import annotations

from engine.core import SeatInfo
from engine.match import Match
from engine.options import options_data
from engine.record import GameRecord, digest
from engine.registry import get_game

SLUG, SEED, MOVES = "atlantis", 11, 60


def _play(read_at: int | None = None, undo_every: int = 0, listen_at: int | None = None):
    """Random bots for ``MOVES`` moves; the record first read after move ``read_at``
    (0: before any move, None: only at the end)."""
    game = get_game(SLUG)
    match = Match(game, {}, [SeatInfo("A", "bot"), SeatInfo("B", "bot"), SeatInfo("C", "bot")], SEED)
    start = match.state
    bots = [game.make_bot(i, SEED, "random") for i in range(3)]
    heard: list = []
    undone = 0
    for k in range(MOVES + 1):
        if k == read_at:
            assert len(match.record.moves) == len(match.history)
        if k == listen_at:
            match.on_move = heard.append
        if k == MOVES or match.result() is not None:
            break
        seat = min(match.to_act())
        view = match.view(seat)
        match.act(seat, bots[seat].choose(view, game.legal(view)))
        if undo_every and k % undo_every == 0 and match.undo_reason(seat) is None:
            match.undo(seat)
            undone += 1
    return match, start, heard, undone


def test_a_record_read_late_is_the_record_read_at_the_start():
    eager, start, _, _ = _play(read_at=0)
    for read_at in (None, 1, 17):
        late, _, _, _ = _play(read_at=read_at)
        assert late.record.to_bytes() == eager.record.to_bytes()
    assert eager.record.start_digest == digest(start)
    assert [m.digest for m in eager.record.moves] == [digest(s.after) for s in eager.history]


def test_undo_before_the_record_is_read_leaves_it_as_the_history():
    eager, _, _, undone = _play(read_at=0, undo_every=3)
    late, _, _, _ = _play(undo_every=3)
    assert undone  # (some moves were undone: the test says something)
    assert len(late.record.moves) == len(late.history) == len(eager.history)
    assert late.record.to_bytes() == eager.record.to_bytes()
    again = Match.from_record(GameRecord.from_bytes(late.record.to_bytes()), get_game(SLUG))
    assert again.digest() == late.digest()


def test_a_listener_set_mid_game_hears_the_records_own_moves():
    match, _, heard, _ = _play(listen_at=9)
    moves = match.record.moves
    assert len(heard) == len(moves) - 9
    assert all(a is b for a, b in zip(heard, moves[9:]))
    assert [GameRecord.move_bytes(m) for m in heard] == [GameRecord.move_bytes(m) for m in moves[9:]]


def test_the_header_is_taken_when_the_match_is_made():
    game = get_game(SLUG)
    match = Match(game, {}, [SeatInfo("A", "bot"), SeatInfo("B", "bot")], SEED)
    match.seats[0] = SeatInfo("Z", "human")  # (a later change of seats is not the record's)
    record = match.record
    assert record.seats == [SeatInfo("A", "bot"), SeatInfo("B", "bot")]
    assert (record.game, record.seed, record.practice, record.options) == (
        SLUG, SEED, True, options_data(match.options))
