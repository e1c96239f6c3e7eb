"""``atlantis export`` and ``atlantis import``: records a person can read and share.

A record (``.atlrec``, or a host's log) is binary msgpack holding the seed, so it
tells every secret.  ``export`` makes of it:

* ``--text``: a transcript, one line per move in the game's own words (each seat's
  secret events marked with their seat), numbered by move, then everything that was
  hidden, like a chess PGN's move list;
* ``--json``: the same game as a documented JSON object (README, "Exported games"),
  which ``atlantis import`` turns back into a record ``replay --verify`` accepts.

A game still being played exports only as one seat saw it (``--seat N``): that seat's
events and its view, never the seed nor anyone's actions; a finished game exports
everything.  The engine does no I/O, so reading and writing the files is here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.core import Event, Game, SeatInfo, to_data
from engine.match import Match
from engine.record import GameRecord, Move, RecordError
from engine.registry import GAMES
from engine.text import counted

from .common import holds_record, replace_problem
from .seat_links import secret_line

EXPORT_FORMAT = "atlantis-export"
EXPORT_VERSION = 1


class ExportError(Exception):
    """Why a record cannot be exported (or an export imported): one sentence."""


class Replayed:
    """A record replayed: every position and the events of the move into it."""

    def __init__(self, record: GameRecord, game: Game, bot_moves: set[int] = frozenset()):
        """``bot_moves``: the moves (numbered from 1) a host's bot made for a player (a
        host log marks them): the transcript says so."""
        self.record = record
        self.game = game
        self.bot_moves = set(bot_moves)
        self.names = [s.name for s in record.seats]
        self.states: list[Any] = []
        self.events: list[tuple[Event, ...]] = []
        for step in Match.replay(record, game):
            if step.problem:
                raise ExportError(f"the record does not replay: {step.problem}")
            self.states.append(step.state)
            self.events.append(step.events)

    @property
    def final(self) -> Any:
        return self.states[-1]

    @property
    def result(self) -> Any:
        return self.game.result(self.final)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def line(self, event: Event, seat: int | None) -> str:
        """An event in words: as ``seat`` saw it, or (``seat`` None) as the whole table
        reads it after the game, a secret one told in the third person after its seats."""
        if seat is not None or not event.to:
            return self.game.describe(event, seat, self.names).text
        return secret_line(self.game, event, self.names).text

    def move_lines(self, seat: int | None) -> list[tuple[int, int, list[str]]]:
        """``(move number, acting seat, lines)`` of every move (``seat``: only the events it saw)."""
        out = []
        for n, move in enumerate(self.record.moves, start=1):
            events = self.events[n] if seat is None else [e for e in self.events[n] if e.visible_to(seat)]
            out.append((n, move.seat, [self.line(e, seat) for e in events]))
        return out


def load(path: Path) -> Replayed:
    from engine.storage import load_record
    from netplay.log import read_log

    try:
        record = load_record(path)
    except RecordError as exc:
        raise ExportError(str(exc)) from None
    game = GAMES.get(record.game)
    if game is None:
        raise ExportError(f"it is a record of the game {record.game[:40]!r}, which this program does not know")
    try:  # (a host's log says which moves a bot made for a player)
        bot_moves = read_log(path).bot_moves
    except RecordError:
        bot_moves = set()
    return Replayed(record, game, bot_moves)


def _check_seat(game: Replayed, seat: int | None) -> None:
    if seat is None and not game.finished:
        raise ExportError("this game is not finished: its record holds the seed and every secret, so it "
                          "exports only as one seat saw it (--seat N)")
    if seat is not None and not 0 <= seat < len(game.names):
        raise ExportError(f"--seat {seat}: the game has seats 0 to {len(game.names) - 1}")


def _seats_text(game: Replayed) -> str:
    return ", ".join(f"{i} {s.name} ({s.bot_level + ' bot' if s.kind == 'bot' else s.kind})"
                     for i, s in enumerate(game.record.seats))


def _result_text(game: Replayed) -> str:
    result = game.result
    if result is None:
        return "not finished"
    winners = ", ".join(game.names[w] for w in result.winners) or "none"
    scores = ", ".join(f"{game.names[i]} {s:g}" for i, s in enumerate(result.scores))
    return f"{result.reason}; {'winner' if len(result.winners) == 1 else 'winners'}: {winners} (scores: {scores})"


def export_text(game: Replayed, seat: int | None = None) -> str:
    """The transcript: a header, one line per move, and (a whole finished game) what was hidden."""
    _check_seat(game, seat)
    rec = game.record
    out = [f"# {game.game.title} ({rec.game}), rules {rec.rules_version}",
           f"# Seats: {_seats_text(game)}",
           f"# Options: {json.dumps(rec.options, sort_keys=True)}"]
    if seat is None:
        out.append(f"# Seed: {rec.seed}" + (" (practice: seed known)" if rec.practice else ""))
    else:
        out.append(f"# As {game.names[seat]} (seat {seat}) saw it")
    out.append(f"# Result: {_result_text(game)}")
    out.append("")
    width = len(str(len(rec.moves)))
    for n, actor, lines in game.move_lines(seat):
        said = " ".join(lines) if lines else "(nothing this seat saw)"
        who = f"{game.names[actor]} (the bot for its player)" if n in game.bot_moves else game.names[actor]
        out.append(f"{n:>{width}}. {who}: {said}")
    if seat is None:
        hidden = game.game.reveal(game.final, game.names)
        if hidden:
            out += ["", "# What was hidden"] + list(hidden)
    return "\n".join(out) + "\n"


def export_json(game: Replayed, seat: int | None = None) -> dict[str, Any]:
    """The game as a JSON object (README, "Exported games")."""
    _check_seat(game, seat)
    rec = game.record
    result = game.result
    out: dict[str, Any] = {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION,
        "game": rec.game, "title": game.game.title, "rules": rec.rules_version,
        "options": rec.options,
        "seats": [{"name": s.name, "kind": s.kind, **({"level": s.level} if s.level else {})} for s in rec.seats],
        "practice": rec.practice, "finished": result is not None,
        "result": None if result is None else {"scores": list(result.scores), "winners": list(result.winners),
                                               "reason": result.reason},
    }
    if seat is None:
        out["seed"] = str(rec.seed)
        out["start_digest"] = rec.start_digest
        out["moves"] = [{"n": n, "seat": m.seat, "action": m.action, "digest": m.digest, "text": lines,
                         "by_bot": n in game.bot_moves}
                        for m, (n, _, lines) in zip(rec.moves, game.move_lines(None))]
        out["hidden"] = list(game.game.reveal(game.final, game.names))
    else:
        out["seat"] = seat
        out["events"] = [{"n": n, "seat": rec.moves[n - 1].seat, "kind": e.kind, "data": to_data(dict(e.data)),
                          "text": game.line(e, seat)}
                         for n in range(1, len(rec.moves) + 1) for e in game.events[n] if e.visible_to(seat)]
        out["view"] = to_data(game.game.view(game.final, seat))
    return out


def record_from_json(data: Any) -> GameRecord:
    """The record a whole game's export holds (what ``export --json`` wrote of a
    finished game); ``ExportError`` when it is not one."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ExportError("it is not an atlantis export (no \"format\": \"atlantis-export\")")
    if data.get("version") != EXPORT_VERSION:
        raise ExportError(f"export version {data.get('version')!r:.20} is not read here (this program reads "
                          f"{EXPORT_VERSION})")
    if "seed" not in data or "moves" not in data:
        raise ExportError("it is one seat's export (no seed, no moves): only a whole game's export "
                          "becomes a record again")
    try:
        seed = data["seed"]
        if not (isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 80):
            raise ValueError("seed should be a decimal string")
        record = GameRecord(
            game=_str(data, "game"), rules_version=_str(data, "rules"), options=dict(data["options"]),
            seats=[SeatInfo(_str(s, "name"), _str(s, "kind"), _str(s, "level") if "level" in s else "")
                   for s in data["seats"]],
            seed=int(seed), start_digest=_str(data, "start_digest"), practice=bool(data.get("practice")))
        for m in data["moves"]:
            if not (isinstance(m["seat"], int) and isinstance(m["action"], dict)):
                raise ValueError("a move needs a seat number and an action map")
            record.moves.append(Move(m["seat"], m["action"], _str(m, "digest")))
    except (KeyError, TypeError, ValueError) as exc:
        raise ExportError(f"the export is malformed: {exc}") from None
    return record


def _str(obj: Any, key: str) -> str:
    value = obj[key]
    if not isinstance(value, str):
        raise ValueError(f"{key} should be a string")
    return value


# --- the commands --------------------------------------------------------------------------
def _die(message: str) -> int:
    print(f"atlantis: {message}", file=sys.stderr)
    return 2


def cmd_export(args: argparse.Namespace) -> int:
    try:
        game = load(args.file)
        if args.json:
            text = json.dumps(export_json(game, args.seat), indent=1, ensure_ascii=False) + "\n"
        else:
            text = export_text(game, args.seat)
    except ExportError as exc:
        return _die(f"{args.file}: {exc}.".replace("..", "."))
    sys.stdout.write(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from engine.storage import save_record

    problem = replace_problem(args.out, args.force, holds_record, "an atlantis record")
    if problem:
        return _die(problem)
    try:
        data = json.loads(args.file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return _die(f"{args.file}: cannot read it as JSON: {exc}")
    try:
        record = record_from_json(data)
        game = GAMES.get(record.game)
        if game is None:
            raise ExportError(f"it is an export of the game {record.game[:40]!r}, which this program does not know")
        Replayed(record, game)  # (every digest checked before a byte is written)
    except ExportError as exc:
        return _die(f"{args.file}: {exc}.".replace("..", "."))
    try:
        save_record(record, args.out)
    except OSError as exc:
        return _die(f"{args.out}: {exc.strerror or exc}")
    print(f"wrote {args.out}: {counted(len(record.moves), 'move')}")
    return 0
