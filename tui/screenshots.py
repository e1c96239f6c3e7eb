"""``make screenshots``: an SVG picture of every game, and an asciicast per demo.

Each game's picture is a mid-game scene, at the smallest size every screen supports
(``screenshots/GAME.svg``, 80x24) and at twice that (``screenshots/GAME-160x48.svg``):
set up from a named setup, bots play for a while, then the real app opens on the
position and Textual exports it as SVG.  Every bundled demo in ``seeds/demos/`` is replayed
headlessly into ``screenshots/NAME.cast`` and ``screenshots/NAME-demo.svg``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from engine.core import SeatInfo
from engine.registry import GAMES, get_game

from .app import AtlantisApp
from .bundled import DEMOS_DIR
from .demo import render_bundled
from .seat_links import LocalTable
from .screen_entry import screen_entry
from .setups import Setup, load_setups

#: (columns, rows, file-name suffix) of each picture of a game.
SIZES = ((80, 24, ""), (160, 48, "-160x48"))


def mid_game_table(slug: str, seed: int, players: int, actions: int,
                   options: dict | None = None) -> LocalTable:
    game = get_game(slug)
    seats = [SeatInfo(game.seat_names[0], "human")] + [
        SeatInfo(game.seat_names[i], "bot") for i in range(1, players)
    ]
    table = LocalTable.new(game, options or {}, seats, seed)
    driver = game.make_bot(0, seed)
    done = 0
    while done < actions or 0 not in table.match.to_act():
        if table.match.result() is not None:
            break
        if 0 in table.match.to_act():
            view = table.match.view(0)
            table.match.submit(0, driver.choose(view, game.legal(view)))
        else:
            table.step_bot()
        done += 1
    return table


async def shoot(slug: str, out_dir: Path, width: int, height: int, suffix: str = "",
                setups: Mapping[str, Setup] | None = None) -> Path:
    """The picture of a game's screenshot setup (named in its screen entry, looked up in
    ``setups``, by default the bundled ones)."""
    setup = (load_setups() if setups is None else setups)[screen_entry(slug).screenshot]
    table = mid_game_table(slug, setup.seed, setup.players, setup.warmup_actions, setup.options)
    app = AtlantisApp(table=table, bot_delay=3600, autosave=False)  # (the bots wait: a still scene)
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        await pilot.pause()
        path = out_dir / f"{slug}{suffix}.svg"
        app.save_screenshot(filename=path.name, path=str(out_dir))
    return path


def main() -> int:
    os.environ.setdefault("TEXTUAL_COLOR_SYSTEM", "truecolor")
    out_dir = Path("screenshots")
    out_dir.mkdir(exist_ok=True)
    # Every game with a screenshot setup: a mid-game scene played by bots -> GAME.svg
    # (80x24), GAME-160x48.svg.
    for slug in (slug for slug in GAMES if screen_entry(slug).screenshot):
        for width, height, suffix in SIZES:
            path = asyncio.run(shoot(slug, out_dir, width, height, suffix))
            print(f"wrote {path}")
    # Every bundled demo -> NAME.cast and NAME-demo.svg (its marked frame).
    for path in render_bundled(out_dir, DEMOS_DIR):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
