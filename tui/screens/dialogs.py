"""Screens every game shares: help, curtain, confirmation, game over; and the one
game-over summary (the modal's text and the turn line) every game and LAN play use."""

from __future__ import annotations

from typing import Mapping, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalScroll, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from ..seat_labels import game_over_line, seat_label, seat_letter  # (game_over_line: read from here too)
from .game_over import GameOverScreen

__all__ = ["ConfirmScreen", "CurtainScreen", "GameOverScreen", "HelpScreen", "game_over_line",
           "game_over_summary"]


class HelpScreen(ModalScreen[None]):
    """The game's rules in the project's own words."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%;
        border: thick $primary; background: $surface; padding: 0 1; }
    HelpScreen #help-keys { dock: bottom; width: 100%; height: 1; margin-bottom: 1;
        text-align: center; color: $ink-muted; }
    """
    #: The scroll keys (the scroll view's own, which the key line does not list).
    SCROLL_KEYS = "↑ ↓ PgUp PgDn Home End scroll · Esc closes"
    BINDINGS = [
        Binding("escape,q,question_mark", "dismiss", "Close", id="close-help"),
    ]

    def __init__(self, markdown: str):
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # here, not at the top: markdown-it and pygments only for the help

        with VerticalScroll():
            yield Markdown(self.markdown)
        yield Static(self.SCROLL_KEYS, id="help-keys", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()


class CurtainScreen(Screen[None]):
    """Hides the table while the keyboard passes to another player."""

    DEFAULT_CSS = """
    CurtainScreen { align: center middle; background: $background; }
    CurtainScreen Static { width: auto; padding: 1 4; border: double $accent; text-align: center; }
    """
    BINDINGS = [Binding("enter", "ready", "I am here", id="curtain-ready")]

    def __init__(self, name: str, letter: str):
        super().__init__()
        self.player = name
        self.letter = letter

    def compose(self) -> ComposeResult:
        yield Static(
            f"Pass the keyboard to [b]{self.player} ({self.letter})[/b]\n\n"
            "Everyone else: look away.\n\n"
            f"{self.player}, press [b]Enter[/b] when you are ready."
        )
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 96%; max-width: 100; height: auto; border: thick $warning; background: $surface; padding: 1 1; }
    ConfirmScreen #command { height: auto; margin-top: 1; }
    ConfirmScreen #command Static { width: auto; text-wrap: nowrap; }
    ConfirmScreen #answers { margin-top: 1; }
    """
    BINDINGS = [
        Binding("y", "yes", "Yes", id="confirm-yes"),
        Binding("n,escape", "no", "No", id="confirm-no"),
    ]

    def __init__(self, question: str, command: str = ""):
        """``command``: a shell command to copy (``tui.common.shell_command``), shown
        under the question and never wrapped (a line too long scrolls sideways)."""
        super().__init__()
        self.question = question
        self.command = command

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, markup=False, id="question")
            if self.command:
                with HorizontalScroll(id="command"):
                    yield Static(self.command, markup=False)
            yield Static("[b]y[/b] yes    [b]n[/b] no", id="answers")
        yield Footer()

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)


def game_over_summary(names: Sequence[str], winners: Sequence[int], reason: str, scores: Sequence[float],
                      notes: Sequence[str] = (), unit: str = "points", bots: Mapping[int, str] | None = None) -> str:
    """The text of the game-over modal: winners, why, every score, then ``notes`` (moves,
    where the record is, the host's honesty check).  ``bots``: the level of each bot seat,
    said beside its name."""
    bots = bots or {}
    lines = ["[b]Game over[/b]", ""]
    if winners:
        lines.append("Winner: " + ", ".join(f"{names[w]} ({seat_letter(w)}, {bots[w]} bot)" if w in bots
                                            else seat_label(w, names[w]) for w in winners))
    lines.append(f"Why: {reason}")
    lines.append("")
    for seat, score in enumerate(scores):
        bot = f"  ({bots[seat]} bot)" if seat in bots else ""
        if unit:
            lines.append(f"  {seat_letter(seat)} {names[seat]:<10} {score:g} {unit}{bot}")
        else:  # a game without points: who won, not a number
            lines.append(f"  {seat_letter(seat)} {names[seat]:<10} {'won' if seat in winners else '-'}{bot}")
    lines.append("")
    lines += notes
    return "\n".join(lines)
