"""Private files: records, host logs and keys are written 0600 in folders made 0700.

A record holds the seed (revealed at the end of a game, but a saved unfinished game
keeps it) and a host log holds the salt and the seat tokens' hashes, so nobody else
on the machine may read them.  A folder that already exists with wider modes is
tightened when we own it; when we cannot tighten it a warning says so (the file
itself is still made 0600).  A sticky folder (``/tmp``) is shared on purpose and is
never changed.
"""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


class PrivacyWarning(UserWarning):
    """A folder holding private files is readable by others and could not be tightened."""


def private_dir(path: str | Path) -> Path:
    """Make ``path`` a folder only its owner may enter.  Missing parents are made 0700
    too (``mkdir(parents=True)`` would make them with the umask's modes); parents that
    exist already are left as they are."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=DIR_MODE)
        except FileExistsError:
            pass
        os.chmod(folder, DIR_MODE)  # (mkdir's mode is cut by the umask)
    st = path.stat()
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077 and not mode & stat.S_ISVTX:  # (a sticky folder like /tmp is shared
        # on purpose: it is left alone, and the file in it is still 0600)
        problem = ""
        if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
            problem = "it belongs to another user"
        else:
            try:
                os.chmod(path, mode & ~0o077 | 0o700)
            except OSError as exc:
                problem = exc.strerror or str(exc)
        if problem:
            warnings.warn(f"{path} is readable by other users (mode {mode:o}) and could not be "
                          f"tightened: {problem}", PrivacyWarning, stacklevel=2)
    return path


def open_private(path: str | Path, flags: int) -> int:
    """``os.open`` with mode 0600; an existing file with wider modes is tightened."""
    fd = os.open(path, flags, FILE_MODE)
    try:
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) & 0o077:
            os.fchmod(fd, FILE_MODE)
    except OSError:
        os.close(fd)
        raise
    return fd


def write_private(path: str | Path, data: bytes) -> Path:
    """Write ``data`` atomically (a 0600 temporary file renamed over the target) in a
    0700 folder.  A target that exists but is not a regular file (``/dev/null``, a
    FIFO) is written to directly: renaming over it would replace the device itself."""
    path = Path(path)
    if path.exists() and not path.is_file():
        with open(path, "wb") as f:
            f.write(data)
        return path
    private_dir(path.parent)
    tmp = path.with_name(path.name + ".tmp")
    fd = open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return path
