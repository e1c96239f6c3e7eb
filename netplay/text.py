"""Text that a remote player sends: the one rule every such string goes through.

A name (or any other free text from the wire) is shown in other people's terminals,
so it must not be able to move their cursor, reorder what is around it, hide itself,
or pretend to be someone else.  ``clean_text`` keeps printable characters only:

* removed: every character of the Unicode categories Cc (controls: C0, DEL, C1), Cf
  (format: the bidi embeddings and overrides U+202A-202E, the isolates U+2066-2069,
  the marks U+200E/200F/061C, the zero-width U+200B-200D, U+2060-2064, U+FEFF, ...),
  Cs (surrogates), Co (private use), Cn (unassigned), and the fillers that draw as
  nothing (Hangul fillers, braille blank);
* whitespace (spaces of every kind, tabs, newlines, Zl/Zp separators) becomes one
  ordinary space; runs collapse; the ends are trimmed;
* at most ``MAX_MARKS`` combining marks in a row (no "zalgo" text spilling over the
  lines above and below);
* the text is NFC-normalised, then cut to ``max_len`` characters (code points).

Forbidden characters are *stripped*, not refused: a peer gets the printable rest.
``clean_name`` then falls back to a default when nothing printable is left, and
``unique_name`` makes a name unique among others ("Blue" twice becomes "Blue 2").
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

MAX_NAME = 24   # characters in a player's name
MAX_MARKS = 3   # combining marks allowed in a row

_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_SPACE_CATEGORIES = frozenset({"Zs", "Zl", "Zp"})
_SPACE_CONTROLS = frozenset("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85")
_MARK_CATEGORIES = frozenset({"Mn", "Me"})
# Letters and symbols that draw as blank space (used to fake an empty or another name).
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def clean_text(text: object, max_len: int) -> str:
    """``text`` with only printable characters, whitespace collapsed and trimmed, at
    most ``max_len`` characters.  May return ``""`` (nothing printable was sent)."""
    if not isinstance(text, str) or max_len <= 0:
        return ""
    text = unicodedata.normalize("NFC", text[: max_len * 8])  # (a bound on the work done)
    out: list[str] = []
    marks = 0
    space = False
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in _SPACE_CATEGORIES or ch in _SPACE_CONTROLS:
            space = bool(out)  # (leading whitespace is dropped)
            marks = 0
            continue
        if cat in _DROP_CATEGORIES or ch in _BLANK:
            continue
        if cat in _MARK_CATEGORIES:
            if not out or marks >= MAX_MARKS:
                continue  # (a mark with nothing to sit on, or one too many)
            marks += 1
        else:
            marks = 0
        if space:
            out.append(" ")
            space = False
        out.append(ch)
        if len(out) >= max_len:
            break
    return "".join(out[:max_len]).rstrip()


def name_key(name: str) -> str:
    """What two names must differ in to count as different ("Blue" = "BLUE" = "Ｂｌｕｅ")."""
    return unicodedata.normalize("NFKC", name).casefold()


def unique_name(name: str, taken: Iterable[str], max_len: int = MAX_NAME) -> str:
    """``name``, or ``name 2``, ``name 3``, ... : the first not in ``taken`` (compared
    by ``name_key``), cut so that it stays within ``max_len`` characters."""
    keys = {name_key(t) for t in taken}
    if name_key(name) not in keys:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: max(1, max_len - len(suffix))].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
        n += 1


def clean_name(text: object, fallback: str, taken: Iterable[str] = ()) -> str:
    """A player's name from what a peer sent (or what was typed): ``clean_text`` to
    ``MAX_NAME`` characters; when nothing printable is left the name is ``fallback``
    (the host passes the seat's own name, e.g. "Blue") -- it is never refused; then
    made unique among ``taken`` (the other names at the table)."""
    name = clean_text(text, MAX_NAME) or clean_text(fallback, MAX_NAME) or "Player"
    return unique_name(name, taken)
