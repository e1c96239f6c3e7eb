"""The Pathways of the Deep screen (``screen.PathwaysScreen``)."""
