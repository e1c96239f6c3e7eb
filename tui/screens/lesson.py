"""A lesson's card: one step of a guided first game, over the table it teaches."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static


class LessonCard(ModalScreen[None]):
    """What to do now and why, and the keys that do it; Enter (or Esc) goes back to the table."""

    DEFAULT_CSS = """
    LessonCard { align: center middle; }
    LessonCard > VerticalScroll { width: 90%; max-width: 76; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 0 1; }
    LessonCard #lesson-title { text-style: bold; color: $ink-gold; }
    LessonCard #lesson-progress { color: $ink-muted; }
    LessonCard #lesson-say { margin: 1 0 0 0; }
    LessonCard #lesson-keys { margin: 1 0 0 0; text-style: bold; }
    """
    BINDINGS = [Binding("enter,escape,L", "dismiss", "Back to the table", id="lesson-close")]

    def __init__(self, title: str, progress: str, say: str, keys: str):
        super().__init__()
        self.title_text, self.progress, self.say, self.keys = title, progress, say, keys

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.title_text, id="lesson-title", markup=False)
            yield Static(self.progress, id="lesson-progress", markup=False)
            yield Static(self.say, id="lesson-say", markup=False)
            if self.keys:
                yield Static(f"Keys: {self.keys}", id="lesson-keys", markup=False)
        yield Footer()
