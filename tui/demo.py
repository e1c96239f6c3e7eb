"""Recorded demo sessions: record keystrokes, replay them in the real app, render
asciicasts and SVG frames.

A demo file (JSON, format 1) holds the play arguments (game, players, bots, seed,
options, names), the terminal size, and every key with the time it was pressed,
plus a checkpoint per key: how many moves the table had made and the state's
digest just before the key.  Replaying drives the real app: before each key the
bots are stepped (by the driver, not by timers) until the table has made exactly
the recorded number of moves, the digest is checked, and the key is posted to the
app as if typed.  So a replay ends on the same screen as the recording, and a
demo whose keys no longer fit the app is reported as *stale* at the first key
where the table stopped matching.

Rendering is headless: after each key (once the app is idle) the whole screen is
exported as ANSI (the same compositor output the terminal would get) and written
as one asciicast v2 event stamped with the recorded time, so two renders of the
same demo are byte-identical.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from rich.console import Console
from textual import events
from textual.binding import Binding

from engine.storage import write_shared
from engine.registry import GAMES, get_game

from .app import AtlantisApp
from .common import seats_for, seats_from_words
from .seat_links import LocalTable

DEMO_FORMAT = 1
MAX_DEMO_BYTES = 64 << 20  # (what ``holds_demo`` reads at most)
MARK_KEY = "f9"  # during `atlantis record`: mark an SVG frame here (not sent to the game)


class DemoError(Exception):
    """A demo that cannot be used; the message is one line."""


class DemoStale(DemoError):
    """The app no longer does what the demo's keys did when it was recorded."""

    def __init__(self, step: int, key: str, detail: str):
        where = f"after step {step} (key {key!r})" if step else "at the start"
        super().__init__(f"demo is stale: {where} the screen stopped matching the recording: {detail}")
        self.step = step
        self.key = key


class PlayArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    players: int = Field(ge=1, le=8)
    bots: int = Field(ge=0)
    seed: int
    options: dict[str, Any] = {}
    names: list[str] | None = None
    levels: list[str] | None = None  # each seat's bot level ("": a human's seat); None: default bots


class DemoKey(BaseModel):
    model_config = ConfigDict(extra="forbid")
    t: float = Field(ge=0)
    key: str = Field(min_length=1, max_length=40)
    char: str | None = Field(None, max_length=4)
    moves: int = Field(ge=0)  # moves the table had made before this key
    digest: str = Field(min_length=1, max_length=64)


class Demo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: Literal[1] = 1
    title: str = ""
    play: PlayArgs
    size: tuple[int, int]
    keys: list[DemoKey] = []
    marks: list[int] = []  # frames (after that many keys) to export as SVG
    end_moves: int = Field(0, ge=0)
    end_digest: str = ""

    def save(self, path: str | Path) -> Path:
        """Write the demo whole (``engine.storage.write_shared``: 0644, never through a link)."""
        return write_shared(path, (self.model_dump_json(indent=1) + "\n").encode())


def holds_demo(path: Path) -> bool:
    """Whether the file is a demo (a JSON object with a demo's play and keys), one that
    ``atlantis record --force`` may replace."""
    try:
        with open(path, "rb") as f:
            raw = json.loads(f.read(MAX_DEMO_BYTES))
    except (OSError, ValueError):
        return False
    return isinstance(raw, dict) and isinstance(raw.get("play"), dict) and isinstance(raw.get("keys"), list)


def load_demo(path: str | Path) -> Demo:
    """Read and validate a demo file; every problem is a one-line DemoError."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise DemoError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DemoError(f"{path} is not a text (JSON) demo file") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DemoError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(raw, dict):
        raise DemoError(f"{path} is not a demo (expected a JSON object)")
    fmt = raw.get("format")
    if isinstance(fmt, int) and fmt > DEMO_FORMAT:
        raise DemoError(f"{path} is demo format {fmt}; this program reads format {DEMO_FORMAT} (upgrade atlantis)")
    try:
        demo = Demo.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DemoError(f"{path} is not a valid demo: {where}: {first['msg']}") from None
    if demo.play.game not in GAMES:
        raise DemoError(f"{path} is a demo of unknown game {demo.play.game!r}; known: {', '.join(sorted(GAMES))}")
    w, h = demo.size
    if not (20 <= w <= 500 and 10 <= h <= 300):
        raise DemoError(f"{path} has an impossible terminal size {w}x{h}")
    if any(not 0 <= m <= len(demo.keys) for m in demo.marks):
        raise DemoError(f"{path} marks a frame beyond its {len(demo.keys)} keys")
    return demo


def make_table(play: PlayArgs) -> LocalTable:
    game = get_game(play.game)
    seats = seats_for(play.game, play.players, play.bots, play.names)
    if play.levels is not None:
        seats = seats_from_words(play.game, [level or "human" for level in play.levels], play.names)
    return LocalTable.new(game, play.options, seats, play.seed)


def export_ansi(app) -> str:
    """The whole screen as the terminal would receive it (cursor moves + ANSI styles)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    # A rich Style keeps the escape codes of its first rendering whatever the colour system
    # (Textual's Strip.render_ansi and rich's Style.render both cache them on the style),
    # and equal styles are one shared object across apps.  So one earlier rendering for a
    # 16-colour terminal anywhere in this process would make this screen come out in 16
    # colours.  The styles' codes are made afresh here for truecolor and put back after.
    kept: dict[int, tuple[Any, str | None]] = {}
    for line in update.strips:
        for strip in line:
            for _text, style, _control in strip:
                if style is not None and id(style) not in kept:
                    kept[id(style)] = (style, style._ansi)
                    style._ansi = None
    try:
        console.print(update, end="")
    finally:
        for style, codes in kept.values():
            style._ansi = codes
    return console.file.getvalue()


def pending_work(app) -> str:
    """What the app still has to do before its screen is final, or "" when nothing: a
    screen refresh (layout, scroll, repaint, dirty widgets), callbacks waiting for that
    refresh (RichLog's scroll to its end is one), a message not yet handled by the app or a
    widget on its screen, an animation, a bot's timed move, a running worker."""
    screen = app.screen
    if (screen._layout_required or screen._scroll_required or screen._repaint_required
            or screen._recompose_required or screen._dirty_widgets):
        return "a screen refresh"
    if screen._callbacks:
        return "callbacks waiting for a refresh"
    for pump in (app, *screen.walk_children(with_self=True)):
        if not pump._message_queue.empty() or pump._next_callbacks:
            return f"messages for {type(pump).__name__}"
    if app.animator._animations or app.animator._scheduled:
        return "an animation"
    if getattr(app.session, "bot_waiting", False):
        return "a bot's move"
    if any(not worker.is_finished for worker in app.workers):
        return "a worker"
    return ""


async def until_idle(pilot, tries: int = 500) -> None:
    """Wait (headless, through the app's test pilot) until the app has nothing left to do
    (``pending_work``), however slowly a loaded machine gets there."""
    for _ in range(tries):
        await pilot.pause()
        if not pending_work(pilot.app):
            return
    raise DemoError(f"the app never settled: {pending_work(pilot.app)} still pending")


# --- driving the app ------------------------------------------------------------------
async def drive(app, demo: Demo, settle: Callable[[], Awaitable[None]],
                on_frame: Callable[[int, float, bool], Awaitable[None]] | None = None,
                wait_before: Callable[[float], Awaitable[None]] | None = None) -> None:
    """Play the demo's keys into a running app whose table has manual bots.

    ``settle`` waits until the app has processed everything.  ``on_frame(i, t,
    ready)`` is called whenever the screen may have changed: after key ``i`` (``i``
    keys pressed so far, at recorded time ``t``) and again once the bots have
    caught up; ``ready`` is True for the last frame before key ``i + 1`` (or the
    end), which is where a frame marked after key ``i`` is taken.
    ``wait_before(t)`` paces a live replay."""
    table = app.table
    keys = demo.keys
    await settle()
    t_prev = 0.0
    if on_frame:
        await on_frame(0, 0.0, False)
    for i, key in enumerate(keys, start=1):
        # Bots catch up to where the recording was when this key was pressed.
        prev = (i - 1, keys[i - 2].key if i > 1 else "")
        moved = await _bots_until(table, key.moves, settle, *prev)
        if on_frame:
            if moved:
                await on_frame(i - 1, min(t_prev + 0.6, max(t_prev, key.t - 0.05)), False)
            await on_frame(i - 1, -1.0, True)  # no new picture: just "the mark is here"
        if wait_before:
            await wait_before(key.t)
        got = table.match.digest()
        if got != key.digest:
            raise DemoStale(*prev, "the table differs from the recording "
                            f"(after {len(table.match.record.moves)} moves)")
        if not app.is_running:
            raise DemoStale(*prev, "the app had already closed")
        app.post_message(events.Key(key.key, key.char))
        await settle()
        t_prev = key.t
        if on_frame:
            await on_frame(i, key.t, False)
    end = len(keys)
    last = (end, keys[-1].key if keys else "")
    moved = await _bots_until(table, demo.end_moves, settle, *last)
    if on_frame:
        if moved:
            await on_frame(end, t_prev + 0.6, False)
        await on_frame(end, -1.0, True)
    if demo.end_digest and table.match.digest() != demo.end_digest:
        raise DemoStale(*last, "the game ended in another position than the recording")


async def _bots_until(table, moves: int, settle, step: int, key: str) -> bool:
    """Step bots until the table has made ``moves`` moves; True if any bot moved."""
    moved = False
    while len(table.match.record.moves) < moves:
        if not table.step_bot():
            raise DemoStale(step, key, f"the recording had made {moves} moves by now, the app "
                            f"{len(table.match.record.moves)} (a key no longer made its move)")
        moved = True
        await settle()
    if len(table.match.record.moves) > moves:
        raise DemoStale(step, key, f"the app made {len(table.match.record.moves)} moves where the "
                        f"recording had {moves}")
    return moved


def _app_for(demo: Demo, **kwargs: Any) -> AtlantisApp:
    return AtlantisApp(table=make_table(demo.play), autosave=False, manual_bots=True, **kwargs)


async def render(demo: Demo, cast: Path | None, svg_dir: Path | None, name: str = "demo") -> list[Path]:
    """Headless replay writing an asciicast v2 file and SVG frames at the marks."""
    os.environ["TEXTUAL_COLOR_SYSTEM"] = "truecolor"
    app = _app_for(demo)
    app.animation_level = "none"
    frames: list[tuple[float, str]] = []
    written: list[Path] = []
    w, h = demo.size
    async with app.run_test(size=(w, h)) as pilot:
        async def settle() -> None:
            await until_idle(pilot)

        async def on_frame(i: int, t: float, ready: bool) -> None:
            if t >= 0:
                frames.append((t, export_ansi(app)))
            if ready and svg_dir is not None and i in demo.marks:
                svg_dir.mkdir(parents=True, exist_ok=True)
                path = svg_dir / (f"{name}.svg" if len(demo.marks) == 1 else f"{name}-{i:03d}.svg")
                write_shared(path, app.export_screenshot(title=demo.title or name).encode())
                written.append(path)

        await drive(app, demo, settle, on_frame)
        last_t = max((t for t, _ in frames), default=0.0)
        await until_idle(pilot)
        frames.append((round(last_t + 1.0, 3), export_ansi(app)))
    if cast is not None:
        header = {"version": 2, "width": w, "height": h, "title": demo.title or name,
                  "env": {"TERM": "xterm-256color", "SHELL": "/bin/sh"}}
        lines = [json.dumps(header)]
        previous = None
        for t, text in frames:
            if text == previous:
                continue
            lines.append(json.dumps([round(t, 3), "o", "\x1b[H" + text]))
            previous = text
        write_shared(cast, ("\n".join(lines) + "\n").encode())
        written.append(cast)
    return written


def play_live(demo: Demo, speed: float = 1.0) -> int:
    """Replay the demo in this terminal, keys driven into the real app; returns the app's
    exit code (130 after Ctrl+C)."""
    started: dict[str, float] = {}
    errors: list[str] = []

    async def settle() -> None:
        await asyncio.sleep(0.12 / max(speed, 0.01))

    async def wait_before(t: float) -> None:
        start = started.setdefault("t", time.monotonic())
        delay = start + t / speed - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)

    async def runner() -> None:
        try:
            await drive(app, demo, settle, wait_before=wait_before)
        except DemoError as exc:
            errors.append(str(exc))
            app.notify(str(exc), severity="error", timeout=30)
            return
        app.notify("End of the demo: the table is yours (q to leave).", timeout=10)

    def start() -> None:
        app.run_worker(runner(), exclusive=True)

    app = _app_for(demo, on_ready=start)
    app.run()
    if errors:
        raise DemoError(errors[0])
    return app.return_code or 0


# --- recording ---------------------------------------------------------------------------
def recording_app(play: PlayArgs, out: Path, title: str = ""):
    """The real app, with every key recorded (F9 marks an SVG frame)."""
    table = make_table(play)

    class RecordingApp(AtlantisApp):
        BINDINGS = [Binding(MARK_KEY, "mark_frame", "Mark frame", show=False, id="demo-mark")]

        def __init__(self) -> None:
            super().__init__(table=table, autosave=False)
            self.keys: list[DemoKey] = []
            self.marks: list[int] = []
            self._t0 = time.monotonic()

        async def on_event(self, event: events.Event) -> None:
            # A key reaches the app first from the terminal, then again when it bubbles
            # back up from the focused widget (forwarded): record the first only.
            if isinstance(event, events.Key) and not event.is_forwarded and event.key != MARK_KEY:
                match = table.match
                self.keys.append(DemoKey(
                    t=round(time.monotonic() - self._t0, 3), key=event.key,
                    char=event.character if event.character and len(event.character) <= 4 else None,
                    moves=len(match.record.moves), digest=match.digest(),
                ))
            await super().on_event(event)

        def action_leave(self) -> None:
            self._leave_at = len(self.keys) - 1
            super().action_leave()

        def _keys_to_keep(self) -> list[DemoKey]:
            """The keys without the ones that closed the app (q + y, or Ctrl+Q):
            a demo ends on the table, not on an empty terminal."""
            keys = list(self.keys)
            if keys and keys[-1].key == "ctrl+q":
                return keys[:-1]
            leave_at = getattr(self, "_leave_at", None)
            if leave_at is not None and leave_at == len(keys) - 2 and keys[-1].key == "y":
                return keys[:leave_at]
            return keys

        def action_mark_frame(self) -> None:
            self.marks.append(len(self.keys))
            self.notify(f"Frame marked after key {len(self.keys)}.", timeout=2)

        def demo(self) -> Demo:
            w, h = self.size
            keys = self._keys_to_keep()
            marks = [m for m in self.marks if m <= len(keys)] or [len(keys)]
            return Demo(title=title, play=play, size=(w, h), keys=keys, marks=marks,
                        end_moves=len(table.match.record.moves), end_digest=table.match.digest())

    return RecordingApp()


def render_bundled(out_dir: Path, demos_dir: Path) -> list[Path]:
    """``make screenshots``: each bundled demo -> NAME.cast and NAME-demo.svg (its mark)."""
    written = []
    for path in sorted(demos_dir.glob("*.demo")):
        demo = load_demo(path)
        written += asyncio.run(render(demo, out_dir / f"{path.stem}.cast", out_dir, name=f"{path.stem}-demo"))
    return written
