"""Recorded demos: record -> render round trip, determinism, asciicast v2, bad files, stale demos."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from textual.strip import Strip

from tui.bundled import DEMOS_DIR
from tui.cli import main
from tui.widgets.eventlog import EventLog
from tui.demo import DemoStale, PlayArgs, export_ansi, load_demo, pending_work, recording_app, render, until_idle

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = DEMOS_DIR / "pathways.demo"


def check_asciicast_v2(text: str, width: int, height: int) -> list[list]:
    lines = text.splitlines()
    header = json.loads(lines[0])
    assert header["version"] == 2 and header["width"] == width and header["height"] == height
    events = [json.loads(line) for line in lines[1:]]
    assert events, "a cast with no output"
    last = 0.0
    for event in events:
        assert isinstance(event, list) and len(event) == 3
        t, kind, data = event
        assert isinstance(t, (int, float)) and t >= last and kind == "o" and isinstance(data, str)
        last = t
    return events


async def record_by_keyboard(tmp_path: Path) -> tuple[Path, str]:
    """Play an opening through the recording app, as a person at the keyboard would."""
    play = PlayArgs(game="pathways", players=2, bots=1, seed=42, options={})
    out = tmp_path / "opening.demo"
    app = recording_app(play, out, title="test")
    app.bot_delay = 0.01
    async with app.run_test(size=(90, 28)) as pilot:
        await pilot.pause()
        await pilot.press("1", "j", "enter", "2", "k", "l", "r", "r", "enter", "shift+down", "e")
        for _ in range(100):
            await pilot.pause(0.02)
            if app.table.match.to_act() == frozenset({0}) and len(app.table.match.record.moves) > 5:
                break
        app.demo().save(out)  # (the moves it ends on: no bot acts on seat 0's turn)
        await until_idle(pilot)  # no refresh, scroll, message, animation or bot move pending
        assert not pending_work(app)
        log = app.screen.query_one(EventLog)
        assert log.scroll_y == log.max_scroll_y  # the recording's log shows its last line
        final_screen = export_ansi(app)
    return out, final_screen


async def test_record_then_render_round_trip_ends_on_the_same_screen(tmp_path):
    path, final_screen = await record_by_keyboard(tmp_path)
    demo = load_demo(path)
    assert [k.key for k in demo.keys] == ["1", "j", "enter", "2", "k", "l", "r", "r", "enter", "shift+down", "e"]
    assert demo.size == (90, 28) and demo.end_moves > 5
    cast = tmp_path / "opening.cast"
    written = await render(demo, cast, tmp_path / "svg", name="opening")
    assert cast in written and (tmp_path / "svg" / "opening.svg").exists()
    events = check_asciicast_v2(cast.read_text(), 90, 28)
    assert events[-1][2] == "\x1b[H" + final_screen, _lines_apart(events[-1][2], "\x1b[H" + final_screen)


async def test_screen_export_stays_truecolor_after_a_16_colour_rendering_of_the_same_styles(tmp_path):
    """A style keeps the escape codes of its first rendering (rich and Textual cache them on
    the shared style object); a 16-colour rendering elsewhere in the process (a test app
    under TERM=xterm) must not turn the demo's frames into 16 colours (a CI flake once)."""
    play = PlayArgs(game="pathways", players=2, bots=1, seed=42, options={})
    app = recording_app(play, tmp_path / "x.demo", title="test")
    async with app.run_test(size=(90, 28)) as pilot:
        await pilot.press("1", "j", "enter")
        await until_idle(pilot)
        before = export_ansi(app)
        update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
        styles = {id(s): s for line in update.strips for strip in line for _, s, _ in strip if s is not None}
        for style in styles.values():
            style._ansi = None  # (as if nothing had rendered them yet)
        Strip.render_ansi.cache_clear()
        sixteen = Console(file=io.StringIO(), force_terminal=True, color_system="standard")
        assert "38;2;" not in update.render_segments(sixteen)  # (that rendering was in 16 colours)
        assert all(s._ansi is not None for s in styles.values())  # (each kept its 16-colour codes)
        assert export_ansi(app) == before
        assert "38;2;" in before


def _lines_apart(rendered: str, recorded: str) -> str:
    """The screen lines (colours dropped) where the rendered cast's last frame and the
    recording app's final screen differ."""
    def lines(frame: str) -> list[str]:
        return [re.sub(r"\x1b\[[0-9;]*m", "", part) for part in re.split(r"\x1b\[\d+;1H", frame)]
    pairs = zip(lines(rendered), lines(recorded))
    return "\n".join(f"line {i}: rendered {a!r}\n        recorded {b!r}" for i, (a, b) in enumerate(pairs) if a != b) \
        or "the lines agree; only colours differ"


def test_bundled_demo_renders_identically_in_two_processes(tmp_path):
    outs = []
    for hash_seed in ("1", "4242"):
        cast = tmp_path / f"run{hash_seed}.cast"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run([sys.executable, "-m", "tui.cli", "demo", "render", str(BUNDLED), "--cast", str(cast)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.append(cast.read_bytes())
    assert outs[0] == outs[1]
    demo = load_demo(BUNDLED)
    check_asciicast_v2(outs[0].decode(), *demo.size)


def _write(tmp_path: Path, data) -> Path:
    path = tmp_path / "bad.demo"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


@pytest.mark.parametrize("case", ["unknown-game", "newer-format", "broken-json", "missing-field", "not-an-object"])
def test_bad_demo_file_gives_one_line_and_exit_2(tmp_path, case, capsys):
    good = json.loads(BUNDLED.read_text())
    if case == "unknown-game":
        good["play"]["game"] = "atlantis-deluxe"
        path = _write(tmp_path, good)
    elif case == "newer-format":
        good["format"] = 99
        path = _write(tmp_path, good)
    elif case == "broken-json":
        path = _write(tmp_path, BUNDLED.read_text()[:200])
    elif case == "missing-field":
        del good["play"]
        path = _write(tmp_path, good)
    else:
        path = _write(tmp_path, [1, 2, 3])
    assert main(["demo", "render", str(path), "--cast", str(tmp_path / "x.cast")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("atlantis: ") and "\n" not in err
    expected = {"unknown-game": "unknown game", "newer-format": "format 99", "broken-json": "not valid JSON",
                "missing-field": "play", "not-an-object": "not a demo"}[case]
    assert expected in err


async def test_stale_demo_names_the_step_where_the_screen_stopped_matching(tmp_path):
    demo = load_demo(BUNDLED)
    keys = list(demo.keys)
    # Step 3 placed Red's first tile; make it a key the app ignores.
    assert keys[2].key == "enter"
    keys[2] = keys[2].model_copy(update={"key": "x", "char": "x"})
    stale = demo.model_copy(update={"keys": keys})
    with pytest.raises(DemoStale) as info:
        await render(stale, None, None)
    assert info.value.step == 3 and info.value.key == "x"
    assert "after step 3 (key 'x')" in str(info.value)


def test_stale_demo_exits_1_from_the_command_line(tmp_path, capsys):
    data = json.loads(BUNDLED.read_text())
    data["keys"][2]["key"] = data["keys"][2]["char"] = "x"
    path = _write(tmp_path, data)
    assert main(["demo", "render", str(path), "--cast", str(tmp_path / "x.cast")]) == 1
    assert "stale" in capsys.readouterr().err


def test_every_game_has_a_bundled_demo():
    from engine.registry import GAMES

    games = {load_demo(p).play.game for p in DEMOS_DIR.glob("*.demo")}
    assert games == set(GAMES)


@pytest.mark.parametrize("path", sorted(DEMOS_DIR.glob("*.demo")), ids=lambda p: p.stem)
async def test_bundled_demo_still_fits_the_app(path, tmp_path):
    demo = load_demo(path)
    written = await render(demo, tmp_path / "x.cast", tmp_path, name=path.stem)
    check_asciicast_v2((tmp_path / "x.cast").read_text(), *demo.size)
    assert any(p.suffix == ".svg" for p in written)
