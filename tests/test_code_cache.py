"""Compiled code kept between runs (tui/code_cache.py): dataclasses and namedtuples made
with it are the same as without; a text compiled once is read back, not compiled again;
a bad or foreign file is ignored."""

from __future__ import annotations

import collections
import dataclasses
import subprocess
import sys
import typing

import pytest

from tui import code_cache


@pytest.fixture
def cache(tmp_path, monkeypatch):
    path = tmp_path / "code.marshal"
    monkeypatch.setenv("ATLANTIS_CODE_CACHE", str(path))
    monkeypatch.setattr(code_cache, "_codes", None)
    monkeypatch.setattr(code_cache, "_changed", False)
    monkeypatch.setattr(code_cache, "_used", set())
    return path


def make_classes():
    @dataclasses.dataclass(frozen=True, order=True)
    class Point:
        x: int
        y: int = 2
        tags: tuple = ()

    class Pair(typing.NamedTuple):
        a: int
        b: str = "b"

    Row = collections.namedtuple("Row", "left right")
    return Point, Pair, Row


def test_classes_made_through_the_cache_behave_as_without_it(cache):
    assert dataclasses.exec is code_cache.remembering_exec and collections.eval is code_cache.remembering_eval
    Point, Pair, Row = make_classes()
    p = Point(1)
    assert (p.x, p.y, p.tags) == (1, 2, ()) and repr(p).endswith("Point(x=1, y=2, tags=())")
    assert Point(1) == p and Point(0, 5) < p and hash(p) == hash(Point(1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3  # type: ignore[misc]
    # compiled as the builtin compiles a text: no future flags of code_cache's own module
    assert Point.__init__.__annotations__["return"] is None
    assert Pair(1) == (1, "b") and Pair(1)._replace(b="c").b == "c" and Row(1, 2).right == 2
    assert len(code_cache._codes) >= 5 and code_cache._changed


def test_a_text_compiled_once_is_read_back_from_the_file_not_compiled_again(cache, monkeypatch):
    make_classes()
    code_cache.save()
    assert cache.exists() and oct(cache.stat().st_mode & 0o777) == "0o600"
    monkeypatch.setattr(code_cache, "_codes", None)  # (a new process: the file read again)
    monkeypatch.setattr(code_cache, "compile", lambda *a, **k: pytest.fail("compiled again"), raising=False)
    Point, Pair, Row = make_classes()
    assert Point(3) == Point(3, 2) and Pair(2).b == "b" and Row(1, 2).left == 1


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe9\x00"])
def test_a_bad_file_is_ignored_and_replaced(cache, content):
    cache.write_bytes(content)
    cache.chmod(0o600)
    make_classes()
    code_cache.save()
    assert len(code_cache._load()) >= 5


def test_a_file_others_may_write_is_never_read(cache):
    make_classes()
    code_cache.save()
    cache.chmod(0o666)
    assert code_cache._load() == {}


def test_the_app_is_imported_with_the_cache_in_place_before_textual():
    code = ("import sys, tui.app; from tui import code_cache; "
            "print(len(code_cache._codes or {}), 'textual.app' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env={"ATLANTIS_CODE_CACHE": "off", "PATH": ""})
    # off: nothing installed (and nothing kept)
    assert out.stdout.split() == ["0", "True"], out.stderr[-400:]
    code = ("import sys, tui.app; from tui import code_cache; import textual.widget; "
            "print(len(code_cache._codes or {}) > 100)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "True", out.stderr[-400:]  # (Textual's dataclasses among them)


def test_only_the_texts_met_are_loaded_and_the_file_keeps_this_runs_first(cache, monkeypatch):
    make_classes()
    code_cache.compiled("x = 1", "exec")  # (a text this next run will not meet)
    code_cache.save()
    monkeypatch.setattr(code_cache, "_codes", None)
    monkeypatch.setattr(code_cache, "_used", set())
    make_classes()
    assert type(code_cache._codes[("exec", "x = 1")]) is bytes  # (still as the file holds it)
    monkeypatch.setattr(code_cache, "LIMIT", 3)
    code_cache._changed = True
    code_cache.save()
    kept = code_cache._load()
    assert len(kept) == 3 and ("exec", "x = 1") not in kept and set(kept) <= code_cache._used


PATTERNS = [(r"(?P<key>[a-z_]+)\s*=\s*(?P<value>\d+)", 0), (r"^\s*#.*$", 0), (r"colou?r", 2),  # 2: IGNORECASE
            (r"""\$ ([a-z]+) # a variable
                 (?:\.(\w+))?""", 64), (rb"\x00+(..)", 0)]  # 64: VERBOSE; a bytes pattern
TEXTS = ["size = 10", "  # a note", "COLOUR Color", "$theme.primary", b"ab\x00\x00cd"]


def matches() -> list:
    out = []
    for (pattern, flags), text in zip(PATTERNS, TEXTS):
        compiled = code_cache.remembering_re_compile(pattern, flags)
        found = compiled.search(text)
        out.append((compiled.pattern, compiled.flags, compiled.groupindex, found and found.groups(),
                    compiled.findall(text)))
    return out


def test_regular_expressions_from_the_cache_match_as_freshly_compiled_ones(cache, monkeypatch):
    import re

    assert re._compiler.compile is code_cache.remembering_re_compile
    fresh = [(p.pattern, p.flags, p.groupindex, (m := p.search(t)) and m.groups(), p.findall(t))
             for p, t in ((code_cache._ORIGINAL_RE(pattern, flags), text)
                          for (pattern, flags), text in zip(PATTERNS, TEXTS))]
    assert matches() == fresh
    code_cache.save()
    monkeypatch.setattr(code_cache, "_codes", None)  # (a new process: the file read again)
    original, again = code_cache._ORIGINAL_RE, []
    monkeypatch.setattr(code_cache, "_ORIGINAL_RE", lambda p, f=0: again.append(p) or original(p, f))
    assert matches() == fresh
    assert not [p for p in again if p in [pattern for pattern, _ in PATTERNS]]  # (none compiled again)


def test_a_program_sre_refuses_is_compiled_afresh(cache):
    import re

    code_cache.remembering_re_compile(r"a+b", 0)
    key = ("re", "str", r"a+b", 0)
    flags, program, *rest = code_cache._codes[key]
    code_cache._codes[key] = (flags, [999999] + program, *rest)  # (no such opcode)
    assert code_cache.remembering_re_compile(r"a+b", 0).fullmatch("aab")
    assert code_cache._codes[key][1] == program and re.compile(r"x").match("x")


def test_a_pattern_whose_parsing_warns_is_never_kept_and_warns_each_time(cache):
    import enum
    import warnings

    for _ in range(2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            code_cache.remembering_re_compile("[[a]x", 0)  # (a possible nested set)
        assert [w.category for w in caught] == [FutureWarning]
    assert not [k for k in code_cache._codes if k[:1] == ("re",) and k[2] == "[[a]x"]

    class Flag(enum.IntFlag):  # (a caller's own flags: kept under the plain number)
        I = 2

    code_cache.remembering_re_compile("x+", Flag.I)
    code_cache.remembering_re_compile(b"x+", Flag.I)
    code_cache.save()
    kept = code_cache._load()
    assert ("re", "str", "x+", 2) in kept and ("re", "bytes", b"x+", 2) in kept


def test_exec_and_eval_without_namespaces_run_in_the_callers_as_the_builtins_do():
    here = 5
    namespace: dict = {}
    code_cache.remembering_exec("namespace['there'] = here + 1")  # (the caller's locals read)
    assert namespace["there"] == 6
    assert code_cache.remembering_eval("here * 2") == 10
    code_cache.remembering_exec(b"def f(x: int) -> int: return x", namespace)  # (bytes: no future flags)
    assert namespace["f"].__annotations__ == {"x": int, "return": int}
