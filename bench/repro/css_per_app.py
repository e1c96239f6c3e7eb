"""A plain Textual app started several times in one process (as a fork server's children
each start one): every ``App`` parses every stylesheet source again, because Textual's
parse cache lives in the app's own ``Stylesheet``.  Run: ``python -m bench.repro.css_per_app``.

Each start is profiled (cProfile, standard library); printed: the start's CPU time and
the part of it spent in ``Stylesheet.parse``, for the first start and the later ones.
"""

from __future__ import annotations

import asyncio
import cProfile
import pstats
import time

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Input, Select, Static, Switch

STARTS = 5


class Lobby(App):
    CSS = "#tables { height: 1fr; border: round $primary; } Input { width: 30; }"
    BINDINGS = [("n", "noop", "New table"), ("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Tables", id="tables")
        yield Input(placeholder="name")
        yield Select([("pathways", 1), ("survive", 2)])
        yield Switch()
        yield Footer()

    def action_noop(self) -> None:
        """A key with nothing to do: the repro measures the start, not the key."""


async def start_once() -> None:
    app = Lobby()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()


def main() -> None:
    for n in range(STARTS):
        profile = cProfile.Profile(time.process_time)
        cpu = time.process_time()
        profile.enable()
        asyncio.run(start_once())
        profile.disable()
        cpu = time.process_time() - cpu
        stats = pstats.Stats(profile)
        parse = sum(row[3] for func, row in stats.stats.items()  # (cumulative time)
                    if func[0].endswith("css/stylesheet.py") and func[2] == "parse")
        print(f"start {n + 1}: {cpu * 1e3:6.1f} ms CPU (profiled), Stylesheet.parse {parse * 1e3:6.1f} ms"
              f" ({parse / cpu:.0%})")


if __name__ == "__main__":
    main()
