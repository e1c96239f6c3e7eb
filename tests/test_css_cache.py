"""Parsed CSS kept between runs (tui/css_cache.py): the same rules as a fresh parse, the
theme's variables in the key, a bad file ignored and replaced."""

from __future__ import annotations

import pytest
from textual.css.stylesheet import Stylesheet

from tui import css_cache
CSS = "Screen { background: $surface; }\n.mark { color: $primary; text-style: bold; }\nStatic > .x { width: 1fr; }"
WHERE = ("game.py", "GameScreen.DEFAULT_CSS")
VARIABLES = {"primary": "#004578", "surface": "#1e1e1e"}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    path = tmp_path / "css.pickle"
    monkeypatch.setenv("ATLANTIS_CSS_CACHE", str(path))
    monkeypatch.setattr(css_cache, "_entries", None)
    monkeypatch.setattr(css_cache, "_changed", False)
    monkeypatch.setattr(css_cache, "_raw", {})
    return path


def parsed(variables=VARIABLES) -> list[str]:
    sheet = Stylesheet(variables=dict(variables))
    return [rule.css for rule in css_cache._parse_rules(sheet, CSS, WHERE, True, 0, "")]


def fresh(variables=VARIABLES) -> list[str]:
    return [rule.css for rule in css_cache._ORIGINAL(Stylesheet(variables=dict(variables)), CSS, WHERE, True, 0, "")]


def next_run(monkeypatch) -> None:
    monkeypatch.setattr(css_cache, "_entries", None)  # (as a new process: the file read again)


def test_rules_read_back_from_the_cache_are_those_a_fresh_parse_makes(cache, monkeypatch):
    first = parsed()
    css_cache.save()
    assert cache.exists() and first == fresh()
    next_run(monkeypatch)
    original = css_cache._ORIGINAL
    monkeypatch.setattr(css_cache, "_ORIGINAL", lambda *a: pytest.fail("parsed again"))
    assert parsed() == first
    monkeypatch.setattr(css_cache, "_ORIGINAL", original)


def test_other_css_variables_are_another_entry(cache, monkeypatch):
    parsed()
    css_cache.save()
    next_run(monkeypatch)
    other = {**VARIABLES, "primary": "#ff0000"}
    assert parsed(other) == fresh(other)
    assert len(css_cache._entries) == 2


@pytest.mark.parametrize("content", [b"", b"not a pickle", b"\x80\x05N."])
def test_a_bad_cache_file_is_ignored_and_replaced(cache, monkeypatch, content):
    cache.write_bytes(content)
    cache.chmod(0o600)
    assert parsed() == fresh()
    css_cache.save()
    next_run(monkeypatch)
    assert len(css_cache._load()) == 1


def test_a_file_others_may_write_is_never_read(cache, monkeypatch):
    parsed()
    css_cache.save()
    cache.chmod(0o666)
    assert css_cache._load() == {}


def test_the_textual_version_in_the_key_is_the_installed_one_read_without_importlib_metadata():
    import subprocess
    import sys
    from importlib.metadata import version

    assert css_cache.TEXTUAL_VERSION == version("textual")
    # (textual.__version__ would import importlib.metadata, ~12 ms of every start: the
    # app's import must not)
    code = "import sys, tui.app; print('importlib.metadata' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr[-400:]


def test_a_source_is_unpickled_only_when_met_and_written_back_as_it_was_read(cache, monkeypatch):
    other = {**VARIABLES, "primary": "#ff0000"}
    parsed()
    parsed(other)
    css_cache.save()
    kept = cache.read_bytes()
    next_run(monkeypatch)
    assert parsed() == fresh()
    assert sorted(type(v).__name__ for v in css_cache._entries.values()) == ["bytes", "list"]
    css_cache._changed = True  # (as if a new source was met: the file is written again)
    css_cache.save()
    assert cache.read_bytes() == kept


def test_a_source_whose_pickle_is_damaged_is_parsed_afresh(cache, monkeypatch):
    parsed()
    css_cache.save()
    next_run(monkeypatch)
    entries = css_cache._load()
    (key,) = entries
    import pickle

    cache.write_bytes(pickle.dumps((css_cache._VERSIONS, {key: b"not a pickle"})))
    cache.chmod(0o600)
    assert parsed() == fresh()
    assert isinstance(css_cache._entries[key], list)
