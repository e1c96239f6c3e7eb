"""Compiled code kept between runs for the functions classes write at import (issue 15).

A ``@dataclass`` writes its ``__init__``, ``__repr__``, ``__eq__``... as source text and
compiles it, and a ``namedtuple`` (``typing.NamedTuple`` too) compiles its ``__new__``:
every start compiled the same ~230 small texts again, Textual's ~200 and ours, 15-27 ms of
a table's or the menu's start (compile time measured around each of them).  Python keeps
the bytecode of modules in ``__pycache__``, but not of these.

``install()`` puts a remembering ``exec`` in the ``dataclasses`` module and a remembering
``eval`` in ``collections`` (module globals come before builtins: nothing else changes),
before Textual is imported (from ``tui/__init__``: the app's package is imported first).
A text is compiled as the builtin would compile it (``dont_inherit``: no future flags of
this module) and its code object is kept, keyed by the exact text; the file is read
once, at the first text, and written once, at exit, only if a text was new, in the
bytecode's own format (``marshal``, as a ``.pyc``), for this Python only (its bytecode
magic number is in the file).  The file rules are ``disk_cache``'s (owner only, never read
when others may write it, replaced when unreadable); ``ATLANTIS_CODE_CACHE=off`` turns it
off, a path puts it there.
"""

from __future__ import annotations

import atexit
import builtins
import collections
import dataclasses
import importlib.util
import marshal
import sys
from types import CodeType
from typing import Any

from .disk_cache import cache_file, read_private, write_private

LIMIT = 1024  # texts kept: this run's first (a start of any table meets ~260; tests make more)
_TAG = (2, importlib.util.MAGIC_NUMBER, sys.version)
# (mode, text) -> its code, or the code still marshalled (bytes: as the file holds it,
# loaded when first met); None: the file not read yet
_codes: dict[tuple[str, str], Any] | None = None
_used: set[tuple[str, str]] = set()
_changed = False
_installed = False


def cache_path():
    return cache_file("ATLANTIS_CODE_CACHE", f"code-{sys.implementation.cache_tag}.marshal")


def _load() -> dict[tuple[str, str], Any]:
    path = cache_path()
    data = None if path is None else read_private(path)
    if data is None:
        return {}
    try:
        kept = marshal.loads(data)
    except Exception:  # cut short, another format: compiled afresh, then replaced
        return {}
    if not (isinstance(kept, tuple) and len(kept) == 2 and kept[0] == _TAG and isinstance(kept[1], dict)
            and all(type(v) is bytes for v in kept[1].values())):
        return {}
    return kept[1]


def compiled(source: str, mode: str) -> Any:
    """``compile(source, "<string>", mode)`` as ``exec``/``eval`` of a text does it, kept."""
    global _codes, _changed
    if _codes is None:
        _codes = _load()
    key = (mode, source)
    code = _codes.get(key)
    if type(code) is bytes:
        try:
            code = marshal.loads(code)
        except Exception:
            code = None
        if type(code) is not CodeType:
            code = None
    if code is None:
        code = compile(source, "<string>", mode, dont_inherit=True)
        _changed = True
    _codes[key] = code
    _used.add(key)
    return code


def remembering_exec(source: Any, globals: Any = None, locals: Any = None, /, **kwargs: Any) -> Any:
    if type(source) is str:
        source = compiled(source, "exec")
    return builtins.exec(source, globals, locals, **kwargs)


def remembering_eval(source: Any, globals: Any = None, locals: Any = None, /) -> Any:
    if type(source) is str:
        source = compiled(source, "eval")
    return builtins.eval(source, globals, locals)


def save() -> None:
    """Write the file if this run compiled a text it did not hold (atomic; errors ignored)."""
    global _changed
    path = cache_path()
    if not _changed or _codes is None or path is None:
        return
    _changed = False
    keys = [k for k in _codes if k in _used] + [k for k in _codes if k not in _used]
    try:
        kept = {k: v if type(v := _codes[k]) is bytes else marshal.dumps(v) for k in keys[:LIMIT]}
        data = marshal.dumps((_TAG, kept))
    except Exception:  # (no file written: the next start compiles again)
        return
    write_private(path, data)


def install() -> None:
    """Put the remembering ``exec`` and ``eval`` in place (once per process)."""
    global _installed
    if _installed or cache_path() is None:
        return
    _installed = True
    dataclasses.exec = remembering_exec  # type: ignore[attr-defined]
    collections.eval = remembering_eval  # type: ignore[attr-defined]
    atexit.register(save)
