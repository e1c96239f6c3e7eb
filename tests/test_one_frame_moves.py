"""One layout for a bot's move, in every game's table (issue 15: redraw only what changed).

A move fills the side panels and the event log anew; a panel that grows or shrinks, and
the log with more lines, get their new sizes in the move's layout.  Textual then asked
for a second whole layout (every widget whose virtual size changed), and when the log's
panel changed height the log was anchored from its old height and scrolled to its end
after the frame: two layouts and three frames a move.  A game screen now lays every move
out as its start (tui/screens/start_layout.py), the log anchored from its new height:
one layout, and one frame or two.  The second frame was the log's: RichLog scrolls to
its new lines after the next frame, so every move that logged a line repainted the log
in a frame of its own; the log, anchored at its end, now scrolls as it takes the lines
(tui/widgets/eventlog.py), and most moves are one frame.
Every move counts: bots' moves, the ones that hand you the turn, and your own (your turn
changes the keys shown at the bottom: the key line repaints; Textual's Footer was
composed anew, with a layout and a frame of its own).
After the moves, Textual's own layout asked again must change nothing on the screen."""

from __future__ import annotations

import pytest
from textual.screen import Screen

from frame_counting import CountingDriver, next_move, settled

from engine.core import SeatInfo
from engine.registry import get_game
from tui.app import AtlantisApp
from tui.screens import game as game_screen
from tui.seat import LocalTable

GAMES = ["pathways", "finding-atlantis", "end-of-atlantis", "survive", "atlantis"]


def _table(slug: str) -> LocalTable:
    game = get_game(slug)
    players = min(game.max_players, 4)
    seats = [SeatInfo("Red", "human")] + [SeatInfo(f"Bot{i}", "bot") for i in range(1, players)]
    return LocalTable.new(game, {}, seats, seed=7)


def _lines(app: AtlantisApp) -> list[str]:
    """The screen's characters, line by line, as the terminal shows them."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


@pytest.mark.parametrize("slug", GAMES)
async def test_a_bots_move_is_laid_out_once_and_drawn_in_one_frame_mostly_two_at_most(slug, monkeypatch):
    layouts = []
    real = game_screen.start_layout
    monkeypatch.setattr(game_screen, "start_layout", lambda screen, size=None: (layouts.append(1), real(screen, size)))
    real_textual = Screen._refresh_layout
    monkeypatch.setattr(Screen, "_refresh_layout",
                        lambda self, size=None, scroll=False: (layouts.append(1) if not scroll else None,
                                                               real_textual(self, size, scroll)))
    table = _table(slug)
    app = AtlantisApp(table=table, autosave=False, manual_bots=True, driver_class=CountingDriver)
    counted: list[tuple[int, int]] = []  # (layouts, frames) of each move counted
    async with app.run_test(size=(120, 40), headless=False):
        await settled()
        turns = 0  # moves that began or ended your turn
        for _ in range(80):
            if (len(counted) >= 12 and turns >= 2) or table.match.result() is not None:
                break
            frames, laid = CountingDriver.frames, len(layouts)
            yours = table.human_to_act() is not None
            next_move(table)  # (a bot's, or you play your last legal action)
            turns += yours != (table.human_to_act() is not None)
            await settled(frames)
            if table.match.result() is None:  # (game over: the result screen follows)
                counted.append((len(layouts) - laid, CountingDriver.frames - frames))
        shown = _lines(app)
        # Textual's own layout, asked again, places every widget where it already is
        real_textual(app.screen, None, False)
        await settled()
        assert _lines(app) == shown, slug
    assert len(counted) >= 8 and turns >= 2, (slug, counted, turns)
    assert all(laid == 1 for laid, _ in counted), (slug, counted)
    assert all(frames <= 2 for _, frames in counted), (slug, counted)
    # most moves in one frame: the log's new lines are scrolled to in the move's frame
    assert sum(frames == 1 for _, frames in counted) * 4 >= len(counted) * 3, (slug, counted)
