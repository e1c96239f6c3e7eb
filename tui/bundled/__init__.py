"""What ships inside the package: the named setups, the lessons and the bundled demos.

They are package data so that an installed wheel (pipx, ``uv tool install``) has them
too; ``seeds/README.md`` at the top of the repository points here.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

#: ``setups.json``: named, reproducible setups (``atlantis setups``, ``play --setup NAME``).
SETUPS_FILE = Path(str(files(__name__) / "setups.json"))

#: ``lessons/GAME.json``: the guided first games (``atlantis learn GAME``).
LESSONS_FOLDER = Path(str(files(__name__) / "lessons"))

#: ``demos/NAME.demo``: recorded demos (``atlantis demo play NAME``).
DEMOS_DIR = Path(str(files(__name__) / "demos"))


def bundled_demos() -> dict[str, Path]:
    """Every bundled demo by its name (the file name without ``.demo``)."""
    return {path.stem: path for path in sorted(DEMOS_DIR.glob("*.demo"))}
