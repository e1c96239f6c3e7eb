"""The host's log: a normal game record (``engine.record`` format), written as it grows.

The header is the record's header plus a ``netplay`` map (table id and name, the seat
kinds, the salt of the seed commitment, the hashes of the seat tokens, and where the
host listened: port, bind address, whether and where it announced itself);
``GameRecord`` ignores that key, so ``atlantis replay FILE --verify`` reads the log
like any record.  Each accepted move is one ``os.write`` of one msgpack map, so a
host killed at any moment leaves at most a partial last map.  (No fsync: the bytes
are in the kernel once ``write`` returns, which is enough for a killed process; a
power cut may lose the last moves.)

Resuming never damages a file: ``read_log`` only reads, and says in one sentence
what is wrong with anything that is not a whole host log; the caller replays the
moves, and only then ``HostLog.adopt`` cuts off a partial last move, the one change
a crash calls for.  The log is private (0600, in a folder made 0700 when the app makes
it; ``engine.storage``): it holds the salt and the seat tokens' hashes.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

from engine.storage import open_private, private_dir, write_private
from engine.record import MAGIC, MAX_RECORD_BYTES, GameRecord, Move, RecordError

from .wire import MAX_CLIENT_FRAME

# The bytes every move map starts with (its first key), and the most a move may take:
# a partial last entry must look like the start of one, or it is damage, not a crash.
_A, _B = GameRecord.move_bytes(Move(0, {}, "")), GameRecord.move_bytes(Move(1, {}, ""))
MOVE_START = _A[:next(i for i, (x, y) in enumerate(zip(_A, _B)) if x != y)]
BOT_MOVE_START = bytes((MOVE_START[0] + 1,)) + MOVE_START[1:]  # (a move a bot made for a player: one key more)
MAX_MOVE_BYTES = MAX_CLIENT_FRAME + 1024
# The same limits as ``GameRecord.from_bytes``: what passes here, it reads too.
_LIMITS = dict(max_buffer_size=MAX_RECORD_BYTES, max_str_len=1 << 20, max_bin_len=1 << 20,
               max_array_len=1 << 16, max_map_len=1 << 12)


class HostLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.sizes: list[int] = []  # byte length of the header and of each move
        self._fd: int | None = None

    def write(self, header: dict[str, Any], moves: list[Move], bot_moves: set[int] = frozenset()) -> None:
        """(Re)write the whole file atomically (0600, ``engine.storage.write_private``),
        then keep it open for appending.  ``bot_moves``: the numbers (from 1) of the
        moves a bot made for a player (each marked ``"by": "bot"``)."""
        self.close()
        if self.path.exists() and not self.path.is_file():
            # renaming over /dev/null (or a FIFO) would replace the device itself
            raise OSError(f"{self.path} is not a regular file: the host log must be one")
        chunks = [msgpack.packb(header, use_bin_type=True)] + [
            move_bytes(m, i in bot_moves) for i, m in enumerate(moves, start=1)]
        write_private(self.path, b"".join(chunks))
        self.sizes = [len(c) for c in chunks]
        self._open()

    def adopt(self, found: "LogFile") -> None:
        """Keep appending to the existing file ``read_log`` read and checked.  A move
        the crash cut short is cut off its end first; the file must still be the one
        that was checked (same file, same size), else nothing is changed."""
        self.close()
        private_dir(self.path.parent)
        fd = open_private(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            st = os.fstat(fd)
            whole = sum(found.sizes)
            if (st.st_dev, st.st_ino, st.st_size) != (found.device, found.inode, whole + found.partial):
                raise RecordError("the file changed while it was being checked (is another host "
                                  "writing it?), so it was left as it is.")
            if found.partial:
                os.ftruncate(fd, whole)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        self.sizes = list(found.sizes)

    def _open(self) -> None:
        self._fd = open_private(self.path, os.O_WRONLY | os.O_APPEND)

    def append(self, move: Move, by_bot: bool = False) -> None:
        data = move_bytes(move, by_bot)
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


def move_bytes(move: Move, by_bot: bool = False) -> bytes:
    """A move's map in the log; one a bot made for a player (a seat kept warm, a turn
    timer run out) says so with ``"by": "bot"`` after its record fields (``GameRecord``
    reads past it: the log stays a record)."""
    data = GameRecord.move_bytes(move)
    if not by_bot:
        return data
    return bytes((data[0] + 1,)) + data[1:] + BY_BOT


BY_BOT = msgpack.packb("by") + msgpack.packb("bot")  # (a move map is a fixmap of 3: one more key)


@dataclass
class LogFile:
    """A host log as read: nothing in it has been changed yet."""

    path: Path
    record: GameRecord
    meta: dict[str, Any]   # the header's ``netplay`` map (a map; its fields unchecked)
    sizes: list[int]       # byte length of the header and of each whole move
    partial: int           # bytes of a last move cut short by a crash (0: none)
    device: int
    inode: int
    bot_moves: set[int]    # the moves (numbered from 1) a bot made for a player


def _sentence(text: str) -> str:
    text = text.strip().rstrip(":;,")
    return text if text.endswith((".", "!", "?")) else text + "."


def _fail(text: str) -> RecordError:
    return RecordError(_sentence(text))


def _why(exc: BaseException) -> str:
    """What a msgpack exception means (its own text is often empty)."""
    if isinstance(exc, msgpack.StackError):
        return "its data is nested too deeply"
    if isinstance(exc, msgpack.FormatError):
        return "it holds a byte that is not valid msgpack"
    text = str(exc).strip()
    return f"it is not valid msgpack ({text})" if text else "it is not valid msgpack"


def _read(path: Path) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file (never blocks on a FIFO, never reads a device)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise _fail(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise _fail("it is a folder, not a host log")
        if not stat.S_ISREG(st.st_mode):
            raise _fail("it is not a regular file (a device, FIFO or socket), so it cannot be a host log")
        if st.st_size > MAX_RECORD_BYTES:
            raise _fail(f"the file is {st.st_size} bytes, more than the {MAX_RECORD_BYTES} a host log may hold")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            if sum(map(len, chunks)) > MAX_RECORD_BYTES:
                raise _fail(f"the file holds more than the {MAX_RECORD_BYTES} bytes a host log may hold")
    except OSError as exc:
        raise _fail(f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return b"".join(chunks), st


def _entries(data: bytes) -> tuple[Any, list[int], int, set[int]]:
    """The header, the byte size of each whole entry, of a partial last move after them,
    and the moves a bot made for a player."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, **_LIMITS)
    unpacker.feed(data)
    header: Any = None
    sizes: list[int] = []
    bots: set[int] = set()
    last = 0
    try:
        for obj in unpacker:
            if not sizes:
                header = obj
            elif isinstance(obj, dict) and obj.get("by") == "bot":
                bots.add(len(sizes))
            pos = unpacker.tell()
            sizes.append(pos - last)
            last = pos
    except (msgpack.FormatError, msgpack.StackError, ValueError, TypeError) as exc:
        if sizes and not _is_header(header):
            raise _fail(NOT_A_LOG) from None
        what = "the header" if not sizes else f"move {len(sizes)}"
        raise _fail(f"the file is damaged at byte {last}: {what} cannot be read, because {_why(exc)}") from None
    rest = len(data) - last
    if rest and not sizes:
        raise _fail(f"its header is incomplete (the file ends inside it after {len(data)} bytes), "
                    "so it is not a host log")
    if rest and not _is_header(header):
        raise _fail(NOT_A_LOG)
    if rest and not _looks_cut(data[last:]):
        raise _fail(f"the file ends with {rest} bytes (from byte {last}) that are not the beginning of "
                    "a move cut short by a crash, so it is damaged")
    return header, sizes, rest, bots


NOT_A_LOG = "it is not a host log (it does not begin with the header of an atlantis record)"


def _is_header(obj: Any) -> bool:
    return isinstance(obj, dict) and obj.get("magic") == MAGIC


def _looks_cut(tail: bytes) -> bool:
    """Whether ``tail`` may be a move the host was writing when it died: it starts as
    a move does, and a few more bytes would finish it (a damaged length that swallows
    the rest of the file would need far more)."""
    if len(tail) >= MAX_MOVE_BYTES or not any(tail[:len(start)] == start[:len(tail)]
                                              for start in (MOVE_START, BOT_MOVE_START)):
        return False
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, **_LIMITS)
    unpacker.feed(tail + bytes(MAX_MOVE_BYTES))
    try:
        next(unpacker)
    except StopIteration:
        return False
    except (msgpack.FormatError, msgpack.StackError, ValueError, TypeError):
        pass  # the padding broke it, past the tail's own bytes: the tail itself was sound
    return True


def read_log(path: Path) -> LogFile:
    """Read a host log whole and check it is one; change nothing.

    Raises ``RecordError`` (one sentence: what is wrong) for anything but a record
    with a ``netplay`` map, whole entries, and at most a partial last move.  The caller
    still has to replay the moves and check the ``netplay`` fields."""
    path = Path(path)
    data, st = _read(path)
    if not data:
        raise _fail("the file is empty, so there is no table in it to resume")
    header, sizes, partial, bot_moves = _entries(data)
    try:
        record = GameRecord.from_bytes(data[:len(data) - partial])
    except RecordError as exc:
        raise _fail(f"it is not a game record this program can resume: {exc}") from None
    meta = header.get("netplay") if isinstance(header, dict) else None
    if not isinstance(meta, dict):
        raise _fail("it is a game record but not a host log (its header has no netplay map)")
    return LogFile(path, record, meta, sizes, partial, st.st_dev, st.st_ino, bot_moves)
