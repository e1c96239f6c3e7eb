"""Game records: save/load, replay with digests, and clear one-line errors for
every kind of bad file."""

from __future__ import annotations

import msgpack
import pytest

from engine.core import IllegalAction, SeatInfo
from engine.match import Match
from engine.pathways.rules import PathwaysGame
from engine.record import (
    FORMAT_VERSION,
    MAGIC,
    GameRecord,
    Move,
    RecordError,
    digest,
)
from engine.match import replay_states
from engine.rng import Rng
from engine.storage import load_record, save_record

GAME = PathwaysGame()


def played_match(seed: int = 3, players: int = 3, moves: int = 60, **options) -> Match:
    match = Match(GAME, options, [SeatInfo(f"P{i}", "bot" if i else "human") for i in range(players)], seed)
    bots = [GAME.make_bot(i, seed, "random") for i in range(players)]
    for _ in range(moves):
        if match.result() is not None:
            break
        (seat,) = match.to_act()
        match.submit(seat, bots[seat].choose(match.view(seat), match.legal(seat)))
    return match


def bad(data: bytes, *words: str) -> str:
    with pytest.raises(RecordError) as info:
        GameRecord.from_bytes(data)
    msg = str(info.value)
    assert msg and "\n" not in msg, msg
    for w in words:
        assert w in msg, msg
    return msg


@pytest.fixture(scope="module")
def match() -> Match:
    return played_match()


# --- round trips ----------------------------------------------------------------------
def test_save_and_load_round_trip(match, tmp_path):
    path = save_record(match.record, tmp_path / "sub" / "game.atl")
    assert path.exists() and not path.with_name("game.atl.tmp").exists()
    loaded = load_record(path)
    assert loaded == match.record
    assert loaded.seats == [SeatInfo("P0", "human"), SeatInfo("P1", "bot"), SeatInfo("P2", "bot")]
    assert loaded.to_bytes() == match.record.to_bytes()


def test_record_holds_options_seed_and_a_digest_per_move(match):
    rec = match.record
    assert rec.game == "pathways" and rec.rules_version == GAME.rules_version
    assert rec.seed == 3 and rec.options == {"max_rounds": 60}
    assert len(rec.moves) == 60
    assert all(len(m.digest) == 32 for m in rec.moves)
    assert rec.moves[-1].digest == match.digest()


def test_match_from_record_rebuilds_the_same_digest(match):
    again = Match.from_record(GameRecord.from_bytes(match.record.to_bytes()), GAME)
    assert again.digest() == match.digest()
    assert again.record.to_bytes() == match.record.to_bytes()
    for seat in [0, 1, 2, None]:
        assert again.view(seat) == match.view(seat)


def test_finished_game_replays_to_the_same_result():
    m = played_match(seed=8, players=2, moves=5000, max_rounds=6)
    assert m.result() is not None
    again = Match.from_record(GameRecord.from_bytes(m.record.to_bytes()), GAME)
    assert again.result() == m.result() and again.digest() == m.digest()


def test_record_can_be_written_move_by_move(match):
    """The append-only stream (auto-save, host crash log) equals the saved file."""
    header = GameRecord(match.record.game, match.record.rules_version, match.record.options,
                        match.record.seats, match.record.seed, match.record.start_digest,
                        practice=match.record.practice)
    stream = header.to_bytes() + b"".join(GameRecord.move_bytes(m) for m in match.record.moves)
    assert stream == match.record.to_bytes()


def test_on_move_callback_sees_every_move():
    seen: list[Move] = []
    m = Match(GAME, {}, [SeatInfo("a"), SeatInfo("b")], 5, on_move=seen.append)
    bots = [GAME.make_bot(i, 5, "random") for i in range(2)]
    for _ in range(10):
        (seat,) = m.to_act()
        m.submit(seat, bots[seat].choose(m.view(seat), m.legal(seat)))
    assert seen == m.record.moves


def test_replay_states_yields_every_state_with_no_problem(match):
    states = list(replay_states(match.record, GAME))
    assert [i for i, _, _ in states] == list(range(61))
    assert all(problem is None for _, _, problem in states)
    assert digest(states[-1][1]) == match.digest()


# --- bad files --------------------------------------------------------------------------
def test_empty_file_is_refused():
    bad(b"", "empty")


def test_truncated_file_is_refused(match):
    data = match.record.to_bytes()
    msg = bad(data[:-3], "truncated")
    assert "move 59" in msg or "move 60" in msg
    bad(data[:5], "truncated")  # inside the header


def test_corrupt_bytes_are_refused(match):
    data = match.record.to_bytes()
    bad(b"\xc1" + data, "corrupt")  # 0xc1 is never used by msgpack
    bad(b"\x93\x01\x02\x03", "magic")  # a valid msgpack array, not a header
    bad(msgpack.packb("hello"), "magic")


def test_wrong_magic_is_refused(match):
    header = match.record.header_map() | {"magic": "something-else"}
    bad(msgpack.packb(header), "not an atlantis record")
    header.pop("magic")
    bad(msgpack.packb(header), "magic")


def test_newer_format_is_refused(match):
    header = match.record.header_map() | {"format": FORMAT_VERSION + 1}
    msg = bad(msgpack.packb(header), "format")
    assert str(FORMAT_VERSION + 1) in msg
    bad(msgpack.packb(match.record.header_map() | {"format": 0}), "format")
    bad(msgpack.packb(match.record.header_map() | {"format": "1"}), "format")


def test_record_from_an_older_version_says_so_in_one_line(match):
    """Format 1 drew its shuffles from 64-bit SplitMix64 keys: replaying it with this
    version's generator would give a different game, so it is refused, never replayed."""
    old = match.record.header_map() | {"format": 1, "seed": 5, "rules": "pathways-1"}
    old.pop("practice")
    msg = bad(msgpack.packb(old), "older version")
    assert "format 1" in msg and "\n" not in msg


def test_record_keeps_a_128_bit_seed_and_the_practice_flag(match, tmp_path):
    from engine.rng import new_seed

    secret = Match(GAME, {}, [SeatInfo("a"), SeatInfo("b")])
    assert not secret.practice and secret.seed.bit_length() > 64
    back = GameRecord.from_bytes(secret.record.to_bytes())
    assert back.seed == secret.seed and back.practice is False
    assert match.practice and GameRecord.from_bytes(match.record.to_bytes()).practice is True
    assert Match.from_record(back, GAME).digest() == secret.digest()
    assert new_seed() != new_seed()


def test_malformed_header_is_refused(match):
    h = match.record.header_map()
    bad(msgpack.packb(h | {"seed": 3}), "malformed")  # format 2 keeps the seed as text
    bad(msgpack.packb(h | {"seed": "abc"}), "malformed")
    bad(msgpack.packb(h | {"seed": "-3"}), "malformed")
    bad(msgpack.packb({k: v for k, v in h.items() if k != "practice"}), "malformed")
    bad(msgpack.packb({k: v for k, v in h.items() if k != "game"}), "malformed")
    bad(msgpack.packb(h | {"seats": [["a"]]}), "malformed")
    bad(msgpack.packb(h | {"seats": 5}), "malformed")


def test_malformed_move_is_refused(match):
    head = msgpack.packb(match.record.header_map())
    bad(head + msgpack.packb({"seat": "0", "action": {}, "digest": ""}), "move 1 is malformed")
    bad(head + msgpack.packb([1, 2]), "move 1 is malformed")


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(RecordError) as info:
        load_record(tmp_path / "nope.atl")
    assert "\n" not in str(info.value) and "nope.atl" in str(info.value)


def test_random_damage_only_ever_raises_record_error(match):
    """Flip, cut and insert bytes: the loader answers with a record or a
    RecordError, and replaying what it returns fails only with RecordError."""
    data = match.record.to_bytes()
    rng = Rng.from_seed(99, "fuzz")
    for _ in range(300):
        buf = bytearray(data)
        kind, rng = rng.below(3)
        pos, rng = rng.below(len(buf))
        val, rng = rng.below(256)
        if kind == 0:
            buf[pos] = val
        elif kind == 1:
            del buf[pos:pos + val]
        else:
            buf[pos:pos] = bytes([val]) * 3
        try:
            rec = GameRecord.from_bytes(bytes(buf))
        except RecordError as exc:
            assert "\n" not in str(exc)
            continue
        try:
            Match.from_record(rec, GAME)
        except RecordError as exc:
            assert "\n" not in str(exc)


# --- replays prove themselves -------------------------------------------------------------
def _tampered(match, index: int, **change) -> GameRecord:
    rec = GameRecord.from_bytes(match.record.to_bytes())
    m = rec.moves[index - 1]
    rec.moves[index - 1] = Move(change.get("seat", m.seat), change.get("action", m.action),
                                change.get("digest", m.digest))
    return rec


def test_tampered_digest_is_detected(match):
    rec = _tampered(match, 17, digest="0" * 32)
    problems = [(i, p) for i, _, p in replay_states(rec, GAME) if p]
    assert len(problems) == 1
    i, problem = problems[0]
    assert i == 17 and problem.startswith("move 17 ") and "0" * 32 in problem
    assert "\n" not in problem
    with pytest.raises(RecordError, match="move 17 .*different digest"):
        Match.from_record(rec, GAME)


def test_tampered_action_is_detected(match):
    rec = _tampered(match, 5, action={"k": "rotate", "cell": 44, "rot": 1})
    *_, (i, _, problem) = replay_states(rec, GAME)
    assert i == 5 and "illegal" in problem
    with pytest.raises(RecordError, match="move 5 .*illegal"):
        Match.from_record(rec, GAME)
    rec2 = _tampered(match, 3, action={"k": "no-such-move"})
    with pytest.raises(RecordError, match="move 3"):
        Match.from_record(rec2, GAME)
    rec3 = _tampered(match, 3, seat=2)  # not that seat's turn
    with pytest.raises(RecordError, match="move 3"):
        Match.from_record(rec3, GAME)


def test_tampered_start_is_detected(match):
    rec = GameRecord.from_bytes(match.record.to_bytes())
    rec.seed += 1
    (i, _, problem), = list(replay_states(rec, GAME))
    assert i == 0 and "starting position" in problem
    with pytest.raises(RecordError, match="starting position"):
        Match.from_record(rec, GAME)


def test_record_of_another_game_is_refused(match):
    rec = GameRecord.from_bytes(match.record.to_bytes())
    rec.game = "survive"
    with pytest.raises(RecordError, match="survive"):
        Match.from_record(rec, GAME)


def test_record_with_bad_options_or_seats_is_refused(match):
    rec = GameRecord.from_bytes(match.record.to_bytes())
    rec.options = {"max_rounds": 1}
    with pytest.raises(RecordError, match="cannot be set up"):
        Match.from_record(rec, GAME)
    assert "setup failed" in next(iter(replay_states(rec, GAME)))[2]
    rec2 = GameRecord.from_bytes(match.record.to_bytes())
    rec2.seats = rec2.seats * 2
    with pytest.raises(RecordError, match="cannot be set up"):
        Match.from_record(rec2, GAME)


# --- Match basics the records rely on -----------------------------------------------------
def test_match_refuses_moves_out_of_turn_and_after_the_end():
    m = Match(GAME, {}, [SeatInfo("a"), SeatInfo("b")], 1)
    with pytest.raises(IllegalAction, match="not your turn"):
        m.submit(1, GAME.legal(GAME.view(m.state, 0))[0])
    assert m.record.moves == [] and m.legal(1) == []
    done = played_match(seed=8, players=2, moves=5000, max_rounds=6)
    with pytest.raises(IllegalAction, match="over"):
        done.submit(0, GAME.codec.decode({"k": "end_move"}))


def test_illegal_submit_changes_nothing():
    m = Match(GAME, {}, [SeatInfo("a"), SeatInfo("b")], 1)
    before = m.digest()
    with pytest.raises(IllegalAction):
        m.submit(0, GAME.codec.decode({"k": "end_move"}))
    assert m.digest() == before and m.record.moves == [] and m.history == []


def test_undo_follows_the_strict_rule():
    from engine.pathways.actions import END_MOVE, Rotate

    m = Match(GAME, {}, [SeatInfo("a"), SeatInfo("b")], 1)
    assert m.undo_reason(0) == "There is nothing to undo."
    place = next(a for a in m.legal(0) if type(a).__name__ == "Place")
    m.submit(0, place)
    assert "cannot undo" in m.undo_reason(0)          # a tile was shown from the hand
    with pytest.raises(IllegalAction):
        m.undo(0)
    assert m.undo_reason(1) == "You cannot undo another player's move."
    # a rotation shows nothing and draws nothing: it can be taken back
    m2 = Match(GAME, {}, [SeatInfo("a"), SeatInfo("b")], 1)
    m2.submit(0, next(a for a in m2.legal(0) if type(a).__name__ == "Place"))
    m2.submit(0, next(a for a in m2.legal(0) if type(a).__name__ == "Place"))
    m2.submit(0, END_MOVE)  # draws: a barrier
    rot = next(a for a in m2.legal(1) if isinstance(a, Rotate))
    before = m2.digest()
    m2.submit(1, rot)
    assert m2.undo_reason(1) is None
    deliveries = m2.undo(1)
    assert m2.digest() == before and len(m2.record.moves) == 3
    assert all(d.events[0].kind == "undo" for d in deliveries.values())
    assert m2.undo_reason(1) == "You cannot undo another player's move."


@pytest.mark.parametrize("action", [
    {"k": "end\nmove"}, {"k": "x" * 100_000}, {"k": ["a\n"] * 50},
    {"k": "end_move", "bad\nfield": 1}, {"k": "end_move", "f" * 5000: 1},
])
def test_errors_about_hostile_actions_stay_one_short_line(match, action):
    """Action kinds and field names come from files and the wire: they are
    escaped and cut short in messages (regression: a newline in a kind made a
    two-line RecordError, a huge kind a 200 KB one)."""
    rec = _tampered(match, 3, action=action)
    with pytest.raises(RecordError) as info:
        Match.from_record(rec, GAME)
    msg = str(info.value)
    assert msg.startswith("move 3 (") and "\n" not in msg and len(msg) < 300, msg
    *_, (i, _, problem) = replay_states(rec, GAME)
    assert i == 3 and "\n" not in problem and len(problem) < 300


def test_saving_to_a_special_file_writes_into_it_and_keeps_it(tmp_path):
    """`--log /dev/null` must not replace the device: a target that is not a
    regular file is written to directly, never renamed over."""
    import os
    import stat
    import threading

    from engine.record import GameRecord as _Record

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    rec = _Record(game="pathways", rules_version="x", options={}, seats=[], seed=1)
    save_record(rec, fifo)
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got and got[0] == rec.to_bytes()


def test_records_are_written_0600_in_a_0700_folder(tmp_path):
    import stat

    match = played_match(moves=5)
    path = save_record(match.record, tmp_path / "new" / "deep" / "game.atlrec")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.parent.parent.stat().st_mode) == 0o700
    wide = tmp_path / "wide"
    wide.mkdir(mode=0o755)
    wide.chmod(0o755)
    (wide / "old.atlrec").write_bytes(b"x")
    (wide / "old.atlrec").chmod(0o644)
    from engine import storage as files

    with pytest.warns(files.PrivacyWarning, match="may be entered by other users"):
        save_record(match.record, wide / "old.atlrec")  # the file is replaced by a 0600 one
    assert stat.S_IMODE(wide.stat().st_mode) == 0o755  # an existing folder is the user's: never chmodded
    assert stat.S_IMODE((wide / "old.atlrec").stat().st_mode) == 0o600
    assert load_record(wide / "old.atlrec").moves == match.record.moves


def test_record_file_names_never_hold_the_seed():
    from tui.common import default_record_path
    from tui.lan.commands import host_log_path

    a, b = default_record_path("pathways"), host_log_path("pathways")
    assert a.name.startswith("pathways-") and a.suffix == ".atlrec" and "-host-" in b.name
    assert a != default_record_path("pathways")  # a random tag: two games never collide


def test_a_shared_sticky_folder_like_tmp_is_never_tightened(tmp_path):
    import stat

    from engine import storage as files

    shared = tmp_path / "sticky"
    shared.mkdir()
    shared.chmod(0o1777)
    files.write_private(shared / "x.atlrec", b"data")
    assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert stat.S_IMODE((shared / "x.atlrec").stat().st_mode) == 0o600


def test_match_replay_gives_each_moves_events_and_stops_at_the_first_problem(match):
    steps = list(Match.replay(match.record, GAME))
    assert [s.index for s in steps] == list(range(len(match.record.moves) + 1))
    assert steps[0].events == () and all(s.problem is None for s in steps)
    assert all(s.events for s in steps[1:])  # every move says something
    assert steps[-1].state == match.state
    rec = GameRecord.from_bytes(match.record.to_bytes())
    rec.moves[3].digest = "0" * 32
    *_, last = Match.replay(rec, GAME)
    assert last.index == 4 and "move 4" in last.problem


def test_only_match_calls_apply_outside_the_game_packages():
    """The screens, the host, the client and the arena play through Match (act / replay).
    The one exception is the hard bot's search, which plays out imagined states sampled
    from its own view and never touches a table."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    offenders = []
    for folder in ("tui", "netplay", "engine"):
        for path in (root / folder).rglob("*.py"):
            if folder == "engine" and path.parent != root / "engine":
                continue  # a game package may call its own helpers
            if path.name == "match.py" or path.relative_to(root).as_posix() == "engine/search.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "apply":
                    offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert offenders == []


def test_lazily_made_moves_hold_the_digest_and_action_of_every_position(match):
    """``Match.act`` digests and encodes a move only when it is read: what is read must be
    the digest of the state after that move and the encoded action, as if made at once."""
    for step, move in zip(match.history, match.record.moves):
        assert move.digest == digest(step.after)
        assert move.action == GAME.codec.encode(step.action)
        assert move == Move(step.seat, GAME.codec.encode(step.action), digest(step.after))
    fresh = Move.lazy(0, match.history[0].action, GAME.codec.encode, match.history[0].after)
    fresh.digest = "0" * 32  # a value set before the first read wins over the lazy one
    assert fresh.digest == "0" * 32 and fresh.action == match.record.moves[0].action


def test_undo_barrier_asked_late_is_the_games_own_answer(match):
    for step in match.history:
        assert step.barrier == GAME.undo_barrier(step.before, step.after, step.seat, step.action)


def test_each_seat_is_delivered_only_the_events_it_may_see():
    m = played_match(moves=40)
    private = 0
    for i, step in enumerate(m.history):  # replayed through submit, every delivery checked
        if i == 0:
            probe = Match(GAME, {}, m.seats, m.seed)
        out = probe.submit(step.seat, step.action)
        assert set(out) == {*range(len(m.seats)), None}
        private += any(e.to is not None for e in step.events)
        for who, delivery in out.items():
            assert delivery.events == tuple(e for e in step.events if e.visible_to(who))
            assert delivery.view == GAME.view(probe.state, who)
    assert private  # some moves drew tiles: a private event for the drawer alone
