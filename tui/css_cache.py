"""Parsed Textual CSS kept between runs, as Python keeps compiled modules (issue 15).

Textual parses every stylesheet source (each widget class's ``DEFAULT_CSS``, the app's
and the screens' CSS, ``seats.tcss``) at every start, and again in full whenever its
stylesheet is re-parsed (each ``reparse`` makes a new ``Stylesheet`` with an empty
cache): 23-70 parses, 28-30 ms of a table's or the menu's start.

``install()`` puts a process-wide cache in front of ``Stylesheet._parse_rules``.  A
source's rules are found by a hash of everything they are made from: the CSS text, where
it was read from, the flags ``_parse_rules`` takes, the CSS variables (the theme) and the
Textual and Python versions.  Rules with errors are never kept (Textual reports them as
before).  The file is read once, when the first source is parsed (each source kept
pickled on its own, unpickled when first met: a start pays for the ~20 it uses), and
written once, at exit, only if a source was new; it holds the sources met in the last runs (at most
``LIMIT``).  A file that cannot be read, is not ours alone (another owner, writable by
others) or is not a cache of this version is ignored and replaced: it is a cache, never
a document of the user's.  ``ATLANTIS_CSS_CACHE=off`` turns it off; a path puts it there.

The rules are Textual's own objects, pickled: pinned Textual (8.2.8) and its private
``_parse_rules``, as ``tui/widgets/one_frame.py`` depends on its internals too.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import textual
from textual.css.stylesheet import Stylesheet

from .disk_cache import cache_file, read_entries, write_entries

FORMAT = 2  # (2: each source pickled on its own)
LIMIT = 512  # sources kept (the five games and the menu use ~120)
_ORIGINAL = Stylesheet._parse_rules

_entries: dict[bytes, Any] | None = None  # key -> rules, or their pickle (None: the file not read yet)
_raw: dict[bytes, bytes] = {}  # key -> the pickle its rules were read from (written back as it was)
_used: set[bytes] = set()
_changed = False
_installed = False


def _textual_version() -> str:
    """Textual's version, from the name of its ``dist-info`` folder beside the package:
    ``textual.__version__`` imports ``importlib.metadata`` (and ``email``) for it, ~12 ms
    of every start, and nothing else at a start needs them.  Anything but one such
    folder there (an editable or an odd install) asks ``importlib.metadata``."""
    site = os.path.dirname(os.path.dirname(os.path.abspath(textual.__file__)))
    try:
        found = [name for name in os.listdir(site) if name.startswith("textual-") and name.endswith(".dist-info")]
    except OSError:
        found = []
    if len(found) == 1:
        return found[0][len("textual-"):-len(".dist-info")]
    return textual.__version__


TEXTUAL_VERSION = _textual_version()
_VERSIONS = f"{FORMAT} textual {TEXTUAL_VERSION} python {sys.version_info[:2]}".encode()


def cache_path() -> Path | None:
    """Where the cache lives (None: turned off)."""
    return cache_file("ATLANTIS_CSS_CACHE", f"css-textual-{TEXTUAL_VERSION}.pickle")


def _load() -> dict[bytes, Any]:
    """The kept sources, each still pickled (``bytes``): one is unpickled when first met
    (``_parse_rules``), so a start pays only for the sources it uses (the menu ~20 of
    ~45, each screen its own)."""
    import pickle

    return read_entries(cache_path(), pickle.loads, _VERSIONS)


def save() -> None:
    """Write the cache if this run parsed a source it did not hold (atomic; errors ignored)."""
    global _changed
    path = cache_path()
    if not _changed or _entries is None or path is None:
        return
    _changed = False
    import pickle

    def dumps(value: Any) -> bytes:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    # (rules read from the file are written back as they were read: _raw)
    write_entries(path, dumps, _VERSIONS, _entries, lambda key, rules: _raw.get(key) or dumps(rules), _used, LIMIT)


def _variables_key(sheet: Stylesheet) -> bytes:
    """A hash of the sheet's CSS variables, remembered per variables dict (Textual
    replaces the dict when the variables change: ``set_variables``)."""
    variables = sheet._variables
    memo = sheet.__dict__.get("_atlantis_variables")
    if memo is not None and memo[0] is variables and memo[1] == len(variables):
        return memo[2]
    digest = hashlib.blake2b(repr(sorted(variables.items())).encode(), digest_size=16).digest()
    sheet.__dict__["_atlantis_variables"] = (variables, len(variables), digest)
    return digest


def _parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                 tie_breaker: int = 0, scope: str = "") -> list:
    global _entries, _changed
    cache_key = (css, read_from, is_default_rules, tie_breaker, scope)
    hit = self._parse_cache.get(cache_key)  # (Textual's own, per sheet: first)
    if hit is not None:
        return hit
    if _entries is None:
        _entries = _load()
    key = hashlib.blake2b(repr(cache_key).encode() + _VERSIONS, digest_size=16,
                          key=_variables_key(self)).digest()
    rules = _entries.get(key)
    if type(rules) is bytes:  # (kept pickled until first met: what the file holds)
        try:
            import pickle

            rules = pickle.loads(rules)
        except Exception:
            rules = None
        if isinstance(rules, list):
            _raw[key] = _entries[key]
            _entries[key] = rules
        else:
            del _entries[key]
            rules = None
    if rules is None:
        rules = _ORIGINAL(self, css, read_from, is_default_rules, tie_breaker, scope)
        if not any(rule.errors for rule in rules):
            _entries[key] = rules
            _changed = True
    else:
        self._parse_cache[cache_key] = rules
    _used.add(key)
    return rules


def install() -> None:
    """Put the cache in front of Textual's CSS parser (once per process)."""
    global _installed
    if _installed or cache_path() is None:
        return
    _installed = True
    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]
    atexit.register(save)
