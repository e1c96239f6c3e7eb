"""The side panel's turn line (tui/widgets/turn_line.py): one Static per paragraph, each
updated only when its own text changed."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from tui.widgets.turn_line import TurnLine, paragraphs
from tui.theme import ThemedApp


class OneLine(ThemedApp):
    CSS = "TurnLine { width: 33; text-style: bold; }"

    def compose(self):
        yield TurnLine(id="turn")


def turn_text(cursor: str) -> Text:
    text = Text("Your turn ", style=Style(bold=True))
    text.append("R Red", Style(color="#ff0000"))
    text.append("\n2 actions left: play a card or move a ship along the route\n")
    text.append(f"Cursor {cursor}", Style(dim=True))
    return text


def test_paragraphs_keep_their_styles_and_blank_lines():
    parts = paragraphs(turn_text("E2"))
    assert [p.plain for p in parts] == ["Your turn R Red", "2 actions left: play a card or move a ship along the route",
                                        "Cursor E2"]
    assert parts[0].spans and parts[2].spans
    assert paragraphs("a\n\nb") == ["a", "", "b"]


async def test_a_change_of_the_last_paragraph_updates_only_its_static():
    app = OneLine()
    async with app.run_test(size=(80, 24)) as pilot:
        turn = app.query_one("#turn", TurnLine)
        turn.update(turn_text("E2"))
        await pilot.pause()
        statics = list(turn.query_children(Static))
        assert [str(s.render()) for s in statics] == [p.plain for p in paragraphs(turn_text("E2"))]
        assert turn.size.height == 1 + 2 + 1  # the long paragraph wraps at 33 columns
        kept = [s.content for s in statics]
        turn.update(turn_text("F2"), layout=False)
        await pilot.pause()
        assert list(turn.query_children(Static)) == statics
        now = [s.content for s in statics]
        assert now[0] is kept[0] and now[1] is kept[1] and now[2] is not kept[2]
        assert turn.plain.endswith("Cursor F2") and str(statics[2].render()) == "Cursor F2"


async def test_a_new_number_of_paragraphs_or_a_new_height_lays_the_line_out_again():
    app = OneLine()
    async with app.run_test(size=(80, 24)) as pilot:
        turn = app.query_one("#turn", TurnLine)
        turn.update("Waiting for Blue")
        await pilot.pause()
        assert turn.size.height == 1 and turn.plain == "Waiting for Blue"
        turn.update(turn_text("E2"))
        await pilot.pause()
        assert turn.size.height == 4 and len(list(turn.query_children(Static))) == 3
        longer = turn_text("E2 " + "a long description of the cell " * 2)
        turn.update(longer, layout=False)  # (a cursor key whose words wrap to more lines)
        await pilot.pause()
        assert turn.size.height > 4


class Panel(ThemedApp):
    CSS = "#text { width: 20; } #fixed { height: 3; width: 20; }"

    def compose(self):
        yield Static("one line", id="text")
        yield Static("fixed", id="fixed")
        yield Static("below", id="below")


async def test_a_quiet_update_shows_the_text_and_lays_out_when_the_height_changes():
    from tui.widgets.quiet_update import update_quietly

    app = Panel()
    async with app.run_test(size=(80, 24)) as pilot:
        text, fixed, below = (app.query_one(f"#{name}", Static) for name in ("text", "fixed", "below"))
        update_quietly(text, "another line")
        await pilot.pause()
        assert str(text.render()) == "another line" and text.size.height == 1 and below.region.y == 4
        update_quietly(text, "a text that wraps to three lines at twenty columns")
        await pilot.pause()
        assert text.size.height == 3 and below.region.y == 6  # (laid out again: the rest moved down)
        update_quietly(fixed, "a\nb")
        await pilot.pause()
        assert str(fixed.render()) == "a\nb" and fixed.size.height == 3
