"""The game has no options: an empty field table (what the menu draws)."""

FIELDS = ()
