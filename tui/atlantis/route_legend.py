"""The legend of ``RouteTrack`` (a mixin of it): every symbol the route draws, in the
route's own styles -- packed into a line or three under the route, or one symbol a line
for a panel beside the board on a big terminal.

It reads the widget's ``picture`` (its colour letters and names) and styles
(``_part``, ``colour_style``); it knows no rules.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from ..widgets.seat_styles import recent_style

COLOURS = 7
BIG_WIDTH = 100    # from this width on, the big cells (and the long legend words)


class RouteLegend:
    picture: Any

    def _part(self, name: str) -> Style:  # (RouteTrack's: a component class's style)
        raise NotImplementedError

    def colour_style(self, colour: int) -> Style:
        raise NotImplementedError

    def _legend_items(self, short: bool = False) -> list[Text]:
        pic = self.picture
        note = self._part("note")
        items = []
        colours = Text()
        for c, letter in enumerate(pic.letters[:COLOURS]):
            colours.append(letter, self.colour_style(c))
            if not short and c < len(pic.colour_names):
                colours.append(f" {pic.colour_names[c]} ", note)
        if short or not pic.colour_names:
            colours.append(" colours", note)
        items.append(colours)
        # (short: water before the plates, so that the one-line legend at 80 columns
        # still says what the number under the water is)
        words_of = ((("≈", "water", " water, price under it"), ("A3", "colour-0", ""),
                     ("══", "bridge", " bridge"),
                     ("▲1", "mark", " go: key 1"), ("R", "chosen", " chosen")) if short else
                    (("A3", "colour-0", ""), ("≈", "water", " water, the number under it its price"),
                     ("══", "bridge", " bridge"), ("▲1", "mark", " destination: key 1"),
                     ("R", "chosen", " chosen figure")))
        recent = Text()
        recent.append("A3", recent_style(self.app.theme_variables))
        recent.append(" changed" if short else " changed since your move", note)
        for sample, part, words in words_of:
            item = Text()
            item.append(sample, self._part(part))
            if sample == "A3":
                item.append(":", self._part("head"))
                item.append(" 2 plates" if short else " or ▀▀ under it: a stack of 2 plates", note)
            item.append(words, note)
            items.append(item)
        return items + [recent]

    def legend_list(self) -> Text:
        """The whole legend, one symbol a line (for a panel beside the board on a big
        terminal); its styles are this widget's, so it reads like the route."""
        pic = self.picture
        note = self._part("note")
        out = Text("Legend", self._part("head"))
        for c, letter in enumerate(pic.letters[:COLOURS]):
            out.append("\n" if c % 4 == 0 else "  ")
            out.append(letter, self.colour_style(c))
            if c < len(pic.colour_names):
                out.append(f" {pic.colour_names[c]}", note)
        rows = (
            (("A3", "colour-0"),), "a plate: its colour's letter, value",
            (("A3", "colour-0"), (":", "head")), "a stack of 2 plates (▀▀ under it)",
            (("≈≈", "water"),), "water, the number under it its price",
            (("══", "bridge"),), "a bridge: crossing it is free",
            (("▲1", "mark"),), "where the figure can go: key 1",
            (("R", ""),), "a figure: its player's letter",
            (("R", "chosen"),), "underlined: the chosen figure",
            (("·", "gone"),), "gone: the route got shorter",
            ((f"{pic.start_name}", "end"),), "the start",
            ((f"{pic.goal_name}", "end"),), "the goal",
        )
        for i in range(0, len(rows), 2):
            out.append("\n")
            samples = rows[i]
            width = 0
            for sample, part in samples:
                out.append(sample, self._part(part) if part else Style())
                width += len(sample)
            out.append(" " * max(1, 4 - width))
            out.append(rows[i + 1], note)
        out.append("\n")
        out.append("A3", recent_style(self.app.theme_variables))
        out.append("  changed since your move", note)
        return out

    def _legend_lines(self, width: int) -> int:
        return len(self._legend(width))

    def _legend(self, width: int) -> list[Text]:
        """The legend items packed into as few lines as the width allows."""
        rows: list[list[Text]] = [[]]
        left_out = False

        def length(row: list[Text]) -> int:
            return sum(t.cell_len for t in row) + 2 * max(0, len(row) - 1)

        for item in self._legend_items(width < BIG_WIDTH):
            if rows[-1] and length(rows[-1]) + 2 + item.cell_len > width:
                if len(rows) >= self.picture.legend_rows:
                    left_out = True
                    continue
                rows.append([])
            rows[-1].append(item)
        more = self.picture.legend_more
        if left_out and more:  # say that there is more, in place of the last items if need be
            while len(rows[-1]) > 1 and length(rows[-1]) + 2 + len(more) > width:
                rows[-1].pop()
            rows[-1].append(Text(more, self._part("head")))
        return [Text("  ").join(row) for row in rows]
