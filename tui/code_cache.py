"""Compiled code kept between runs for what Python compiles afresh at every start (issue 15).

A ``@dataclass`` writes its ``__init__``, ``__repr__``, ``__eq__``... as source text and
compiles it, a ``namedtuple`` (``typing.NamedTuple`` too) compiles its ``__new__``, and
``re`` compiles each pattern into an SRE program in Python: every start did the same
~230 small texts and ~70 patterns again, Textual's and ours, 25-40 ms of a table's or the
menu's start (compile time measured around each).  Python keeps the bytecode of modules
in ``__pycache__``, but not of these.

``install()`` puts a remembering ``exec`` in the ``dataclasses`` module and a remembering
``eval`` in ``collections`` (module globals come before builtins: nothing else changes),
and a remembering ``re._compiler.compile``, before Textual is imported (from
``tui/__init__``: the app's package is imported first).  A text is compiled as the
builtin would compile it (``dont_inherit``: no future flags of this module) and its code
object is kept, keyed by the exact text; a pattern's program is kept as the arguments
``_sre.compile`` was given, keyed by the pattern and its flags, and a kept one goes to
``_sre.compile`` at once (which checks the program).  The file is read once, at the first
use, and written once, at exit, only if something was new, in the bytecode's own format
(``marshal``, as a ``.pyc``), each entry on its own and loaded when first met (a start
pays for the ~300 it uses, not for all kept), for this Python only (its bytecode and SRE
magic numbers are in the file); the entries of the last run come first when the file is
full (``LIMIT``).  The file rules are ``disk_cache``'s (owner only, never read when others
may write it, replaced when unreadable); ``ATLANTIS_CODE_CACHE=off`` turns it off, a path
puts it there.
"""

from __future__ import annotations

import _sre
import atexit
import builtins
import collections
import dataclasses
import importlib.util
import marshal
import re
import re._compiler
import sys
import threading
import warnings
from types import CodeType
from typing import Any

from .disk_cache import cache_file, read_entries, write_entries

LIMIT = 1024  # entries kept, this run's first (a start of any table meets ~330; the tests make more)
_TAG = (4, importlib.util.MAGIC_NUMBER, _sre.MAGIC, _sre.CODESIZE, sys.byteorder, sys.version)
# (mode, text) -> its code and ("re", pattern, flags) -> its program, or either still
# marshalled (bytes: as the file holds it, loaded when first met); None: the file not read yet
_codes: dict[tuple, Any] | None = None
_used: set[tuple] = set()
_changed = False
_installed = False


def cache_path():
    return cache_file("ATLANTIS_CODE_CACHE", f"code-{sys.implementation.cache_tag}.marshal")


def _load() -> dict[tuple, bytes]:
    return read_entries(cache_path(), marshal.loads, _TAG)


def _kept(key: tuple, valid: Any) -> Any:
    """What the cache holds for ``key`` (loaded now if still marshalled), or None; ``valid``
    tells a loaded value of the right kind."""
    global _codes
    if _codes is None:
        _codes = _load()
    value = _codes.get(key)
    if type(value) is bytes:
        try:
            value = marshal.loads(value)
        except Exception:
            value = None
        if value is not None and not valid(value):
            value = None
        if value is None:
            _codes.pop(key, None)
        else:
            _codes[key] = value
    if value is not None:
        _used.add(key)
    return value


def _keep(key: tuple, value: Any) -> None:
    global _changed
    _codes[key] = value  # type: ignore[index]
    _used.add(key)
    _changed = True


def compiled(source: str, mode: str) -> Any:
    """``compile(source, "<string>", mode)`` as ``exec``/``eval`` of a text does it, kept."""
    key = (mode, source)
    code = _kept(key, lambda v: type(v) is CodeType)
    if code is None:
        code = compile(source, "<string>", mode, dont_inherit=True)
        _keep(key, code)
    return code


def _as_called(source: Any, mode: str, globals: Any, locals: Any) -> tuple[Any, Any, Any]:
    """What the builtin would run, and with which namespaces, had the caller called it: a
    text compiled without this module's future flags (kept when it is a plain ``str``),
    the caller's globals and locals when none are given."""
    if type(source) is str:
        source = compiled(source, mode)
    elif isinstance(source, (str, bytes, bytearray)):
        source = compile(source, "<string>", mode, dont_inherit=True)
    if globals is None:
        caller = sys._getframe(2)
        globals = caller.f_globals
        if locals is None:
            locals = caller.f_locals
    return source, globals, locals


def remembering_exec(source: Any, globals: Any = None, locals: Any = None, /, **kwargs: Any) -> Any:
    return builtins.exec(*_as_called(source, "exec", globals, locals), **kwargs)


def remembering_eval(source: Any, globals: Any = None, locals: Any = None, /) -> Any:
    return builtins.eval(*_as_called(source, "eval", globals, locals))


# --- regular expressions -------------------------------------------------------------------
# ``re`` compiles a pattern in Python (``re._compiler.compile``: parse, then the SRE program)
# and hands the program to ``_sre.compile``.  A pattern's program depends only on the
# pattern and its flags: it is kept as the arguments ``_sre.compile`` was given, and a kept
# pattern goes to ``_sre.compile`` at once (which checks the program: a bad one is refused,
# and the pattern compiled afresh).
_ORIGINAL_RE = re._compiler.compile
_capture = threading.local()


class _SreShim:
    """``_sre`` as ``re._compiler`` sees it: the same module, but ``compile`` notes its
    arguments while ``remembering_re_compile`` asks."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        if name == "_real":  # (not set yet: a copy being made)
            raise AttributeError(name)
        return getattr(self._real, name)

    def compile(self, pattern: Any, *args: Any, **kwargs: Any) -> Any:
        seen = getattr(_capture, "seen", None)
        if seen is not None:
            seen.append(args if not kwargs else ())
        return self._real.compile(pattern, *args, **kwargs)


def _valid_program(args: Any) -> bool:
    return (type(args) is tuple and len(args) == 5 and type(args[0]) is int and type(args[1]) is list
            and type(args[2]) is int and type(args[3]) is dict and type(args[4]) is tuple)


def remembering_re_compile(pattern: Any, flags: int = 0) -> Any:
    """``re._compiler.compile(pattern, flags)``, the program of a pattern seen before kept.
    A pattern whose parsing warns (a possible nested set, a bad group name...) is never
    kept: each compile of it warns, as ``re``'s does.  A pattern is kept only while this
    is the process's one thread (the warnings are caught to see them: at a start, imports)."""
    if type(pattern) not in (str, bytes) or flags & re.DEBUG:
        return _ORIGINAL_RE(pattern, flags)
    flags = int(flags)  # (an IntFlag of the caller's own: the same number, a plain key)
    key = ("re", type(pattern).__name__, pattern, flags)  # (str and bytes apart before compared)
    args = _kept(key, _valid_program)
    if args is not None:
        try:
            return _sre.compile(pattern, *args)
        except Exception:  # (a program _sre refuses: compiled afresh below)
            pass
    if threading.active_count() > 1:
        return _ORIGINAL_RE(pattern, flags)
    _capture.seen = seen = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compiled_pattern = _ORIGINAL_RE(pattern, flags)
    finally:
        _capture.seen = None
    if caught:  # (compiled again, not kept: its warnings go as re would give them)
        return _ORIGINAL_RE(pattern, flags)
    if len(seen) == 1 and len(seen[0]) == 5:  # (another Python's other arguments: not kept)
        flags_seen, program, groups, groupindex, indexgroup = seen[0]
        try:  # (the program's opcodes are int subclasses: kept as plain ints)
            args = (int(flags_seen), [int(op) for op in program], int(groups), dict(groupindex), tuple(indexgroup))
        except (TypeError, ValueError):
            return compiled_pattern
        _keep(key, args)
    return compiled_pattern


def save() -> None:
    """Write the file if this run compiled something it did not hold (atomic; errors ignored)."""
    global _changed
    path = cache_path()
    if not _changed or _codes is None or path is None:
        return
    _changed = False
    write_entries(path, marshal.dumps, _TAG, _codes, lambda _key, value: marshal.dumps(value), _used, LIMIT)


def install() -> None:
    """Put the remembering ``exec``, ``eval`` and regular-expression compiler in place (once
    per process)."""
    global _installed
    if _installed or cache_path() is None:
        return
    _installed = True
    dataclasses.exec = remembering_exec  # type: ignore[attr-defined]
    collections.eval = remembering_eval  # type: ignore[attr-defined]
    re._compiler._sre = _SreShim(_sre)  # type: ignore[attr-defined]
    re._compiler.compile = remembering_re_compile  # type: ignore[attr-defined]
    atexit.register(save)
