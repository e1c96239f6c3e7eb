"""PlayerScreen: what stands behind a player's screen -- influence tokens, the
Politics cards in hand and the special cards -- plus a pending secret choice
(a bid not yet revealed), shown only to its owner by the screen that uses it.

Generic: it is given the player's (letter, style), numbers and card names.  Nothing is
cut: the specials stay on the first line while they fit there, else they get a line of
their own; a list longer than the width wraps between its items (indented), so every
name is read in full at 80 columns too.  The widget is as tall as its lines.
"""

from __future__ import annotations

from typing import Sequence

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from engine.text import counted

INDENT = "  "  # a wrapped list's later lines
_CONSOLE = Console(width=200)  # (only measures: Text.wrap breaks between words)


def wrap_items(head: Text, items: Sequence[str], width: int, style: Style = Style(),
               empty: str = "none") -> list[Text]:
    """``head`` then the items joined by ", ", broken between items so that no line is
    longer than ``width`` (a single item longer than a whole line is cropped)."""
    lines = [head.copy()]
    if not items:
        lines[0].append(empty, Style(dim=True))
        return lines
    fresh = True  # the line holds no item yet
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        gap = "" if fresh else " "
        if not fresh and lines[-1].cell_len + len(gap) + len(piece) > width:
            lines.append(Text(INDENT))
            gap = ""
        lines[-1].append(gap)
        lines[-1].append(piece, style)
        fresh = False
    return lines


class PlayerScreen(Widget):
    COMPONENT_CLASSES = {"player-screen--pending"}

    DEFAULT_CSS = """
    PlayerScreen { height: auto; text-wrap: nowrap; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.who: tuple[str, Style] | None = None
        self.tokens = 0
        self.hand: list[str] = []
        self.specials: list[str] = []
        self.pending = ""
        self.watching = ""

    def show(self, who: tuple[str, Style] | None, tokens: int = 0, hand: Sequence[str] = (),
             specials: Sequence[str] = (), pending: str = "", watching: str = "") -> None:
        # the same again costs nothing (another seat's move leaves your screen alike)
        key = (who, tokens, tuple(hand), tuple(specials), pending, watching)
        if key == self._shown:
            return
        self._shown = key
        self.who = who
        self.tokens = tokens
        self.hand = list(hand)
        self.specials = list(specials)
        self.pending = pending
        self.watching = watching
        self.refresh(layout=True)

    _shown: tuple | None = None  # the last show()'s arguments

    def lines(self, width: int) -> list[Text]:
        """Every line at ``width``: the screen's tokens (and the specials when they fit
        beside them), the specials on their own, the hand; lists wrapped, never cut."""
        width = max(20, width)
        if self.who is None:  # (wrapped between words: never cut)
            text = Text(self.watching or "Watching: hands and screens are hidden.", Style(dim=True))
            lines = list(text.wrap(_CONSOLE, width))
            for line in lines:
                line.rstrip()
            return lines
        letter, style = self.who
        first = Text()
        first.append(letter, style)
        first.append(f" screen: {counted(self.tokens, 'token')}", Style(bold=True))
        out = [first]
        if self.pending:   # its parts ("your secret bid: 5 · Green bid 18") wrap whole
            style = self.get_component_rich_style("player-screen--pending", partial=True)
            for part in self.pending.split(" · "):
                if out[-1].cell_len + 3 + len(part) > width:
                    out.append(Text(INDENT))
                    out[-1].append(part, style)
                else:
                    out[-1].append(f" · {part}", style)
        dim = Style(dim=not self.specials)
        beside = Text(" · specials: ")
        beside.append(", ".join(self.specials) or "none", dim)
        if out[-1].cell_len + beside.cell_len <= width:
            out[-1].append_text(beside)
        else:
            out += wrap_items(Text("Specials: "), self.specials, width)
        # (a screen may hand over its list already joined: it is wrapped between items too)
        hand = [part for chunk in self.hand for part in chunk.split(", ") if part]
        out += wrap_items(Text("Hand: "), hand, width, empty="(empty)")
        return out

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        out = Text("\n").join(self.lines(self.size.width or 80))
        out.no_wrap = True
        out.overflow = "crop"
        return out
