"""The menu's row of games: the list (``GameList``) and the chosen game's card beside it
(``CardView``), each one widget drawing its own lines (start time)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static
from textual.widgets.option_list import Option

from ..widgets.hover import HoverMark


class CardView(Static):
    """The chosen game's card beside the list: its picture, a blank line, its name and
    player count (muted).  One widget, for start time."""

    COMPONENT_CLASSES = {"card--picture", "card--text"}

    def __init__(self, picture: tuple[str, ...], caption: str, *, id: str) -> None:
        super().__init__(id=id)
        self._picture, self._caption = picture, caption

    def show(self, picture: tuple[str, ...], caption: str) -> None:
        self._picture, self._caption = picture, caption
        self.refresh(layout=True)

    def render(self) -> Text:
        return Text.assemble(("\n".join(self._picture), self.get_component_rich_style("card--picture")), "\n\n",
                             (self._caption, self.get_component_rich_style("card--text")))


class GameList(HoverMark, Widget, can_focus=True):
    """The list of games, two lines a game (``Option`` prompts); the highlighted game is
    marked ▶ and drawn in the cursor's colours.  Up/Down (or k/j), Home/End move the
    highlight (round from the last to the first); Enter or a click picks the game.

    One widget drawing its own lines: Textual's ``OptionList`` (a scrolling view, five
    component classes, a line cache) costs the menu's start much more than this.  The list
    always fits: five games, ten lines."""

    BINDINGS = [
        Binding("down,j", "cursor_down", "Down", show=False),
        Binding("up,k", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Select", show=False),
    ]
    COMPONENT_CLASSES = {"game-list--highlighted", "game-list--hover"}

    class _Moved(Message):
        def __init__(self, games: GameList, index: int) -> None:
            super().__init__()
            self.games, self.index, self.option = games, index, games.get_option_at_index(index)

        @property
        def control(self) -> GameList:
            return self.games

    class Highlighted(_Moved):
        """Another game is highlighted (``index``, ``option``)."""

    class Selected(_Moved):
        """The highlighted game is picked (Enter, a click)."""

    def __init__(self, *options: Option, highlighted: int = 0, id: str | None = None) -> None:
        super().__init__(id=id)
        self._options = list(options)
        self._highlighted = highlighted
        self._hover: int | None = None

    # --- what the menu and the tests read (OptionList's names) --------------------------
    @property
    def option_count(self) -> int:
        return len(self._options)

    def get_option_at_index(self, index: int) -> Option:
        return self._options[index]

    def replace_option_prompt_at_index(self, index: int, prompt: Text) -> None:
        self._options[index] = Option(prompt, id=self._options[index].id)
        self.refresh()

    @property
    def highlighted(self) -> int:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int) -> None:
        if not 0 <= index < len(self._options) or index == self._highlighted:
            return
        self._highlighted = index
        self.refresh()
        self.post_message(self.Highlighted(self, index))

    # --- keys and the mouse ---------------------------------------------------------------
    def action_cursor_down(self) -> None:
        self.highlighted = (self._highlighted + 1) % len(self._options)

    def action_cursor_up(self) -> None:
        self.highlighted = (self._highlighted - 1) % len(self._options)

    def action_first(self) -> None:
        self.highlighted = 0

    def action_last(self) -> None:
        self.highlighted = len(self._options) - 1

    def action_select(self) -> None:
        self.post_message(self.Selected(self, self._highlighted))

    def _option_at(self, y: int) -> int | None:
        index = y // 2
        return index if 0 <= y and index < len(self._options) else None

    def on_click(self, event: events.Click) -> None:
        index = self._option_at(event.y - self.gutter.top)
        if index is not None:
            self.highlighted = index
            self.action_select()

    def hover_at(self, event: events.MouseMove) -> int | None:
        return self._option_at(event.y - self.gutter.top)

    # --- drawing ----------------------------------------------------------------------------
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return sum(len(o.prompt.plain.split("\n")) for o in self._options)

    def render(self) -> Text:
        width = self.content_size.width
        out = Text(no_wrap=True, overflow="crop", end="")
        for index, option in enumerate(self._options):
            prompt = option.prompt.copy()
            lines = prompt.split("\n")
            style = (self.get_component_rich_style("game-list--highlighted") if index == self._highlighted
                     else self.get_component_rich_style("game-list--hover") if index == self._hover else None)
            for line in lines:
                line.pad_right(width - line.cell_len)
                if style is not None:
                    line.stylize_before(style)
                if out:
                    out.append("\n")
                out.append_text(line)
        return out
