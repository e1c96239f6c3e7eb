"""The colours a Textual theme does not name, as theme variables: the seats, the boards'
sea and land, and a few inks for marks drawn on the theme's background.

Textual's own variables (``$foreground``, ``$primary``, ``$error``...) come from the
theme; these come from ``ThemedApp.get_theme_variable_defaults``, one value for a dark
theme and one for a light one, so ``.tcss`` and ``DEFAULT_CSS`` write ``$seat-red`` or
``$ink-gold`` and every screen reads in ``textual-dark`` and ``textual-light`` (text
contrast at least 4.5:1, ``tests/test_theme_contrast.py``).  A theme may set any of them
itself (``Theme(variables={"ink-gold": ...})``): a theme's own value wins wherever CSS
draws it.  (The seat letters in rich Text built away from a widget, ``tui.seat_labels``, use
these defaults: the seat colours are the same in every theme.)
"""

from __future__ import annotations

from pathlib import Path

from textual.app import App

#: The component classes of this project's widgets and screens, in these colours.
COMPONENTS_TCSS = Path(__file__).with_name("components.tcss")
#: Textual's own widgets (the footer, the help's headings) in these inks.
THEME_TCSS = Path(__file__).with_name("theme.tcss")

#: name -> (its value in a dark theme, in a light theme).
COLOURS: dict[str, tuple[str, str]] = {
    # The seats: a black letter on the seat's colour, the same pair on any background.
    "seat-red": ("#ff5f57", "#ff5f57"),
    "seat-blue": ("#5c9dff", "#5c9dff"),
    "seat-green": ("#4cd964", "#4cd964"),
    "seat-yellow": ("#ffd60a", "#ffd60a"),
    "seat-purple": ("#bf5af2", "#bf5af2"),
    "seat-grey": ("#9a9a9a", "#9a9a9a"),
    "seat-ink": ("#000000", "#000000"),
    # What the other seats did since your last move: a tint, and the ink of the letters
    # on it (a cell's own ink may be a fixed pair's, too dark or too light for the tint).
    "recent": ("#5c4a00", "#f5d77a"),
    "recent-ink": ("#ffe9a8", "#2b2000"),
    # Inks: words and marks on the theme's background and on the boards' sea and tiles.
    "ink-muted": ("#a0a0a0", "#4e4e4e"),     # words of lesser weight (Textual's $text-muted is faint in light)
    "ink-label": ("#9fb3bf", "#3b4e5a"),     # coordinates, legends, face-down cards
    "ink-key": ("#ffa62b", "#004578"),       # the keys of the key line
    "ink-strong": ("#ffffff", "#000000"),    # your own submarine
    "ink-gold": ("#ffd75f", "#6b4800"),      # the goal, numbers to press, what is asked
    "ink-good": ("#8dff9d", "#14602a"),      # fits, may go, right
    "ink-bad": ("#ff7b7b", "#a3162f"),       # does not fit, danger, wrong
    "ink-pink": ("#ff87d7", "#94104c"),      # mines, sharks
    "ink-water": ("#6fb7ff", "#0b5483"),     # water, the captain
    "ink-warm": ("#ffaf5f", "#853f00"),      # artifacts, rods, bridges
    "ink-sand": ("#d7d7af", "#555020"),      # seamounts
    "ink-violet": ("#d0a0ff", "#62289a"),    # whales
    "ink-faint": ("#6c7c8a", "#6f7d89"),     # paths, quays, ticks, frames: drawing, not words (3:1)
    "ink-gone": ("#4a4a4a", "#a8a8a8"),      # what is gone from the board
    # The boards' ground: a dark sea in a dark theme, a light one in a light theme.
    "sea": ("#0b2233", "#d3e5ef"),
    "sea-alt": ("#0d2738", "#c9dde9"),
    "sea-ring": ("#06141d", "#e4eef4"),
    "sea-ink": ("#c8d8e0", "#12303f"),
    "sea-faint": ("#6690a8", "#577688"),     # dots on the sea: drawing, not words (3:1)
    "tile": ("#1c4760", "#b2d0e2"),
    "tile-alt": ("#204e69", "#a8c8dc"),
    "tile-ink": ("#e4eef4", "#0c2230"),
    "target": ("#12452c", "#bfe6cb"),        # a place the picked piece may go
    "target-tile": ("#2b6b45", "#a6dab6"),
    "shade": ("#173a2a", "#cae8d4"),
    "pick": ("#5a2a6b", "#e4cdf0"),
    "block": ("#432a66", "#ded0f2"),         # Pathways' city of Atlantis
    # Fixed pairs, readable on any background: the land of the hex maps, Survive's
    # terrain, the Atlantis card colours (each with its ink).
    "land": ("#c8b070", "#c8b070"),
    "land-ink": ("#1c1c1c", "#1c1c1c"),
    "entrance": ("#15506e", "#15506e"),
    "entrance-ink": ("#9fd8ff", "#9fd8ff"),
    "beach": ("#e3cf8a", "#e3cf8a"),
    "beach-ink": ("#3a2f10", "#3a2f10"),
    "forest": ("#2f6b2a", "#2f6b2a"),
    "forest-ink": ("#d8f5c8", "#d8f5c8"),
    "mountain": ("#6e6259", "#6e6259"),
    "mountain-ink": ("#f0f0f0", "#f0f0f0"),
    "safe": ("#f2f2e0", "#f2f2e0"),
    "safe-ink": ("#1a1a1a", "#1a1a1a"),
    "go": ("#1f7a45", "#1f7a45"),
    "go-ink": ("#ffffff", "#ffffff"),
    "selected": ("#b0701c", "#b0701c"),
    "card-amber": ("#ffb000", "#ffb000"),
    "card-coral": ("#ff8a7a", "#ff8a7a"),
    "card-green": ("#3ccf7a", "#3ccf7a"),
    "card-lilac": ("#c9a7ff", "#c9a7ff"),
    "card-blue": ("#2f4fb8", "#2f4fb8"),
    "card-sand": ("#ece6d6", "#ece6d6"),
    "card-teal": ("#21bcbc", "#21bcbc"),
    "card-ink": ("#000000", "#000000"),
    "card-ink-on-blue": ("#ffffff", "#ffffff"),
}


def theme_colours(dark: bool) -> dict[str, str]:
    """The value of every variable of ``COLOURS`` for a dark or a light theme."""
    return {name: pair[0] if dark else pair[1] for name, pair in COLOURS.items()}


class ThemedApp(App):
    """An app whose CSS may use the variables of ``COLOURS``, with the looks of this
    project's widgets (every app and test app that shows them)."""

    CSS_PATH = [COMPONENTS_TCSS, THEME_TCSS]

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **theme_colours(self.current_theme.dark)}
