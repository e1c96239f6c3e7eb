"""Finding Atlantis under NO_COLOR at 80x24: colour is never the only cue.  Played
cards are listed after "Played:", picked spaces show "<>", spaces changed since your move show
"+" (and so does that player's history), the cursor is reversed and deduced symbols
are italic: all of it survives a monochrome terminal.  The text is kept as a snapshot
(tests/golden/finding-atlantis-no-color-80x24.txt; UPDATE_GOLDEN=1 rewrites it)."""

from __future__ import annotations

import os
from pathlib import Path

from engine.components import put
from engine.core import replace
from engine.finding_atlantis.actions import JellyRod
from tui.finding_atlantis.chart_grid import ChartGrid

from fa_helpers import cell
from test_finding_atlantis_reading import chart_text, on_screen, red_after_sonar, table_with, world

SNAPSHOT = Path(__file__).parent / "golden" / "finding-atlantis-no-color-80x24.txt"


def styled_cells(chart: ChartGrid) -> list[tuple[str, object]]:
    """(character, style) for every character the chart draws."""
    out = []
    for y in range(chart.size.height):
        for seg in chart.render_line(y):
            out += [(ch, seg.style) for ch in seg.text]
    return out


async def test_every_cue_survives_no_color(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    s = red_after_sonar()
    table, app = await table_with(s)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await on_screen(pilot, app, table, s)
        screen.send(JellyRod(0))          # Red's second action: the baseline of "changed"
        await pilot.pause()
        m = table.match
        c3, d3 = cell(6, "C3"), cell(6, "D3")
        m.state = replace(m.state, surfaced=put(m.state.surfaced, 1, cell(6, "F6")),
                          may_declare=put(m.state.may_declare, 0, True), picks=put(m.state.picks, 0, (c3, d3)))
        app.session.draw()
        chart = screen.chart
        chart.cursor = cell(6, "B2")
        await pilot.pause()
        picture = chart.picture
        assert ("+", "recent") in picture.cells[world("F6")].marks      # changed: a glyph
        assert any(t == "<>" for t, _ in picture.cells[world("C3")].marks) or picture.cells[world("C3")].text == "<>"
        cards = str(screen.query_one("#cards").content)
        assert "Played: 1 Sonar  2 Jelly Rod" in cards
        panel = str(screen.query_one("#players").content)
        assert "+" in panel                                               # Blue's line changed
        chars = styled_cells(chart)
        assert any(st is not None and st.reverse for _, st in chars)      # the cursor
        assert any(st is not None and st.italic for _, st in chars)       # deduced symbols
        turn = str(screen.query_one("#turn-line").content)
        text = "\n".join([chart_text(chart), "--- cards", cards, "--- turn line", turn, "--- players", panel])
        if os.environ.get("UPDATE_GOLDEN") == "1" or not SNAPSHOT.exists():
            SNAPSHOT.write_text(text + "\n", encoding="utf-8")
        assert text + "\n" == SNAPSHOT.read_text(encoding="utf-8")
