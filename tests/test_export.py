"""``atlantis export`` / ``import``: a readable transcript and a documented JSON form of a
record; an unfinished game only as one seat saw it (never the seed); a finished game's
JSON turned back into a record that ``replay --verify`` accepts."""

from __future__ import annotations

import json

import pytest

from engine.core import SeatInfo
from engine.match import Match
from engine.registry import GAMES
from engine.storage import save_record
from tui.cli import main
from tui.export import ExportError, Replayed, export_json, export_text, record_from_json

SEED = 123456789012345678901234567890


def played(slug: str, moves: int = 100_000, seed: int = SEED) -> Match:
    game = GAMES[slug]
    players = game.min_players
    match = Match(game, {}, [SeatInfo(n, "bot") for n in game.seat_names[:players]], seed, practice=False)
    bots = [game.make_bot(i, 7, "random") for i in range(players)]
    for _ in range(moves):
        if match.result() is not None:
            break
        seat = min(match.to_act())
        match.submit(seat, bots[seat].choose(match.view(seat), match.legal(seat)))
    return match


@pytest.fixture(scope="module", params=sorted(GAMES))
def finished(request, tmp_path_factory):
    match = played(request.param)
    assert match.result() is not None
    path = save_record(match.record, tmp_path_factory.mktemp("rec") / "game.atlrec")
    return match, path


def test_text_has_a_numbered_line_per_move_and_the_secrets_at_the_end(finished, capsys):
    match, path = finished
    assert main(["export", str(path), "--text"]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    moves = [line for line in lines if line.split(".")[0].strip().isdigit()]
    assert len(moves) == len(match.record.moves)
    assert moves[0].lstrip().startswith("1. ") and moves[-1].lstrip().startswith(f"{len(match.record.moves)}. ")
    assert f"# Seed: {SEED}" in text
    hidden = match.game.reveal(match.state, match.names)
    if hidden:
        assert "# What was hidden" in text and hidden[-1] in text


def test_json_round_trips_into_a_record_replay_verify_accepts(finished, tmp_path, capsys):
    match, path = finished
    assert main(["export", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "atlantis-export" and data["finished"] and data["seed"] == str(SEED)
    assert [m["digest"] for m in data["moves"]] == [m.digest for m in match.record.moves]
    source = tmp_path / "game.json"
    source.write_text(json.dumps(data))
    out = tmp_path / "again.atlrec"
    assert main(["import", str(source), str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "--verify"]) == 0
    assert "every digest matches" in capsys.readouterr().out
    assert record_from_json(data).to_bytes() == match.record.to_bytes()


def test_a_changed_move_in_the_json_is_refused_on_import(finished, tmp_path, capsys):
    match, path = finished
    data = export_json(Replayed(match.record, match.game))
    data["moves"][-1]["digest"] = "0" * 32
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(data))
    assert main(["import", str(source), str(tmp_path / "bad.atlrec")]) == 2
    assert "does not replay" in capsys.readouterr().err
    assert not (tmp_path / "bad.atlrec").exists()


def test_an_unfinished_game_exports_only_one_seat_and_never_the_seed(tmp_path, capsys):
    match = played("end-of-atlantis", moves=40)
    assert match.result() is None
    path = save_record(match.record, tmp_path / "open.atlrec")
    for form in ("--text", "--json"):
        assert main(["export", str(path), form]) == 2
        assert "--seat N" in capsys.readouterr().err
    replayed = Replayed(match.record, match.game)
    for seat in range(len(match.seats)):
        assert main(["export", str(path), "--json", "--seat", str(seat)]) == 0
        out = capsys.readouterr().out
        assert str(SEED) not in out
        data = json.loads(out)
        assert "seed" not in data and "moves" not in data and data["seat"] == seat
        seen = [e for step in match.history for e in step.events if e.visible_to(seat)]
        assert [e["kind"] for e in data["events"]] == [e.kind for e in seen]
        assert main(["export", str(path), "--text", "--seat", str(seat)]) == 0
        text = capsys.readouterr().out
        assert str(SEED) not in text and "(secret," not in text
        with pytest.raises(ExportError):
            record_from_json(export_json(replayed, seat))
    assert export_text(replayed, 0) == export_text(Replayed(match.record, match.game), 0)
