"""VotingRow: every player's row of voting cards, left to right, with the card now
being voted on marked.

Generic: a row is the player's (letter, style), then per card a short name (or
None for a face-down card), the tokens bid on it and whether it was played.  The
current position is drawn in reverse video and pointed at by ``▼``; face-down
cards are ``▒▒▒▒``; tokens bid are ``●3``; a played card is underlined and marked
``✓``.  Each card is given a full and a short name: the full one when the cells
are wide enough (the screen's legend explains the short ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual.widget import Widget


@dataclass(frozen=True)
class VoteCard:
    short: str | None   # None: face down
    tokens: int = 0
    played: bool = False
    full: str = ""      # the full name, shown when the cell is wide enough
    recent: bool = False  # another seat changed it since your last move


@dataclass(frozen=True)
class VoteRowLine:
    letter: str
    style: Style
    cards: Sequence[VoteCard]
    note: str = ""      # e.g. "has bid", "won 2": the cards narrow so that it is never cut


# Explicitly plain, so each card stays its own run of text (exported SVGs keep it on the grid).
UNPLAYED = Style(underline=False, bold=False)


class VotingRow(Widget):
    COMPONENT_CLASSES = {"voting-row--face-down", "voting-row--played", "voting-row--current",
                         "voting-row--recent"}

    DEFAULT_CSS = """
    VotingRow { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.rows: list[VoteRowLine] = []
        self.current = -1
        self.slots = 5
        self.title = ""
        self._shown: tuple | None = None   # what is drawn (not drawn again while it stays the same)

    def show(self, rows: Sequence[VoteRowLine], current: int, slots: int, title: str = "") -> None:
        self.rows = list(rows)
        self.current = current
        self.slots = slots
        self.title = title
        # the same again costs nothing; a layout only when the number of rows changes
        key = (tuple(self.rows), current, slots, title)
        if key == self._shown:
            return
        self.refresh(layout=self._shown is None or len(self._shown[0]) != len(self.rows))
        self._shown = key

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.rows) + 1

    def cell_width(self) -> int:
        width = self.size.width or 49
        longest = max((len(row.note) for row in self.rows), default=0)  # a note is never cut
        for cell, note in ((18, 12), (16, 12), (8, 7), (7, 7)):
            if width >= 2 + cell * self.slots + max(note, longest):
                return cell
        return 6

    def render(self) -> Text:
        width = self.size.width or 49
        cell = self.cell_width()
        part = self.get_component_rich_style
        face_down = part("voting-row--face-down", partial=True)
        played = part("voting-row--played", partial=True)
        current = part("voting-row--current", partial=True)
        recent = part("voting-row--recent", partial=True)
        out = Text()
        head = Text("  ")
        for i in range(self.slots):
            mark = "▼" if i == self.current else " "
            label = f"{mark}{i + 1}" if cell < 16 else f"{mark}place {i + 1}"
            head.append(label.ljust(cell), Style(bold=i == self.current))
        room = max(0, width - head.cell_len)
        head.append(self.title[:room], Style(dim=True))
        out.append_text(head)
        for row in self.rows:
            out.append("\n")
            out.append(row.letter, row.style)
            out.append(" ")
            for i in range(self.slots):
                card = row.cards[i] if i < len(row.cards) else None
                if card is None:
                    text, style = "", Style(dim=True)
                elif card.short is None:
                    text, style = "▒▒▒▒", face_down
                else:
                    tok = f"●{card.tokens}" if card.tokens else ""
                    mark = "✓" if card.played else ""
                    name = card.full if card.full and cell >= 16 else card.short[:4]
                    room = cell - 1 - len(tok)
                    body = name + mark if len(name + mark) <= room else name[:room]
                    text = body.ljust(room) + tok if tok else body
                    style = played if card.played else UNPLAYED
                if card is not None and card.recent:
                    style = style + recent
                if i == self.current:
                    style = style + current
                out.append(text[: cell - 1].ljust(cell - 1), style)
                out.append(" ")
            if row.note:
                room = max(0, width - 2 - cell * self.slots)
                out.append(row.note[:room], Style(dim=True))
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
