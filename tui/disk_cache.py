"""The files the app keeps between runs to start faster (issue 15): parsed CSS
(``css_cache``) and compiled code (``code_cache``), in the platform's cache folder
(``~/.cache/atlantis/`` on Linux), as Python keeps compiled modules.

Each is a cache, never a document of the user's: a file that cannot be read, is not
this user's alone (another owner, or writable by others) or is of another format is
ignored and replaced.  Files are written whole and atomically (a temporary file, then
a rename), readable by their owner only.  Each cache has its environment variable:
``off`` turns it off, a path puts its file there.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Callable, Container


def cache_file(variable: str, name: str) -> Path | None:
    """Where a cache's file lives: ``$variable`` if set (None for ``off``), else ``name``
    in the platform's cache folder."""
    where = os.environ.get(variable, "")
    if where == "off":
        return None
    if where:
        return Path(where)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("atlantis", appauthor=False)) / name


def read_private(path: Path) -> bytes | None:
    """The file's bytes, or None: missing, unreadable, or not this user's alone (then it
    is never read: what a cache holds is loaded as objects and code)."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                return None
            return f.read()
    except OSError:
        return None


def write_private(path: Path, data: bytes) -> None:
    """Replace the file with ``data`` at once (mode 0600, through a new temporary file
    beside it, never a link followed); errors leave no file behind and are ignored (the
    next start works without the cache)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # (one left by a process of the same number: made anew, never followed)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def read_entries(path: Path | None, loads: Callable[[bytes], Any], tag: Any) -> dict[Any, bytes]:
    """A cache file of entries (``write_entries``): each entry's value still encoded, to be
    decoded when first met (a start pays for the entries it uses).  {} when there is none,
    or it is not this user's alone, cut short, of another ``tag`` or format."""
    data = None if path is None else read_private(path)
    if data is None:
        return {}
    try:
        kept = loads(data)
    except Exception:
        return {}
    if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == tag and isinstance(kept[1], dict)
            and all(type(v) is bytes for v in kept[1].values())):
        return {}
    return kept[1]


def write_entries(path: Path, dumps: Callable[[Any], bytes], tag: Any, entries: dict[Any, Any],
                  encode: Callable[[Any, Any], bytes], used: Container[Any], limit: int) -> None:
    """Write ``(tag, entries)``, each value as ``encode(key, value)`` gives it (bytes
    already: as they are): the entries ``used`` in this run first, then the others, at
    most ``limit``.  An entry that cannot be encoded is left out (made again next time)."""
    encoded: dict[Any, bytes] = {}
    for key, value in list(entries.items()):  # (a copy: another thread may add meanwhile)
        try:
            encoded[key] = value if type(value) is bytes else encode(key, value)
        except Exception:
            continue
    keys = [k for k in encoded if k in used] + [k for k in encoded if k not in used]
    try:
        data = dumps((tag, {k: encoded[k] for k in keys[:limit]}))
    except Exception:  # (no file written: the next start works without it)
        return
    write_private(path, data)
