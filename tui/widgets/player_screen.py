"""PlayerScreen: what stands behind a player's screen -- influence tokens, the
Politics cards in hand and the special cards -- plus a pending secret choice
(a bid not yet revealed), shown only to its owner by the screen that uses it.

Generic: it is given the player's (letter, style), numbers and short card names.
"""

from __future__ import annotations

from typing import Sequence

from rich.style import Style
from rich.text import Text
from textual.widget import Widget


class PlayerScreen(Widget):
    COMPONENT_CLASSES = {"player-screen--pending"}

    DEFAULT_CSS = """
    PlayerScreen { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    PlayerScreen > .player-screen--pending { color: #ffd75f; text-style: bold; }
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
        self.who = who
        self.tokens = tokens
        self.hand = list(hand)
        self.specials = list(specials)
        self.pending = pending
        self.watching = watching
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return 2

    def render(self) -> Text:
        out = Text()
        if self.who is None:
            out.append(self.watching or "Watching: hands and screens are hidden.", Style(dim=True))
            out.append("\n")
            return out
        letter, style = self.who
        out.append(letter, style)
        out.append(f" screen: {self.tokens} tokens", Style(bold=True))
        if self.pending:
            out.append(f" · {self.pending}", self.get_component_rich_style("player-screen--pending", partial=True))
        out.append(" · specials: ")
        out.append(", ".join(self.specials) or "none", Style(dim=not self.specials))
        out.append("\nHand: ")
        out.append(" ".join(self.hand) or "(empty)")
        out.no_wrap = True
        out.overflow = "ellipsis"
        return out
