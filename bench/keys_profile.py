"""Why a key costs what it costs: ``python -m bench.keys_profile SLUG [KEY ...]``.

Runs the game's table as ``bench/keys.py`` does (rendered as for a terminal, frames
counted) and, for each key after two warm-up keys, prints in order what happened: every
frame, every layout, every call of ``refresh_bindings`` that reached Textual (the footer
rebuild), every widget ``refresh`` (with ``layout=True`` / ``recompose=True`` marked),
every ``Static.update`` and restyle, each with the project line that caused it.  Then
the functions that took the CPU over those keys (cProfile, by own time and cumulative).

``SLUG`` may be ``minimal``.  ``--no-cprofile`` skips the CPU table.  ``--start SLUG``
(or ``--start menu``) lists instead what happens from the app's start until its screen
is still (frames, layouts, key-line checks and recomposes, with their causes), and counts.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from bench.keys import QUIET, SCREENS, SIZE, _settle, counting_driver, game_app, minimal_app

ROOT = str(Path(__file__).resolve().parents[1])
EVENTS: list[tuple[float, str, str, str]] = []  # (time, what, detail, cause)


def _cause(skip: int = 2) -> str:
    """The innermost frames of the project (not Textual, not this file) that led here."""
    out = []
    for frame in reversed(traceback.extract_stack()[:-skip]):
        f = frame.filename
        if f.startswith(ROOT) and "/.venv/" not in f and not f.endswith("keys_profile.py"):
            out.append(f"{f[len(ROOT) + 1:]}:{frame.lineno} {frame.name}")
            if len(out) == 2:
                break
    return " <- ".join(out) or "(textual)"


def _instrument() -> None:
    from textual.app import App
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import Static

    def wrap(cls, name, what, detail=lambda self, a, k: type(self).__name__ + (f"#{self.id}" if getattr(self, "id", None) else "")):
        original = getattr(cls, name)

        def patched(self, *a, **k):
            EVENTS.append((time.perf_counter(), what(self, a, k) if callable(what) else what,
                           detail(self, a, k), _cause()))
            return original(self, *a, **k)

        setattr(cls, name, patched)

    def refresh_kind(self, a, k):
        if k.get("recompose"):
            return "REFRESH recompose"
        if k.get("layout"):
            return "REFRESH layout"
        return "refresh" + (f" {len(a)} regions" if a else "")

    wrap(Widget, "refresh", refresh_kind)
    wrap(Screen, "refresh_bindings", "BINDINGS (key line check)")
    wrap(Screen, "_refresh_layout", "LAYOUT")
    wrap(Widget, "recompose", "RECOMPOSE")
    wrap(Static, "update", "Static.update")
    wrap(App, "update_styles", "restyle", lambda self, a, k: type(a[0]).__name__ if a else "")

    def dirty(self, a, k):  # the widgets a frame repaints
        names = sorted({type(w).__name__ + (f"#{w.id}" if w.id else "") for w in self._dirty_widgets})
        return (", ".join(names[:4]) + (f" +{len(names) - 4}" if len(names) > 4 else "")) or "-"

    wrap(Screen, "_compositor_refresh", "paint", dirty)
    wrap(Widget, "_refresh_styles", "restyle (own)")
    wrap(App, "refresh_bindings", "BINDINGS (app)") if hasattr(App, "refresh_bindings") else None


async def _run(app, driver_class, keys: tuple[str, ...], presses: int, profile: cProfile.Profile | None):
    from textual import events

    frames = driver_class.frames
    frames.clear()
    windows = []
    async with app.run_test(size=SIZE, headless=False):
        await _settle(frames, time.perf_counter())
        await asyncio.sleep(0.2)
        await _settle(frames, time.perf_counter())
        for i in range(presses):
            key = keys[i % len(keys)]
            n0, e0 = len(frames), len(EVENTS)
            t0, c0 = time.perf_counter(), time.process_time()
            if profile is not None and i >= 2:
                profile.enable()
            app._driver.send_message(events.Key(key, None))
            last = await _settle(frames, t0)
            if profile is not None and i >= 2:
                profile.disable()
            windows.append((key, t0, last, frames[n0:], EVENTS[e0:], time.process_time() - c0))
    return windows


def start_events(kind: str) -> None:
    """The events of the start of ``kind`` (a game slug or ``menu``) until it is still."""
    from collections import Counter

    _instrument()
    driver_class = counting_driver()
    if kind == "menu":
        from tui.app import AtlantisApp

        app = AtlantisApp(autosave=False, driver_class=driver_class)
    else:
        app = minimal_app(driver_class) if kind == "minimal" else game_app(kind, driver_class)
    frames = driver_class.frames
    t0 = time.perf_counter()

    async def run() -> None:
        async with app.run_test(size=SIZE, headless=False):
            while not frames or time.perf_counter() - frames[-1] < 0.15:
                await asyncio.sleep(0.005)

    asyncio.run(run())
    last = frames[-1]
    counts: Counter = Counter()
    big = ("FRAME", "LAYOUT", "BINDINGS (key line check)", "RECOMPOSE", "REFRESH layout", "REFRESH recompose", "paint")
    for t, what, detail, cause in sorted([(t, "FRAME", "", "") for t in frames] + EVENTS, key=lambda e: e[0]):
        if t > last:
            break
        counts[f"{what} {detail}".strip()] += 1
        if what in big and (what != "REFRESH layout" or cause != "(textual)"):
            print(f"   {(t - t0) * 1e3:7.1f} ms  {what:<26} {detail:<28} {cause}")
    print(f"\n{kind}: still after {(last - t0) * 1e3:.0f} ms, {len(frames)} frames; counts:")
    for name, n in counts.most_common(30):
        print(f"  {n:4d}  {name}")


def main(argv: list[str]) -> None:
    if "--start" in argv:
        start_events(argv[argv.index("--start") + 1] if len(argv) > argv.index("--start") + 1 else "pathways")
        return
    use_cprofile = "--no-cprofile" not in argv
    args = [a for a in argv if not a.startswith("--")]
    slug = args[0] if args else "pathways"
    keys = tuple(args[1:]) or SCREENS[slug]
    _instrument()
    driver_class = counting_driver()
    app = minimal_app(driver_class) if slug == "minimal" else game_app(slug, driver_class)
    profile = cProfile.Profile() if use_cprofile else None
    presses = 2 + 2 * len(keys)
    windows = asyncio.run(_run(app, driver_class, keys, presses, profile))
    print(f"{slug}: keys {'/'.join(keys)}, {SIZE[0]}x{SIZE[1]}, quiet {QUIET * 1e3:.0f} ms")
    totals: Counter = Counter()
    for key, t0, last, frames, events, cpu in windows[2:]:
        print(f"\n-- key {key}: {len(frames)} frames, settled {(last - t0) * 1e3:.1f} ms, CPU {cpu * 1e3:.1f} ms"
              f" (incl. {QUIET * 1e3:.0f} ms quiet wait)")
        timeline = [(t, "FRAME", "", "") for t in frames] + list(events)
        for t, what, detail, cause in sorted(timeline, key=lambda e: e[0]):
            if t > last + 1e-4 and what != "FRAME":
                continue
            print(f"   {(t - t0) * 1e3:7.1f} ms  {what:<26} {detail:<28} {cause}")
            totals[what] += 1
    n = len(windows) - 2
    print("\nper key (mean): " + ", ".join(f"{what} {count / n:.1f}" for what, count in sorted(totals.items())))
    if profile is not None:
        for order in ("tottime", "cumulative"):
            buf = io.StringIO()
            stats = pstats.Stats(profile, stream=buf)
            stats.sort_stats(order).print_stats(18)
            text = buf.getvalue()
            start = text.find("   ncalls")
            print(f"\nCPU over {n} keys, by {order}:\n" + text[start:].replace(ROOT + "/", ""))


if __name__ == "__main__":
    main(sys.argv[1:])
