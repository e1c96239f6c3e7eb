"""End of Atlantis read at 80x24 through a whole turn: the Senate order explained as it
was used, the log read back by keys, and the Doom phase summed up for the player."""

from __future__ import annotations

from types import SimpleNamespace

from tui.end_of_atlantis import words as W

NAMES = ("Red", "Blue", "Green")


def factions_view(**changes):
    """Blue and Green tie at 6 in the pool; Green's marker (on space 1) was left of
    Blue's (space 3) when the bids were revealed, so Green chose first.  Then Blue took
    Basileus (space 0): by the markers now, Blue would be first."""
    view = SimpleNamespace(family=False, stage="faction", last_bids=(3, 6, 6), players=3,
                           senate_pool=(3, 6, 6), markers=(5, 0, 1), faction_order=(2, 1, 0),
                           faction_holders=(1, -1, -1, -1, -1, -1, -1))
    for key, value in changes.items():
        setattr(view, key, value)
    return view


def test_the_senate_order_explained_is_the_one_the_factions_phase_used():
    long = W.senate_reveal_text(factions_view(), NAMES)
    assert "Senate order: Green, Blue, Red." in long
    assert "Green's Faction marker stood further left when the bids were revealed, so Green is higher" in long
    assert "Basileus" not in long  # (where Blue's marker stands now says nothing about then)
    short = W.senate_reveal_text(factions_view(), NAMES, short=True)
    assert "Senate order: G, B, R." in short and "G's marker was further left at the reveal" in short


def test_before_anyone_moved_a_marker_the_tie_names_where_the_markers_stand():
    view = factions_view(markers=(5, 3, 1), faction_holders=(-1,) * 7)
    assert ("Green's Faction marker stands further left (Green on "
            in W.senate_reveal_text(view, NAMES))
