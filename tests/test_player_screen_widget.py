"""PlayerScreen (End of Atlantis's own screen panel): nothing is cut at 80 columns."""

from __future__ import annotations

from rich.style import Style

from tui.end_of_atlantis.player_screen import PlayerScreen


def test_long_specials_get_their_own_line_and_wrap_between_names_never_cut():
    panel = PlayerScreen()
    specials = ["Senate Favour", "Hidden Treasury", "Empath", "Double Agent", "Prophecy of Doom"]
    hand = ["Refugees 1 x2, Refugees 2, Aristocracy, Ship x2, Royal Vessel"]
    panel.show(("R", Style()), 20, hand, specials)
    lines = [line.plain for line in panel.lines(48)]
    assert all(len(line) <= 48 for line in lines)
    assert lines[0] == "R screen: 20 tokens" and lines[1].startswith("Specials: ")
    joined = " ".join(lines)
    for name in specials + ["Royal Vessel", "Aristocracy"]:
        assert name in joined, name
    assert "…" not in joined
    assert panel.get_content_height(None, None, 48) == len(lines) > 3


def test_short_specials_stay_beside_the_tokens_in_two_lines():
    panel = PlayerScreen()
    panel.show(("R", Style()), 20, ["Ref1, Aris"], ["Empath"])
    assert [line.plain for line in panel.lines(48)] == [
        "R screen: 20 tokens · specials: Empath", "Hand: Ref1, Aris"]
