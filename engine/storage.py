"""Files the app writes and reads: records, host logs and keys 0600, demos 0644, never
through a link.  This is the engine's only module that touches the disk: the rules and the
kit (core, components, geometry, rng, match, record) may not import it (the import
contract ``engine-rules-do-no-io`` in pyproject.toml).

A record holds the seed (revealed at the end of a game, but a saved unfinished game
keeps it) and a host log holds the salt and the seat tokens' hashes, so nobody else
on the machine may read them.  Every file is written whole into a temporary file made
by ``tempfile.mkstemp`` in the target's folder (a random name opened with ``O_EXCL``:
a link planted there is never followed) and then renamed over the target, so a
reader sees the old file or the new one, never half of one.

Folders: a folder the app makes for private files is made 0700.  A folder that
already exists is never changed (it is the user's: their home, ``/etc`` for root); if
others may enter it a ``PrivacyWarning`` says so (the file itself is still 0600).  A
sticky folder (``/tmp``) is shared on purpose and gets no warning.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import warnings
from pathlib import Path

from .record import GameRecord, RecordError

FILE_MODE = 0o600
SHARED_FILE_MODE = 0o644
DIR_MODE = 0o700


class PrivacyWarning(UserWarning):
    """A folder that holds private files may be entered by other users."""


def private_dir(path: str | Path) -> Path:
    """Make sure ``path`` is a folder: the folders missing on the way are made 0700
    (``mkdir(parents=True)`` would make them with the umask's modes).  A folder that
    exists already is left as it is, with a ``PrivacyWarning`` when others may enter it."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=DIR_MODE)
    if not missing:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077 and not mode & stat.S_ISVTX:
            warnings.warn(f"{path} may be entered by other users (mode {mode:o}): they can see the "
                          f"names of the files in it, though not read them (chmod 700 {path} to stop that)",
                          PrivacyWarning, stacklevel=2)
    return path


def open_private(path: str | Path, flags: int) -> int:
    """``os.open`` with mode 0600 that never follows a link at ``path``; an existing
    file with wider modes is tightened (it is ours: a log we append to)."""
    fd = os.open(path, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) & 0o077:
            os.fchmod(fd, FILE_MODE)
    except OSError:
        os.close(fd)
        raise
    return fd


def write_private(path: str | Path, data: bytes) -> Path:
    """Write ``data`` whole (0600; the folder made 0700 if it is missing).  A target
    that exists but is not a regular file (``/dev/null``, a FIFO) is written into:
    renaming over it would replace the device itself."""
    path = Path(path)
    if _special(path):
        return _write_into(path, data)
    private_dir(path.parent)
    return _replace(path, data, FILE_MODE)


def save_record(record: GameRecord, path: str | Path) -> Path:
    """Write the record whole, 0600 (``write_private``: a temporary file never reached
    through a link, renamed over the target; a missing folder made 0700; a device or
    FIFO target is written into, never renamed over)."""
    return write_private(path, record.to_bytes())


def load_record(path: str | Path) -> GameRecord:
    """The record in the file ``path``; a file that cannot be read is a ``RecordError``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    return GameRecord.from_bytes(data)


def write_shared(path: str | Path, data: bytes) -> Path:
    """Write ``data`` whole, readable by all (0644: a demo, meant to be passed around);
    missing folders are made as ``mkdir -p`` makes them."""
    path = Path(path)
    if _special(path):
        return _write_into(path, data)
    path.parent.mkdir(parents=True, exist_ok=True)
    return _replace(path, data, SHARED_FILE_MODE)


def _special(path: Path) -> bool:
    return path.exists() and not path.is_file()


def _write_into(path: Path, data: bytes) -> Path:
    with open(path, "wb") as f:
        f.write(data)
    return path


def _replace(path: Path, data: bytes, mode: int) -> Path:
    """A new temporary file beside ``path`` (``mkstemp``: a fresh random name, created
    with ``O_EXCL``, 0600), written whole, given ``mode``, renamed over ``path``."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if mode != FILE_MODE:
                os.fchmod(fd, mode)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path
