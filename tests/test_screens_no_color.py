"""Every game under NO_COLOR at 80x24: colour is never the only cue.  On each game's
mid-game setup the player makes a move and the bots answer, so the board shows what
changed since that move; then every difference the board shows in colour must show
without it too (as a character or a text attribute: bold, underline, italic, reverse):
the cursor moving, what changed since your move, the targets of the picked piece.

The board's text, with a line of attributes under each line, is kept as a snapshot per
game (tests/golden/<game>-no-color-80x24.txt; UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rich.segment import Segment
from rich.style import Style

from engine.registry import GAMES
from tui.app import AtlantisApp
from tui.screen_entry import screen_entry
from tui.screenshots import mid_game_table
from tui.setups import load_setups

GOLDEN = Path(__file__).parent / "golden"
#: A text attribute's bit in the hex digit written under each character ("." for none).
ATTRIBUTES = (("bold", 1), ("underline", 2), ("italic", 4), ("reverse", 8))


def attribute_code(style: Style | None) -> str:
    bits = sum(bit for name, bit in ATTRIBUTES if style is not None and getattr(style, name))
    return format(bits, "x") if bits else "."


def monochrome(line: list[Segment]) -> tuple[str, str]:
    """A drawn line as a monochrome terminal shows it: its characters and their attributes."""
    return "".join(s.text for s in line), "".join(attribute_code(s.style) * len(s.text) for s in line)


def in_colour(line: list[Segment]) -> list[tuple[str, Style | None]]:
    return [(ch, s.style) for s in line for ch in s.text]


def drawn(widget) -> list[list[Segment]]:
    return [list(widget.render_line(y)) for y in range(widget.size.height)]


def drawn_screen(screen) -> dict[str, list[list[Segment]]]:
    """Every widget of the screen that draws itself (not only through its children), by path."""
    return {f"{i} {type(w).__name__}#{w.id}": drawn(w) for i, w in enumerate(screen.query("*"))
            if not w.children and w.display and w.size.area}


def shown_without_colour(before: dict, after: dict) -> list[str]:
    """The widgets whose drawing changed in colour only."""
    return [name for name in before.keys() & after.keys()
            if [in_colour(line) for line in before[name]] != [in_colour(line) for line in after[name]]
            and [monochrome(line) for line in before[name]] == [monochrome(line) for line in after[name]]]


def changed(before: dict, after: dict) -> bool:
    return any([in_colour(line) for line in before[name]] != [in_colour(line) for line in after[name]]
               for name in before.keys() & after.keys())


def snapshot_text(widget) -> str:
    out = []
    for line in drawn(widget):
        text, attributes = monochrome(line)
        out += [text.rstrip(), attributes[:len(text.rstrip())].rstrip(".")]
    return "\n".join(out) + "\n"


async def after_the_bots_answer(pilot, app) -> None:
    """Seat 0 plays its turn as its bot would; the bots play until seat 0 is to act again."""
    table, screen = app.table, app.session.screen
    game = table.game
    driver = game.make_bot(0, 7)
    while table.match.result() is None and 0 in table.match.to_act():
        view = table.match.view(0)
        screen.send(driver.choose(view, game.legal(view)))
        await pilot.pause()
    while table.match.result() is None and 0 not in table.match.to_act():
        table.step_bot()
        await pilot.pause()
    assert table.match.result() is None
    app.session.draw()
    await pilot.pause()


def halfway(slug: str) -> AtlantisApp:
    """The game's screenshot setup, halfway through its warm-up (so that a round more
    does not end it), the bots waiting."""
    setup = load_setups()[screen_entry(slug).screenshot]
    table = mid_game_table(slug, setup.seed, setup.players, setup.warmup_actions // 2, setup.options)
    return AtlantisApp(table=table, autosave=False, manual_bots=True)


#: A key that picks a piece, so that the board marks where it may go (games whose
#: targets are marked without one are left out).
PICK = {"pathways": "1"}


@pytest.mark.parametrize("slug", list(GAMES))
async def test_what_colour_shows_shows_without_it(monkeypatch, slug):
    monkeypatch.setenv("NO_COLOR", "1")
    app = halfway(slug)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await after_the_bots_answer(pilot, app)
        screen = app.session.screen
        board = screen.query_one(screen.AUTO_FOCUS)
        board.focus()
        await pilot.pause()
        text = snapshot_text(board)
        with_recent = drawn_screen(screen)
        screen._baselines.pop(0, None)          # as if nothing changed since your move
        app.session.draw()
        await pilot.pause()
        without = drawn_screen(screen)
        assert changed(with_recent, without), "nothing is tinted as changed since your move"
        assert shown_without_colour(with_recent, without) == [], "a change since your move shows in colour only"
        for key in ("down", "up", "right"):     # (a list of one choice: no key moves its cursor)
            before = drawn_screen(screen)
            await pilot.press(key)
            await pilot.pause()
            after = drawn_screen(screen)
            if changed(before, after):
                break
        assert shown_without_colour(before, after) == [], "the cursor shows in colour only"
        codes = "".join(monochrome(line)[1] for line in drawn(board)).replace(".", "0")
        assert any(int(code, 16) & 8 for code in codes), "no cursor (reversed) on the board"
        if slug in PICK:
            await pilot.press(PICK[slug])
            await pilot.pause()
            picked = drawn_screen(screen)
            assert changed(after, picked)
            assert shown_without_colour(after, picked) == [], "the targets show in colour only"
        for name, lines in drawn_screen(screen).items():      # a legend's sample is not a blank tint
            for line in lines:
                chars = monochrome(line)[0]
                for at in [i for i in range(len(chars)) if chars.startswith("changed", i)]:
                    assert chars[max(0, at - 3):at].strip(), f"a blank sample before {chars!r} in {name}"
        snapshot = GOLDEN / f"{slug}-board-no-color-80x24.txt"
        if os.environ.get("UPDATE_GOLDEN") == "1" or not snapshot.exists():
            snapshot.write_text(text, encoding="utf-8")
        assert text == snapshot.read_text(encoding="utf-8")
