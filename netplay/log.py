"""The host's log: a normal game record (``engine.record`` format), written as it grows.

The header is the record's header plus a ``netplay`` map (table id and name, the seat
kinds, the salt of the seed commitment, the hashes of the seat tokens, the port);
``GameRecord`` ignores that key, so ``atlantis replay FILE --verify`` reads the log
like any record.  Each accepted move is one ``os.write`` of one msgpack map, so a
host killed at any moment leaves at most a partial last map, which ``read_log``
drops.  (No fsync: the bytes are in the kernel once ``write`` returns, which is
enough for a killed process; a power cut may lose the last moves.)
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import msgpack

from engine.record import GameRecord, Move, RecordError


class HostLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.sizes: list[int] = []  # byte length of the header and of each move
        self._fd: int | None = None

    def write(self, header: dict[str, Any], moves: list[Move]) -> None:
        """(Re)write the whole file atomically, then keep it open for appending."""
        self.close()
        if self.path.exists() and not self.path.is_file():
            # renaming over /dev/null (or a FIFO) would replace the device itself
            raise OSError(f"{self.path} is not a regular file: the host log must be one")
        chunks = [msgpack.packb(header, use_bin_type=True)] + [GameRecord.move_bytes(m) for m in moves]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(b"".join(chunks))
        tmp.replace(self.path)
        self.sizes = [len(c) for c in chunks]
        self._open()

    def adopt(self, sizes: list[int]) -> None:
        """Keep appending to an existing file whose entries have these sizes."""
        self.sizes = list(sizes)
        self._open()

    def _open(self) -> None:
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)

    def append(self, move: Move) -> None:
        data = GameRecord.move_bytes(move)
        assert self._fd is not None, "log is not open"
        os.write(self._fd, data)
        self.sizes.append(len(data))

    def pop(self) -> None:
        """Take back the last move (an undo)."""
        assert self._fd is not None and len(self.sizes) > 1
        self.sizes.pop()
        os.ftruncate(self._fd, sum(self.sizes))

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def read_log(path: Path) -> tuple[GameRecord, dict[str, Any], list[int]]:
    """The record, the header's ``netplay`` map, and the size of each entry.

    A partial last entry (the host died while writing it) is cut off the file."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    unpacker = msgpack.Unpacker(io.BytesIO(data), raw=False, max_buffer_size=len(data) + 1,
                                strict_map_key=True)
    sizes: list[int] = []
    header: Any = None
    last = 0
    try:
        for obj in unpacker:
            if header is None:
                header = obj
            pos = unpacker.tell()
            sizes.append(pos - last)
            last = pos
    except (msgpack.FormatError, msgpack.StackError, ValueError) as exc:
        raise RecordError(f"log is corrupt after {len(sizes)} entries: {exc}") from None
    if last != len(data):  # a move cut short by a crash: drop it
        with open(path, "r+b") as f:
            f.truncate(last)
        data = data[:last]
    record = GameRecord.from_bytes(data)
    meta = header.get("netplay") if isinstance(header, dict) else None
    if not isinstance(meta, dict):
        raise RecordError(f"{path} is a game record but not a host log (no netplay header)")
    return record, meta, sizes
