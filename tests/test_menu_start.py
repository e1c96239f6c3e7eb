"""The collector at the start of ``atlantis``: the imports are moved out of its reach when a
screen opens (``tui.app.open_screen``, from ``tui.cli.main``), not when an app is made
(tests make many), and nothing is lost at exit because of it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_only_opening_a_screen_freezes_the_imports_and_exit_still_finalizes(tmp_path):
    out = tmp_path / "left-open.txt"
    script = (
        "import gc, json\n"
        "from tui.app import AtlantisApp, open_screen\n"
        "AtlantisApp(autosave=False)\n"
        "made = gc.get_freeze_count()\n"
        "AtlantisApp.run = lambda self, *a, **k: None\n"
        "open_screen(AtlantisApp(autosave=False))\n"
        "print(json.dumps([made, gc.get_freeze_count() > 0]))\n"
        f"f = open({str(out)!r}, 'w'); f.write('flushed at exit')  # never closed: exit must flush it\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == [0, True]
    assert out.read_text() == "flushed at exit"
