"""Hot-seat: the players at this keyboard, and bots, around one local table.

The session's state machine (``next_step``) decides what follows a change of the table:
the game is over, a bot is to act (after a short pause, so a person can follow), the
keyboard passes to another player (behind a curtain when the seats see different
things), or nothing.  ``HostedSession`` runs the same machine over a LAN table.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.text import counted

from .base import Session, Stage

if TYPE_CHECKING:
    from ..seat_links import LocalTable

#: What ``next_step`` says comes next.
OVER, BOT, CURTAIN, SWITCH, WAIT = "over", "bot", "curtain", "switch", "wait"


class Step(NamedTuple):
    what: str               # OVER, BOT, CURTAIN, SWITCH or WAIT
    seat: int | None = None  # the bot to act, or the player coming to the keyboard


class HotSeatSession(Session):
    """A local table: its humans take turns at this keyboard, its bots act on a timer
    (``manual_bots``: only when someone calls ``table.step_bot()``, as demo replays do)."""

    #: The game-over screen's choices (a hosted table has no rematch).
    OVER_CHOICES = ("rematch", "menu", "save", "board", "quit")

    def __init__(self, app: Stage, table: LocalTable, bot_delay: float = 0.0,
                 manual_bots: bool = False, save_path: Any = None):
        super().__init__(app)
        self.table = table
        self.bot_delay = bot_delay
        self.manual_bots = manual_bots
        self.save_path = save_path if save_path is not None else table.autosave
        #: The seat at the keyboard (None: nobody plays here, the table is watched).
        self.viewer: int | None = self.first_seat()
        self.link = table.link(self.viewer)
        self.curtain_up = False
        self.ticking = not manual_bots
        self._bot_timer: Any = None
        self._thought: Any = None  # the worker in which a slow bot decides
        self._thinking: tuple[int, float] | None = None  # the bot to act, and since when (monotonic)
        self._over_shown = False
        self._stopped = False

    # --- the state machine ---------------------------------------------------------------
    def first_seat(self) -> int | None:
        """Who sits at the keyboard as the table opens: the first human to act, else the
        first human."""
        humans = self.table.human_seats
        first = self.table.human_to_act()
        return first if first is not None else (humans[0] if humans else None)

    def next_step(self) -> Step:
        """What the table needs next, from the seat at the keyboard's point of view."""
        table = self.table
        if table.match.result() is not None:
            return Step(OVER)
        bot = table.bot_to_act()
        if bot is not None:
            return Step(BOT, bot)
        human = table.human_to_act()
        if human is None or human == self.viewer or self.curtain_up:
            return Step(WAIT)
        if len(table.human_seats) > 1 and table.hides_information():
            return Step(CURTAIN, human)
        return Step(SWITCH, human)

    def sit(self, seat: int | None) -> None:
        """``seat``'s player is at the keyboard now: the screen sends and shows for them."""
        self.viewer = seat
        self.link = self.table.link(seat)
        if self.screen is not None:
            self.screen.set_link(self.link)

    # --- running it ----------------------------------------------------------------------
    def start(self) -> None:
        from ..games import screen_class

        table = self.table
        self.sit(self.first_seat())
        self.screen = screen_class(table.game.slug)(self.link)
        self.screen.seed_baselines(
            {s: (table.match.view(s), len(table.link(s).log())) for s in table.human_seats})
        table.listeners.append(self._table_changed)
        if not self.manual_bots and any(bot.slow for bot in table.bots.values()):
            self.app.thinker.warm()
        if len(table.human_seats) > 1 and self.viewer is not None:
            # The curtain comes first: the first player's hand is drawn only once they are here.
            self._raise_curtain(self.viewer)
        else:
            self.draw()
            self.app.push_screen(self.screen)
        self.app.call_later(self.advance)

    def stop(self) -> None:
        self._stopped = True
        if self._table_changed in self.table.listeners:
            self.table.listeners.remove(self._table_changed)
        if self._bot_timer is not None:
            self._bot_timer.stop()
            self._bot_timer = None
        if self._thought is not None:
            self._thought.cancel()  # (its worker process ends: nothing answers a table left)
            self._thought = None
        self.stop_ticking()
        self.curtain_up = False

    def _table_changed(self) -> None:
        self.app.call_later(self.advance)

    def advance(self) -> None:
        """The table changed (or the keyboard did): draw it, then do what comes next."""
        if self._stopped or self.screen is None:
            return
        if not self.curtain_up:
            self.draw()
        step = self.next_step()
        if step.what == BOT:
            if self._thinking is None or self._thinking[0] != step.seat:
                self._thinking = (step.seat, time.monotonic())
            self.show_thinking()
            if not self.manual_bots and self._bot_timer is None and self._thought is None:
                # set_timer(0) divides by zero inside Textual when it runs late
                self._bot_timer = self.app.set_timer(max(self.bot_delay, 0.001), self._bot_step)
            return
        self._thinking = None
        self.show_thinking()
        if step.what == OVER:
            self.show_game_over()
        elif step.what == CURTAIN:
            self._raise_curtain(step.seat)
        elif step.what == SWITCH:
            self.sit(step.seat)
            self.draw()

    def bots_thinking(self) -> dict[int, float]:
        return {} if self._thinking is None else {self._thinking[0]: time.monotonic() - self._thinking[1]}

    @property
    def bot_waiting(self) -> bool:
        """A bot's move is due (it acts when the timer fires), or a bot is deciding."""
        return self._bot_timer is not None or self._thought is not None

    def _bot_step(self) -> None:
        self._bot_timer = None
        if self._stopped:
            return
        decision = self.table.bot_decision()
        if decision is None:
            return
        seat, bot, view, legal = decision
        if not bot.slow:
            self.table.play_bot(seat, view, bot.choose(view, legal), bot)  # (its listener brings advance)
            return
        self._thought = self.app.run_worker(self._think(seat, bot, view, legal), exit_on_error=False)

    async def _think(self, seat: int, bot: Any, view: Any, legal: list[Any]) -> None:
        """A slow bot decides off the app's event loop (``netplay.thinking``): the screen
        keeps answering keys meanwhile."""
        table = self.table
        action, after = await self.app.thinker.decide(
            bot, view, legal, lambda: table.game.make_bot(seat, table.bot_seed, "normal"))
        self._thought = None
        if not self._stopped and not table.play_bot(seat, view, action, after):
            self.advance()  # (the table moved on while it thought: decide again if still to act)

    def _raise_curtain(self, seat: int) -> None:
        from ..screens.dialogs import CurtainScreen
        from ..seat_labels import seat_letter

        self.curtain_up = True
        self.app.push_screen(CurtainScreen(self.table.names[seat], seat_letter(seat)),
                             lambda _: self.curtain_lifted(seat))

    def curtain_lifted(self, seat: int) -> None:
        """``seat``'s player pressed Enter on the curtain: the table is theirs to see."""
        self.curtain_up = False
        if self._stopped or self.screen is None:
            return  # (the table was left while the curtain was up)
        self.sit(seat)
        if self.screen not in self.app.screen_stack:
            self.app.push_screen(self.screen)
        self.advance()

    # --- the end -------------------------------------------------------------------------
    def game_over_notes(self) -> list[str]:
        notes = [f"{counted(len(self.table.match.record.moves), 'move')}."]
        if self.save_path:
            notes.append(f"Record: {self.save_path}")
        return notes

    def show_game_over(self) -> None:
        if self._over_shown:
            return
        from ..screens.dialogs import game_over_summary
        from ..screens.game_over import GameOverScreen

        self._over_shown = True
        match = self.table.match
        result = match.result()
        text = game_over_summary(match.names, result.winners, result.reason, result.scores,
                                 self.game_over_notes(), unit=self.table.game.score_unit,
                                 bots={seat: s.bot_level for seat, s in enumerate(match.seats) if s.kind == "bot"})
        reveal = self.table.link(self.viewer).final_reveal()

        def chosen(what: str | None) -> None:
            if what == "save":
                self.save_record()
                self._over_shown = False
                self.show_game_over()
            elif what == "rematch":
                self.rematch()
            elif what == "menu":
                self.app.back_to_menu()
            elif what == "quit":
                self.app.exit()

        self.app.push_screen(GameOverScreen(text, reveal, self.OVER_CHOICES), chosen)

    def rematch(self) -> None:
        """The same seats and options at a new table with a new secret seed."""
        from engine.match import Match

        from ..common import default_record_path
        from ..seat_links import LocalTable

        old = self.table
        match = old.match
        path = default_record_path(old.game.slug) if old.autosave is not None else None
        table = LocalTable(old.game, Match(old.game, match.options, match.seats, None), autosave=path)
        self.app.end_session()
        self.app.begin(HotSeatSession(self.app, table, self.bot_delay, self.manual_bots, save_path=path))

    # --- the shared keys -----------------------------------------------------------------
    def over(self) -> bool:
        return self.table.match.result() is not None

    def save_record(self) -> None:
        self.save_path = self.save_table(self.save_path) or self.save_path

    def leave_question(self) -> str:
        if self.over():
            return "Leave this game?" + (f"\nIts record is in {self.save_path}." if self.save_path else "")
        if self.save_path:
            return "Leave this game? It is saved. To go on later:"
        return "Leave this game? It is not saved (s saves it first)."

    def leave_command(self) -> str:
        from ..common import shell_command

        if self.over() or not self.save_path:
            return ""
        return shell_command("atlantis", "play", "--resume", Path(self.save_path))
