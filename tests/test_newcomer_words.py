"""What a newcomer reads at 80x24 in Atlantis, Survive and Pathways: nothing cut, one
symbol one meaning, an explorer named by its hex (as the board shows it), not by its hidden value."""

from __future__ import annotations

from engine.core import SeatInfo
from engine.registry import get_game
from test_survive_screen import board_text, make_app, step_line
from tui.atlantis.words import destination_words
from tui.seat_links import LocalTable


def test_a_destination_choice_fits_46_columns_in_fewer_words():
    long = destination_words("space 16 C5", ["T", "C"], 2, 0, 1, 200)
    assert long == "→ space 16 C5: T then C · water 2 (0 with bridge) · or 1 more way below"
    for cards, more in ((["T", "C"], 1), (["J"], 1), (["T", "C", "J"], 2)):
        short = destination_words("space 16 C5", cards, 12, 0, more, 46)
        assert len(short) <= 46 and "water 12" in short and "bridge 0" in short, short


async def test_survive_at_80x24_names_whole_no_unshown_coordinates_and_values_told_apart():
    table = LocalTable.new(get_game("survive"), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot"),
                                                     SeatInfo("Greenbeard", "bot")], seed=1)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        players = str(screen.query_one("#players").render())
        assert "Blue" in players and "Greenbeard" in players, players
        assert "only you see it" in step_line(screen) and "…" not in step_line(screen)
        assert screen.board.labels_shown  # (coordinates on the board at 80x24 too: a hex the log names is found)
        legend = board_text(screen.board)
        assert "★ value: hidden" in legend, legend
        screen.send(table.match.legal(0)[0])
        app.session.draw()
        await pilot.pause()
        assert any("placed an explorer on " in line.text for line in screen.link.log()), screen.link.log()
    app = make_app(LocalTable.new(get_game("survive"), {}, [SeatInfo("Red", "human"), SeatInfo("Blue", "bot")],
                                  seed=1))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.board.labels_shown and "G8" in step_line(screen)
        assert "A" in board_text(screen.board).split("\n")[screen.board._box[1] + 1][:3]


async def test_atlantis_at_80x24_every_choice_is_whole_and_the_legend_prices_the_water():
    from test_atlantis_screen import make_app as atlantis_app, red_against_bot as atlantis_table

    app = atlantis_app(atlantis_table(seed=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "≈ water, price under it" in screen.track.render().plain
        await pilot.press("1")
        width = screen.choices.size.width
        assert screen.choices.items and all(len(item) + 2 <= width for item in screen.choices.items), \
            (width, screen.choices.items)
        await pilot.press("g")
        assert "≈ water, price under it" in screen.track.render().plain
