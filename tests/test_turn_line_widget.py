"""The side panel's turn line (tui/widgets/turn_line.py) draws what a Static draws, and a
change of its last paragraph only (a cursor key) repaints only the lines that changed."""

from __future__ import annotations

import random

from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.widget import Widget
from textual.widgets import Static

from tui.widgets.turn_line import TurnLine

WORDS = ["Your", "turn", "actions", "left:", "2", "1-9", "play", "a", "card,", "Cursor", "E2", "certain", "x" * 40]
STYLES = [None, Style(bold=False), Style(dim=True, bold=False), Style(color="#ff0000", bgcolor="#000000", bold=True)]


class TwoLines(App):
    CSS = "Static { height: auto; text-style: bold; width: 33; }"

    def compose(self):
        yield Static(id="static")
        yield TurnLine(id="turn")


def paragraph(rng: random.Random, text: Text) -> None:
    for _ in range(rng.randrange(0, 8)):
        text.append(rng.choice(WORDS) + " ", rng.choice(STYLES))


def drawn(widget) -> list:
    return [[(seg.text, seg.style) for seg in strip] for strip in widget.render_lines(widget.size.region)]


async def test_the_turn_line_draws_every_text_as_a_static_does_and_repaints_only_the_changed_lines():
    app = TwoLines()
    async with app.run_test(size=(80, 30)) as pilot:
        static, turn = app.query_one("#static"), app.query_one("#turn", TurnLine)
        rng = random.Random(15)
        partial = 0
        asked: list[tuple] = []
        original = Widget.refresh

        def spy(self, *regions, **kwargs):
            if self is turn:
                asked.append((regions, kwargs))
            return original(self, *regions, **kwargs)
        Widget.refresh = spy
        try:
            for _ in range(40):
                head = Text(style=rng.choice(["", Style(italic=True)]))
                for i in range(rng.randrange(1, 4)):
                    if i:
                        head.append("\n")
                    paragraph(rng, head)
                for step in range(3):   # a new text, then twice only its last paragraph changed
                    text = head.copy()
                    text.append("\n")
                    paragraph(rng, text)
                    before = drawn(turn)
                    asked.clear()
                    for widget in (static, turn):   # as the game screens do after a cursor key
                        height = widget.size.height
                        widget.update(text, layout=step == 0)
                        if widget.get_content_height(widget.size, app.size, widget.size.width) != height:
                            widget.refresh(layout=True)
                    await pilot.pause()
                    after = drawn(turn)
                    assert after == drawn(static), text.plain   # segments, styles, selection offsets
                    if step and len(before) == len(after) and not any(k.get("layout") for _, k in asked):
                        partial += 1
                        changed = {y for y, (old, new) in enumerate(zip(before, after)) if old != new}
                        repainted = {r.y for regions, _ in asked for r in regions}
                        assert all(regions for regions, _ in asked)   # never the whole widget
                        assert repainted == changed, text.plain
        finally:
            Widget.refresh = original
        assert partial > 20
